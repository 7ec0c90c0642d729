// DELETE /api/user/{id}/plan/{subscription_id}: revoke a subscription now (admin)
import { route } from "@/lib/http/route";
import { subscriptionParams } from "@/lib/plans/schemas";
import { revokePlan } from "@/lib/plans/subscriptions";

export const DELETE = route({ access: "admin", gate: "DELETE /api/user/{id}/plan/{subscription_id}", params: subscriptionParams }, async ({ ctx, params }) =>
  revokePlan({ ctx, input: params }),
);
