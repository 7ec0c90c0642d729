// GET /api/channel/update_balance: refresh the balance of every enabled channel that has a billing endpoint
import { route } from "@/lib/http/route";
import { updateAllBalances } from "@/lib/channel-admin/upstream";

export const GET = route({ access: "admin", gate: "GET /api/channel/update_balance" }, async ({ ctx }) => updateAllBalances({ ctx }));
