// The dashboard's arithmetic (lib/client/dashboard.ts): ranges in whole hours, buckets of the
// browser's zone (weeks from Monday), series per model, totals and averages, model shares.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bucketStart,
  bucketStarts,
  buildSeries,
  formatRate,
  granularityOf,
  hourRange,
  modelShares,
  openingPreset,
  totals,
  type DataRow,
} from "@/lib/client/dashboard";

const H = 3600;
let tz: string | undefined;
beforeAll(() => {
  tz = process.env.TZ;
  process.env.TZ = "Asia/Shanghai"; // UTC+8, no daylight saving
});
afterAll(() => {
  process.env.TZ = tz;
});

// 2026-11-23 is a Monday; 00:00 in Shanghai is 2026-11-22T16:00Z
const MON = Date.UTC(2026, 10, 22, 16) / 1000;

const row = (h: number, model: string, count: number, quota: number, p = 10, c = 5): DataRow => ({
  created_at: h,
  model_name: model,
  count,
  quota,
  token_used: p + c,
  prompt_tokens: p,
  completion_tokens: c,
});

describe("dashboard arithmetic", () => {
  it("takes the hours containing the start and the end", () => {
    expect(hourRange(MON + 1799, MON + 5 * H + 1)).toEqual({ start: MON, end: MON + 5 * H });
    expect(hourRange(MON + 10, MON + 5)).toEqual({ start: MON, end: MON });
  });

  it("puts hours into local days and Monday weeks", () => {
    expect(bucketStart(MON + 5 * H, "day")).toBe(MON);
    expect(bucketStart(MON - H, "day")).toBe(MON - 24 * H);
    expect(bucketStart(MON + 3 * 24 * H + 7 * H, "week")).toBe(MON);
    expect(bucketStart(MON - H, "week")).toBe(MON - 7 * 24 * H);
    expect(bucketStarts(MON - 2 * H, MON + 26 * H, "day")).toEqual([MON - 24 * H, MON, MON + 24 * H]);
    expect(bucketStarts(MON, MON + 3 * H, "hour")).toHaveLength(4);
    expect(granularityOf("week")).toBe("week");
    expect(granularityOf("month")).toBe("hour");
  });

  it("sums rows per bucket and model, with empty buckets as zero", () => {
    const rows = [row(MON - H, "a", 2, 100), row(MON, "b", 1, 300), row(MON + H, "a", 3, 50, 7, 1), row(MON + 25 * H, "b", 4, 10)];
    const s = buildSeries(rows, MON - H, MON + 25 * H, "day");
    expect(s.models).toEqual(["b", "a"]);
    expect(s.buckets).toEqual([MON - 24 * H, MON, MON + 24 * H]);
    expect(s.quota.map((p) => p.total)).toEqual([100, 350, 10]);
    expect(s.quota[1].by).toMatchObject({ a: 50, b: 300 });
    expect(s.calls.map((p) => p.total)).toEqual([2, 4, 4]);
    expect(s.tokens[1]).toMatchObject({ prompt: 17, completion: 6, total: 23 });
    const hourly = buildSeries(rows, MON - H, MON + 25 * H, "hour");
    expect(hourly.buckets).toHaveLength(27);
    expect(hourly.quota.reduce((a, p) => a + p.total, 0)).toBe(460);
  });

  it("keeps models named like the bucket's own fields apart from them", () => {
    const names = ["t", "total", "__proto__", "constructor"];
    const rows = names.map((m, i) => row(MON, m, 1, 10 * (i + 1)));
    const s = buildSeries(rows, MON, MON, "day");
    const p = s.quota[0];
    expect(p.t).toBe(MON);
    expect(p.total).toBe(100);
    expect(names.map((m) => p.by[m])).toEqual([10, 20, 30, 40]);
    expect(Object.keys(p.by).sort()).toEqual([...names].sort());
  });

  it("averages calls and tokens per minute over the time that has passed", () => {
    const rows = [row(MON, "a", 120, 1, 100, 20)];
    expect(totals(rows, MON, MON + H, MON + 2 * H)).toMatchObject({ quota: 1, count: 120, tokens: 120, rpm: 1, tpm: 1 });
    // the range ends in the future: only the hour passed counts
    expect(totals(rows, MON, MON + 5 * H, MON + H).rpm).toBe(2);
  });

  it("keeps a few calls over a day above zero", () => {
    // ten calls and 300 tokens in the last 24 hours: 24 whole hours have passed
    const t = totals([row(MON, "a", 10, 1, 300, 0)], MON - 23 * H, MON, MON + H);
    expect(t.rpm).toBeCloseTo(10 / 1440, 10);
    expect(formatRate(t.rpm)).toBe("0.0069");
    expect(formatRate(t.tpm)).toBe("0.21");
    expect(formatRate(0)).toBe("0");
    expect(formatRate(2.345)).toBe("2.35");
    expect(formatRate(0.5)).toBe("0.5");
    expect(formatRate(0.00000012)).toBe("0.00000012");
    expect(formatRate(123456)).toBe("123.5k");
  });

  it("opens on a range that shows the recent traffic at the default granularity", () => {
    expect(openingPreset("hour")).toBe("24h");
    expect(openingPreset("day")).toBe("7d");
    expect(openingPreset("week")).toBe("30d");
  });

  it("gives each model's share of the quota, or of the calls when nothing was charged", () => {
    expect(modelShares([row(MON, "a", 1, 300), row(MON, "b", 3, 100)]).map((s) => [s.model, s.share])).toEqual([
      ["a", 0.75],
      ["b", 0.25],
    ]);
    expect(modelShares([row(MON, "a", 1, 0), row(MON, "b", 3, 0)]).map((s) => [s.model, s.share])).toEqual([
      ["b", 0.75],
      ["a", 0.25],
    ]);
  });
});
