// The channel model test runner of the console and its cache (docs/product-rules.md, "Relay console
// pages"): batches, pauses, retries with backoff, cancellation. Pure; the page supplies the call.
import { dict } from "@/lib/own-keys";

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
