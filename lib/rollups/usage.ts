// Usage sums over the consumption logs (type 2), read from the hourly rollups wherever they
// can answer (docs/dashboard.md, "Reading"):
//   - whole hours inside the range: log_model_rollups when no user is named, else log_rollups
//     (either sums the logs with id <= last_log_id), plus the
//     logs of those hours with a larger id (written since the job last ran, or late);
//   - the partial hours at the edges of the range: the logs themselves;
//   - the top users of all users (totalsByUser without a filter): the whole UTC days of the
//     range from log_user_day_rollups, the hours around them from log_rollups.
// Everything is read in one snapshot (consistentRead), so a job step committing meanwhile
// cannot make a log count twice or not at all. The filters the rollups hold are the user (id
// or the logs' username) and the model name (a substring, as the usage-log filter matches);
// for the usage-log stats also the token name and the group with a user (log_token_rollups),
// and the channel and the group without a user or token name (log_channel_rollups).
import "server-only";
import { escapeLike } from "@/lib/db/like";
import { asBig, consistentRead, isSqlite, type Param, type Row, type Stmt } from "@/lib/rollups/store";
import { LOG_TYPE } from "@/lib/logs/writer";

export const HOUR = 3600;
/** A UTC day: log_user_day_rollups keys its rows by multiples of it. */
export const DAY = 86_400;

export type UsageFilter = { userId?: number; username?: string; model?: string; tokenName?: string; group?: string; channelId?: number };

const hasUser = (f: UsageFilter) => f.userId !== undefined || f.username !== undefined;

/**
 * Whether a rollup table holds every filter of `f` (rollupTable): a token name only with a
 * user (a user's tokens are few, a name alone may be every user's), a channel only without a
 * user or token name.
 */
export function rollupsHold(f: UsageFilter): boolean {
  if (f.tokenName !== undefined && !hasUser(f)) return false;
  return f.channelId === undefined || (!hasUser(f) && f.tokenName === undefined);
}
/** Inclusive bounds in unix seconds; absent: unbounded. */
export type Range = { start?: number; end?: number };
export type Totals = { count: bigint; prompt_tokens: bigint; completion_tokens: bigint; quota: bigint };

const ZERO = (): Totals => ({ count: 0n, prompt_tokens: 0n, completion_tokens: 0n, quota: 0n });

// When the logs past the watermark are fewer than this, SQLite is steered to read them by id
// (the primary key) rather than through another index (see logsWhere).
const TAIL_BY_ID = 500_000;

const HEAD: Stmt = {
  sql: 'SELECT "last_log_id" AS "w", (SELECT MAX("id") FROM "logs") AS "m" FROM "log_rollup_state" WHERE "id" = 1',
  params: [],
};

type Where = { sql: string[]; params: Param[] };

function filterWhere(f: UsageFilter, col: (name: string) => string): Where {
  const w: Where = { sql: [], params: [] };
  if (f.userId !== undefined) {
    w.sql.push(`${col('"user_id"')} = ?`);
    w.params.push(f.userId);
  }
  if (f.username !== undefined) {
    w.sql.push(`${col('"username"')} = ?`);
    w.params.push(f.username);
  }
  if (f.model !== undefined) {
    w.sql.push(`${col('"model_name"')} LIKE ? ESCAPE '\\'`);
    w.params.push(`%${escapeLike(f.model)}%`);
  }
  if (f.tokenName !== undefined) {
    w.sql.push(`${col('"token_name"')} = ?`);
    w.params.push(f.tokenName);
  }
  if (f.group !== undefined) {
    w.sql.push(`${col('"group"')} = ?`);
    w.params.push(f.group);
  }
  if (f.channelId !== undefined) {
    w.sql.push(`${col('"channel_id"')} = ?`);
    w.params.push(f.channelId);
  }
  return w;
}

