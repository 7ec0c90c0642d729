// The model pricing rules both sides apply (docs/pricing.md, "Conversions" and "The visual
// editor"): the conversions between prices in USD per 1M tokens and ratios, the rows of the
// visual editor built from the price maps and written back into them, the checks of its
// cells and dialogs, and the ratio badge colour. Pure and free of "server-only": the settings
// page loads it, and the preset sources (lib/price-presets) convert prices with it.
import type { BadgeColor } from "@/lib/client/badge-color";
import { dict, own } from "@/lib/own-keys";

export {
  completionRatioFromPrices,
  inputPriceFromRatio,
  outputPriceFromRatios,
  PRICE_MAP_KEYS,
  ratioFromInputPrice,
  round6,
  type PriceMapKey,
  type PriceMaps,
} from "@/lib/options/pricing-math";
import {
  completionRatioFromPrices,
  inputPriceFromRatio,
  outputPriceFromRatios,
  PRICE_MAP_KEYS,
  ratioFromInputPrice,
  type PriceMapKey,
  type PriceMaps,
} from "@/lib/options/pricing-math";

/** The ratio badge colours (docs/pricing.md, "The visual editor"): above 5 red, above 3 orange, above 1 blue, else green. */
export function ratioBadgeColor(ratio: number): BadgeColor {
  if (ratio > 5) return "red";
  if (ratio > 3) return "orange";
  if (ratio > 1) return "blue";
  return "green";
}

// ---- parsing ----------------------------------------------------------------------------

/** A JSON option's text as a map of numbers, or null when it is not one. */
export function parsePriceMap(text: string): Record<string, number> | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const out = dict<number>();
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (typeof x !== "number" || !Number.isFinite(x) || x < 0) return null;
    out[k] = x;
  }
  return out;
}

export function emptyMaps(): PriceMaps {
  return { ModelRatio: dict(), CompletionRatio: dict(), CacheRatio: dict(), CreateCacheRatio: dict(), CreateCache1hRatio: dict(), ModelPrice: dict() };
}

/** The price maps from the options (a map that does not parse reads as empty). */
export function mapsFromOptions(options: Record<string, string>): PriceMaps {
  const out = emptyMaps();
  for (const k of PRICE_MAP_KEYS) out[k] = parsePriceMap(options[k] ?? "{}") ?? dict();
  return out;
}

// ---- the visual editor --------------------------------------------------------------------

/** Per token by ratio, per token by price (input / output USD per 1M tokens), or per request. */
export type PricingMode = "ratio" | "tokenPrice" | "perRequest";

export type PricingRow = {
  name: string;
  /** USD per call; set: the model is priced per request and the ratios do not apply */
  price?: number;
  ratio?: number;
  completionRatio?: number;
  cacheRatio?: number;
  /** prompt-cache writes of five minutes and of one hour (docs/pricing.md, "Prompt-cache writes") */
  createCacheRatio?: number;
  createCache1hRatio?: number;
};

export function rowsFromMaps(maps: PriceMaps): PricingRow[] {
  const names = new Set<string>([...Object.keys(maps.ModelPrice), ...Object.keys(maps.ModelRatio), ...Object.keys(maps.CompletionRatio)]);
  return [...names].sort().map((name) => ({
    name,
    price: own(maps.ModelPrice, name),
    ratio: own(maps.ModelRatio, name),
    completionRatio: own(maps.CompletionRatio, name),
    cacheRatio: own(maps.CacheRatio, name),
    createCacheRatio: own(maps.CreateCacheRatio, name),
    createCache1hRatio: own(maps.CreateCache1hRatio, name),
  }));
}

/** The mode a row is shown in first: per request when it has a price, else per token by ratio. */
export function modeOf(row: PricingRow): PricingMode {
  return row.price !== undefined ? "perRequest" : "ratio";
}

/**
 * Writes one row back into copies of the maps. Per request: the price only (the ratios of the
 * model are dropped, a price wins over them anyway). Per token: the ratios, and the price is
 * dropped. The cache ratios (reads and writes) are kept as they were (the JSON editors edit them).
 */
