// The usage-log writer: relay calls enqueue rows in memory and return at once; a timer
// writes them in one batch (lib/logs/insert.ts) every second or as soon as 500 are waiting, and the shutdown
// sequence flushes what is left (registerFlusher). If the database refuses a batch, the
// rows are kept (up to MAX_QUEUE) and retried on the next tick.
import { insertLogRows, type LogRow } from "@/lib/logs/insert";
import { registerFlusher } from "@/lib/lifecycle";
import { describeError } from "@/lib/errors";

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
  is_stream?: boolean;
  channel_id?: number;
  channel_name?: string;
  group?: string;
  ip?: string;
  request_id?: string;
  other?: Record<string, unknown> | string;
};

const FLUSH_INTERVAL_MS = 1000;
// Rows per INSERT. Batches are written one per turn of the event loop, so that relay
// requests are served between them (a long synchronous insert would show in p99 latency).
const BATCH = 200;
const MAX_QUEUE = 100_000;

type Row = LogRow;

const state = globalThis as unknown as {
  __gatewayLogWriter?: { queue: Row[]; timer?: NodeJS.Timeout; flushing?: Promise<void> };
};
const writer = () => {
  if (!state.__gatewayLogWriter) {
    state.__gatewayLogWriter = { queue: [] };
    registerFlusher(flushLogs);
  }
  return state.__gatewayLogWriter;
};

function toLogRow(e: LogInput): Row {
  return {
    user_id: e.user_id,
    type: e.type,
    created_at: BigInt(e.created_at ?? Math.floor(Date.now() / 1000)),
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
  };
}

export function enqueueLog(entry: LogInput): void {
  const w = writer();
  if (w.queue.length >= MAX_QUEUE) {
    console.error("[logs] queue full, dropping a log row");
    return;
  }
  w.queue.push(toLogRow(entry));
  if (w.queue.length >= BATCH) void flushLogs();
  else if (!w.timer) {
    w.timer = setTimeout(() => {
      w.timer = undefined;
      void flushLogs();
    }, FLUSH_INTERVAL_MS);
    w.timer.unref();
  }
}

// Writes everything queued, BATCH rows per statement. One flush at a time.
export async function flushLogs(): Promise<void> {
  const w = writer();
  if (w.flushing) await w.flushing;
  if (!w.queue.length) return;
  w.flushing = (async () => {
    for (let first = true; w.queue.length; first = false) {
      if (!first) await new Promise((resolve) => setImmediate(resolve));
      const batch = w.queue.splice(0, BATCH);
      try {
        await insertLogRows(batch);
      } catch (err) {
        w.queue.unshift(...batch);
        console.error("[logs] batch write failed, will retry:", describeError(err));
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
