// POST /api/channel/copy/{id}: copy a channel with its stored key (?suffix=, ?reset_balance=false)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { AppError } from "@/lib/errors";
import { copyChannel } from "@/lib/channels/copy-channel";

const copyQuery = z.object({
  suffix: z.string().max(100).optional(),
  reset_balance: z.enum(["true", "false", "1", "0", ""]).optional(),
});

export const POST = route({ access: "admin", query: copyQuery }, async ({ params, query }) => {
  const id = z.coerce.number().int().positive().safeParse(params.id);
  if (!id.success) throw new AppError("INVALID_INPUT", "invalid_parameter");
  const reset = query.reset_balance === undefined || query.reset_balance === "" ? true : query.reset_balance === "true" || query.reset_balance === "1";
  return copyChannel({ id: id.data, suffix: query.suffix, resetBalance: reset });
});
