// GET /api/channel/update_balance/{id}: query the upstream balance of one channel and store it
import { route, Reply } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { updateBalance } from "@/lib/channel-admin/upstream";

export const GET = route({ access: "admin", gate: "GET /api/channel/update_balance/{id}", params: idParams }, async ({ ctx, params }) => {
  const balance = await updateBalance({ ctx, input: params.id });
  // new-api answers the figure at the top level as well as in data
  return new Reply({ raw: { success: true, message: "", balance, data: { balance } } });
});
