// DELETE /api/channel/disabled: delete every disabled (2) and auto-disabled (3) channel; answers the count
import { route } from "@/lib/http/route";
import { deleteDisabled } from "@/lib/channels/delete-disabled";

export const DELETE = route({ access: "admin", gate: "DELETE /api/channel/disabled" }, async ({ ctx }) => deleteDisabled({ ctx }));
