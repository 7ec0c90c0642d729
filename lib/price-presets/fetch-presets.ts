// "Fetch presets" (docs/pricing.md, "Fetch, reset and fill"): the presets (the built-in table,
// or the configured source) merged into the saved price options without touching a model
// the admin priced, and saved.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { loadPresets } from "@/lib/price-presets/source";
import { mergePresets } from "@/lib/price-presets/merge";
import { currentMaps, saveMaps } from "@/lib/price-presets/maps";

export async function fetchPresets(_args: { ctx: UserCtx }): Promise<{ source: string; added: number; saved: string[] }> {
  const presets = await loadPresets();
  const { maps, models } = mergePresets(currentMaps(), presets.maps);
  const saved = await saveMaps(maps);
  return { source: presets.source, added: models.length, saved };
}
