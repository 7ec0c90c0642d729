// The unset-model list (docs/pricing.md, "The unset-model list"): models configured on
// channels (any status, as GET /api/models lists them, so a model can be priced before its
// channel is enabled) with neither a ModelPrice nor a ModelRatio entry.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { unsetModels } from "@/lib/client/model-pricing";
import { currentMaps, servedModels } from "@/lib/price-presets/maps";

export async function listUnsetModels(_args: { ctx: UserCtx }): Promise<string[]> {
  return unsetModels(await servedModels(), currentMaps());
}
