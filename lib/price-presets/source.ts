// Where the presets come from (docs/pricing.md, "Preset sources"): the built-in price table
// (lib/options/presets), or, when the root set PresetRatioSourceUrl, a source fetched under
// the outbound policy (lib/net/outbound.ts), through the worker when WorkerUrl is set (a URL
// typed into the console: lib/net/worker.ts, docs/outbound.md "Worker"), in one of three
// shapes (PresetRatioSourceKind):
// - openrouter: the URL answers OpenRouter's public model list, {data: [{id, pricing:
//   {prompt, completion, input_cache_read?, request?}}]} in USD per token; a model is named
//   by its id after the vendor prefix ("openai/gpt-4o" → "gpt-4o");
// - flexible: {URL}/prompt_ratio.json and {URL}/completion_ratio.json, each an object of
//   model → ratio in the gateway's units (as ModelRatio and CompletionRatio are saved);
// - mixed: the same two files, each value a ratio or the prices the ratios come from:
//   prompt {input, cached_input?} in USD per 1M tokens or {price} in USD per call;
//   completion {output} in USD per 1M tokens.
// Either file may be wrapped in {data: ...} (as new-api's ratio answers are).
// A source that fails is refused with a catalogue message of its own (preset_source_*), which
// the route renders in the caller's language (docs/i18n.md).
import "server-only";
import { AppError } from "@/lib/errors";
import { outboundRefusal, refusalMessageKey } from "@/lib/net/outbound";
import { BodyTooLargeError, readCappedText } from "@/lib/net/read-capped";
import { fetchConsoleUrl } from "@/lib/net/worker";
import { getOption } from "@/lib/options/store";
import { PRESET_RATIOS } from "@/lib/options/presets/ratios";
import { emptyMaps } from "@/lib/client/model-pricing";
import { dict } from "@/lib/own-keys";
import { completionRatioFromPrices, inputPriceFromRatio, ratioFromInputPrice, round6, type PriceMaps } from "@/lib/options/pricing-math";

export const PRESET_SOURCE_KINDS = ["flexible", "openrouter", "mixed"] as const;
export type PresetSourceKind = (typeof PRESET_SOURCE_KINDS)[number];

const TIMEOUT_MS = 15_000;
// OpenRouter's list is about 1 MB; anything far larger is not a price list.
export const MAX_SOURCE_BYTES = 8 * 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const positive = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
};
const nonNegative = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : null;
};

function unwrap(v: unknown, file: string): Record<string, unknown> {
  const inner = isObject(v) && isObject(v.data) ? v.data : v;
  if (!isObject(inner)) throw new AppError("UPSTREAM", "preset_source_not_object", { file });
  return inner;
}

/** OpenRouter's model list as price maps (USD per token → the ratios of docs/pricing.md, "Conversions"). */
export function parseOpenRouter(body: unknown): PriceMaps {
  if (!isObject(body) || !Array.isArray(body.data)) throw new AppError("UPSTREAM", "preset_source_no_data");
  const out = emptyMaps();
  for (const item of body.data) {
    if (!isObject(item) || typeof item.id !== "string" || !isObject(item.pricing)) continue;
    const id = item.id;
    if (id.endsWith(":free")) continue;
    const name = id.includes("/") ? id.slice(id.indexOf("/") + 1) : id;
    if (!name || name in out.ModelRatio || name in out.ModelPrice) continue; // the first id of a name wins
    const p = item.pricing;
    const prompt = positive(p.prompt);
    if (prompt !== null) {
      const inputPerMillion = prompt * 1e6;
      out.ModelRatio[name] = ratioFromInputPrice(inputPerMillion);
      const completion = nonNegative(p.completion);
      if (completion !== null) out.CompletionRatio[name] = completionRatioFromPrices(inputPerMillion, completion * 1e6);
      const cached = positive(p.input_cache_read);
      if (cached !== null && cached <= prompt) out.CacheRatio[name] = round6(cached / prompt);
      // OpenRouter lists one cache-write price: the 5-minute write (docs/pricing.md, "Preset sources")
      const write = positive(p.input_cache_write);
      if (write !== null) out.CreateCacheRatio[name] = round6(write / prompt);
      continue;
    }
    const request = positive(p.request);
    if (request !== null && nonNegative(p.prompt) === 0) out.ModelPrice[name] = round6(request);
    // free models (price 0) and negative "variable" prices are left out, as in the built-in table
  }
  return out;
}