export function putRow(maps: PriceMaps, row: PricingRow): PriceMaps {
  const next: PriceMaps = {
    ModelRatio: dict(maps.ModelRatio),
    CompletionRatio: dict(maps.CompletionRatio),
    CacheRatio: dict(maps.CacheRatio),
    CreateCacheRatio: dict(maps.CreateCacheRatio),
    CreateCache1hRatio: dict(maps.CreateCache1hRatio),
    ModelPrice: dict(maps.ModelPrice),
  };
  const set = (k: PriceMapKey, v: number | undefined) => {
    if (v === undefined) delete next[k][row.name];
    else next[k][row.name] = v;
  };
  if (row.price !== undefined) {
    set("ModelPrice", row.price);
    set("ModelRatio", undefined);
    set("CompletionRatio", undefined);
  } else {
    set("ModelPrice", undefined);
    set("ModelRatio", row.ratio);
    set("CompletionRatio", row.completionRatio);
  }
  return next;
}

export function removeRow(maps: PriceMaps, name: string): PriceMaps {
  const next = emptyMaps();
  for (const k of PRICE_MAP_KEYS) {
    const rest = dict(maps[k]);
    delete rest[name];
    next[k] = rest;
  }
  return next;
}

// Message keys under "pricingEditor" in messages/*.json.
export type PricingError = "notNumber" | "nameRequired" | "nameExists" | "priceZero" | "selectModels" | "valueRequired" | "bothRequired";

/** A cell: empty is allowed (the entry is removed), else a finite number ≥ 0 (请输入数字). */
export function parseCell(text: string): { ok: true; value: number | undefined } | { ok: false; error: PricingError } {
  const t = text.trim();
  if (t === "") return { ok: true, value: undefined };
  const n = Number(t);
  if (!Number.isFinite(n) || n < 0) return { ok: false, error: "notNumber" };
  return { ok: true, value: n };
}

export type RowDraft = {
  name: string;
  mode: PricingMode;
  ratio: string;
  completionRatio: string;
  inputPrice: string;
  outputPrice: string;
  price: string;
};

/** The draft of the edit dialog for a row, in the row's mode, prices worked out from the ratios. */
export function draftOf(row: PricingRow, mode: PricingMode = modeOf(row)): RowDraft {
  const s = (v: number | undefined) => (v === undefined ? "" : String(v));
  const ratio = row.ratio;
  const cr = row.completionRatio ?? (ratio !== undefined ? 1 : undefined);
  return {
    name: row.name,
    mode,
    ratio: s(ratio),
    completionRatio: s(row.completionRatio),
    inputPrice: s(ratio !== undefined ? inputPriceFromRatio(ratio) : undefined),
    outputPrice: s(ratio !== undefined && cr !== undefined ? outputPriceFromRatios(ratio, cr) : undefined),
    price: s(row.price),
  };
}

/** Switches a draft's mode, converting what can be converted (docs/pricing.md, "The visual editor": ratio ↔ price converts). */
export function switchMode(d: RowDraft, mode: PricingMode): RowDraft {
  const next = Object.assign({}, d, { mode });
  const ratio = parseCell(d.ratio);
  const cr = parseCell(d.completionRatio);
  const input = parseCell(d.inputPrice);
  const output = parseCell(d.outputPrice);
  if (d.mode === "ratio" && mode === "tokenPrice" && ratio.ok && ratio.value !== undefined) {
    next.inputPrice = String(inputPriceFromRatio(ratio.value));
    const c = cr.ok && cr.value !== undefined ? cr.value : 1;
    next.outputPrice = String(outputPriceFromRatios(ratio.value, c));
  }
  if (d.mode === "tokenPrice" && mode === "ratio" && input.ok && input.value !== undefined && input.value > 0) {
    next.ratio = String(ratioFromInputPrice(input.value));
    if (output.ok && output.value !== undefined) next.completionRatio = String(completionRatioFromPrices(input.value, output.value));
  }
  return next;
}

/**
 * The row a draft describes, or the first error. Per token by price: both prices, the input
 * price above 0 (模型价格不能为0: a zero token price cannot be turned into ratios, and a free
 * model is left out rather than priced at 0), converted as docs/pricing.md, "Conversions" says. Per request: the price.
 */
