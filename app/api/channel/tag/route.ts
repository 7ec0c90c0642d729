// PUT /api/channel/tag: rename a tag and/or set model_mapping, groups, models, priority, weight of its channels
import { z } from "zod";
import { route } from "@/lib/http/route";
import { editTag } from "@/lib/channels/edit-tag";

const body = z.object({
  tag: z.string().max(200),
  new_tag: z.string().max(200).nullish(),
  model_mapping: z.string().max(100_000).nullish(),
  groups: z.union([z.string(), z.array(z.string())]).nullish(),
  models: z.union([z.string(), z.array(z.string())]).nullish(),
  priority: z.unknown().optional(),
  weight: z.unknown().optional(),
});

export const PUT = route({ access: "admin", gate: "PUT /api/channel/tag", body }, async ({ ctx, body }) => editTag({ ctx, input: body }));
