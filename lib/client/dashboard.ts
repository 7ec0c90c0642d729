// The data dashboard's arithmetic (docs/dashboard.md, "The page"): the hourly rows of
// /api/data are grouped into hours, days or weeks of the browser's time zone, per model,
// and summed into the stat cards. Pure functions, tested in tests/unit/client/dashboard.test.ts.
import { addDays, addHours, addWeeks, startOfDay, startOfHour, startOfWeek } from "date-fns";
import { shortenNumber } from "./format";
import { dict } from "@/lib/own-keys";

export type Granularity = "hour" | "day" | "week";
export const GRANULARITIES: Granularity[] = ["hour", "day", "week"];
export const HOUR = 3600;

/** One hourly row of GET /api/data (new-api's fields plus the two token parts). */
export type DataRow = {
  created_at: number;
  model_name: string;
  username?: string;
  count: number;
  token_used: number;
  prompt_tokens?: number;
  completion_tokens?: number;
  quota: number;
};

/** The longest range drawn by the hour (about 745 bars); a longer one is drawn by the day. */
export const HOURLY_MAX_DAYS = 31;

export function granularityOf(v: unknown): Granularity {
  return v === "day" || v === "week" ? v : "hour";
}

/** The range as the calls take it: the hour containing the start to the hour containing the end. */
export function hourRange(startSec: number, endSec: number): { start: number; end: number } {
  const start = Math.floor(startSec / HOUR) * HOUR;
  const end = Math.floor(endSec / HOUR) * HOUR;
  return { start, end: Math.max(start, end) };
}

// The start (unix seconds) of the bucket that holds this hour. Weeks start on Monday.
export function bucketStart(hourSec: number, g: Granularity): number {
  const d = new Date(hourSec * 1000);
  const s = g === "hour" ? startOfHour(d) : g === "day" ? startOfDay(d) : startOfWeek(d, { weekStartsOn: 1 });
  return Math.floor(s.getTime() / 1000);
}

function nextBucket(sec: number, g: Granularity): number {
  const d = new Date(sec * 1000);
  const n = g === "hour" ? addHours(d, 1) : g === "day" ? addDays(d, 1) : addWeeks(d, 1);
  return Math.floor(n.getTime() / 1000);
}

/** Every bucket start from the bucket of `start` to that of `end` (hour starts), empty ones included. */
export function bucketStarts(start: number, end: number, g: Granularity, max = 2000): number[] {
  const out: number[] = [];
  for (let b = bucketStart(start, g); b <= end && out.length < max; b = nextBucket(b, g)) out.push(b);
  return out;
}

// `by` holds each model's value in a dict() (lib/own-keys.ts): a model may be named `t`,
// `total` or `__proto__` without touching the bucket's own fields.
export type Point = { t: number; total: number; by: Record<string, number> };
export type Series = {
  buckets: number[];
  models: string[]; // by quota, largest first
  quota: Point[];
  calls: Point[];
  tokens: { t: number; prompt: number; completion: number; total: number }[];
};

const zeroPoint = (t: number, models: string[]): Point => {
  const p: Point = { t, total: 0, by: dict<number>() };
  for (const m of models) p.by[m] = 0;
  return p;
};

/** The rows per bucket and model: quota and calls by model, tokens split in prompt and completion. */
export function buildSeries(rows: DataRow[], start: number, end: number, g: Granularity): Series {
  const byModel = new Map<string, number>();
  for (const r of rows) byModel.set(r.model_name, (byModel.get(r.model_name) ?? 0) + r.quota);
  const models = [...byModel.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([m]) => m);
  const buckets = bucketStarts(start, end, g);
  const index = new Map(buckets.map((b, i) => [b, i]));
  const quota = buckets.map((t) => zeroPoint(t, models));
  const calls = buckets.map((t) => zeroPoint(t, models));
  const tokens = buckets.map((t) => ({ t, prompt: 0, completion: 0, total: 0 }));
  for (const r of rows) {
    const i = index.get(bucketStart(r.created_at, g));
    if (i === undefined) continue;
    quota[i].by[r.model_name] += r.quota;
    quota[i].total += r.quota;
    calls[i].by[r.model_name] += r.count;
    calls[i].total += r.count;
    const prompt = r.prompt_tokens ?? r.token_used;
    const completion = r.completion_tokens ?? 0;
    tokens[i].prompt += prompt;
    tokens[i].completion += completion;
    tokens[i].total += r.token_used;
  }
  return { buckets, models, quota, calls, tokens };
}

