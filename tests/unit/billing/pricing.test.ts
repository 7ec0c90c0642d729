import type { OptionKey } from "@/lib/options/registry";
import { beforeEach, describe, expect, it } from "vitest";
import { applyOption } from "@/lib/options/store";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";
import { estimateQuota, quotaFor, redirectedPrice, resolvePrice } from "@/lib/billing/pricing";
import { AppError } from "@/lib/errors";

const set = (key: OptionKey, value: unknown) => applyOption(key, typeof value === "string" ? value : JSON.stringify(value));

beforeEach(() => {
  for (const k of [
    "SelfUseModeEnabled",
    "fallback_pricing_enabled",
    "fallback_single_price",
    "fallback_input_ratio",
    "fallback_completion_ratio",
    "QuotaPerUnit",
  ] as const) {
    applyOption(k, OPTION_DEFAULTS[k]);
  }
  set("ModelRatio", { "gpt-4o": 1.25, cheap: 0.1, both: 2, "zero-ratio": 0 });
  set("CompletionRatio", { "gpt-4o": 4, both: 3 });
  set("CacheRatio", { "gpt-4o": 0.5 });
  set("ModelPrice", { "dall-e-3": 0.04, both: 0.02 });
  set("GroupRatio", { default: 1, vip: 0.5, svip: 2, free: 0 });
});

describe("quota of a call (docs/product-rules.md)", () => {
  // model, group, prompt, completion, cached, expected quota
  const table: Array<[string, string, number, number, number, bigint, string]> = [
    ["gpt-4o", "default", 1000, 500, 0, 3750n, "1.25 × 1 × (1000 + 500×4)"],
    ["gpt-4o", "vip", 1000, 500, 400, 1750n, "1.25 × 0.5 × (600 + 400×0.5 + 500×4)"],
    ["gpt-4o", "svip", 1000, 0, 1000, 1250n, "1.25 × 2 × (0 + 1000×0.5)"],
    ["gpt-4o", "unknown-group", 10, 10, 0, 63n, "unknown group ratio is 1: 1.25 × 50 = 62.5 → 63"],
    ["cheap", "default", 15, 0, 0, 2n, "0.1 × 15 = 1.5 → 2"],
    ["cheap", "default", 3, 0, 0, 1n, "0.3 rounds to 0, a paid call costs at least 1"],
    ["cheap", "free", 1000, 1000, 0, 0n, "group ratio 0 is free"],
    ["zero-ratio", "default", 1000, 1000, 0, 0n, "model ratio 0 is free"],
    ["gpt-4o", "default", 0, 0, 0, 0n, "no tokens, no cost"],
    ["dall-e-3", "default", 1000, 1000, 0, 20000n, "per call: 0.04 × 1 × 500000"],
    ["dall-e-3", "svip", 0, 0, 0, 40000n, "per call: 0.04 × 2 × 500000"],
    ["dall-e-3", "vip", 5, 5, 0, 10000n, "per call: 0.04 × 0.5 × 500000"],
    ["both", "default", 1000, 1000, 0, 10000n, "ModelPrice wins over ModelRatio: 0.02 × 500000"],
    ["gpt-4o", "default", 2_000_000_000, 1_000_000_000, 0, 7_500_000_000n, "beyond 2^32: 1.25 × 6e9"],
  ];
  it.each(table)("%s in %s: prompt %i, completion %i, cached %i → %s (%s)", (model, group, prompt, completion, cached, expected) => {
    const price = resolvePrice({ model, group });
    const q = quotaFor(price, { promptTokens: prompt, completionTokens: completion, cachedTokens: cached });
    expect(typeof q).toBe("bigint");
    expect(q).toBe(expected);
  });

  it("reports per-call and per-token quota types", () => {
    expect(resolvePrice({ model: "both", group: "default" })).toMatchObject({ quotaType: 1, modelPrice: 0.02, source: "price" });
    expect(resolvePrice({ model: "gpt-4o", group: "vip" })).toMatchObject({
      quotaType: 0,
      modelRatio: 1.25,
      completionRatio: 4,
      cacheRatio: 0.5,
      groupRatio: 0.5,
    });
    expect(resolvePrice({ model: "cheap", group: "default" })).toMatchObject({ completionRatio: 1, cacheRatio: 1 });
  });

  it("follows QuotaPerUnit for per-call prices", () => {
    set("QuotaPerUnit", "1000000");
    expect(quotaFor(resolvePrice({ model: "dall-e-3", group: "default" }), { promptTokens: 0, completionTokens: 0 })).toBe(40000n);
  });

  it("rejects negative token counts", () => {
    expect(() => quotaFor(resolvePrice({ model: "cheap", group: "default" }), { promptTokens: -5, completionTokens: 0 })).toThrow();
  });
});

