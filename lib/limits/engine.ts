// The usage limits of tokens and users (docs/usage-limits.md): RPM, TPM, concurrency and the
// periodic quotas (rolling 5 h, calendar day, week, month), checked together at a call's
// admission and corrected once at its end.
//  - A call whose token and user carry no limit never reaches this file past `callChecks`
//    (null): nothing is counted, Redis is not touched.
//  - With REDIS_URL every check of the token and the user is one Lua script (EVALSHA): all of
//    them pass and are counted, or none is, atomically, so the counts are exact across nodes.
//    Its end (the TPM and quota corrections, the concurrency hold's release) is a second script.
//  - Without Redis, and while Redis is down, the same arithmetic runs in this process's memory
//    (each node then counts alone; said once in the log, as for the rate limits).
// The limits themselves come from memory: the token's and user's fields in the relay's token
// cache (lib/cache/token-store.ts) and the option GroupLimits.
import "server-only";
import { randomUUID } from "node:crypto";
import type Redis from "ioredis";
import { redis, redisKey } from "@/lib/cache/redis";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { MessageKey } from "@/lib/i18n/server-messages";
import { logger } from "@/lib/logger";
import { LIMIT_FIELDS, type GroupLimitSet } from "@/lib/options/group-limits";
import { getJson } from "@/lib/options/store";
import { bucketOf, calendarPeriod, firstCounted, siteTimeZone, sliding, slidingState, type CalendarKind, type Sliding } from "@/lib/limits/windows";

const log = logger("limits");

// The names the API uses for each field of LIMIT_FIELDS, in the same order.
export const LIMIT_NAMES = ["rpm", "tpm", "concurrency", "quota_5h", "quota_day", "quota_week", "quota_month"] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];
export type LimitScope = "token" | "user";
const RPM = 0;
const TPM = 1;
const CONCURRENCY = 2;
const ROLLING = 3;
const CALENDAR: Record<number, CalendarKind> = { 4: "day", 5: "week", 6: "month" };

/**
 * The limit fields of a token or user row as the token cache keeps them: an array in the order
 * of LIMIT_FIELDS, or null when every field is 0 (a user's -1, "none whatever the group says",
 * is kept: it hides the group's default).
 */
export function limitArray(row: Record<(typeof LIMIT_FIELDS)[number], number | bigint>): number[] | null {
  let any = false;
  const a: number[] = [];
  for (const f of LIMIT_FIELDS) {
    const v = Number(row[f]);
    a.push(v);
    if (v !== 0) any = true;
  }
  return any ? a : null;
}

// GroupLimits as arrays, made again only when the option's text changes (getJson keeps its parse).
let groupsParsed: Record<string, GroupLimitSet> | null = null;
let groupsArrays = new Map<string, number[]>();
function groupDefaults(group: string): number[] | null {
  const all = getJson<Record<string, GroupLimitSet>>("GroupLimits", {});
  if (all !== groupsParsed) {
    groupsParsed = all;
    groupsArrays = new Map();
    for (const [g, set] of Object.entries(all)) {
      const a = LIMIT_FIELDS.map((f) => (typeof set?.[f] === "number" && set[f] > 0 ? set[f] : 0));
      if (a.some((v) => v > 0)) groupsArrays.set(g, a);
    }
  }
  return groupsArrays.get(group) ?? null; // a Map: a group named "constructor" is just a name
}

/** A user's effective limit i: their own (> 0), none (-1), else their group's default. */
function userLimit(own: number[] | null, group: number[] | null, i: number): number {
  const v = own ? own[i] : 0;
  if (v > 0) return v;
  if (v < 0) return 0;
  return group ? group[i] : 0;
}

/** The effective limits of a user (the API's user editor and usage list). */
export function effectiveUserLimits(own: number[] | null, group: string): number[] {
  const g = groupDefaults(group);
  return LIMIT_FIELDS.map((_, i) => userLimit(own, g, i));
}

// key: the counter's name (in Redis, and in memory for calendar and concurrency counters);
// memKey: a sliding counter's in memory, with its window's index for the sweep
type Counter = { scope: LimitScope; id: number; limit: number; max: number; key: string; memKey: string; window: Sliding | null; endMs: number };

// The windows, fixed at start-up (LIMITS_ROLLING_SECONDS is read once).
let windowsMade: Sliding[] | null = null;
function windows(): Sliding[] {
  return (windowsMade ??= [sliding(60_000), sliding(60_000), sliding(0), sliding(env().LIMITS_ROLLING_SECONDS * 1000)]);
}

