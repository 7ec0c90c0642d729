// GET /api/plan/: every plan, for the admin (disabled ones too)
// POST /api/plan/: create a plan (admin)
// PUT /api/plan/: update a plan's fields (admin)
import { route } from "@/lib/http/route";
import { createPlan, listAllPlans, updatePlan } from "@/lib/plans/admin-plans";
import { createPlanBody, updatePlanBody } from "@/lib/plans/schemas";

export const GET = route({ access: "admin", gate: "GET /api/plan" }, async ({ ctx }) => listAllPlans({ ctx }));
export const POST = route({ access: "admin", gate: "POST /api/plan", body: createPlanBody }, async ({ ctx, body }) => createPlan({ ctx, input: body }));
export const PUT = route({ access: "admin", gate: "PUT /api/plan", body: updatePlanBody }, async ({ ctx, body }) => updatePlan({ ctx, input: body }));
