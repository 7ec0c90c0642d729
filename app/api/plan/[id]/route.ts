// DELETE /api/plan/{id}: take a plan off sale for good (admin; its subscriptions run on)
import { idParams } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { deletePlan } from "@/lib/plans/admin-plans";

export const DELETE = route({ access: "admin", gate: "DELETE /api/plan/{id}", params: idParams }, async ({ ctx, params }) => {
  await deletePlan({ ctx, input: params });
  return null;
});
