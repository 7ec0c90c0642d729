// Fetch, reset and fill of the presets (lib/price-presets/merge.ts) and the three source
// shapes (lib/price-presets/source.ts), docs/pricing.md.
import { describe, expect, it } from "vitest";
import { fillFromPresets, mergePresets, removePresets } from "@/lib/price-presets/merge";
import { parseFlexible, parseMixed, parseOpenRouter, sourceFiles } from "@/lib/price-presets/source";
import type { PriceMaps } from "@/lib/client/model-pricing";

const preset = (): PriceMaps => ({
  ModelRatio: { "gpt-4o": 1.25, "deepseek-chat": 0.14, o1: 7.5 },
  CompletionRatio: { "gpt-4o": 4, "deepseek-chat": 1.5, o1: 4 },
  CacheRatio: { "gpt-4o": 0.5 },
  CreateCacheRatio: {},
  CreateCache1hRatio: {},
  ModelPrice: { "dall-e-3": 0.04 },
});
// the presets with a model whose vendor bills prompt-cache writes
const withClaude = (): PriceMaps => {
  const p = preset();
  p.ModelRatio["claude-haiku-4-5"] = 0.5;
  p.CompletionRatio["claude-haiku-4-5"] = 5;
  p.CreateCacheRatio["claude-haiku-4-5"] = 1.25;
  p.CreateCache1hRatio["claude-haiku-4-5"] = 2;
  return p;
};
const empty = (): PriceMaps => ({ ModelRatio: {}, CompletionRatio: {}, CacheRatio: {}, CreateCacheRatio: {}, CreateCache1hRatio: {}, ModelPrice: {} });

describe("merge (fetch presets)", () => {
  it("adds every preset model to empty maps", () => {
    const r = mergePresets(empty(), preset());
    expect(r.maps).toEqual(preset());
    expect(r.models).toEqual(["dall-e-3", "deepseek-chat", "gpt-4o", "o1"]);
  });

  it("adds the cache-write ratios with the model, and keeps an admin's own", () => {
    const saved = empty();
    saved.CreateCache1hRatio["claude-haiku-4-5"] = 1.5; // an entry of the admin's on an unpriced model
    const r = mergePresets(saved, withClaude());
    expect(r.maps.CreateCacheRatio).toEqual({ "claude-haiku-4-5": 1.25 });
    expect(r.maps.CreateCache1hRatio).toEqual({ "claude-haiku-4-5": 1.5 });
    // the admin's 1-hour ratio differs from the preset's: reset keeps the model whole
    const kept = removePresets(r.maps, withClaude());
    expect(kept.kept).toEqual(["claude-haiku-4-5"]);
    expect(kept.maps.CreateCacheRatio).toEqual({ "claude-haiku-4-5": 1.25 });
    // at the preset's values it is removed from every map
    const gone = removePresets(mergePresets(empty(), withClaude()).maps, withClaude());
    expect(gone.removed).toContain("claude-haiku-4-5");
    expect(gone.maps.CreateCacheRatio).toEqual({});
    expect(gone.maps.CreateCache1hRatio).toEqual({});
  });

  it("never overwrites a model the admin priced, nor an entry the admin set", () => {
    const saved = empty();
    saved.ModelRatio["gpt-4o"] = 3; // priced by the admin, no completion ratio: billed at 1
    saved.ModelRatio["own-model"] = 2;
    saved.ModelPrice["o1"] = 0.5; // priced per call by the admin
    saved.CompletionRatio["deepseek-chat"] = 2; // an entry of an unpriced model
    const r = mergePresets(saved, preset());
    expect(r.maps.ModelRatio).toEqual({ "gpt-4o": 3, "own-model": 2, "deepseek-chat": 0.14 });
    expect(r.maps.CompletionRatio).toEqual({ "deepseek-chat": 2 });
    expect(r.maps.CacheRatio).toEqual({});
    expect(r.maps.ModelPrice).toEqual({ o1: 0.5, "dall-e-3": 0.04 });
    expect(r.models).toEqual(["dall-e-3", "deepseek-chat"]);
    expect(saved.ModelRatio).toEqual({ "gpt-4o": 3, "own-model": 2 }); // the input is not changed
  });
});

describe("a model named __proto__", () => {
  it('keeps its entries through merge, fill and remove (docs/conventions.md, "Own keys")', () => {
    const saved = JSON.parse(
      '{"ModelRatio":{"__proto__":2},"CompletionRatio":{},"CacheRatio":{},"CreateCacheRatio":{},"CreateCache1hRatio":{},"ModelPrice":{}}',
    ) as PriceMaps;
    const merged = mergePresets(saved, preset()).maps;
    expect(Object.hasOwn(merged.ModelRatio, "__proto__")).toBe(true);
    expect(merged.ModelRatio["__proto__"]).toBe(2);
    expect(Object.hasOwn(fillFromPresets(saved, preset(), ["gpt-4o"]).maps.ModelRatio, "__proto__")).toBe(true);
    expect(Object.hasOwn(removePresets(merged, preset()).maps.ModelRatio, "__proto__")).toBe(true);
    const fromPreset = mergePresets(
      empty(),
      JSON.parse('{"ModelRatio":{"__proto__":3},"CompletionRatio":{},"CacheRatio":{},"CreateCacheRatio":{},"CreateCache1hRatio":{},"ModelPrice":{}}'),
    ).maps;
    expect(JSON.parse(JSON.stringify(fromPreset.ModelRatio))).toEqual(JSON.parse('{"__proto__":3}'));
  });
});

