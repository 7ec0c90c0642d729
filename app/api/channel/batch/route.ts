// POST /api/channel/batch: delete the given channels; answers the count
import { z } from "zod";
import { route } from "@/lib/http/route";
import { batchDelete } from "@/lib/channels/batch-delete";

export const POST = route(
  { access: "admin", gate: "POST /api/channel/batch", body: z.object({ ids: z.array(z.coerce.number().int().positive()).max(10_000) }) },
  async ({ ctx, body }) => batchDelete({ ctx, input: body.ids }),
);
