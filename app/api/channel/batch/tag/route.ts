// POST /api/channel/batch/tag: set the tag of the given channels (an empty tag clears it); answers the count
import { z } from "zod";
import { route } from "@/lib/http/route";
import { batchSetTag } from "@/lib/channels/batch-set-tag";

const body = z.object({ ids: z.array(z.coerce.number().int().positive()).max(10_000), tag: z.string().max(200).nullish() });
export const POST = route({ access: "admin", gate: "POST /api/channel/batch/tag", body }, async ({ ctx, body }) =>
  batchSetTag({ ctx, input: { ids: body.ids, tag: body.tag } }),
);