describe("remove (reset presets)", () => {
  it("removes the models still at their preset values, keeps the admin's own and changed ones", () => {
    const saved = mergePresets(empty(), preset()).maps;
    saved.ModelRatio["own-model"] = 2;
    saved.CompletionRatio["gpt-4o"] = 5; // changed by the admin: gpt-4o is kept whole
    delete saved.CompletionRatio["o1"]; // a subset of the preset's values: still the preset
    const r = removePresets(saved, preset());
    expect(r.removed).toEqual(["dall-e-3", "deepseek-chat", "o1"]);
    expect(r.kept).toEqual(["gpt-4o"]);
    expect(r.maps).toEqual({
      ModelRatio: { "gpt-4o": 1.25, "own-model": 2 },
      CompletionRatio: { "gpt-4o": 5 },
      CacheRatio: { "gpt-4o": 0.5 },
      CreateCacheRatio: {},
      CreateCache1hRatio: {},
      ModelPrice: {},
    });
  });

  it("reads a preset value that went through JSON as equal", () => {
    const p = preset();
    p.ModelRatio["x"] = 0.1 + 0.2;
    const saved = JSON.parse(JSON.stringify(p)) as PriceMaps;
    saved.ModelRatio["x"] = 0.3;
    expect(removePresets(saved, p).maps.ModelRatio).toEqual({});
  });
});

describe("fill (unset-model list)", () => {
  it("fills the named unset models the presets know and reports the others", () => {
    const saved = empty();
    saved.ModelRatio["gpt-4o"] = 3;
    const r = fillFromPresets(saved, preset(), ["gpt-4o", "deepseek-chat", "mystery", "dall-e-3"]);
    expect(r.filled).toEqual(["dall-e-3", "deepseek-chat"]);
    expect(r.missing).toEqual(["mystery"]);
    expect(r.maps.ModelRatio).toEqual({ "gpt-4o": 3, "deepseek-chat": 0.14 });
    expect(r.maps.CompletionRatio).toEqual({ "deepseek-chat": 1.5 });
    expect(r.maps.ModelPrice).toEqual({ "dall-e-3": 0.04 });
  });
});

describe("source shapes", () => {
  it("openrouter: USD per token → ratio = input per 1M / 2, completion = output / input, cache = read / input", () => {
    const m = parseOpenRouter({
      data: [
        { id: "openai/gpt-4o", pricing: { prompt: "0.0000025", completion: "0.00001", input_cache_read: "0.00000125" } },
        { id: "openrouter/gpt-4o", pricing: { prompt: "0.000009", completion: "0.00001" } }, // same name: the first wins
        { id: "meta-llama/llama-3-8b:free", pricing: { prompt: "0", completion: "0" } },
        { id: "openrouter/auto", pricing: { prompt: "-1", completion: "-1" } },
        { id: "openai/dall-e-x", pricing: { prompt: "0", completion: "0", request: "0.04" } },
        { id: "anthropic/claude-x", pricing: { prompt: "0.000003", completion: "0.000015", input_cache_read: "0.0000003", input_cache_write: "0.00000375" } },
        { id: "broken" },
      ],
    });
    expect(m.ModelRatio).toEqual({ "gpt-4o": 1.25, "claude-x": 1.5 });
    expect(m.CompletionRatio).toEqual({ "gpt-4o": 4, "claude-x": 5 });
    expect(m.CacheRatio).toEqual({ "gpt-4o": 0.5, "claude-x": 0.1 });
    // the one write price OpenRouter lists is the 5-minute one
    expect(m.CreateCacheRatio).toEqual({ "claude-x": 1.25 });
    expect(m.CreateCache1hRatio).toEqual({});
    expect(m.ModelPrice).toEqual({ "dall-e-x": 0.04 });
    // refused with a catalogue message of its own (rendered in the caller's language by the route)
    expect(() => parseOpenRouter({ models: [] })).toThrow(expect.objectContaining({ key: "preset_source_no_data" }));
  });

  it("flexible: two objects of ratios, optionally wrapped in data", () => {
    const m = parseFlexible({ data: { "gpt-4o": 1.25, bad: "x", neg: -1 } }, { "gpt-4o": 4, orphan: 2 });
    expect(m.ModelRatio).toEqual({ "gpt-4o": 1.25 });
    expect(m.CompletionRatio).toEqual({ "gpt-4o": 4 });
    expect(() => parseFlexible([], {})).toThrow(expect.objectContaining({ key: "preset_source_not_object", params: { file: "prompt_ratio.json" } }));
  });

  it("mixed: ratios or prices per model", () => {
    const m = parseMixed(
      { "gpt-4o": { input: 2.5, cached_input: 1.25 }, "deepseek-chat": 0.14, "dall-e-3": { price: 0.04 } },
      { "gpt-4o": { output: 10 }, "deepseek-chat": { output: 0.42 } },
    );
    expect(m.ModelRatio).toEqual({ "gpt-4o": 1.25, "deepseek-chat": 0.14 });
    expect(m.CompletionRatio).toEqual({ "gpt-4o": 4, "deepseek-chat": 1.5 });
    expect(m.CacheRatio).toEqual({ "gpt-4o": 0.5 });
    expect(m.ModelPrice).toEqual({ "dall-e-3": 0.04 });
  });

  it("the two files sit under the source URL", () => {
    expect(sourceFiles("http://127.0.0.1:1/p/")).toEqual({
      prompt: "http://127.0.0.1:1/p/prompt_ratio.json",
      completion: "http://127.0.0.1:1/p/completion_ratio.json",
    });
  });
});
