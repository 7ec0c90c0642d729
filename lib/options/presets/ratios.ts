// The preset price table (lib/options/presets/models.ts) as the four price options, by
// the conversions of docs/pricing.md:
//   ModelRatio      = input USD per 1M tokens / 2
//   CompletionRatio = output price / input price
//   CacheRatio      = cached-input price / input price
//   CreateCacheRatio   = 5-minute cache-write price / input price
//   CreateCache1hRatio = 1-hour cache-write price / input price
//   ModelPrice      = USD per call, for the per-call models
// The conversions themselves are those of lib/options/pricing-math.ts (one implementation,
// shared with the console and the preset sources); a missing output or cache price leaves
// the model out of that map (ratio 1 applies).
import "server-only";
import { PRESET_MODELS, type PresetModel } from "@/lib/options/presets/models";
import { completionRatioFromPrices, PRICE_MAP_KEYS, ratioFromInputPrice, round6, type PriceMaps } from "@/lib/options/pricing-math";

export type PresetRatios = PriceMaps;

export function presetRatios(models: readonly PresetModel[] = PRESET_MODELS): PresetRatios {
  const out: PresetRatios = { ModelRatio: {}, CompletionRatio: {}, CacheRatio: {}, CreateCacheRatio: {}, CreateCache1hRatio: {}, ModelPrice: {} };
  for (const m of models) {
    if (m.perRequest !== undefined) {
      out.ModelPrice[m.model] = round6(m.perRequest);
      continue;
    }
    if (m.input === null || !(m.input > 0)) continue;
    out.ModelRatio[m.model] = ratioFromInputPrice(m.input);
    if (m.output !== null) out.CompletionRatio[m.model] = completionRatioFromPrices(m.input, m.output);
    if (m.cachedInput !== null) out.CacheRatio[m.model] = round6(m.cachedInput / m.input);
    if (m.cacheWrite !== undefined) out.CreateCacheRatio[m.model] = round6(m.cacheWrite / m.input);
    if (m.cacheWrite1h !== undefined) out.CreateCache1hRatio[m.model] = round6(m.cacheWrite1h / m.input);
  }
  return out;
}

export const PRESET_RATIOS: PresetRatios = presetRatios();

// The option keys the preset table supplies, and that POST /api/option/rest_model_ratio
// puts back to these defaults.
export const PRESET_PRICE_KEYS = PRICE_MAP_KEYS;
