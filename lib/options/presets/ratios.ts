// The preset price table (lib/options/presets/models.ts) as the four price options, by
// the conversions of docs/pricing.md:
//   ModelRatio      = input USD per 1M tokens / 2
//   CompletionRatio = output price / input price
//   CacheRatio      = cached-input price / input price
//   ModelPrice      = USD per call, for the per-call models
// Ratios are rounded to 6 decimals so that 2.5 / 2 reads 1.25 and not float noise; a
// missing output or cache price leaves the model out of that map (ratio 1 applies).
import "server-only";
import { PRESET_MODELS, type PresetModel } from "@/lib/options/presets/models";

export type PresetRatios = {
  ModelRatio: Record<string, number>;
  CompletionRatio: Record<string, number>;
  CacheRatio: Record<string, number>;
  ModelPrice: Record<string, number>;
};

const DECIMALS = 6;

export function roundRatio(x: number): number {
  return Number(x.toFixed(DECIMALS));
}

export function presetRatios(models: readonly PresetModel[] = PRESET_MODELS): PresetRatios {
  const out: PresetRatios = { ModelRatio: {}, CompletionRatio: {}, CacheRatio: {}, ModelPrice: {} };
  for (const m of models) {
    if (m.perRequest !== undefined) {
      out.ModelPrice[m.model] = roundRatio(m.perRequest);
      continue;
    }
    if (m.input === null || !(m.input > 0)) continue;
    out.ModelRatio[m.model] = roundRatio(m.input / 2);
    if (m.output !== null) out.CompletionRatio[m.model] = roundRatio(m.output / m.input);
    if (m.cachedInput !== null) out.CacheRatio[m.model] = roundRatio(m.cachedInput / m.input);
  }
  return out;
}

export const PRESET_RATIOS: PresetRatios = presetRatios();

// The option keys the preset table supplies, and that POST /api/option/rest_model_ratio
// puts back to these defaults.
export const PRESET_PRICE_KEYS = ["ModelRatio", "CompletionRatio", "CacheRatio", "ModelPrice"] as const;
