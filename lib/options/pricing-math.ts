// The conversions between prices in USD per 1M tokens and the gateway's ratios
// (docs/pricing.md, "Conversions"), in one place: the built-in preset table
// (lib/options/presets/ratios.ts), the preset sources (lib/price-presets) and the console's
// visual editor (lib/client/model-pricing.ts) all convert with these. Pure and free of
// "server-only" (exempt in tests/unit/server-only.test.ts) so that the browser loads it too.
export const PRICE_MAP_KEYS = ["ModelRatio", "CompletionRatio", "CacheRatio", "CreateCacheRatio", "CreateCache1hRatio", "ModelPrice"] as const;
export type PriceMapKey = (typeof PRICE_MAP_KEYS)[number];
export type PriceMaps = Record<PriceMapKey, Record<string, number>>;

const DECIMALS = 6;
/** Rounded to 6 decimals, so that 2.5 / 2 reads 1.25 and not floating-point noise. */
export function round6(x: number): number {
  return Number(x.toFixed(DECIMALS));
}

// docs/pricing.md, "Conversions": ratio = input price per 1M tokens / 2; price = ratio × 2;
// completion ratio = output price / input price.
export function ratioFromInputPrice(inputPerMillion: number): number {
  return round6(inputPerMillion / 2);
}
export function inputPriceFromRatio(ratio: number): number {
  return round6(ratio * 2);
}
export function completionRatioFromPrices(inputPerMillion: number, outputPerMillion: number): number {
  return round6(outputPerMillion / inputPerMillion);
}
export function outputPriceFromRatios(ratio: number, completionRatio: number): number {
  return round6(ratio * 2 * completionRatio);
}