describe('prompt-cache writes (docs/pricing.md, "Prompt-cache writes")', () => {
  beforeEach(() => {
    set("ModelRatio", { "gpt-4o": 1.25, claude: 1.5, "claude-5m-only": 1.5 });
    set("CompletionRatio", { claude: 5, "claude-5m-only": 5 });
    set("CacheRatio", { "gpt-4o": 0.5, claude: 0.1, "claude-5m-only": 0.1 });
    set("CreateCacheRatio", { claude: 1.25, "claude-5m-only": 1.25 });
    set("CreateCache1hRatio", { claude: 2 });
  });
  const cost = (model: string, group: string, u: { prompt: number; completion: number; read: number; write: number; write1h: number }) =>
    quotaFor(resolvePrice({ model, group }), {
      promptTokens: u.prompt,
      completionTokens: u.completion,
      cachedTokens: u.read,
      cacheCreationTokens: u.write,
      cacheCreation1hTokens: u.write1h,
    });

  it("bills plain input, reads, 5-minute and 1-hour writes each at its ratio", () => {
    // prompt 10000 = 1000 plain + 4000 reads + 3000 5-minute writes + 2000 1-hour writes
    const u = { prompt: 10000, completion: 800, read: 4000, write: 5000, write1h: 2000 };
    // 1.5 × (1000 + 4000×0.1 + 3000×1.25 + 2000×2 + 800×5) = 1.5 × 13150 = 19725
    expect(cost("claude", "default", u)).toBe(19725n);
    // group ratio 0.5: 9862.5 → 9863
    expect(cost("claude", "vip", u)).toBe(9863n);
    expect(resolvePrice({ model: "claude", group: "default" })).toMatchObject({ cacheRatio: 0.1, createCacheRatio: 1.25, createCache1hRatio: 2 });
  });

  it("bills the writes of a model without write ratios as plain input, each map on its own", () => {
    const u = { prompt: 10000, completion: 0, read: 0, write: 5000, write1h: 2000 };
    expect(cost("gpt-4o", "default", u)).toBe(12500n); // 1.25 × 10000: writes at 1
    // 1.5 × (5000 + 3000×1.25 + 2000×1) = 1.5 × 10750 = 16125
    expect(cost("claude-5m-only", "default", u)).toBe(16125n);
    expect(resolvePrice({ model: "gpt-4o", group: "default" })).toMatchObject({ createCacheRatio: 1, createCache1hRatio: 1 });
  });

  it("caps the writes by the prompt the reads leave, and the 1-hour writes by the writes", () => {
    // reads 8000 leave 2000 for writes: 1.5 × (8000×0.1 + 2000×2) = 1.5 × 4800 = 7200 (every write is a 1-hour one)
    expect(cost("claude", "default", { prompt: 10000, completion: 0, read: 8000, write: 9000, write1h: 9000 })).toBe(7200n);
    // 1-hour writes above the writes: 1.5 × (7000 + 3000×2) = 19500
    expect(cost("claude", "default", { prompt: 10000, completion: 0, read: 0, write: 3000, write1h: 5000 })).toBe(19500n);
    expect(() => cost("claude", "default", { prompt: 10, completion: 0, read: 0, write: -1, write1h: 0 })).toThrow();
  });

  it("leaves the reservation's estimate unchanged: the prompt as plain input", () => {
    const price = resolvePrice({ model: "claude", group: "default" });
    // 1.5 × (1000 + 100×5)
    expect(estimateQuota(price, { promptTokens: 1000, maxTokens: 100 })).toBe(2250n);
  });
});

