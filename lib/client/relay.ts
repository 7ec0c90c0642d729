// Pure helpers of the relay console pages (docs/product-rules.md, "Relay console pages"): the channel model test runner and its cache, token presets, log colours, pricing maths.
// The server checks everything again; these only shape what the browser shows and sends.
import type { BadgeColor } from "@/lib/client/badge-color";
import { dict } from "@/lib/own-keys";

// ---------- channels ----------

// Channel types and their names: lib/channels/channel-types.ts (shared with the server); what
// each type's key, address and `other` look like: its adapter's profile, served by
// GET /api/channel/types (docs/providers.md).

export const CHANNEL_STATUS_COLOR: Record<number, BadgeColor> = { 1: "green", 2: "red", 3: "orange" };

export type ChannelOtherInfo = { status_reason?: string; status_time?: number };
export function parseOtherInfo(raw: string | null | undefined): ChannelOtherInfo {
  try {
    const v = raw ? JSON.parse(raw) : {};
    return v && typeof v === "object" ? (v as ChannelOtherInfo) : {};
  } catch {
    return {};
  }
}

// A tag row's reason to show: that of its most recently auto-disabled channel.
export function latestDisabledInfo(children: ReadonlyArray<{ status: number; other_info: string }>): string | undefined {
  let latest: { info: string; time: number } | undefined;
  for (const c of children) {
    if (c.status !== 3) continue;
    const time = Number(parseOtherInfo(c.other_info).status_time ?? 0);
    if (!latest || time > latest.time) latest = { info: c.other_info, time };
  }
  return latest?.info;
}

// A JSON object field of the editor (model_mapping, status_code_mapping): empty is fine.
export function isJsonObjectText(text: string): boolean {
  if (!text.trim()) return true;
  try {
    const v = JSON.parse(text);
    return !!v && typeof v === "object" && !Array.isArray(v);
  } catch {
    return false;
  }
}

// Inline priority/weight edits: what to send, or the validation key that refuses it.
export function inlinePriority(text: string): { value: number } | { error: "priorityInteger" } {
  const n = Number(text.trim());
  return text.trim() !== "" && Number.isInteger(n) ? { value: n } : { error: "priorityInteger" };
}
export function inlineWeight(text: string): { value: number } | { error: "weightNonNegative" } {
  const n = Number(text.trim());
  if (text.trim() === "" || !Number.isInteger(n)) return { error: "weightNonNegative" };
  return { value: Math.max(0, n) }; // a negative weight is clamped to 0
}

// Response time colours of the channel list (ms).
export function responseTimeColor(ms: number): BadgeColor {
  if (!ms) return "gray";
  if (ms <= 1000) return "green";
  if (ms <= 3000) return "blue";
  if (ms <= 5000) return "yellow";
  return "red";
}

// ---------- channel model tests ----------

export type ModelTestResult = {
  model: string;
  success: boolean;
  message: string;
  time: number; // seconds
  retryCount: number;
  isRetryable: boolean;
};

export type ModelTestOutcome = { success: boolean; message: string; time: number; retryable: boolean };

export const TEST_CONCURRENCY = 3;
export const TEST_PAUSE_MS = 200;
export const TEST_MAX_RETRIES = 2;
export const TEST_CACHE_MS = 24 * 3600 * 1000;

// Backoff before retry n (0-based): min(1000 x 2^n, 5000) ms.
export const retryDelay = (n: number) => Math.min(1000 * 2 ** n, 5000);

export class TestCancelled extends Error {
  constructor() {
    super("cancelled");
    this.name = "TestCancelled";
  }
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new TestCancelled());
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      reject(new TestCancelled());
    });
  });

// Tests models in batches of `concurrency`, pausing between batches, retrying a retryable
// failure up to maxRetries times with backoff. Rejects with TestCancelled when aborted;
// the results so far have been reported through onResult.
export async function runModelTests(opts: {
  models: string[];
  test: (model: string, signal?: AbortSignal) => Promise<ModelTestOutcome>;
  onResult: (r: ModelTestResult, completed: number, total: number) => void;
  signal?: AbortSignal;
  concurrency?: number;
  pauseMs?: number;
  maxRetries?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}): Promise<ModelTestResult[]> {
  const { models, test, onResult, signal } = opts;
  const concurrency = opts.concurrency ?? TEST_CONCURRENCY;
  const pauseMs = opts.pauseMs ?? TEST_PAUSE_MS;
  const maxRetries = opts.maxRetries ?? TEST_MAX_RETRIES;
  const sleep = opts.sleep ?? wait;
  const results: ModelTestResult[] = [];
  let completed = 0;

  async function one(model: string): Promise<ModelTestResult> {
    let retryCount = 0;
    for (;;) {
      if (signal?.aborted) throw new TestCancelled();
      const o = await test(model, signal);
      if (o.success || !o.retryable || retryCount >= maxRetries) {
        return { model, success: o.success, message: o.message, time: o.time, retryCount, isRetryable: !o.success && o.retryable };
      }
      await sleep(retryDelay(retryCount), signal);
      retryCount++;
    }
  }

  for (let i = 0; i < models.length; i += concurrency) {
    if (signal?.aborted) throw new TestCancelled();
    if (i > 0) await sleep(pauseMs, signal);
    const batch = models.slice(i, i + concurrency);
    const done = await Promise.all(
      batch.map(async (m) => {
        const r = await one(m);
        completed++;
        onResult(r, completed, models.length);
        return r;
      }),
    );
    results.push(...done);
  }
  return results;
}