function counterOf(scope: LimitScope, id: number, i: number, max: number, now: number): Counter {
  const base = `lim:${scope === "token" ? "t" : "u"}${id}:${LIMIT_NAMES[i]}`;
  if (i === CONCURRENCY) return { scope, id, limit: i, max, key: base, memKey: base, window: null, endMs: 0 };
  const cal = CALENDAR[i];
  if (cal) {
    const p = calendarPeriod(cal, siteTimeZone(), now);
    const key = `${base}:${p.id}`;
    return { scope, id, limit: i, max, key, memKey: key, window: null, endMs: p.endMs };
  }
  const w = windows()[i];
  const key = `${base}:${w.widthMs}`;
  return { scope, id, limit: i, max, key, memKey: `${key}#${i}`, window: w, endMs: 0 };
}

export type { Counter };
export type LimitSubject = { tokenId: number; token: number[] | null; userId: number; user: number[] | null; group: string };

// The counters last made for a subject, kept while its limits are the same arrays (the token
// cache's and GroupLimits', replaced whenever they change) and its calendar periods last:
// making them builds a dozen strings, which costs more than the admission itself. Keyed by the
// token's limits (else the user's, else the group's), then by the user.
type Made = { tokenId: number; token: number[] | null; user: number[] | null; group: number[] | null; until: number; counters: Counter[] | null };
const made = new WeakMap<number[], Map<number, Made>>();

/** The counters of a call, or null when neither the token nor the user has a limit (the common case: nothing else runs). */
export function callChecks(s: LimitSubject, now = Date.now()): Counter[] | null {
  const g = groupDefaults(s.group);
  if (!s.token && !s.user && !g) return null;
  const anchor = (s.token ?? s.user ?? g)!;
  let byUser = made.get(anchor);
  const last = byUser?.get(s.userId);
  if (last && last.tokenId === s.tokenId && last.token === s.token && last.user === s.user && last.group === g && now < last.until) return last.counters;
  let out: Counter[] | null = null;
  let until = Infinity;
  for (let i = 0; i < LIMIT_FIELDS.length; i++) {
    const t = s.token && s.tokenId > 0 ? s.token[i] : 0;
    if (t > 0) (out ??= []).push(counterOf("token", s.tokenId, i, t, now));
    const u = userLimit(s.user, g, i);
    if (u > 0) (out ??= []).push(counterOf("user", s.userId, i, u, now));
  }
  for (const c of out ?? []) if (c.endMs > 0) until = Math.min(until, c.endMs);
  if (!byUser) made.set(anchor, (byUser = new Map()));
  byUser.set(s.userId, { tokenId: s.tokenId, token: s.token, user: s.user, group: g, until, counters: out });
  return out;
}

/** Whether the counters include a TPM limit (the relay makes the call's token estimate only then). */
export const countsTokens = (counters: Counter[]) => counters.some((c) => c.limit === TPM);

/** A call over a limit: 429 in its ingress's shape, with Retry-After (seconds). */
export class LimitExceeded extends AppError {
  constructor(
    readonly scope: LimitScope,
    readonly limit: LimitName,
    readonly max: number,
    readonly retryAfter: number,
    freeAtMs: number | null,
  ) {
    const reset = freeAtMs === null ? "-" : new Date(freeAtMs).toISOString().replace(/\.\d+Z$/, "Z");
    super("RATE_LIMITED", `usage_limit_${scope}_${limit}` as MessageKey, { max, seconds: retryAfter, reset });
  }
}

// ---- what one admission holds until the call ends ----

type Need = { tokens: number; quota: number };
export type Admission = { counters: Counter[]; need: number[]; buckets: number[]; hold: string | null; shared: Redis | null; at: number; done: boolean };

const needOf = (c: Counter, n: Need) => (c.limit === RPM ? 1 : c.limit === TPM ? n.tokens : c.limit === CONCURRENCY ? 1 : n.quota);

// ---- memory (one node, or Redis down) ----

// A sliding window in memory: its buckets (oldest first: a call only ever adds to the bucket of
// its own time) and their running sum, so that an admission costs the buckets that left since
// the last one, not a walk over the whole window.
type Slide = { buckets: Map<number, number>; total: number; last: number };

