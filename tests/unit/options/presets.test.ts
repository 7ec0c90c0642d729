// The preset price table and its conversion into the price options (docs/pricing.md):
// ratio = input / 2, completion ratio = output / input, cache ratio = cached / input.
import { describe, expect, it } from "vitest";
import { PRESET_MODELS, PRESET_TABLE_DATE, type PresetModel } from "@/lib/options/presets/models";
import { PRESET_RATIOS, presetRatios } from "@/lib/options/presets/ratios";
import { round6 } from "@/lib/options/pricing-math";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";
import { applyOption } from "@/lib/options/store";
import { quotaFor, resolvePrice } from "@/lib/billing/pricing";
import { validateOption } from "@/lib/options/validate";

const VENDORS = ["openai", "anthropic", "google", "deepseek", "qwen", "mistral", "xai", "moonshot", "zhipu"];

describe("the preset price table", () => {
  it("has at least 150 models, every vendor, no duplicate id, and a date", () => {
    expect(PRESET_MODELS.length).toBeGreaterThanOrEqual(150);
    for (const v of VENDORS) expect(PRESET_MODELS.filter((m) => m.vendor === v).length, v).toBeGreaterThan(0);
    const ids = PRESET_MODELS.map((m) => m.model);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(PRESET_TABLE_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("gives every model either token prices or a per-call price, all positive and finite", () => {
    for (const m of PRESET_MODELS) {
      if (m.perRequest !== undefined) {
        expect([m.input, m.output, m.cachedInput], m.model).toEqual([null, null, null]);
        expect(Number.isFinite(m.perRequest) && m.perRequest > 0, m.model).toBe(true);
        continue;
      }
      expect(Number.isFinite(m.input) && m.input! > 0, m.model).toBe(true);
      for (const p of [m.output, m.cachedInput]) if (p !== null) expect(Number.isFinite(p) && p > 0, m.model).toBe(true);
      // a cache hit is never dearer than a miss
      if (m.cachedInput !== null) expect(m.cachedInput, m.model).toBeLessThanOrEqual(m.input!);
    }
  });

  it("has the common ids people send", () => {
    const ids = new Set(PRESET_MODELS.map((m) => m.model));
    for (const id of [
      "gpt-4o",
      "gpt-4o-2024-08-06",
      "gpt-4o-mini",
      "gpt-4.1",
      "gpt-5",
      "o3",
      "o4-mini",
      "dall-e-3",
      "claude-sonnet-4-5",
      "claude-sonnet-4-5-20250929",
      "claude-opus-4-1",
      "claude-3-5-haiku-20241022",
      "gemini-2.5-pro",
      "gemini-2.5-flash",
      "gemini-2.0-flash",
      "deepseek-chat",
      "deepseek-reasoner",
      "qwen-max",
      "qwen-plus",
      "qwen3-max",
      "mistral-large-latest",
      "codestral-latest",
      "grok-4",
      "grok-3-mini",
      "kimi-k2-0905-preview",
      "kimi-k2-turbo-preview",
      "glm-4.6",
      "glm-4.5-air",
    ])
      expect(ids.has(id), id).toBe(true);
  });
});

describe("conversion into ratios", () => {
  it("follows the conversions of docs/pricing.md exactly, without float noise", () => {
    const r = presetRatios([
      { vendor: "openai", model: "a", input: 2.5, output: 10, cachedInput: 1.25 },
      { vendor: "deepseek", model: "b", input: 0.28, output: 0.42, cachedInput: 0.028 },
      { vendor: "zhipu", model: "c", input: 0.6, output: 2.2, cachedInput: null },
      { vendor: "openai", model: "emb", input: 0.02, output: null, cachedInput: null },
      { vendor: "openai", model: "img", input: null, output: null, cachedInput: null, perRequest: 0.04 },
      { vendor: "anthropic", model: "claude", input: 0.25, output: 1.25, cachedInput: 0.03, cacheWrite: 0.3, cacheWrite1h: 0.5 },
    ]);
    expect(r.ModelRatio).toEqual({ a: 1.25, b: 0.14, c: 0.3, emb: 0.01, claude: 0.125 });
    // 0.42 / 0.28 is 1.4999999999999998 in floating point; 2.2 / 0.6 is 3.666…
    expect(r.CompletionRatio).toEqual({ a: 4, b: 1.5, c: 3.666667, claude: 5 });
    expect(r.CacheRatio).toEqual({ a: 0.5, b: 0.1, claude: 0.12 });
    expect(r.CreateCacheRatio).toEqual({ claude: 1.2 });
    expect(r.CreateCache1hRatio).toEqual({ claude: 2 });
    expect(r.ModelPrice).toEqual({ img: 0.04 });
    expect(round6(1.2500000000000002)).toBe(1.25);
  });

  it("gives every table model its maps, all finite and > 0 with at most 6 decimals", () => {
    const byId = new Map<string, PresetModel>(PRESET_MODELS.map((m) => [m.model, m]));
    for (const [name, map] of Object.entries(PRESET_RATIOS)) {
      for (const [model, v] of Object.entries(map as Record<string, number>)) {
        expect(byId.has(model), `${name} ${model}`).toBe(true);
        expect(Number.isFinite(v) && v > 0, `${name} ${model} = ${v}`).toBe(true);
        expect(String(v), `${name} ${model}`).toMatch(/^\d+(\.\d{1,6})?$/);
      }
    }
    for (const m of PRESET_MODELS) {
      if (m.perRequest !== undefined) {
        expect(PRESET_RATIOS.ModelPrice[m.model]).toBe(m.perRequest);
        expect(PRESET_RATIOS.ModelRatio[m.model]).toBeUndefined();
        continue;
      }
      expect(Math.abs(PRESET_RATIOS.ModelRatio[m.model] - m.input! / 2), m.model).toBeLessThan(5e-7);
      if (m.output !== null) expect(Math.abs(PRESET_RATIOS.CompletionRatio[m.model] - m.output / m.input!), m.model).toBeLessThan(5e-7);
      if (m.cachedInput !== null) expect(Math.abs(PRESET_RATIOS.CacheRatio[m.model] - m.cachedInput / m.input!), m.model).toBeLessThan(5e-7);
      // Anthropic bills prompt-cache writes: every Claude row has both write prices, no other vendor's has one
      expect(m.cacheWrite !== undefined, m.model).toBe(m.vendor === "anthropic");
      expect(m.cacheWrite1h !== undefined, m.model).toBe(m.vendor === "anthropic");
      if (m.cacheWrite !== undefined) expect(PRESET_RATIOS.CreateCacheRatio[m.model], m.model).toBe(Number((m.cacheWrite / m.input!).toFixed(6)));
      if (m.cacheWrite1h !== undefined) expect(PRESET_RATIOS.CreateCache1hRatio[m.model], m.model).toBe(Number((m.cacheWrite1h / m.input!).toFixed(6)));
    }
    // Anthropic's page (checked 2026-11-28): 5-minute writes 1.25×, 1-hour writes 2× input; Haiku 3 1.2× and 2×
    expect(PRESET_RATIOS.CreateCacheRatio["claude-sonnet-4-5"]).toBe(1.25);
    expect(PRESET_RATIOS.CreateCache1hRatio["claude-sonnet-4-5"]).toBe(2);
    expect(PRESET_RATIOS.CreateCacheRatio["claude-3-haiku-20240307"]).toBe(1.2);
    expect(PRESET_RATIOS.CreateCache1hRatio["claude-3-haiku-20240307"]).toBe(2);
    expect(PRESET_RATIOS.CreateCacheRatio["gpt-4o"]).toBeUndefined();
    expect(PRESET_RATIOS.ModelRatio["gpt-4o"]).toBe(1.25);
    expect(PRESET_RATIOS.CompletionRatio["gpt-4o"]).toBe(4);
    expect(PRESET_RATIOS.CacheRatio["gpt-4o"]).toBe(0.5);
    expect(PRESET_RATIOS.ModelRatio["deepseek-chat"]).toBe(0.14);
    expect(PRESET_RATIOS.ModelPrice["dall-e-3"]).toBe(0.04);
  });

  it("are the server defaults of the price options, and price a call with no option saved", () => {
    expect(JSON.parse(OPTION_DEFAULTS.ModelRatio)).toEqual(PRESET_RATIOS.ModelRatio);
    expect(JSON.parse(OPTION_DEFAULTS.CompletionRatio)).toEqual(PRESET_RATIOS.CompletionRatio);
    expect(JSON.parse(OPTION_DEFAULTS.CacheRatio)).toEqual(PRESET_RATIOS.CacheRatio);
    expect(JSON.parse(OPTION_DEFAULTS.CreateCacheRatio)).toEqual(PRESET_RATIOS.CreateCacheRatio);
    expect(JSON.parse(OPTION_DEFAULTS.CreateCache1hRatio)).toEqual(PRESET_RATIOS.CreateCache1hRatio);
    expect(JSON.parse(OPTION_DEFAULTS.ModelPrice)).toEqual(PRESET_RATIOS.ModelPrice);
    // an admin who saves the defaults back unchanged is not refused
    for (const k of ["ModelRatio", "CompletionRatio", "CacheRatio", "CreateCacheRatio", "CreateCache1hRatio", "ModelPrice"] as const) {
      expect(validateOption(k, OPTION_DEFAULTS[k], (x) => OPTION_DEFAULTS[x])).toMatchObject({ ok: true });
    }
    for (const k of ["ModelRatio", "CompletionRatio", "CacheRatio", "ModelPrice", "SelfUseModeEnabled", "fallback_pricing_enabled"] as const) {
      applyOption(k, OPTION_DEFAULTS[k]);
    }
    // $2.50 in, $10 out, $1.25 cached per 1M tokens: 1M prompt tokens (half cached) and
    // 1M completion tokens cost 1.25 + 0.625 + 10 = 11.875 USD = 5,937,500 units.
    const price = resolvePrice({ model: "gpt-4o", group: "default" });
    expect(quotaFor(price, { promptTokens: 1_000_000, completionTokens: 1_000_000, cachedTokens: 500_000 })).toBe(5_937_500n);
    const ds = resolvePrice({ model: "deepseek-chat", group: "default" });
    // 1M prompt tokens at $0.28 and 1M completion tokens at $0.42: 0.70 USD = 350,000 units
    expect(quotaFor(ds, { promptTokens: 1_000_000, completionTokens: 1_000_000 })).toBe(350_000n);
  });
});
