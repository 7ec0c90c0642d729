// The usage-log writer: relay calls enqueue rows in memory and return at once; a timer
// writes them in batches (lib/logs/insert.ts) every 100 ms or as soon as 200 are waiting,
// and the shutdown sequence flushes what is left (registerFlusher). If the database
// refuses a batch, the rows are kept (up to MAX_QUEUE) and retried on the next tick.
import "server-only";
import { logger } from "@/lib/logger";
import { insertLogRows, type LogRow } from "@/lib/logs/insert";
import { registerFlusher } from "@/lib/lifecycle";
import { describeError } from "@/lib/errors";
import { env } from "@/lib/env";
import { metrics } from "@/lib/metrics";
import { nowSeconds } from "@/lib/time";

const log = logger("logs");

export const LOG_TYPE = { topup: 1, consume: 2, admin: 3, system: 4, checkIn: 5, error: 6 } as const;

export type LogInput = {
  user_id: number;
  type: number;
  created_at?: number; // unix seconds, now by default
  content?: string;
  username?: string;
  token_name?: string;
  token_id?: number;
  model_name?: string;
  quota?: bigint;
  prompt_tokens?: number;
  completion_tokens?: number;
  use_time?: number;
  latency_ms?: number; // a relay call's answering attempt, ms (docs/performance.md)
  is_stream?: boolean;
  channel_id?: number;
  channel_name?: string;
  group?: string;
  ip?: string;
  request_id?: string;
  other?: Record<string, unknown> | string;
};

// Rows wait at most this long. Short on purpose: a row that waits long enough to outlive two
// young-generation collections is copied twice and promoted to the old generation, which
// made every scavenge copy a megabyte of log rows (2-7 ms pauses instead of under 1 ms).
const FLUSH_INTERVAL_MS = 100;
// A flush starts once this many rows wait (or after FLUSH_INTERVAL_MS).
const FLUSH_AT = 200;
// Rows are written one batch per turn of the event loop, so that relay requests are served
// between batches. On SQLite, where an insert is synchronous, a batch is sized to take about
// TURN_BUDGET_MS (from the time per row the last batches took): 200 rows with their seven
// indexes take 3 ms and more on a busy 2-core machine, and a relay call waiting behind them
// shows in p99. PostgreSQL inserts do not hold the event loop: always BATCH_MAX rows.
const TURN_BUDGET_MS = 0.5;
const BATCH_MIN = 10;
const BATCH_MAX = 200;
const MAX_QUEUE = 100_000;

type Row = LogRow;

const state = globalThis as unknown as {
  __gatewayLogWriter?: { queue: Row[]; timer?: NodeJS.Timeout; flushing?: Promise<void>; msPerRow: number };
};
const writer = () => {
  if (!state.__gatewayLogWriter) {
    state.__gatewayLogWriter = { queue: [], msPerRow: TURN_BUDGET_MS / 50 };
    registerFlusher(flushLogs);
  }
  return state.__gatewayLogWriter;
};

function toLogRow(e: LogInput): Row {
  return {
    user_id: e.user_id,
    type: e.type,
    created_at: BigInt(e.created_at ?? nowSeconds()),
    content: e.content ?? "",
    username: e.username ?? "",
    token_name: e.token_name ?? "",
    token_id: e.token_id ?? 0,
    model_name: e.model_name ?? "",
    quota: e.quota ?? 0n,
    prompt_tokens: e.prompt_tokens ?? 0,
    completion_tokens: e.completion_tokens ?? 0,
    use_time: e.use_time ?? 0,
    is_stream: e.is_stream ?? false,
    channel_id: e.channel_id ?? 0,
    channel_name: e.channel_name ?? "",
    group: e.group ?? "",
    ip: e.ip ?? "",
    request_id: e.request_id ?? "",
    other: typeof e.other === "string" ? e.other : e.other ? JSON.stringify(e.other) : "",
    latency_ms: e.latency_ms ?? 0,
  };
}

export function enqueueLog(entry: LogInput): void {
  const w = writer();
  if (w.queue.length >= MAX_QUEUE) {
    log.error("queue full, dropping a log row");
    return;
  }
  w.queue.push(toLogRow(entry));
  if (w.queue.length >= FLUSH_AT) void flushLogs();
  else if (!w.timer) {
    w.timer = setTimeout(() => {
      w.timer = undefined;
      void flushLogs();
    }, FLUSH_INTERVAL_MS);
    w.timer.unref();
  }
}

function nextBatchSize(msPerRow: number): number {
  if (env().databaseKind !== "sqlite") return BATCH_MAX;
  return Math.min(BATCH_MAX, Math.max(BATCH_MIN, Math.floor(TURN_BUDGET_MS / msPerRow)));
}

// Writes everything queued, one batch per turn. One flush at a time.
export async function flushLogs(): Promise<void> {
  const w = writer();
  if (w.flushing) await w.flushing;
  if (!w.queue.length) return;
  w.flushing = (async () => {
    for (let first = true; w.queue.length; first = false) {
      if (!first) await new Promise((resolve) => setImmediate(resolve));
      const batch = w.queue.splice(0, nextBatchSize(w.msPerRow));
      try {
        const started = performance.now();
        await insertLogRows(batch);
        metrics().logBatchCommit.observe((performance.now() - started) / 1000);
        // a moving average, so that one slow batch (a busy disk, a GC) does not shrink the next ones to nothing
        w.msPerRow = 0.7 * w.msPerRow + (0.3 * (performance.now() - started)) / batch.length;
      } catch (err) {
        w.queue.unshift(...batch);
        log.error({ error: describeError(err) }, "batch write failed, will retry");
        if (!w.timer) {
          w.timer = setTimeout(() => {
            w.timer = undefined;
            void flushLogs();
          }, FLUSH_INTERVAL_MS);
          w.timer.unref();
        }
        return;
      }
    }
  })().finally(() => {
    w.flushing = undefined;
  });
  await w.flushing;
}

export const pendingLogCount = () => writer().queue.length;