export type Totals = { quota: number; count: number; tokens: number; rpm: number; tpm: number };

/**
 * Sums over the rows, and the average calls and tokens per minute over the range: divided by
 * the minutes from the range's first hour to now, or to the end of its last hour when that
 * has passed (a range reaching into the future counts only the time that has passed; at least
 * one minute). Not rounded: `formatRate` shows them (docs/dashboard.md, "The page").
 */
export function totals(rows: DataRow[], start: number, end: number, nowSec: number): Totals {
  let quota = 0;
  let count = 0;
  let tokens = 0;
  for (const r of rows) {
    quota += r.quota;
    count += r.count;
    tokens += r.token_used;
  }
  const until = Math.min(end + HOUR, Math.max(nowSec, start + 60));
  const minutes = Math.max(1, (until - start) / 60);
  return { quota, count, tokens, rpm: count / minutes, tpm: tokens / minutes };
}

/**
 * An average per minute for a card: two decimals from 1 up (shortened from 10,000), and below
 * 1 its first two significant digits, so that a few calls over a day read 0.0069, not 0.
 */
export function formatRate(n: number): string {
  if (n >= 1e4) return shortenNumber(Math.round(n));
  if (n >= 1 || n <= 0) return String(Math.round(n * 100) / 100);
  const decimals = Math.min(20, 1 - Math.floor(Math.log10(n)));
  return n.toFixed(decimals).replace(/0+$/, "");
}

export type ModelShare = { model: string; quota: number; count: number; tokens: number; share: number };

/** Each model's totals and share of the quota (of the calls when nothing was charged). */
export function modelShares(rows: DataRow[]): ModelShare[] {
  const m = new Map<string, ModelShare>();
  for (const r of rows) {
    let s = m.get(r.model_name);
    if (!s) m.set(r.model_name, (s = { model: r.model_name, quota: 0, count: 0, tokens: 0, share: 0 }));
    s.quota += r.quota;
    s.count += r.count;
    s.tokens += r.token_used;
  }
  const list = [...m.values()];
  const byQuota = list.some((s) => s.quota > 0);
  const sum = list.reduce((a, s) => a + (byQuota ? s.quota : s.count), 0);
  for (const s of list) s.share = sum ? (byQuota ? s.quota : s.count) / sum : 0;
  return list.sort((a, b) => b.quota - a.quota || b.count - a.count || (a.model < b.model ? -1 : 1));
}

/** The label of a bucket on the time axis (browser time zone). */
export function bucketLabel(sec: number, g: Granularity): string {
  const d = new Date(sec * 1000);
  const p = (n: number) => String(n).padStart(2, "0");
  const day = `${p(d.getMonth() + 1)}-${p(d.getDate())}`;
  return g === "hour" ? `${day} ${p(d.getHours())}:00` : day;
}

/** The preset ranges of the picker, ending now. */
export const PRESETS = [
  { key: "24h", seconds: 86_400 },
  { key: "7d", seconds: 7 * 86_400 },
  { key: "30d", seconds: 30 * 86_400 },
  { key: "90d", seconds: 90 * 86_400 },
] as const;
export type PresetKey = (typeof PRESETS)[number]["key"];

/**
 * The range the page opens on for a granularity: one that ends now and shows a handful of
 * bars or more, so that the last hours' traffic is visible at once (24 hourly bars, 7 days,
 * about 5 weeks).
 */
export function openingPreset(g: Granularity): PresetKey {
  return g === "hour" ? "24h" : g === "day" ? "7d" : "30d";
}

/** A palette for the models, readable on light and dark backgrounds. */
export const MODEL_COLORS = ["#3b82f6", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6", "#06b6d4", "#ec4899", "#84cc16", "#f97316", "#6366f1"];
export const OTHER_COLOR = "#a1a1aa";
