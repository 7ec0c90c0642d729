// POST /api/user/pay: creates a pending epay order; answers {url, data: signed form fields}
import { Reply, route } from "@/lib/http/route";
import { epayPayBody } from "@/lib/payments/schemas";
import { startEpayPayment } from "@/lib/payments/start-epay-payment";

export const POST = route({ access: "user", body: epayPayBody, rateLimit: "critical" }, async ({ ctx, body }) => {
  const { url, data } = await startEpayPayment({ ctx, input: body });
  return new Reply({ raw: { success: true, message: "success", data, url } });
});