// The conditions on the logs table. On SQLite a unary "+" keeps a column's index out of the
// plan (the planner has no statistics): `byId` leaves only the primary key (a few rows past
// the watermark), otherwise the user's (user_id, created_at) index or the created_at index
// reads the range.
function logsWhere(f: UsageFilter, from: number | undefined, to: number | undefined, toInclusive: boolean, byId: boolean): Where {
  const sqlite = isSqlite();
  const hide = (c: string) => (sqlite ? `+${c}` : c);
  const keepUser = !byId;
  const w = filterWhere(f, (c) => (c === '"user_id"' && keepUser ? c : hide(c)));
  w.sql.unshift(`${hide('"type"')} = ${LOG_TYPE.consume}`);
  const created = byId ? hide('"created_at"') : '"created_at"';
  if (from !== undefined) {
    w.sql.push(`${created} >= ?`);
    w.params.push(from);
  }
  if (to !== undefined) {
    w.sql.push(`${created} ${toInclusive ? "<=" : "<"} ?`);
    w.params.push(to);
  }
  return w;
}

// The rollup table that answers `f` (one that rollupsHold): with a token name or a group,
// log_token_rollups for a user and log_channel_rollups for all users (as with a channel);
// otherwise log_model_rollups (a few rows an hour) when no user is named, log_rollups when one
// is. All sum the same logs (id <= last_log_id).
export function rollupTable(f: UsageFilter, perUser = false): string {
  if (f.tokenName !== undefined || (f.group !== undefined && hasUser(f))) return '"log_token_rollups"';
  if (f.channelId !== undefined || f.group !== undefined) return '"log_channel_rollups"';
  return perUser || hasUser(f) ? '"log_rollups"' : '"log_model_rollups"';
}

const AND = (w: Where) => (w.sql.length ? w.sql.join(" AND ") : "1 = 1");

const LOG_SUMS = 'COUNT(*) AS "c", SUM("prompt_tokens") AS "p", SUM("completion_tokens") AS "cp", SUM("quota") AS "q"';
const ROLLUP_SUMS = 'SUM("count") AS "c", SUM("prompt_tokens") AS "p", SUM("completion_tokens") AS "cp", SUM("quota") AS "q"';

function add(t: Totals, r: Row): void {
  t.count += asBig(r.c);
  t.prompt_tokens += asBig(r.p);
  t.completion_tokens += asBig(r.cp);
  t.quota += asBig(r.q);
}

const watermark = (head: Row[]) => ({ w: Number(asBig(head[0]?.w)), m: Number(asBig(head[0]?.m)) });

/** The split of an inclusive range into whole hours [first, last) and the partial edges. */
export function splitRange(r: Range): { first?: number; last?: number; whole: boolean } {
  const first = r.start === undefined ? undefined : Math.ceil(r.start / HOUR) * HOUR;
  const last = r.end === undefined ? undefined : Math.floor((r.end + 1) / HOUR) * HOUR;
  const whole = first === undefined || last === undefined || first < last;
  return { first, last, whole };
}

/** Sums of the consumption logs matching `f` with created_at in `r` (inclusive). */
export async function usageTotals(f: UsageFilter, r: Range): Promise<Totals> {
  const { first, last, whole } = splitRange(r);
  const [, ...parts] = await consistentRead(HEAD, (head) => {
    const { w, m } = watermark(head);
    if (!whole) {
      const edge = logsWhere(f, r.start, r.end, true, false);
      return [{ sql: `SELECT ${LOG_SUMS} FROM "logs" WHERE ${AND(edge)}`, params: edge.params }];
    }
    const out: Stmt[] = [];
    const ru = filterWhere(f, (c) => c);
    if (first !== undefined) {
      ru.sql.push('"hour" >= ?');
      ru.params.push(first);
    }
    if (last !== undefined) {
      ru.sql.push('"hour" < ?');
      ru.params.push(last);
    }
    out.push({ sql: `SELECT ${ROLLUP_SUMS} FROM ${rollupTable(f)} WHERE ${AND(ru)}`, params: ru.params });
    if (m > w) {
      const tail = logsWhere(f, first, last, false, m - w <= TAIL_BY_ID);
      out.push({ sql: `SELECT ${LOG_SUMS} FROM "logs" WHERE "id" > ? AND ${AND(tail)}`, params: [w, ...tail.params] });
    }
    if (r.start !== undefined && first !== undefined && r.start < first) {
      const e = logsWhere(f, r.start, first, false, false);
      out.push({ sql: `SELECT ${LOG_SUMS} FROM "logs" WHERE ${AND(e)}`, params: e.params });
    }
    if (r.end !== undefined && last !== undefined && r.end >= last) {
      const e = logsWhere(f, last, r.end, true, false);
      out.push({ sql: `SELECT ${LOG_SUMS} FROM "logs" WHERE ${AND(e)}`, params: e.params });
    }
    return out;
  });
  const t = ZERO();
  for (const rows of parts) for (const row of rows) add(t, row);
  return t;
}