describe("models without a price", () => {
  const unset = { model: "mystery", group: "default" };
  const cost = (setting?: string) => quotaFor(resolvePrice({ ...unset, userSetting: setting }), { promptTokens: 100, completionTokens: 10 });

  it("are refused with 'model price not set'", () => {
    try {
      resolvePrice(unset);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).key).toBe("model_price_not_set");
      expect((e as AppError).params).toEqual({ model: "mystery" });
    }
  });

  // setup, expected quota for prompt 100 + completion 10 in group default
  const table: Array<[string, () => void, bigint | "refused"]> = [
    ["self-use mode: free", () => set("SelfUseModeEnabled", "true"), 0n],
    ["fallback single price 0.01 per call", () => (set("fallback_pricing_enabled", "true"), set("fallback_single_price", "0.01")), 5000n],
    [
      "fallback ratios 2 and 3: 2 × (100 + 10×3)",
      () => (set("fallback_pricing_enabled", "true"), set("fallback_input_ratio", "2"), set("fallback_completion_ratio", "3")),
      260n,
    ],
    [
      "fallback with a price and ratios together is invalid",
      () => (
        set("fallback_pricing_enabled", "true"),
        set("fallback_single_price", "0.01"),
        set("fallback_input_ratio", "2"),
        set("fallback_completion_ratio", "3")
      ),
      "refused",
    ],
    ["fallback with one ratio only is invalid", () => (set("fallback_pricing_enabled", "true"), set("fallback_input_ratio", "2")), "refused"],
    ["fallback values without the switch are ignored", () => set("fallback_single_price", "0.01"), "refused"],
  ];
  it.each(table)("%s", (_name, setup, expected) => {
    setup();
    if (expected === "refused") expect(() => cost()).toThrow(AppError);
    else expect(cost()).toBe(expected);
  });

  it("are billed at the default ratio 37.5 for a user who accepts unset models", () => {
    expect(cost(JSON.stringify({ accept_unset_model_ratio_model: true }))).toBe(4125n); // 37.5 × 110
    expect(() => cost(JSON.stringify({ accept_unset_model_ratio_model: false }))).toThrow(AppError);
    expect(() => cost("not json")).toThrow(AppError);
  });

  it("fallback takes precedence over self-use mode", () => {
    set("SelfUseModeEnabled", "true");
    set("fallback_pricing_enabled", "true");
    set("fallback_single_price", "0.002");
    expect(cost()).toBe(1000n);
  });
});

describe("reservation estimate", () => {
  it("uses max_tokens as the completion budget, else PreConsumedQuota", () => {
    const p = resolvePrice({ model: "gpt-4o", group: "default" });
    expect(estimateQuota(p, { promptTokens: 100, maxTokens: 50 })).toBe(375n); // 1.25 × (100 + 50×4)
    expect(estimateQuota(p, { promptTokens: 100 })).toBe(2625n); // 1.25 × (100 + 500×4)
    expect(estimateQuota(resolvePrice({ model: "dall-e-3", group: "vip" }), { promptTokens: 9999 })).toBe(10000n);
  });
});

// redirect_billing_enabled (docs/pricing.md, "Redirect billing"): a channel whose model_mapping
// sends `upstream` instead of the served model.
describe("redirect billing", () => {
  const usage = { promptTokens: 100, completionTokens: 10 };

  it("off, the served model's price stands; on, the upstream model's own price bills, in the caller's group", () => {
    const served = resolvePrice({ model: "cheap", group: "vip" });
    expect(redirectedPrice(served, "cheap", "gpt-4o", "vip", false)).toBe(served);
    const on = redirectedPrice(served, "cheap", "gpt-4o", "vip", true);
    expect(on).toMatchObject({ model: "gpt-4o", modelRatio: 1.25, completionRatio: 4, cacheRatio: 0.5, groupRatio: 0.5, source: "ratio" });
    expect(quotaFor(served, usage)).toBe(6n); // 0.1 × 0.5 × (100 + 10 × completion ratio 1) = 5.5 → 6
    expect(quotaFor(on, usage)).toBe(88n); // 1.25 × 0.5 × (100 + 10×4) = 87.5 → 88
  });

  it("bills a per-call price of the upstream model, and a per-token one when the served model had a price", () => {
    const served = resolvePrice({ model: "gpt-4o", group: "default" });
    const on = redirectedPrice(served, "gpt-4o", "dall-e-3", "default", true);
    expect(on).toMatchObject({ model: "dall-e-3", quotaType: 1, modelPrice: 0.04 });
    expect(quotaFor(on, usage)).toBe(20000n);
    const back = redirectedPrice(resolvePrice({ model: "dall-e-3", group: "default" }), "dall-e-3", "gpt-4o", "default", true);
    expect(back).toMatchObject({ model: "gpt-4o", quotaType: 0, modelPrice: -1, modelRatio: 1.25 });
  });

  it("falls back to the served model's price when the upstream model has no price of its own, even with fallback pricing on", () => {
    set("fallback_pricing_enabled", "true");
    set("fallback_single_price", "9");
    const served = resolvePrice({ model: "gpt-4o", group: "default" });
    expect(redirectedPrice(served, "gpt-4o", "no-such-upstream", "default", true)).toBe(served);
  });

  it("keeps the price when nothing is redirected, and a virtual model's own price whatever the channel sends", () => {
    const served = resolvePrice({ model: "gpt-4o", group: "default" });
    expect(redirectedPrice(served, "gpt-4o", "gpt-4o", "default", true)).toBe(served);
    // a virtual model "smart" with a price of its own, served by its actual model "cheap"
    const virtualOwn = resolvePrice({ model: "both", group: "default" });
    expect(redirectedPrice(virtualOwn, "cheap", "gpt-4o", "default", true)).toBe(virtualOwn);
  });
});
