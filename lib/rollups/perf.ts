// The performance buckets (docs/performance.md): the relay calls' logs folded per UTC hour and
// per UTC day into log_perf_model_rollups (group, model) and log_perf_channel_rollups
// (channel): calls, successes, a sketch of the time to first token, one of the latency
// (lib/rollups/perf-sketch.ts), and the output tokens and generation time that give the output
// speed. Written by the rollup job in the same steps as the usage rollups (lib/rollups/job.ts),
// so they hold the same logs (id <= last_log_id), and afresh by `npm run rollups:rebuild`.
//
// What a log counts for (docs/performance.md, "Success rate"): only the relay's rows carry
// latency_ms > 0 (rows before migration 0035 and the billing and hold rows do not).
//   - a consume row (type 2) whose status_code is 200 (or absent): a success; another status
//     (a stream that broke after its first byte): a failure;
//   - an error row (type 6): a failure, unless the upstream refused the request itself (400,
//     413, 422: the client's request, not the channel, is at fault) or it records a billing
//     failure: those are not counted at all.
// Of the successes: every one adds its latency; a streamed one with a first-token time adds
// it to the TTFT sketch, and, with output tokens and latency > ttft, its tokens and its
// generation time (latency - ttft) to the output speed (tokens / seconds, summed: exact).
//
// The fold is written once as a generator of statements (foldSteps): the SQLite job runs it
// synchronously on its connection, PostgreSQL and a Prisma transaction asynchronously.
import "server-only";
import { PerfSketch } from "@/lib/rollups/perf-sketch";
import { asNum, isSqlite, type Param, type Row } from "@/lib/rollups/store";
import { LOG_TYPE } from "@/lib/logs/writer";

const HOUR = 3600;
const DAY = 86_400;
export const PERF_SPANS = { hour: HOUR, day: DAY } as const;

/** The upstream's statuses that blame the request, not the channel: not counted. */
export const CLIENT_FAULT_STATUSES: ReadonlySet<number> = new Set([400, 413, 422]);

export const PERF_MODEL_TABLE = "log_perf_model_rollups";
export const PERF_CHANNEL_TABLE = "log_perf_channel_rollups";
export const PERF_TABLES = [PERF_MODEL_TABLE, PERF_CHANNEL_TABLE];

// The figures a log's `other` JSON holds for the fold, read by the database (the row's chat
// content, when kept, never leaves it). Only relay rows have latency_ms > 0, and they are JSON.
const jsonField = (name: string) =>
  isSqlite() ? `CASE WHEN json_valid("other") THEN json_extract("other", '$.${name}') END` : `(NULLIF("other", '')::jsonb ->> '${name}')`;

const selectLogs = (where: string) =>
  `SELECT "created_at" AS "t", "type" AS "ty", "group" AS "g", "model_name" AS "m", "channel_id" AS "c", "completion_tokens" AS "ct",
  "is_stream" AS "st", "latency_ms" AS "l", ${jsonField("frt")} AS "f", ${jsonField("status_code")} AS "sc", ${jsonField("error_type")} AS "et"
FROM "logs" WHERE "latency_ms" > 0 AND +"type" IN (${LOG_TYPE.consume}, ${LOG_TYPE.error}) AND ${where}`;

/** The sums of one bucket. */
export class PerfAcc {
  calls = 0;
  successes = 0;
  ttft = new PerfSketch();
  latency = new PerfSketch();
  gen_tokens = 0;
  gen_ms = 0;

  addRow(r: Row): void {
    this.calls += asNum(r.calls);
    this.successes += asNum(r.successes);
    this.ttft.addText(String(r.ttft ?? ""));
    this.latency.addText(String(r.latency ?? ""));
    this.gen_tokens += asNum(r.gen_tokens);
    this.gen_ms += asNum(r.gen_ms);
  }

  merge(o: PerfAcc): void {
    this.calls += o.calls;
    this.successes += o.successes;
    this.ttft.merge(o.ttft);
    this.latency.merge(o.latency);
    this.gen_tokens += o.gen_tokens;
    this.gen_ms += o.gen_ms;
  }
}

type Outcome = { success: boolean; ttft: number; latency: number; tokens: number } | null;