type Memory = {
  sliding: Map<string, Slide>;
  calendar: Map<string, { n: number; endMs: number }>;
  holds: Map<string, Set<string>>;
  sweptAt: number;
};
const holder = globalThis as unknown as { __gatewayLimits?: Memory };
const memory = (): Memory => (holder.__gatewayLimits ??= { sliding: new Map(), calendar: new Map(), holds: new Map(), sweptAt: 0 });

/** Drops the buckets older than `from` from the front, and their counts from the sum. */
function expire(slide: Slide, from: number) {
  for (const [b, n] of slide.buckets) {
    if (b >= from) break;
    slide.total -= n;
    slide.buckets.delete(b);
  }
}

function sweepMemory(m: Memory, now: number) {
  if (now - m.sweptAt < 60_000) return;
  m.sweptAt = now;
  for (const [k, c] of m.calendar) if (c.endMs <= now) m.calendar.delete(k);
  for (const [k, slide] of m.sliding) {
    expire(slide, firstCounted(windows()[Number(k.slice(k.lastIndexOf("#") + 1))], now));
    if (!slide.buckets.size) m.sliding.delete(k);
  }
  for (const [k, h] of m.holds) if (!h.size) m.holds.delete(k);
}

type Refusal = { index: number; used: number; freeAtMs: number | null };

function slideOf(m: Memory, c: Counter, now: number): Slide {
  let slide = m.sliding.get(c.memKey);
  if (!slide) m.sliding.set(c.memKey, (slide = { buckets: new Map(), total: 0, last: -Infinity }));
  expire(slide, firstCounted(c.window!, now));
  return slide;
}

function admitInMemory(counters: Counter[], need: number[], hold: string | null, now: number): Refusal | null {
  const m = memory();
  sweepMemory(m, now);
  for (let i = 0; i < counters.length; i++) {
    const c = counters[i];
    if (c.window) {
      const slide = slideOf(m, c, now);
      if (slide.total + need[i] > c.max) {
        // refused: when enough buckets leave is worked out over the window (the rare path)
        const st = slidingState(c.window, slide.buckets, now, need[i], c.max);
        return { index: i, used: st.used, freeAtMs: st.freeAt };
      }
    } else if (c.limit === CONCURRENCY) {
      const used = m.holds.get(c.key)?.size ?? 0;
      if (used + 1 > c.max) return { index: i, used, freeAtMs: null };
    } else {
      const e = m.calendar.get(c.key);
      const used = e && e.endMs > now ? e.n : 0;
      if (used + need[i] > c.max) return { index: i, used, freeAtMs: c.endMs };
    }
  }
  for (let i = 0; i < counters.length; i++) {
    const c = counters[i];
    if (c.window) {
      const slide = m.sliding.get(c.memKey)!;
      // a clock that stepped back: the use goes to the newest bucket, keeping them in order
      const at = Math.max(bucketOf(c.window, now), slide.last);
      slide.buckets.set(at, (slide.buckets.get(at) ?? 0) + need[i]);
      slide.total += need[i];
      slide.last = at;
    } else if (c.limit === CONCURRENCY) {
      let h = m.holds.get(c.key);
      if (!h) m.holds.set(c.key, (h = new Set()));
      h.add(hold!);
    } else {
      const e = m.calendar.get(c.key);
      if (e && e.endMs > now) e.n += need[i];
      else m.calendar.set(c.key, { n: need[i], endMs: c.endMs });
    }
  }
  return null;
}

function finishInMemory(a: Admission, delta: number[], now: number) {
  const m = memory();
  for (let i = 0; i < a.counters.length; i++) {
    const c = a.counters[i];
    if (c.limit === CONCURRENCY) {
      m.holds.get(c.key)?.delete(a.hold!);
      continue;
    }
    const d = delta[i];
    if (!d) continue;
    if (c.window) {
      // the correction goes to the bucket the admission counted in, while it still counts
      const slide = m.sliding.get(c.memKey);
      const had = slide?.buckets.get(a.buckets[i]);
      if (!slide || had === undefined || a.buckets[i] < firstCounted(c.window, now)) continue;
      const v = Math.max(0, had + d);
      slide.buckets.set(a.buckets[i], v);
      slide.total += v - had;
    } else if (c.endMs > now) {
      const e = m.calendar.get(c.key);
      if (e) e.n = Math.max(0, e.n + d);
      else if (d > 0) m.calendar.set(c.key, { n: d, endMs: c.endMs });
    }
  }
}

// ---- Redis ----

