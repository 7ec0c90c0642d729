import type { OptionKey } from "@/lib/options/registry";
import { beforeEach, describe, expect, it } from "vitest";
import { applyOption } from "@/lib/options/store";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";
import {
  boundUsage,
  capQuota,
  ChargeError,
  checkedQuota,
  MAX_CALL_AUDIO_SECONDS,
  MAX_CALL_IMAGES,
  MAX_CALL_QUOTA,
  MAX_USAGE_TOKENS,
} from "@/lib/billing/bounds";
import { estimateQuota, quotaFor, resolvePrice } from "@/lib/billing/pricing";

const set = (key: OptionKey, value: unknown) => applyOption(key, typeof value === "string" ? value : JSON.stringify(value));
const usage = (p: number, c: number, cached = 0, created = 0, reasoning = 0) => ({
  prompt_tokens: p,
  completion_tokens: c,
  cached_tokens: cached,
  cache_creation_tokens: created,
  cache_creation_1h_tokens: 0,
  reasoning_tokens: reasoning,
});

beforeEach(() => {
  applyOption("QuotaPerUnit", OPTION_DEFAULTS.QuotaPerUnit);
  set("ModelRatio", { normal: 1, dear: 1e6, absurd: 1e300 });
  set("CompletionRatio", { normal: 1 });
  set("ModelPrice", { "per-call": 0.04, "per-call-dear": 1e12 });
  set("GroupRatio", { default: 1 });
});

describe("usage bounds", () => {
  it("cuts every token field to the per-call bound and says so", () => {
    const u = usage(1e15, 1e20, 1e30, Infinity, 2e7);
    expect(boundUsage(u, undefined, Infinity, Infinity)).toBe(true);
    expect(u).toEqual(usage(MAX_USAGE_TOKENS, MAX_USAGE_TOKENS, MAX_USAGE_TOKENS, MAX_USAGE_TOKENS, MAX_USAGE_TOKENS));
  });
  it("cuts prompt-side figures to the call's prompt bound and completion-side ones to its completion bound", () => {
    const u = usage(5000, 900, 4000, 3000, 700);
    expect(boundUsage(u, undefined, 1000, 50)).toBe(true);
    expect(u).toEqual(usage(1000, 50, 1000, 1000, 50));
    const within = usage(1000, 50, 1000, 0, 50);
    expect(boundUsage(within, undefined, 1000, 50)).toBe(false);
  });
  it("leaves figures within the bounds alone, and counts what is not a figure as 0", () => {
    const u = usage(100, 20.7, 5, 0, 3);
    expect(boundUsage(u, undefined, MAX_USAGE_TOKENS, MAX_USAGE_TOKENS)).toBe(false);
    expect(u).toEqual(usage(100, 20, 5, 0, 3));
    const odd = usage(-5, NaN, -Infinity, 0, 0);
    expect(boundUsage(odd, undefined, MAX_USAGE_TOKENS, MAX_USAGE_TOKENS)).toBe(false);
    expect(odd).toEqual(usage(0, 0, 0, 0, 0));
  });
  it("bounds the meters: images, characters, audio seconds (fractions kept)", () => {
    const meter = { images: 1e9, characters: 1e18, seconds: 1e12 };
    expect(boundUsage(usage(1, 1), meter, MAX_USAGE_TOKENS, MAX_USAGE_TOKENS)).toBe(true);
    expect(meter).toEqual({ images: MAX_CALL_IMAGES, characters: MAX_USAGE_TOKENS, seconds: MAX_CALL_AUDIO_SECONDS });
    const small = { images: 2, seconds: 4.5 };
    expect(boundUsage(usage(1, 1), small, MAX_USAGE_TOKENS, MAX_USAGE_TOKENS)).toBe(false);
    expect(small).toEqual({ images: 2, seconds: 4.5 });
  });
});

describe("checked charges", () => {
  it("never produces Infinity, NaN or a rounded-off bigint", () => {
    expect(() => checkedQuota(Infinity)).toThrow(ChargeError);
    expect(() => checkedQuota(NaN)).toThrow(ChargeError);
    expect(() => checkedQuota(-1)).toThrow(ChargeError);
    expect(checkedQuota(1e300)).toBe(MAX_CALL_QUOTA);
    expect(checkedQuota(12.5)).toBe(13n);
    expect(Number.isSafeInteger(Number(MAX_CALL_QUOTA))).toBe(true);
    expect(capQuota(MAX_CALL_QUOTA * 128n)).toBe(MAX_CALL_QUOTA);
  });
  it("caps a call's quota at MAX_CALL_QUOTA, by tokens or per call", () => {
    const dear = resolvePrice({ model: "dear", group: "default" });
    expect(quotaFor(dear, { promptTokens: MAX_USAGE_TOKENS, completionTokens: MAX_USAGE_TOKENS })).toBe(MAX_CALL_QUOTA);
    expect(quotaFor(resolvePrice({ model: "per-call-dear", group: "default" }), { promptTokens: 0, completionTokens: 0 })).toBe(MAX_CALL_QUOTA);
    expect(estimateQuota(dear, { promptTokens: 10, maxTokens: 1e20 })).toBe(MAX_CALL_QUOTA);
    expect(quotaFor(resolvePrice({ model: "normal", group: "default" }), { promptTokens: 1000, completionTokens: 10 })).toBe(1010n);
    expect(quotaFor(resolvePrice({ model: "per-call", group: "default" }), { promptTokens: 0, completionTokens: 0 })).toBe(20000n);
  });
  it("throws a ChargeError when the charge overflows to Infinity", () => {
    const absurd = resolvePrice({ model: "absurd", group: "default" });
    set("GroupRatio", { default: 1e300 });
    const overflow = resolvePrice({ model: "absurd", group: "default" });
    expect(quotaFor(absurd, { promptTokens: 10, completionTokens: 0 })).toBe(MAX_CALL_QUOTA);
    expect(() => quotaFor(overflow, { promptTokens: 10, completionTokens: 0 })).toThrow(ChargeError);
    expect(() => quotaFor(absurd, { promptTokens: Infinity, completionTokens: 0 })).toThrow(ChargeError);
  });
});
