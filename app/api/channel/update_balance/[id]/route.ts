// GET /api/channel/update_balance/{id}: query the upstream balance of one channel and store it
import { z } from "zod";
import { route, Reply } from "@/lib/http/route";
import { AppError } from "@/lib/errors";
import { updateBalance } from "@/lib/channels/upstream";

export const GET = route({ access: "admin" }, async ({ params }) => {
  const id = z.coerce.number().int().positive().safeParse(params.id);
  if (!id.success) throw new AppError("INVALID_INPUT", "invalid_parameter");
  const balance = await updateBalance(id.data);
  // new-api answers the figure at the top level as well as in data
  return new Reply({ raw: { success: true, message: "", balance, data: { balance } } });
});
