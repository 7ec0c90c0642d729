// The pricing editor's rules (lib/client/model-pricing.ts): the conversions of docs/pricing.md, the
// badge colours, the rows and their drafts, the cell, add and batch checks.
import { describe, expect, it } from "vitest";
import {
  applyBatch,
  checkNewName,
  completionRatioFromPrices,
  draftOf,
  inputPriceFromRatio,
  mapsFromOptions,
  outputPriceFromRatios,
  parseCell,
  putRow,
  ratioBadgeColor,
  ratioFromInputPrice,
  removeRow,
  rowFromDraft,
  rowsFromMaps,
  switchMode,
  unsetModels,
  type PriceMaps,
} from "@/lib/client/model-pricing";
import { saveOptions } from "@/lib/client/save-options";

const maps = (): PriceMaps => ({
  ModelRatio: { "gpt-4o": 1.25, "deepseek-chat": 0.14 },
  CompletionRatio: { "gpt-4o": 4 },
  CacheRatio: { "gpt-4o": 0.5 },
  CreateCacheRatio: { "gpt-4o": 1.25 },
  CreateCache1hRatio: { "gpt-4o": 2 },
  ModelPrice: { "dall-e-3": 0.04 },
});

describe('conversions (docs/pricing.md, "Conversions")', () => {
  it("ratio = input price / 2, price = ratio × 2, completion ratio = output / input", () => {
    expect(ratioFromInputPrice(2.5)).toBe(1.25);
    expect(inputPriceFromRatio(1.25)).toBe(2.5);
    expect(completionRatioFromPrices(2.5, 10)).toBe(4);
    expect(completionRatioFromPrices(0.6, 2.2)).toBe(3.666667);
    expect(outputPriceFromRatios(1.25, 4)).toBe(10);
    expect(ratioFromInputPrice(0.28)).toBe(0.14);
  });

  it("badge colours: above 5 red, above 3 orange, above 1 blue, else green", () => {
    expect(ratioBadgeColor(5.01)).toBe("red");
    expect(ratioBadgeColor(5)).toBe("orange");
    expect(ratioBadgeColor(3)).toBe("blue");
    expect(ratioBadgeColor(1)).toBe("green");
    expect(ratioBadgeColor(0)).toBe("green");
  });
});

describe("rows", () => {
  it("one row per model of the price, ratio and completion maps, sorted", () => {
    const rows = rowsFromMaps(maps());
    expect(rows.map((r) => r.name)).toEqual(["dall-e-3", "deepseek-chat", "gpt-4o"]);
    expect(rows[2]).toEqual({
      name: "gpt-4o",
      price: undefined,
      ratio: 1.25,
      completionRatio: 4,
      cacheRatio: 0.5,
      createCacheRatio: 1.25,
      createCache1hRatio: 2,
    });
  });

  it("maps that do not parse read as empty", () => {
    expect(mapsFromOptions({ ModelRatio: "{bad", CompletionRatio: '{"a":-1}', ModelPrice: '{"x":1}' }).ModelPrice).toEqual({ x: 1 });
    expect(mapsFromOptions({ ModelRatio: "{bad" }).ModelRatio).toEqual({});
  });

  it("a per-request row drops the ratios, a per-token row the price; the cache ratios stay", () => {
    const a = putRow(maps(), { name: "gpt-4o", price: 0.1 });
    expect(a.ModelPrice["gpt-4o"]).toBe(0.1);
    expect(a.ModelRatio["gpt-4o"]).toBeUndefined();
    expect(a.CompletionRatio["gpt-4o"]).toBeUndefined();
    expect(a.CacheRatio["gpt-4o"]).toBe(0.5);
    expect(a.CreateCacheRatio["gpt-4o"]).toBe(1.25);
    expect(a.CreateCache1hRatio["gpt-4o"]).toBe(2);
    expect(rowsFromMaps(maps()).find((r) => r.name === "gpt-4o")).toMatchObject({ cacheRatio: 0.5, createCacheRatio: 1.25, createCache1hRatio: 2 });
    const b = putRow(a, { name: "gpt-4o", ratio: 2, completionRatio: 3 });
    expect(b.ModelPrice["gpt-4o"]).toBeUndefined();
    expect(b.ModelRatio["gpt-4o"]).toBe(2);
    expect(maps().ModelRatio["gpt-4o"]).toBe(1.25);
    const c = removeRow(b, "gpt-4o");
    for (const k of ["ModelRatio", "CompletionRatio", "CacheRatio", "CreateCacheRatio", "CreateCache1hRatio", "ModelPrice"] as const)
      expect(c[k]["gpt-4o"]).toBeUndefined();
  });
});

