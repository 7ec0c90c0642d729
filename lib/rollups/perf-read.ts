// Reading the performance buckets (docs/performance.md, "Reading"): per hour, per UTC day or
// one row for the whole range, per model (of some groups or all) or per channel. A day of the
// range that it holds whole is read from its day row; the hours at either end from their hour
// rows (merged into their day for the day rows). Both statements read one snapshot.
import "server-only";
import { consistentRead, asNum, type Param, type Row, type Stmt } from "@/lib/rollups/store";
import { PerfAcc, PERF_CHANNEL_TABLE, PERF_MODEL_TABLE, PERF_SPANS } from "@/lib/rollups/perf";
import type { PerfRow } from "@/lib/client/perf";

const HOUR = PERF_SPANS.hour;
const DAY = PERF_SPANS.day;

export type PerfGranularity = "hour" | "day" | "total";
export type PerfFilter = {
  dim: "model" | "channel";
  /** model rows: these groups only (absent: every group) */
  groups?: string[];
  models?: string[];
  channelId?: number;
};
/** One row of /api/perf/* (the console's type, lib/client/perf.ts). */
export type { PerfRow };

/** The hours and whole days that cover [start, end] (unix seconds, inclusive; hours as in the usage data). */
export function perfSpans(start: number, end: number): { hours: [number, number][]; days: [number, number] | null } {
  const hs = start - (start % HOUR);
  const he = end - (end % HOUR); // the last hour, inclusive
  const firstDay = Math.ceil(hs / DAY) * DAY;
  const lastDayEnd = Math.floor((he + HOUR) / DAY) * DAY; // exclusive
  if (lastDayEnd <= firstDay) return { hours: [[hs, he]], days: null };
  const hours: [number, number][] = [];
  if (hs < firstDay) hours.push([hs, firstDay - HOUR]);
  if (lastDayEnd <= he) hours.push([lastDayEnd, he]);
  return { hours, days: [firstDay, lastDayEnd - DAY] };
}

const COLS = '"calls", "successes", "ttft", "latency", "gen_tokens", "gen_ms"';

function select(f: PerfFilter, span: number, from: number, to: number): Stmt {
  const params: Param[] = [span, from, to];
  const where = ['"span" = ?', '"bucket" >= ?', '"bucket" <= ?'];
  if (f.dim === "model") {
    if (f.groups) {
      where.push(f.groups.length ? `"group" IN (${f.groups.map(() => "?").join(", ")})` : "1 = 0");
      params.push(...f.groups);
    }
    if (f.models) {
      where.push(`"model_name" IN (${f.models.map(() => "?").join(", ")})`);
      params.push(...f.models);
    }
    return { sql: `SELECT "bucket", "model_name" AS "k", ${COLS} FROM "${PERF_MODEL_TABLE}" WHERE ${where.join(" AND ")}`, params };
  }
  if (f.channelId !== undefined) {
    where.push('"channel_id" = ?');
    params.push(f.channelId);
  }
  return { sql: `SELECT "bucket", "channel_id" AS "k", ${COLS} FROM "${PERF_CHANNEL_TABLE}" WHERE ${where.join(" AND ")}`, params };
}

const pct = (a: PerfAcc, which: "ttft" | "latency", q: number) => {
  const v = a[which].quantile(q);
  return v === null ? null : Math.round(v);
};

function rowOf(f: PerfFilter, bucket: number, key: string, a: PerfAcc): PerfRow {
  const out: PerfRow = {
    created_at: bucket,
    calls: a.calls,
    successes: a.successes,
    success_rate: a.calls ? a.successes / a.calls : null,
    ttft_p50_ms: pct(a, "ttft", 0.5),
    ttft_p95_ms: pct(a, "ttft", 0.95),
    latency_p50_ms: pct(a, "latency", 0.5),
    latency_p95_ms: pct(a, "latency", 0.95),
    output_tps: a.gen_ms > 0 ? Math.round((a.gen_tokens * 100_000) / a.gen_ms) / 100 : null,
  };
  if (f.dim === "model") out.model_name = key;
  else out.channel_id = Number(key);
  return out;
}

/**
 * The rows of [start, end]: per hour (the hours' rows), per UTC day, or one per model or
 * channel for the whole range (created_at: the range's first hour). Sorted by time, then key.
 */
export async function perfRows(f: PerfFilter, start: number, end: number, granularity: PerfGranularity): Promise<PerfRow[]> {
  const spans = granularity === "hour" ? { hours: [[start - (start % HOUR), end - (end % HOUR)] as [number, number]], days: null } : perfSpans(start, end);
  const stmts: Stmt[] = spans.hours.map(([a, b]) => select(f, HOUR, a, b));
  if (spans.days) stmts.push(select(f, DAY, spans.days[0], spans.days[1]));
  const [first, ...rest] = stmts;
  const results = await consistentRead(first, () => rest);
  const firstHour = start - (start % HOUR);
  const outBucket = (b: number) => (granularity === "hour" ? b : granularity === "day" ? b - (b % DAY) : firstHour);
  const accs = new Map<number, Map<string, PerfAcc>>();
  for (const rows of results) {
    for (const r of rows as Row[]) {
      const b = outBucket(asNum(r.bucket));
      const key = f.dim === "model" ? String(r.k) : String(asNum(r.k));
      let m = accs.get(b);
      if (!m) accs.set(b, (m = new Map()));
      let a = m.get(key);
      if (!a) m.set(key, (a = new PerfAcc()));
      a.addRow(r);
    }
  }
  const out: PerfRow[] = [];
  for (const b of [...accs.keys()].sort((x, y) => x - y)) {
    const m = accs.get(b)!;
    const keys = [...m.keys()].sort(f.dim === "model" ? (x, y) => x.localeCompare(y) : (x, y) => Number(x) - Number(y));
    for (const k of keys) out.push(rowOf(f, b, k, m.get(k)!));
  }
  return out;
}
