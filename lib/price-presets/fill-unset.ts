// The unset-model list's fill action (docs/pricing.md, "The unset-model list"): the named
// models (all the unset models when none is named) that still have neither price nor ratio
// get the presets' entries; those the presets do not know are reported as missing.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { unsetModels } from "@/lib/client/model-pricing";
import { loadPresets } from "@/lib/price-presets/source";
import { fillFromPresets } from "@/lib/price-presets/merge";
import { currentMaps, saveMaps, servedModels } from "@/lib/price-presets/maps";

export async function fillUnsetModels({ input }: { ctx: UserCtx; input: { models?: string[] } }): Promise<{ filled: string[]; missing: string[] }> {
  const presets = await loadPresets();
  const saved = currentMaps();
  const names = input.models && input.models.length > 0 ? input.models : unsetModels(await servedModels(), saved);
  const { maps, filled, missing } = fillFromPresets(saved, presets.maps, names);
  await saveMaps(maps);
  return { filled, missing };
}
