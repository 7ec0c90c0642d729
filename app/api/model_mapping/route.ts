// GET /api/model_mapping/: the model mapping, virtual model -> [{model, priorities}] (admin)
import { z } from "zod";
import { Reply, route } from "@/lib/http/route";
import { getModelMapping } from "@/lib/options/get-model-mapping";
import { modelMappingShape } from "@/lib/model-mapping/schema";
import { updateModelMapping } from "@/lib/options/update-model-mapping";

export const GET = route({ access: "admin", gate: "GET /api/model_mapping" }, async ({ ctx }) => getModelMapping({ ctx }));

// The shape here (400 naming the rule); the rules across entries in the verb (docs/relay.md).
const body = z.object({ mapping: modelMappingShape });

// PUT /api/model_mapping/: replace the whole mapping after validation (admin)
export const PUT = route({ access: "admin", gate: "PUT /api/model_mapping", body, demoBlocked: true }, async ({ ctx, body }) => {
  await updateModelMapping({ ctx, input: body });
  return new Reply({ message: ctx.t("mapping_saved") });
});
