// POST /api/model_mapping/reload: read the stored mapping from the database into every node's cache (admin)
import { Reply, route } from "@/lib/http/route";
import { reloadModelMapping } from "@/lib/options/reload-model-mapping";

export const POST = route({ access: "admin", gate: "POST /api/model_mapping/reload" }, async ({ ctx }) => {
  const data = await reloadModelMapping({ ctx });
  return new Reply({ data, message: ctx.t("mapping_reloaded") });
});