/** What one log row counts for (the header's rules); null: not counted. */
export function outcomeOf(r: Row): Outcome {
  const type = asNum(r.ty);
  const status = r.sc === null || r.sc === undefined ? 0 : Number(r.sc);
  const latency = asNum(r.l);
  if (type === LOG_TYPE.error) {
    if (r.et === "billing_error" || CLIENT_FAULT_STATUSES.has(status)) return null;
    return { success: false, ttft: 0, latency, tokens: 0 };
  }
  if (status !== 0 && status !== 200) return { success: false, ttft: 0, latency, tokens: 0 };
  const stream = r.st === true || asNum(r.st) === 1;
  const frt = stream && r.f !== null && r.f !== undefined ? Number(r.f) : 0;
  return { success: true, ttft: frt > 0 ? frt : 0, latency, tokens: asNum(r.ct) };
}

function addOutcome(a: PerfAcc, o: NonNullable<Outcome>): void {
  a.calls++;
  if (!o.success) return;
  a.successes++;
  a.latency.add(o.latency);
  if (o.ttft > 0) {
    a.ttft.add(o.ttft);
    if (o.tokens > 0 && o.latency > o.ttft) {
      a.gen_tokens += o.tokens;
      a.gen_ms += o.latency - o.ttft;
    }
  }
}

// The buckets of a fold: per table, per "span|bucket", per key ("group\0model" or channel id).
type Buckets = Map<string, Map<string, PerfAcc>>;
type Folded = { model: Buckets; channel: Buckets };

function accFor(b: Buckets, span: number, bucket: number, key: string): PerfAcc {
  const sb = `${span}|${bucket}`;
  let m = b.get(sb);
  if (!m) b.set(sb, (m = new Map()));
  let a = m.get(key);
  if (!a) m.set(key, (a = new PerfAcc()));
  return a;
}

/** Log rows (selectLogs) into their buckets of the given spans. */
export function foldRows(rows: Row[], spans: number[], into: Folded = { model: new Map(), channel: new Map() }): Folded {
  for (const r of rows) {
    const o = outcomeOf(r);
    if (!o) continue;
    const t = asNum(r.t);
    const modelKey = `${String(r.g)}\u0000${String(r.m)}`;
    const channelKey = String(asNum(r.c));
    for (const span of spans) {
      const bucket = t - (t % span);
      addOutcome(accFor(into.model, span, bucket, modelKey), o);
      addOutcome(accFor(into.channel, span, bucket, channelKey), o);
    }
  }
  return into;
}

const VALUES = '"calls", "successes", "ttft", "latency", "gen_tokens", "gen_ms"';
const SET = ["calls", "successes", "ttft", "latency", "gen_tokens", "gen_ms"].map((c) => `"${c}" = excluded."${c}"`).join(", ");
const UPSERT_MODEL = `INSERT INTO "${PERF_MODEL_TABLE}" ("span", "bucket", "group", "model_name", ${VALUES}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT ("span", "group", "model_name", "bucket") DO UPDATE SET ${SET}`;
const UPSERT_CHANNEL = `INSERT INTO "${PERF_CHANNEL_TABLE}" ("span", "bucket", "channel_id", ${VALUES}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT ("span", "channel_id", "bucket") DO UPDATE SET ${SET}`;
const EXISTING_MODEL = `SELECT "group" AS "g", "model_name" AS "m", ${VALUES} FROM "${PERF_MODEL_TABLE}" WHERE "span" = ? AND "bucket" = ?`;
const EXISTING_CHANNEL = `SELECT "channel_id" AS "c", ${VALUES} FROM "${PERF_CHANNEL_TABLE}" WHERE "span" = ? AND "bucket" = ?`;

const sums = (a: PerfAcc): Param[] => [a.calls, a.successes, a.ttft.toText(), a.latency.toText(), a.gen_tokens, a.gen_ms];

/** A statement the fold runs; `all` statements answer their rows to the generator. */
export type PerfStmt = { sql: string; params: Param[]; read?: true };
export type PerfSteps = Generator<PerfStmt, void, Row[] | undefined>;

