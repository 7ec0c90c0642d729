// POST /api/user/{id}/plan/{subscription_id}/reset: start the subscriber's period again from now (admin)
import { route } from "@/lib/http/route";
import { subscriptionParams } from "@/lib/plans/schemas";
import { resetPlanPeriod } from "@/lib/plans/subscriptions";

export const POST = route({ access: "admin", gate: "POST /api/user/{id}/plan/{subscription_id}/reset", params: subscriptionParams }, async ({ ctx, params }) =>
  resetPlanPeriod({ ctx, input: params }),
);
