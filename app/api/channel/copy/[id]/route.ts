// POST /api/channel/copy/{id}: copy a channel with its stored key (?suffix=, ?reset_balance=false)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { copyChannel } from "@/lib/channels/copy-channel";

const copyQuery = z.object({
  suffix: z.string().max(100).optional(),
  reset_balance: z.enum(["true", "false", "1", "0", ""]).optional(),
});

export const POST = route({ access: "admin", gate: "POST /api/channel/copy/{id}", params: idParams, query: copyQuery }, async ({ ctx, params, query }) => {
  const reset = query.reset_balance === undefined || query.reset_balance === "" ? true : query.reset_balance === "true" || query.reset_balance === "1";
  return copyChannel({ ctx, input: { id: params.id, suffix: query.suffix, resetBalance: reset } });
});
