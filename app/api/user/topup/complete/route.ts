// POST /api/user/topup/complete: the root (or an admin with billing:topups) completes a pending order by hand (once; repeated calls credit nothing)
import { Reply, route } from "@/lib/http/route";
import { completeTopUpByAdmin } from "@/lib/payments/complete-by-admin";
import { tradeNoBody } from "@/lib/payments/schemas";

export const POST = route({ access: "admin", gate: "POST /api/user/topup/complete", body: tradeNoBody }, async ({ ctx, body }) => {
  const data = await completeTopUpByAdmin({ ctx, input: body });
  return new Reply({ data, message: ctx.t(data.completed ? "topup_completed" : "topup_already_completed") });
});
