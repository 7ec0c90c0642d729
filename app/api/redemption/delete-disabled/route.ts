// DELETE /api/redemption/delete-disabled: delete every disabled code; answers the count (admin)
import { route } from "@/lib/http/route";
import { deleteDisabled } from "@/lib/redemptions/delete-disabled";

export const DELETE = route({ access: "admin", gate: "DELETE /api/redemption/delete-disabled" }, async ({ ctx }) => deleteDisabled({ ctx }));
