// "Reset presets" (docs/pricing.md, "Fetch, reset and fill"): the models whose saved entries
// are all the presets' own values are removed from the price options (PRICE_MAP_KEYS); a model the admin
// changed keeps every entry. Unlike POST /api/option/rest_model_ratio (back to the server
// defaults, which are the presets), the result is saved: a model left without a price is
// refused in external-operation mode until the admin prices it.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { loadPresets } from "@/lib/price-presets/source";
import { removePresets } from "@/lib/price-presets/merge";
import { currentMaps, saveMaps } from "@/lib/price-presets/maps";

export async function resetPresets(_args: { ctx: UserCtx }): Promise<{ source: string; removed: number; kept: string[]; saved: string[] }> {
  const presets = await loadPresets();
  const { maps, removed, kept } = removePresets(currentMaps(), presets.maps);
  const saved = await saveMaps(maps);
  return { source: presets.source, removed: removed.length, kept, saved };
}
