// POST /api/user/check_in: daily check-in, credits a random reward once per day
import { checkIn } from "@/lib/checkin/check-in";
import { Reply, route } from "@/lib/http/route";

export const POST = route({ access: "user", humanCheck: true }, async ({ ctx }) => {
  const data = await checkIn({ ctx });
  return new Reply({ data, message: ctx.t("check_in_success", { quota: data.quota }) });
});