// KEYS[i]: counter i. ARGV[1] now (ms), ARGV[2] the hold's id, ARGV[3] the hold's expiry (ms),
// ARGV[4] the hold keys' TTL (ms); then five values per counter: type (s sliding, c calendar,
// h concurrency), max, need, and for s the bucket width (ms) and the number of buckets, for c
// the period's end (ms). Answers {0} when every counter took the call, else {i, used, free
// at (ms, -1 unknown)} for the first that refused it, and nothing is counted.
const ADMIT = `
local now = tonumber(ARGV[1])
local n = #KEYS
for i = 1, n do
  local o = 4 + (i - 1) * 5
  local t, max, need, a, b = ARGV[o + 1], tonumber(ARGV[o + 2]), tonumber(ARGV[o + 3]), tonumber(ARGV[o + 4]), tonumber(ARGV[o + 5])
  local k = KEYS[i]
  if t == 's' then
    local from = math.floor(now / a) - b + 1
    local flat = redis.call('HGETALL', k)
    local used = 0
    local live = {}
    for j = 1, #flat, 2 do
      local bk = tonumber(flat[j])
      if bk < from then
        redis.call('HDEL', k, flat[j])
      else
        local v = tonumber(flat[j + 1])
        used = used + v
        live[#live + 1] = { bk, v }
      end
    end
    if used + need > max then
      local free = -1
      if need <= max then
        table.sort(live, function(x, y) return x[1] < y[1] end)
        local left = used
        for _, e in ipairs(live) do
          left = left - e[2]
          if left + need <= max then
            free = (e[1] + b) * a
            break
          end
        end
      end
      return { i, used, free }
    end
  elseif t == 'c' then
    local used = tonumber(redis.call('GET', k) or '0')
    if used + need > max then return { i, used, a } end
  else
    redis.call('ZREMRANGEBYSCORE', k, '-inf', now)
    local used = redis.call('ZCARD', k)
    if used + 1 > max then return { i, used, -1 } end
  end
end
for i = 1, n do
  local o = 4 + (i - 1) * 5
  local t, need, a, b = ARGV[o + 1], tonumber(ARGV[o + 3]), tonumber(ARGV[o + 4]), tonumber(ARGV[o + 5])
  local k = KEYS[i]
  if t == 's' then
    if need > 0 then redis.call('HINCRBY', k, math.floor(now / a), need) end
    redis.call('PEXPIRE', k, (b + 1) * a)
  elseif t == 'c' then
    if need > 0 then
      redis.call('INCRBY', k, need)
      redis.call('PEXPIREAT', k, a)
    end
  else
    redis.call('ZADD', k, ARGV[3], ARGV[2])
    redis.call('PEXPIRE', k, ARGV[4])
  end
end
return { 0 }
`;

// KEYS[i]: counter i. ARGV[1] now (ms), ARGV[2] the hold's id; then five values per counter:
// type, the correction, and for s the bucket, the oldest bucket still counted and the key's
// TTL (ms), for c the period's end (ms). Corrections never take a counter below zero.
const FINISH = `
local now = tonumber(ARGV[1])
for i = 1, #KEYS do
  local o = 2 + (i - 1) * 5
  local t, d = ARGV[o + 1], tonumber(ARGV[o + 2])
  local k = KEYS[i]
  if t == 's' then
    local bk = ARGV[o + 3]
    if d ~= 0 and tonumber(bk) >= tonumber(ARGV[o + 4]) then
      local v = redis.call('HINCRBY', k, bk, d)
      if v <= 0 then redis.call('HDEL', k, bk) end
      redis.call('PEXPIRE', k, ARGV[o + 5])
    end
  elseif t == 'c' then
    local e = tonumber(ARGV[o + 3])
    if d ~= 0 and now < e then
      local v = redis.call('INCRBY', k, d)
      if v < 0 then redis.call('INCRBY', k, -v) end
      redis.call('PEXPIREAT', k, e)
    end
  else
    redis.call('ZREM', k, ARGV[2])
  end
end
return 0
`;

type LimitCommands = Redis & {
  gwLimitAdmit(numKeys: number, ...args: (string | number)[]): Promise<number[]>;
  gwLimitFinish(numKeys: number, ...args: (string | number)[]): Promise<number>;
};
const defined = new WeakSet<Redis>();
function commands(r: Redis): LimitCommands {
  if (!defined.has(r)) {
    // ioredis sends EVALSHA, and the script itself once when Redis does not know it yet
    r.defineCommand("gwLimitAdmit", { lua: ADMIT });
    r.defineCommand("gwLimitFinish", { lua: FINISH });
    defined.add(r);
  }
  return r as LimitCommands;
}