export type HourRow = { created_at: number; model_name: string; count: bigint; prompt_tokens: bigint; completion_tokens: bigint; quota: bigint };
export type UserRow = { user_id: number; username: string; count: bigint; prompt_tokens: bigint; completion_tokens: bigint; quota: bigint };

// The hours h with start <= h <= end (an hour row is counted by the hour it starts).
function hourBounds(start: number, end: number) {
  return { from: Math.ceil(start / HOUR) * HOUR, to: Math.floor(end / HOUR) * HOUR };
}

const HOUR_OF = '("created_at" - ("created_at" % 3600))';

type Keys = { select: string; group: string };
/** Rows of a rollup table whose `col` ("hour" or "day") is within lo..hi (inclusive). */
type Span = { table: string; col: string; lo: number; hi: number };

// The rollup rows of hours from..to (inclusive), plus the logs of those hours past the
// watermark; `spans` says which rollup table answers which hours (by default `table`, all of
// them), and must cover each hour once.
async function grouped(
  f: UsageFilter,
  start: number,
  end: number,
  rollupKeys: Keys,
  logKeys: Keys,
  table: string,
  spans: (from: number, to: number) => Span[] = (from, to) => [{ table, col: '"hour"', lo: from, hi: to }],
): Promise<Row[]> {
  const { from, to } = hourBounds(start, end);
  if (from > to) return [];
  const [, ...parts] = await consistentRead(HEAD, (head) => {
    const { w, m } = watermark(head);
    const out: Stmt[] = [];
    for (const s of spans(from, to)) {
      const ru = filterWhere(f, (c) => c);
      ru.sql.push(`${s.col} >= ?`, `${s.col} <= ?`);
      ru.params.push(s.lo, s.hi);
      out.push({ sql: `SELECT ${rollupKeys.select}, ${ROLLUP_SUMS} FROM ${s.table} WHERE ${AND(ru)} GROUP BY ${rollupKeys.group}`, params: ru.params });
    }
    if (m > w) {
      const tail = logsWhere(f, from, to + HOUR, false, m - w <= TAIL_BY_ID);
      out.push({
        sql: `SELECT ${logKeys.select}, ${LOG_SUMS} FROM "logs" WHERE "id" > ? AND ${AND(tail)} GROUP BY ${logKeys.group}`,
        params: [w, ...tail.params],
      });
    }
    return out;
  });
  return parts.flat();
}

/** Hourly rows per model (all users together, or the users `f` names), hours start..end. */
export async function hourlyByModel(f: UsageFilter, start: number, end: number): Promise<HourRow[]> {
  const rows = await grouped(
    f,
    start,
    end,
    { select: '"hour" AS "h", "model_name" AS "k"', group: '"hour", "model_name"' },
    { select: `${HOUR_OF} AS "h", "model_name" AS "k"`, group: `${HOUR_OF}, "model_name"` },
    rollupTable(f),
  );
  const byKey = new Map<string, HourRow>();
  for (const r of rows) {
    const h = Number(asBig(r.h));
    const k = String(r.k);
    const key = `${h}\u0000${k}`;
    let out = byKey.get(key);
    if (!out) byKey.set(key, (out = { created_at: h, model_name: k, count: 0n, prompt_tokens: 0n, completion_tokens: 0n, quota: 0n }));
    add(out, r);
  }
  return [...byKey.values()].sort((a, b) => a.created_at - b.created_at || (a.model_name < b.model_name ? -1 : a.model_name > b.model_name ? 1 : 0));
}