export type TestCache = Record<string, { at: number; results: ModelTestResult[] }>;

// The cached results of a channel, if younger than 24 hours.
export function cachedResults(cache: TestCache | null, channelId: number, now: number): ModelTestResult[] | null {
  const entry = cache?.[String(channelId)];
  if (!entry || now - entry.at > TEST_CACHE_MS) return null;
  return entry.results;
}

// The cache with this channel's results stored and every stale entry dropped.
export function storeResults(cache: TestCache | null, channelId: number, results: ModelTestResult[], now: number): TestCache {
  const out: TestCache = dict<TestCache[string]>();
  for (const [k, v] of Object.entries(cache ?? {})) if (now - v.at <= TEST_CACHE_MS) out[k] = v;
  out[String(channelId)] = { at: now, results };
  return out;
}

// The models left after deleting the failed ones; null when none would remain (refused).
export function withoutFailed(models: string[], results: ModelTestResult[]): string[] | null {
  const failed = new Set(results.filter((r) => !r.success).map((r) => r.model));
  const left = models.filter((m) => !failed.has(m));
  return left.length ? left : null;
}

// ---------- tokens ----------

export const QUOTA_PER_DOLLAR = 500000;
export const TOKEN_BATCH_PRESETS = [10, 20, 30, 100] as const;
export const TOKEN_QUOTA_PRESETS = [1, 10, 50, 100, 500, 1000] as const; // dollars
export const DEFAULT_TOKEN_QUOTA = 500000;
export const RATE_LIMIT_DEFAULTS = { period: 60, count: 1000, success: 10 } as const;

export type ExpiryShortcut = "never" | "hour" | "day" | "month";
export const EXPIRY_SHORTCUTS: ExpiryShortcut[] = ["never", "hour", "day", "month"];
const SHORTCUT_SECONDS: Record<Exclude<ExpiryShortcut, "never">, number> = { hour: 3600, day: 86400, month: 30 * 86400 };

// The datetime-local text for a shortcut, from now (ms); "" for never.
export function expiryFromShortcut(s: ExpiryShortcut, nowMs: number): string {
  if (s === "never") return "";
  return toLocalInput(Math.floor(nowMs / 1000) + SHORTCUT_SECONDS[s]);
}

const pad = (n: number) => String(n).padStart(2, "0");
// Unix seconds -> "YYYY-MM-DD HH:mm:ss" in the browser's zone (the expiry field's format).
export function toLocalInput(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

// The expiry field -> expired_time (-1 never); null when the text is not a date
// ("YYYY-MM-DD HH:mm[:ss]" or "YYYY-MM-DD", local time).
export function parseExpiry(text: string): number | null {
  const s = text.trim();
  if (!s) return -1;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi, se] = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0", m[6] ?? "0"].map(Number);
  const date = new Date(y, mo - 1, d, h, mi, se);
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || h > 23 || mi > 59 || se > 59) return null;
  return Math.floor(date.getTime() / 1000);
}

// ---------- logs ----------

export const LOG_TYPES = [1, 2, 3, 4, 5, 6] as const;
export const LOG_TYPE_COLOR: Record<number, BadgeColor> = { 1: "blue", 2: "green", 3: "orange", 4: "purple", 5: "yellow", 6: "red" };

export function timeUsedColor(seconds: number): BadgeColor {
  if (seconds < 101) return "green";
  if (seconds < 300) return "orange";
  return "red";
}

// frt is in milliseconds in the log's other data.
export function frtColor(ms: number): BadgeColor {
  if (ms < 3000) return "green";
  if (ms < 10000) return "orange";
  return "red";
}

// Default range of the usage logs: today 00:00 to one hour ahead (unix seconds).
export function defaultLogRange(nowMs: number): { start: number; end: number } {
  const d = new Date(nowMs);
  d.setHours(0, 0, 0, 0);
  return { start: Math.floor(d.getTime() / 1000), end: Math.floor(nowMs / 1000) + 3600 };
}

export function parseOther(raw: string | null | undefined): Record<string, unknown> {
  try {
    const v = raw ? JSON.parse(raw) : {};
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

// ---------- pricing ----------

// Prices in USD per 1M tokens (by volume) or per call, for the viewer's group ratio.
export function promptPrice(modelRatio: number, groupRatio: number): number {
  return modelRatio * 2 * groupRatio;
}
export function completionPrice(modelRatio: number, completionRatio: number, groupRatio: number): number {
  return promptPrice(modelRatio, groupRatio) * completionRatio;
}
export function perCallPrice(modelPrice: number, groupRatio: number): number {
  return modelPrice * groupRatio;
}

export function ratioColor(r: number): BadgeColor {
  if (r > 5) return "red";
  if (r > 3) return "orange";
  if (r > 1) return "blue";
  return "green";
}

// "$1.5" with at most 6 significant decimals, no trailing zeros.
export function formatUsd(n: number): string {
  return "$" + Number(n.toFixed(6)).toString();
}

// Fuzzy model search: every character of the query, in order, case-insensitive.
export function fuzzyMatch(name: string, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const s = name.toLowerCase();
  if (s.includes(q)) return true;
  let i = 0;
  for (const ch of s) if (ch === q[i]) i++;
  return i === q.length;
}