// A hold expires holdTtlMs() (LIMITS_HOLD_TTL_SECONDS, 30 s) after its node last refreshed it,
// every third of that: a crashed node's calls stop counting against concurrency within that
// time (docs/usage-limits.md, "Concurrency").
let holdTtl = 0;
const holdTtlMs = () => (holdTtl ||= env().LIMITS_HOLD_TTL_SECONDS * 1000);
const liveHolds = new Map<string, { r: Redis; keys: string[] }>();
let refresher: NodeJS.Timeout | null = null;
function keepHold(id: string, r: Redis, keys: string[]) {
  liveHolds.set(id, { r, keys });
  if (refresher) return;
  refresher = setInterval(() => {
    if (!liveHolds.size) {
      clearInterval(refresher!);
      refresher = null;
      return;
    }
    const expiry = Date.now() + holdTtlMs();
    const pipes = new Map<Redis, ReturnType<Redis["pipeline"]>>();
    for (const [hold, h] of liveHolds) {
      let p = pipes.get(h.r);
      if (!p) pipes.set(h.r, (p = h.r.pipeline()));
      for (const k of h.keys) p.zadd(k, "XX", expiry, hold);
    }
    for (const p of pipes.values()) p.exec().catch(() => {}); // Redis down: the holds expire, as a crashed node's
  }, holdTtlMs() / 3);
  refresher.unref();
}

// Redis when it is connected; null on one node, or while it is down.
function shared(): Redis | null {
  const r = redis();
  if (!r) return null;
  if (r.status === "ready") {
    if (fallenBack) {
      fallenBack = false;
      log.info({}, "usage limits counted in Redis again");
    }
    return r;
  }
  noteFallback();
  return null;
}
let fallenBack = false;
function noteFallback() {
  if (fallenBack) return;
  fallenBack = true;
  log.warn({}, "Redis unreachable: usage limits are counted in this node's memory until it is back");
}

function admitArgs(counters: Counter[], need: number[], hold: string, now: number): (string | number)[] {
  const args: (string | number)[] = counters.map((c) => redisKey(c.key));
  args.push(now, hold, now + holdTtlMs(), holdTtlMs() * 2);
  for (let i = 0; i < counters.length; i++) {
    const c = counters[i];
    if (c.window) args.push("s", c.max, need[i], c.window.widthMs, c.window.slices);
    else if (c.limit === CONCURRENCY) args.push("h", c.max, 1, 0, 0);
    else args.push("c", c.max, need[i], c.endMs, 0);
  }
  return args;
}

// ---- the verbs of the relay ----

/**
 * Admits a call against its counters (callChecks), counting it: RPM 1, TPM `tokens` (the
 * estimate), concurrency a hold, the quotas `quota` (the reservation's estimate). Throws
 * LimitExceeded naming the first limit that refuses it; nothing is counted then. In memory it
 * answers at once, without a promise: an await here would move the call's reservation to a
 * later turn of the event loop, out of the billing store's batch (docs/usage-limits.md).
 */
export function admit(counters: Counter[], need: Need): Admission | Promise<Admission> {
  const now = Date.now();
  const needs = counters.map((c) => needOf(c, need));
  const hold = counters.some((c) => c.limit === CONCURRENCY) ? randomUUID() : null;
  const buckets = counters.map((c) => (c.window ? bucketOf(c.window, now) : 0));
  const a: Admission = { counters, need: needs, buckets, hold, shared: null, at: now, done: false };
  const r = shared();
  if (!r) return admitted(a, admitInMemory(counters, needs, hold, now));
  return admitShared(a, r);
}

async function admitShared(a: Admission, r: Redis): Promise<Admission> {
  let refusal: Refusal | null = null;
  try {
    const out = await commands(r).gwLimitAdmit(a.counters.length, ...admitArgs(a.counters, a.need, a.hold ?? "-", a.at));
    if (out[0] !== 0) refusal = { index: out[0] - 1, used: Number(out[1]), freeAtMs: Number(out[2]) < 0 ? null : Number(out[2]) };
  } catch {
    noteFallback(); // lost on the way: counted here instead
    return admitted(a, admitInMemory(a.counters, a.need, a.hold, a.at));
  }
  if (!refusal) {
    a.shared = r;
    if (a.hold)
      keepHold(
        a.hold,
        r,
        a.counters.filter((c) => c.limit === CONCURRENCY).map((c) => redisKey(c.key)),
      );
  }
  return admitted(a, refusal);
}

