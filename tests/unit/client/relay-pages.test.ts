// The pure helpers of the relay console pages: channels, model tests, tokens, logs, prices (lib/client).
import { describe, expect, it } from "vitest";
import {
  cachedResults,
  retryDelay,
  runModelTests,
  storeResults,
  TestCancelled,
  TEST_CACHE_MS,
  withoutFailed,
  type ModelTestResult,
} from "@/lib/client/model-tests";
import { completionPrice, fuzzyMatch, perCallPrice, promptPrice, ratioColor } from "@/lib/client/prices";
import { defaultLogRange, frtColor, timeUsedColor } from "@/lib/client/logs";
import { expiryFromShortcut, parseExpiry } from "@/lib/client/tokens";
import { inlinePriority, inlineWeight, isJsonObjectText, latestDisabledInfo } from "@/lib/client/channels";

describe("channel inline edits", () => {
  it("priority must be an integer", () => {
    expect(inlinePriority("5")).toEqual({ value: 5 });
    expect(inlinePriority("-3")).toEqual({ value: -3 });
    expect(inlinePriority("1.5")).toEqual({ error: "priorityInteger" });
    expect(inlinePriority("")).toEqual({ error: "priorityInteger" });
    expect(inlinePriority("abc")).toEqual({ error: "priorityInteger" });
  });
  it("weight is a non-negative integer, a negative one is clamped to 0", () => {
    expect(inlineWeight("7")).toEqual({ value: 7 });
    expect(inlineWeight("-4")).toEqual({ value: 0 });
    expect(inlineWeight("2.5")).toEqual({ error: "weightNonNegative" });
  });
  it("JSON fields must be objects", () => {
    expect(isJsonObjectText("")).toBe(true);
    expect(isJsonObjectText('{"a":"b"}')).toBe(true);
    expect(isJsonObjectText("[1]")).toBe(false);
    expect(isJsonObjectText("{a:1}")).toBe(false);
  });
});

describe("model test runner", () => {
  it("backs off min(1000 x 2^n, 5000) ms", () => {
    expect([0, 1, 2, 3, 4].map(retryDelay)).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it("runs batches of 3 with a 200 ms pause and retries a retryable failure twice", async () => {
    const sleeps: number[] = [];
    const calls: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const progress: string[] = [];
    const results = await runModelTests({
      models: ["a", "b", "c", "d", "bad"],
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      test: async (m) => {
        calls.push(m);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight--;
        return m === "bad" ? { success: false, message: "boom", time: 0.1, retryable: true } : { success: true, message: "", time: 0.2, retryable: false };
      },
      onResult: (_r, completed, total) => progress.push(`${completed}/${total}`),
    });
    expect(maxInFlight).toBe(3);
    expect(calls.filter((c) => c === "bad")).toHaveLength(3);
    expect(sleeps).toEqual([200, 1000, 2000]);
    expect(progress.at(-1)).toBe("5/5");
    const bad = results.find((r) => r.model === "bad")!;
    expect(bad).toMatchObject({ success: false, retryCount: 2, isRetryable: true });
  });

  it("does not retry a non-retryable failure, and cancels", async () => {
    const calls: string[] = [];
    const r = await runModelTests({
      models: ["x"],
      sleep: async () => {},
      test: async (m) => {
        calls.push(m);
        return { success: false, message: "404", time: 0, retryable: false };
      },
      onResult: () => {},
    });
    expect(calls).toEqual(["x"]);
    expect(r[0].retryCount).toBe(0);
    const controller = new AbortController();
    controller.abort();
    await expect(
      runModelTests({
        models: ["x"],
        signal: controller.signal,
        test: async () => ({ success: true, message: "", time: 0, retryable: false }),
        onResult: () => {},
      }),
    ).rejects.toBeInstanceOf(TestCancelled);
  });

  it("caches results 24 hours per channel and refuses to delete every model", () => {
    const res: ModelTestResult[] = [{ model: "a", success: false, message: "", time: 0, retryCount: 0, isRetryable: false }];
    const cache = storeResults(null, 7, res, 1000);
    expect(cachedResults(cache, 7, 1000 + TEST_CACHE_MS)).toEqual(res);
    expect(cachedResults(cache, 7, 1001 + TEST_CACHE_MS)).toBeNull();
    expect(cachedResults(cache, 8, 1000)).toBeNull();
    expect(Object.keys(storeResults(cache, 9, [], 2000 + TEST_CACHE_MS))).toEqual(["9"]);
    expect(withoutFailed(["a"], res)).toBeNull();
    expect(withoutFailed(["a", "b"], res)).toEqual(["b"]);
  });
});

describe("token expiry", () => {
  it("parses the field, -1 for never, null for a bad date", () => {
    expect(parseExpiry("")).toBe(-1);
    expect(parseExpiry("2030-01-02 03:04:05")).toBe(Math.floor(new Date(2030, 0, 2, 3, 4, 5).getTime() / 1000));
    expect(parseExpiry("2030-02-30 00:00:00")).toBeNull();
    expect(parseExpiry("tomorrow")).toBeNull();
  });
  it("shortcuts: never, one hour, one day, one month of 30 days", () => {
    const now = new Date(2030, 0, 1, 12, 0, 0).getTime();
    expect(expiryFromShortcut("never", now)).toBe("");
    expect(parseExpiry(expiryFromShortcut("hour", now))).toBe(now / 1000 + 3600);
    expect(parseExpiry(expiryFromShortcut("day", now))).toBe(now / 1000 + 86400);
    expect(parseExpiry(expiryFromShortcut("month", now))).toBe(now / 1000 + 30 * 86400);
  });
});

describe("logs", () => {
  it("colours use time and first-token time", () => {
    expect([100, 101, 299, 300].map(timeUsedColor)).toEqual(["green", "orange", "orange", "red"]);
    expect([2999, 3000, 9999, 10000].map(frtColor)).toEqual(["green", "orange", "orange", "red"]);
  });
  it("defaults to today 00:00 until one hour ahead", () => {
    const now = new Date(2030, 5, 6, 15, 30, 0).getTime();
    expect(defaultLogRange(now)).toEqual({ start: new Date(2030, 5, 6).getTime() / 1000, end: now / 1000 + 3600 });
  });
});

describe("pricing", () => {
  it("follows the documented rules", () => {
    expect(promptPrice(15, 1)).toBe(30);
    expect(promptPrice(1.25, 2)).toBe(5);
    expect(completionPrice(1.25, 4, 2)).toBe(20);
    expect(perCallPrice(0.04, 1.5)).toBeCloseTo(0.06);
  });
  it("colours ratios and matches names fuzzily", () => {
    expect([6, 5, 4, 3, 2, 1, 0.5].map(ratioColor)).toEqual(["red", "orange", "orange", "blue", "blue", "green", "green"]);
    expect(fuzzyMatch("gpt-4o-mini", "g4mini")).toBe(true);
    expect(fuzzyMatch("gpt-4o-mini", "GPT")).toBe(true);
    expect(fuzzyMatch("claude-3", "gpt")).toBe(false);
  });
});

describe("a tag row's auto-disabled reason", () => {
  it("is that of its most recently auto-disabled channel", () => {
    const info = (reason: string, time: number) => JSON.stringify({ status_reason: reason, status_time: time });
    const children = [
      { status: 3, other_info: info("old failure", 100) },
      { status: 3, other_info: info("new failure", 200) },
      { status: 2, other_info: info("manual", 300) },
    ];
    expect(latestDisabledInfo(children)).toBe(info("new failure", 200));
    expect(latestDisabledInfo([{ status: 1, other_info: "" }])).toBeUndefined();
  });
});