/** Whether `tz` names a time zone this runtime knows (an IANA name such as "Asia/Shanghai"). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-CA", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The zone's own name ("asia/shanghai" is Asia/Shanghai): the formats below are kept per zone, not per spelling. */
export const canonicalZone = (tz: string) => new Intl.DateTimeFormat("en-CA", { timeZone: tz }).resolvedOptions().timeZone;

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * Hourly rows summed per day of the time zone `tz` and model: an hour counts on the day its
 * start falls on there, as the page's day and week views count it; each row's created_at is
 * its day's first hour in the rows. A 90-day range is then about 90 rows a model, not 2,160.
 */
export function byLocalDay(rows: HourRow[], tz: string): HourRow[] {
  let fmt = dayFormats.get(tz);
  if (!fmt) dayFormats.set(tz, (fmt = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" })));
  const dayOf = new Map<number, string>();
  const out = new Map<string, HourRow>();
  for (const r of rows) {
    let day = dayOf.get(r.created_at);
    if (day === undefined) dayOf.set(r.created_at, (day = fmt.format(r.created_at * 1000)));
    const key = `${day}\u0000${r.model_name}`;
    const o = out.get(key);
    if (!o) {
      out.set(key, { ...r });
      continue;
    }
    o.created_at = Math.min(o.created_at, r.created_at);
    o.count += r.count;
    o.prompt_tokens += r.prompt_tokens;
    o.completion_tokens += r.completion_tokens;
    o.quota += r.quota;
  }
  return [...out.values()].sort((a, b) => a.created_at - b.created_at || (a.model_name < b.model_name ? -1 : a.model_name > b.model_name ? 1 : 0));
}

// Hours from..to (inclusive) read by day where they can be: the whole UTC days among them from
// log_user_day_rollups, the hours before the first and after the last whole day from
// log_rollups (at most 23 at each end). Each hour is in exactly one span.
export function daySpans(from: number, to: number): Span[] {
  const firstDay = Math.ceil(from / DAY) * DAY; // the first whole day's start
  const endDay = Math.floor((to + HOUR) / DAY) * DAY; // the end of the last whole day
  if (firstDay >= endDay) return [{ table: '"log_rollups"', col: '"hour"', lo: from, hi: to }];
  const out: Span[] = [];
  if (from < firstDay) out.push({ table: '"log_rollups"', col: '"hour"', lo: from, hi: firstDay - HOUR });
  out.push({ table: '"log_user_day_rollups"', col: '"day"', lo: firstDay, hi: endDay - DAY });
  if (endDay <= to) out.push({ table: '"log_rollups"', col: '"hour"', lo: endDay, hi: to });
  return out;
}

/**
 * Totals per user over hours start..end, largest quota first. Without a filter (the top users
 * of all users) the whole days are read from log_user_day_rollups, a row per user and day;
 * with one, log_rollups holds few rows for it.
 */
export async function totalsByUser(f: UsageFilter, start: number, end: number): Promise<UserRow[]> {
  const keys = { select: '"user_id" AS "u", "username" AS "n"', group: '"user_id", "username"' };
  const unfiltered = f.userId === undefined && f.username === undefined && f.model === undefined;
  const rows = await grouped(f, start, end, keys, keys, rollupTable(f, true), unfiltered ? daySpans : undefined);
  const byKey = new Map<string, UserRow>();
  for (const r of rows) {
    const u = Number(asBig(r.u));
    const n = String(r.n);
    const key = `${u}\u0000${n}`;
    let out = byKey.get(key);
    if (!out) byKey.set(key, (out = { user_id: u, username: n, count: 0n, prompt_tokens: 0n, completion_tokens: 0n, quota: 0n }));
    add(out, r);
  }
  return [...byKey.values()].sort((a, b) =>
    b.quota > a.quota ? 1 : b.quota < a.quota ? -1 : b.count > a.count ? 1 : b.count < a.count ? -1 : a.user_id - b.user_id,
  );
}
