// GET /api/redemption/{id}: one code (admin; the code itself is never shown again)
// DELETE /api/redemption/{id}/: delete one code (admin)
import { route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { deleteRedemption } from "@/lib/redemptions/delete-redemption";
import { getRedemption } from "@/lib/redemptions/get-redemption";

export const GET = route({ access: "admin", gate: "GET /api/redemption/{id}", params: idParams }, async ({ ctx, params }) =>
  getRedemption({ ctx, input: params.id }),
);
export const DELETE = route({ access: "admin", gate: "DELETE /api/redemption/{id}", params: idParams }, async ({ ctx, params }) => {
  await deleteRedemption({ ctx, input: params.id });
  return null;
});