/** The flexible shape: two objects of model → ratio. */
export function parseFlexible(prompt: unknown, completion: unknown): PriceMaps {
  const out = emptyMaps();
  for (const [m, v] of Object.entries(unwrap(prompt, "prompt_ratio.json"))) {
    const n = nonNegative(v);
    if (n !== null && typeof v === "number") out.ModelRatio[m] = n;
  }
  for (const [m, v] of Object.entries(unwrap(completion, "completion_ratio.json"))) {
    const n = nonNegative(v);
    if (n !== null && typeof v === "number" && m in out.ModelRatio) out.CompletionRatio[m] = n;
  }
  return out;
}

/** The mixed shape: ratios or prices, per model. */
export function parseMixed(prompt: unknown, completion: unknown): PriceMaps {
  const out = emptyMaps();
  const inputPrice = dict<number>();
  for (const [m, v] of Object.entries(unwrap(prompt, "prompt_ratio.json"))) {
    if (typeof v === "number") {
      if (Number.isFinite(v) && v >= 0) out.ModelRatio[m] = v;
      continue;
    }
    if (!isObject(v)) continue;
    const price = positive(v.price);
    const input = positive(v.input);
    if (input !== null) {
      inputPrice[m] = input;
      out.ModelRatio[m] = ratioFromInputPrice(input);
      const cached = positive(v.cached_input);
      if (cached !== null && cached <= input) out.CacheRatio[m] = round6(cached / input);
    } else if (price !== null) out.ModelPrice[m] = round6(price);
  }
  for (const [m, v] of Object.entries(unwrap(completion, "completion_ratio.json"))) {
    if (!(m in out.ModelRatio)) continue;
    if (typeof v === "number") {
      if (Number.isFinite(v) && v >= 0) out.CompletionRatio[m] = v;
      continue;
    }
    if (!isObject(v)) continue;
    const output = nonNegative(v.output);
    // an output price needs the input price: from the prompt file, or the ratio × 2
    const input = inputPrice[m] ?? (out.ModelRatio[m] > 0 ? inputPriceFromRatio(out.ModelRatio[m]) : null);
    if (output !== null && input) out.CompletionRatio[m] = completionRatioFromPrices(input, output);
  }
  return out;
}

async function fetchJson(url: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetchConsoleUrl(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    const refusal = outboundRefusal(err);
    if (refusal) throw new AppError("UPSTREAM", refusalMessageKey(refusal.reason));
    throw new AppError("UPSTREAM", (err as Error).name === "TimeoutError" ? "preset_source_timeout" : "preset_source_connection_failed");
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new AppError("UPSTREAM", "preset_source_failed", { detail: `HTTP ${res.status}` });
  }
  let text: string;
  try {
    text = await readCappedText(res, MAX_SOURCE_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new AppError("UPSTREAM", "preset_source_too_large", { mib: MAX_SOURCE_BYTES / (1024 * 1024) });
    throw new AppError("UPSTREAM", "preset_source_connection_failed");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("UPSTREAM", "preset_source_not_json");
  }
}

export function sourceFiles(base: string): { prompt: string; completion: string } {
  const b = base.replace(/\/+$/, "");
  return { prompt: `${b}/prompt_ratio.json`, completion: `${b}/completion_ratio.json` };
}

export function kindOf(text: string): PresetSourceKind {
  return (PRESET_SOURCE_KINDS as readonly string[]).includes(text) ? (text as PresetSourceKind) : "flexible";
}

export type LoadedPresets = { maps: PriceMaps; source: "builtin" | PresetSourceKind };

/** The presets the three actions use: the configured source's, else the built-in table's. */
export async function loadPresets(): Promise<LoadedPresets> {
  const url = getOption("PresetRatioSourceUrl").trim();
  if (!url) return { maps: PRESET_RATIOS, source: "builtin" };
  const kind = kindOf(getOption("PresetRatioSourceKind"));
  let maps: PriceMaps;
  if (kind === "openrouter") maps = parseOpenRouter(await fetchJson(url));
  else {
    const files = sourceFiles(url);
    const [prompt, completion] = await Promise.all([fetchJson(files.prompt), fetchJson(files.completion)]);
    maps = kind === "mixed" ? parseMixed(prompt, completion) : parseFlexible(prompt, completion);
  }
  if (Object.keys(maps.ModelRatio).length === 0 && Object.keys(maps.ModelPrice).length === 0) throw new AppError("UPSTREAM", "preset_source_no_models");
  return { maps, source: kind };
}