// Adds the folded buckets to the tables: each bucket's rows already there are read, merged in
// and written back (the job is the one writer: the cluster lease and the state row's lock).
function* writeFolded(f: Folded): PerfSteps {
  for (const [sb, accs] of f.model) {
    const [span, bucket] = sb.split("|").map(Number);
    const rows = (yield { sql: EXISTING_MODEL, params: [span, bucket], read: true }) ?? [];
    for (const r of rows) accs.get(`${String(r.g)}\u0000${String(r.m)}`)?.addRow(r);
    for (const [key, a] of accs) {
      const [group, model] = key.split("\u0000");
      yield { sql: UPSERT_MODEL, params: [span, bucket, group, model, ...sums(a)] };
    }
  }
  for (const [sb, accs] of f.channel) {
    const [span, bucket] = sb.split("|").map(Number);
    const rows = (yield { sql: EXISTING_CHANNEL, params: [span, bucket], read: true }) ?? [];
    for (const r of rows) accs.get(String(asNum(r.c)))?.addRow(r);
    for (const [key, a] of accs) yield { sql: UPSERT_CHANNEL, params: [span, bucket, Number(key), ...sums(a)] };
  }
}

/** Folds the logs that `where` selects (after the relay-row filter) into `spans`' buckets. */
export function* foldSteps(where: string, params: Param[], spans: number[] = [HOUR, DAY]): PerfSteps {
  const rows = (yield { sql: selectLogs(where), params, read: true }) ?? [];
  if (rows.length) yield* writeFolded(foldRows(rows, spans));
}

/**
 * The day rows of [from, to) written afresh from their hour rows (a day is its 24 hours
 * merged): the log clean-up's cut day, after its hours were made equal to the logs.
 */
export function* daysFromHours(from: number, to: number): PerfSteps {
  yield { sql: `DELETE FROM "${PERF_MODEL_TABLE}" WHERE "span" = ${DAY} AND "bucket" >= ? AND "bucket" < ?`, params: [from, to] };
  yield { sql: `DELETE FROM "${PERF_CHANNEL_TABLE}" WHERE "span" = ${DAY} AND "bucket" >= ? AND "bucket" < ?`, params: [from, to] };
  const f: Folded = { model: new Map(), channel: new Map() };
  const models =
    (yield {
      sql: `SELECT "bucket", "group" AS "g", "model_name" AS "m", ${VALUES} FROM "${PERF_MODEL_TABLE}" WHERE "span" = ${HOUR} AND "bucket" >= ? AND "bucket" < ?`,
      params: [from, to],
      read: true,
    }) ?? [];
  for (const r of models) {
    const b = asNum(r.bucket);
    accFor(f.model, DAY, b - (b % DAY), `${String(r.g)}\u0000${String(r.m)}`).addRow(r);
  }
  const channels =
    (yield {
      sql: `SELECT "bucket", "channel_id" AS "c", ${VALUES} FROM "${PERF_CHANNEL_TABLE}" WHERE "span" = ${HOUR} AND "bucket" >= ? AND "bucket" < ?`,
      params: [from, to],
      read: true,
    }) ?? [];
  for (const r of channels) {
    const b = asNum(r.bucket);
    accFor(f.channel, DAY, b - (b % DAY), String(asNum(r.c))).addRow(r);
  }
  yield* writeFolded(f);
}

/** The rows of one span before `before` go (the log clean-up). */
export function* deleteBefore(span: number, before: number, orAt?: number): PerfSteps {
  for (const t of PERF_TABLES) {
    yield { sql: `DELETE FROM "${t}" WHERE "span" = ? AND "bucket" < ?`, params: [span, before] };
    if (orAt !== undefined) yield { sql: `DELETE FROM "${t}" WHERE "span" = ? AND "bucket" = ?`, params: [span, orAt] };
  }
}

/** Runs the steps synchronously (the SQLite connection inside one step of the job). */
export function runSync(steps: PerfSteps, db: { all(sql: string, p: Param[]): Row[]; run(sql: string, p: Param[]): unknown }): void {
  let next = steps.next();
  while (!next.done) {
    const s = next.value;
    if (s.read) next = steps.next(db.all(s.sql, s.params));
    else {
      db.run(s.sql, s.params);
      next = steps.next(undefined);
    }
  }
}

/** Runs the steps on an asynchronous connection (a PostgreSQL client, a Prisma transaction). */
export async function runAsync(
  steps: PerfSteps,
  db: { all(sql: string, p: Param[]): Promise<Row[]>; run(sql: string, p: Param[]): Promise<unknown> },
): Promise<void> {
  let next = steps.next();
  while (!next.done) {
    const s = next.value;
    if (s.read) next = steps.next(await db.all(s.sql, s.params));
    else {
      await db.run(s.sql, s.params);
      next = steps.next(undefined);
    }
  }
}
