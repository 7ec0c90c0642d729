// POST /api/user/{id}/plan {plan_id}: grant a plan without payment (admin)
import { idParams } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { grantBody } from "@/lib/plans/schemas";
import { grantPlan } from "@/lib/plans/subscriptions";

export const POST = route({ access: "admin", gate: "POST /api/user/{id}/plan", params: idParams, body: grantBody }, async ({ ctx, params, body }) =>
  grantPlan({ ctx, input: { id: params.id, plan_id: body.plan_id } }),
);
