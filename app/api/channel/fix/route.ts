// POST /api/channel/fix: rebuild the abilities index from the channels; answers the count of channels
import { route } from "@/lib/http/route";
import { fixAbilities } from "@/lib/channels/fix-abilities";

export const POST = route({ access: "admin", gate: "POST /api/channel/fix" }, async ({ ctx }) => fixAbilities({ ctx }));