function admitted(a: Admission, refusal: Refusal | null): Admission {
  if (!refusal) return a;
  const c = a.counters[refusal.index];
  const retryAfter = refusal.freeAtMs === null ? (c.limit === CONCURRENCY ? 1 : 60) : Math.max(1, Math.ceil((refusal.freeAtMs - a.at) / 1000));
  throw new LimitExceeded(c.scope, LIMIT_NAMES[c.limit], c.max, retryAfter, refusal.freeAtMs);
}

/**
 * The call ended: TPM takes the settled tokens instead of the estimate, the quotas the settled
 * cost (0 when refunded), and the concurrency hold goes. Never throws; called once (later calls
 * do nothing). Without an admission, or in memory, it is done when it returns (no promise).
 */
export function finish(a: Admission | null, settled: Need): void | Promise<void> {
  if (!a || a.done) return;
  a.done = true;
  if (a.hold) liveHolds.delete(a.hold);
  const now = Date.now();
  const delta = a.counters.map((c, i) => (c.limit === TPM ? settled.tokens - a.need[i] : c.limit >= ROLLING ? settled.quota - a.need[i] : 0));
  if (!a.shared) return finishInMemory(a, delta, now);
  return finishShared(a, a.shared, delta, now);
}

async function finishShared(a: Admission, r: Redis, delta: number[], now: number): Promise<void> {
  const args: (string | number)[] = a.counters.map((c) => redisKey(c.key));
  args.push(now, a.hold ?? "-");
  for (let i = 0; i < a.counters.length; i++) {
    const c = a.counters[i];
    if (c.window) args.push("s", delta[i], a.buckets[i], firstCounted(c.window, now), (c.window.slices + 1) * c.window.widthMs);
    else if (c.limit === CONCURRENCY) args.push("h", 0, 0, 0, 0);
    else args.push("c", delta[i], c.endMs, 0, 0);
  }
  try {
    await commands(r).gwLimitFinish(a.counters.length, ...args);
  } catch {
    // Redis lost meanwhile: the correction is lost with it, and the hold expires (holdTtlMs)
  }
}

// ---- reading (GET /api/usage/limits) ----

export type LimitUsage = { scope: LimitScope; limit: LimitName; max: number; used: number; left: number; reset_at: number | null };

/** What each counter holds now, and when it frees (unix seconds; null: nothing to free). */
export async function readUsage(counters: Counter[]): Promise<LimitUsage[]> {
  const now = Date.now();
  const r = shared();
  let raw: unknown[] | null = null;
  if (r) {
    const p = r.pipeline();
    for (const c of counters) {
      const k = redisKey(c.key);
      if (c.window) p.hgetall(k);
      else if (c.limit === CONCURRENCY) p.zcount(k, `(${now}`, "+inf");
      else p.get(k);
    }
    try {
      const out = (await p.exec()) ?? [];
      raw = out.map(([err, v]) => (err ? null : v));
    } catch {
      raw = null;
    }
  }
  const m = memory();
  return counters.map((c, i) => {
    let used = 0;
    let reset: number | null = null;
    if (c.window) {
      const buckets = new Map<number, number>();
      if (raw) for (const [b, v] of Object.entries((raw[i] as Record<string, string> | null) ?? {})) buckets.set(Number(b), Number(v));
      else for (const [b, v] of m.sliding.get(c.memKey)?.buckets ?? []) buckets.set(b, v);
      const from = firstCounted(c.window, now);
      let oldest = Infinity;
      for (const [b, v] of buckets) {
        if (b < from || v <= 0) continue;
        used += v;
        oldest = Math.min(oldest, b);
      }
      if (used > 0) reset = Math.ceil(((oldest + c.window.slices) * c.window.widthMs) / 1000);
    } else if (c.limit === CONCURRENCY) {
      used = raw ? Number(raw[i] ?? 0) : (m.holds.get(c.key)?.size ?? 0);
    } else {
      if (raw) used = Number(raw[i] ?? 0);
      else {
        const e = m.calendar.get(c.key);
        used = e && e.endMs > now ? e.n : 0;
      }
      reset = Math.ceil(c.endMs / 1000);
    }
    return { scope: c.scope, limit: LIMIT_NAMES[c.limit], max: c.max, used, left: Math.max(0, c.max - used), reset_at: reset };
  });
}
