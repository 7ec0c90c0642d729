// How presets meet the saved price maps (docs/pricing.md, "Fetch, reset and fill"). A model
// is the admin's when a saved entry of it differs from the preset or is absent from it:
// - merge (fetch presets): every model the admin has not priced (no saved ModelRatio nor
//   ModelPrice entry) gets the preset's entries in the price maps (PRICE_MAP_KEYS), an entry it already has
//   kept; a model the admin priced is left whole, so its bill does not change;
// - remove (reset presets): a model whose every saved entry equals the preset's is removed
//   from the price maps; a model with one entry of its own (changed, or where the preset has
//   none) keeps all its entries;
// - fill (the unset-model list): as merge, for the models named only.
import "server-only";
import { PRICE_MAP_KEYS, type PriceMaps } from "@/lib/client/model-pricing";
import { dict } from "@/lib/own-keys";

function copy(maps: PriceMaps): PriceMaps {
  return {
    ModelRatio: dict(maps.ModelRatio),
    CompletionRatio: dict(maps.CompletionRatio),
    CacheRatio: dict(maps.CacheRatio),
    CreateCacheRatio: dict(maps.CreateCacheRatio),
    CreateCache1hRatio: dict(maps.CreateCache1hRatio),
    ModelPrice: dict(maps.ModelPrice),
  };
}

const has = (m: Record<string, number>, k: string) => Object.prototype.hasOwnProperty.call(m, k);
const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

function presetModels(preset: PriceMaps): string[] {
  const names = new Set<string>();
  for (const k of PRICE_MAP_KEYS) for (const m of Object.keys(preset[k])) names.add(m);
  return [...names];
}

const priced = (maps: PriceMaps, model: string) => has(maps.ModelRatio, model) || has(maps.ModelPrice, model);

function addModel(next: PriceMaps, preset: PriceMaps, model: string): boolean {
  if (!has(preset.ModelRatio, model) && !has(preset.ModelPrice, model)) return false;
  for (const k of PRICE_MAP_KEYS) if (has(preset[k], model) && !has(next[k], model)) next[k][model] = preset[k][model];
  return true;
}

export type MergeResult = { maps: PriceMaps; models: string[] };

/** The saved maps with the preset's models the admin has not priced added. */
export function mergePresets(saved: PriceMaps, preset: PriceMaps): MergeResult {
  const next = copy(saved);
  const models: string[] = [];
  for (const m of presetModels(preset)) if (!priced(saved, m) && addModel(next, preset, m)) models.push(m);
  return { maps: next, models: models.sort() };
}

/** The saved maps with the named models filled from the preset (the unset-model list's action). */
export function fillFromPresets(saved: PriceMaps, preset: PriceMaps, names: string[]): { maps: PriceMaps; filled: string[]; missing: string[] } {
  const next = copy(saved);
  const filled: string[] = [];
  const missing: string[] = [];
  for (const m of [...new Set(names)].sort()) {
    if (priced(saved, m)) continue;
    if (addModel(next, preset, m)) filled.push(m);
    else missing.push(m);
  }
  return { maps: next, filled, missing };
}

/** Whether every saved entry of the model equals the preset's (and there is at least one). */
function asPreset(saved: PriceMaps, preset: PriceMaps, model: string): boolean {
  let any = false;
  for (const k of PRICE_MAP_KEYS) {
    if (!has(saved[k], model)) continue;
    if (!has(preset[k], model) || !same(saved[k][model], preset[k][model])) return false;
    any = true;
  }
  return any;
}

export type RemoveResult = { maps: PriceMaps; removed: string[]; kept: string[] };

/** The saved maps without the models that are exactly as the preset has them. */
export function removePresets(saved: PriceMaps, preset: PriceMaps): RemoveResult {
  const next = copy(saved);
  const removed: string[] = [];
  const kept: string[] = [];
  for (const m of presetModels(preset)) {
    const present = PRICE_MAP_KEYS.some((k) => has(saved[k], m));
    if (!present) continue;
    if (asPreset(saved, preset, m)) {
      for (const k of PRICE_MAP_KEYS) delete next[k][m];
      removed.push(m);
    } else kept.push(m);
  }
  return { maps: next, removed: removed.sort(), kept: kept.sort() };
}