describe("cells and drafts", () => {
  it("cells are numbers ≥ 0 or empty (请输入数字)", () => {
    expect(parseCell("1.5")).toEqual({ ok: true, value: 1.5 });
    expect(parseCell("")).toEqual({ ok: true, value: undefined });
    expect(parseCell("abc")).toEqual({ ok: false, error: "notNumber" });
    expect(parseCell("-1")).toEqual({ ok: false, error: "notNumber" });
  });

  it("switching ratio → price converts and back", () => {
    const d = draftOf({ name: "gpt-4o", ratio: 1.25, completionRatio: 4 });
    expect(d.mode).toBe("ratio");
    const p = switchMode(d, "tokenPrice");
    expect([p.inputPrice, p.outputPrice]).toEqual(["2.5", "10"]);
    const r = switchMode(Object.assign({}, p, { inputPrice: "3", outputPrice: "15" }), "ratio");
    expect([r.ratio, r.completionRatio]).toEqual(["1.5", "5"]);
  });

  it("a token price is converted to ratios; a zero token price is refused (模型价格不能为0)", () => {
    const d = Object.assign(draftOf({ name: "m" }), { mode: "tokenPrice" as const, inputPrice: "2.5", outputPrice: "10" });
    expect(rowFromDraft(d)).toEqual({ ok: true, row: { name: "m", ratio: 1.25, completionRatio: 4 } });
    expect(rowFromDraft(Object.assign({}, d, { inputPrice: "0" }))).toMatchObject({ ok: false, error: "priceZero" });
    expect(rowFromDraft(Object.assign({}, d, { inputPrice: "x" }))).toMatchObject({ ok: false, error: "notNumber" });
    const perRequest = Object.assign(draftOf({ name: "img" }), { mode: "perRequest" as const, price: "0.04" });
    expect(rowFromDraft(perRequest)).toEqual({ ok: true, row: { name: "img", price: 0.04 } });
    expect(rowFromDraft(Object.assign({}, perRequest, { price: "" }))).toMatchObject({ ok: false, error: "valueRequired" });
  });

  it("a new name must not exist (模型名称已存在)", () => {
    expect(checkNewName("gpt-4o", ["gpt-4o"])).toBe("nameExists");
    expect(checkNewName(" ", [])).toBe("nameRequired");
    expect(checkNewName("new", ["gpt-4o"])).toBeNull();
  });
});

describe("batch set", () => {
  it("needs a model, a numeric value, and both values for both ratios", () => {
    expect(applyBatch(maps(), { models: [], target: "ratio", value: "1" })).toEqual({ ok: false, error: "selectModels" });
    expect(applyBatch(maps(), { models: ["gpt-4o"], target: "ratio", value: "" })).toEqual({ ok: false, error: "valueRequired" });
    expect(applyBatch(maps(), { models: ["gpt-4o"], target: "ratio", value: "x" })).toEqual({ ok: false, error: "notNumber" });
    expect(applyBatch(maps(), { models: ["gpt-4o"], target: "bothRatios", value: "1" })).toEqual({ ok: false, error: "bothRequired" });
  });

  it("sets what was chosen on every selected model", () => {
    const r = applyBatch(maps(), { models: ["gpt-4o", "deepseek-chat"], target: "bothRatios", value: "2", value2: "3" });
    expect(r.ok && r.maps.ModelRatio).toMatchObject({ "gpt-4o": 2, "deepseek-chat": 2 });
    expect(r.ok && r.maps.CompletionRatio).toMatchObject({ "gpt-4o": 3, "deepseek-chat": 3 });
    const p = applyBatch(maps(), { models: ["gpt-4o"], target: "price", value: "0.5" });
    expect(p.ok && p.maps.ModelPrice["gpt-4o"]).toBe(0.5);
    expect(p.ok && p.maps.ModelRatio["gpt-4o"]).toBeUndefined();
  });
});

describe("unset models", () => {
  it("served models with neither a price nor a ratio", () => {
    expect(unsetModels(["gpt-4o", "dall-e-3", "mystery", "mystery", "other"], maps())).toEqual(["mystery", "other"]);
    // names of Object.prototype's properties are unset too until priced (docs/conventions.md, "Own keys")
    expect(unsetModels(["constructor", "toString", "__proto__"], mapsFromOptions({}))).toEqual(["__proto__", "constructor", "toString"]);
  });

  it("model names of Object.prototype's properties are rows like others, __proto__ included", () => {
    const m = mapsFromOptions({ ModelRatio: '{"__proto__": 2, "constructor": 3}', ModelPrice: '{"toString": 0.5}' });
    expect(rowsFromMaps(m)).toEqual([
      { name: "__proto__", price: undefined, ratio: 2, completionRatio: undefined, cacheRatio: undefined },
      { name: "constructor", price: undefined, ratio: 3, completionRatio: undefined, cacheRatio: undefined },
      { name: "toString", price: 0.5, ratio: undefined, completionRatio: undefined, cacheRatio: undefined },
    ]);
    const next = putRow(m, { name: "valueOf", ratio: 1, completionRatio: 2 });
    expect(JSON.stringify(next.ModelRatio)).toBe('{"__proto__":2,"constructor":3,"valueOf":1}');
    expect(Object.keys(removeRow(next, "__proto__").ModelRatio)).toEqual(["constructor", "valueOf"]);
  });
});

// The settings kit's save order (lib/client/save-options.ts) as the fallback pricing section
// needs it: the server checks the combination against what is already saved.

describe("saving combined keys", () => {
  const order = async (changes: Array<{ key: string; value: string }>) => {
    const calls: string[] = [];
    await saveOptions(changes, async (c) => {
      calls.push(`${c.key}=${c.value}`);
      await new Promise((r) => setTimeout(r, 2));
      return { ok: true };
    });
    return calls;
  };

  it("enables a toggle after its values are saved, and clears before it sets", async () => {
    const calls = await order([
      { key: "fallback_pricing_enabled", value: "true" },
      { key: "fallback_input_ratio", value: "1" },
      { key: "fallback_single_price", value: "" },
    ]);
    expect(calls).toEqual(["fallback_single_price=", "fallback_input_ratio=1", "fallback_pricing_enabled=true"]);
  });

  it("disables a toggle before its values change", async () => {
    const calls = await order([
      { key: "fallback_single_price", value: "1" },
      { key: "RebateEnabled", value: "false" },
      { key: "fallback_pricing_enabled", value: "false" },
    ]);
    expect(calls.slice(0, 2).sort()).toEqual(["RebateEnabled=false", "fallback_pricing_enabled=false"]);
    expect(calls[2]).toBe("fallback_single_price=1");
  });
});