export function rowFromDraft(d: RowDraft): { ok: true; row: PricingRow } | { ok: false; error: PricingError; field?: keyof RowDraft } {
  const name = d.name.trim();
  if (!name) return { ok: false, error: "nameRequired", field: "name" };
  const need = (field: keyof RowDraft): { ok: true; value: number } | { ok: false; error: PricingError; field: keyof RowDraft } => {
    const c = parseCell(String(d[field]));
    if (!c.ok) return { ok: false, error: c.error, field };
    if (c.value === undefined) return { ok: false, error: "valueRequired", field };
    return { ok: true, value: c.value };
  };
  if (d.mode === "perRequest") {
    const p = need("price");
    if (!p.ok) return p;
    return { ok: true, row: { name, price: p.value } };
  }
  if (d.mode === "tokenPrice") {
    const input = need("inputPrice");
    if (!input.ok) return input;
    if (input.value === 0) return { ok: false, error: "priceZero", field: "inputPrice" };
    const output = need("outputPrice");
    if (!output.ok) return output;
    return { ok: true, row: { name, ratio: ratioFromInputPrice(input.value), completionRatio: completionRatioFromPrices(input.value, output.value) } };
  }
  const ratio = need("ratio");
  if (!ratio.ok) return ratio;
  const cr = parseCell(d.completionRatio);
  if (!cr.ok) return { ok: false, error: cr.error, field: "completionRatio" };
  return { ok: true, row: { name, ratio: ratio.value, completionRatio: cr.value } };
}

/** Adding a model: the name must be new (模型名称已存在). */
export function checkNewName(name: string, existing: Iterable<string>): PricingError | null {
  const n = name.trim();
  if (!n) return "nameRequired";
  for (const e of existing) if (e === n) return "nameExists";
  return null;
}

// ---- batch set ----------------------------------------------------------------------------

/** What the batch dialog sets on every selected model. */
export type BatchTarget = "ratio" | "completionRatio" | "bothRatios" | "price";

export function applyBatch(
  maps: PriceMaps,
  input: { models: string[]; target: BatchTarget; value: string; value2?: string },
): { ok: true; maps: PriceMaps } | { ok: false; error: PricingError } {
  if (input.models.length === 0) return { ok: false, error: "selectModels" };
  const num = (t: string | undefined): number | PricingError => {
    if (t === undefined || t.trim() === "") return "valueRequired";
    const c = parseCell(t);
    return c.ok && c.value !== undefined ? c.value : "notNumber";
  };
  const a = num(input.value);
  if (input.target === "bothRatios") {
    const b = num(input.value2);
    if (typeof a !== "number" || typeof b !== "number") {
      // both values are required when setting both ratios
      if (a === "notNumber" || b === "notNumber") return { ok: false, error: "notNumber" };
      return { ok: false, error: "bothRequired" };
    }
  }
  if (typeof a !== "number") return { ok: false, error: a };
  let next = maps;
  for (const name of input.models) {
    const row: PricingRow = {
      name,
      price: own(next.ModelPrice, name),
      ratio: own(next.ModelRatio, name),
      completionRatio: own(next.CompletionRatio, name),
    };
    if (input.target === "price") {
      row.price = a;
    } else {
      row.price = undefined;
      if (input.target === "ratio" || input.target === "bothRatios") row.ratio = a;
      if (input.target === "completionRatio") row.completionRatio = a;
      if (input.target === "bothRatios") row.completionRatio = Number(input.value2);
      // a completion ratio alone on a model without a ratio leaves it unpriced: keep what it had
    }
    next = putRow(next, row);
  }
  return { ok: true, maps: next };
}

// ---- the unset-model list -------------------------------------------------------------------

/** Models served by channels with neither a price nor a ratio (docs/pricing.md, "The unset-model list"). */
export function unsetModels(served: Iterable<string>, maps: Pick<PriceMaps, "ModelRatio" | "ModelPrice">): string[] {
  const out = new Set<string>();
  for (const m of served) if (own(maps.ModelRatio, m) === undefined && own(maps.ModelPrice, m) === undefined) out.add(m);
  return [...out].sort();
}
