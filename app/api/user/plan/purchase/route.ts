// POST /api/user/plan/purchase {plan_id, payment_method}: balance (done at once), epay (the signed form), stripe (the Checkout URL)
import { Reply, route } from "@/lib/http/route";
import { purchasePlan } from "@/lib/plans/purchase";
import { purchaseBody } from "@/lib/plans/schemas";

export const POST = route({ access: "user", body: purchaseBody }, async ({ ctx, body }) => {
  const out = await purchasePlan({ ctx, input: body });
  if (out.kind === "epay") return new Reply({ raw: { success: true, message: "success", data: out.data, url: out.url } });
  if (out.kind === "stripe") return { pay_link: out.pay_link };
  return new Reply({ data: out.subscription, message: ctx.t("plan_purchased") });
});
