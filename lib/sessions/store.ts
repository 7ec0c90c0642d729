// Which console sessions are live, as each node knows it (docs/accounts-api.md, "Sessions").
// The session check of every console call reads this memory, not the database: a session
// id is looked up once and kept (live for a minute, ended for ten), and an ending is
// published on the invalidation channel (lib/cache/invalidate.ts, topic "sessions"), so
// that every node drops it at once. A lookup that was under way while any session ended
// is not kept, so that it cannot put back what the ending dropped. Last-seen times (and
// the address) are written in batches, at most once a minute per session.
import "server-only";
import { onInvalidate, publishInvalidation } from "@/lib/cache/invalidate";
import { db } from "@/lib/db/client";
import { describeError } from "@/lib/errors";
import { registerFlusher } from "@/lib/lifecycle";
import { logger } from "@/lib/logger";
import { nowSeconds } from "@/lib/time";

const log = logger("sessions");

export const LIVE_TTL_MS = 60_000;
export const ENDED_TTL_MS = 10 * 60_000;
export const SEEN_EVERY_SECONDS = 60;
const FLUSH_EVERY_MS = 15_000;
const MAX_ENTRIES = 100_000;

export type LiveSession = { userId: number; expiresAt: number };
type Entry = { live: LiveSession | null; until: number; seenWritten: number };
type Seen = { at: number; ip: string };

type State = { entries: Map<string, Entry>; generation: number; pending: Map<string, Seen>; timer?: NodeJS.Timeout };
const holder = globalThis as unknown as { __gatewaySessions?: State };
const state = (): State => (holder.__gatewaySessions ??= { entries: new Map(), generation: 0, pending: new Map() });

function remember(sid: string, entry: Entry): void {
  const { entries } = state();
  entries.delete(sid);
  if (entries.size >= MAX_ENTRIES) {
    // the oldest entry goes (a Map keeps insertion order); it is looked up again when needed
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  entries.set(sid, entry);
}

/** The session sid if it is live (not ended, not expired), from memory when this node knows it. */
export async function liveSession(sid: string): Promise<LiveSession | null> {
  const s = state();
  const now = Date.now();
  const known = s.entries.get(sid);
  let live: LiveSession | null;
  if (known && known.until > now) live = known.live;
  else {
    const generation = s.generation;
    const row = await db().session.findUnique({ where: { id: sid }, select: { user_id: true, expires_at: true, last_seen_at: true } });
    live = row ? { userId: row.user_id, expiresAt: Number(row.expires_at) } : null;
    if (generation === s.generation) {
      remember(sid, { live, until: now + (live ? LIVE_TTL_MS : ENDED_TTL_MS), seenWritten: row ? Number(row.last_seen_at) : 0 });
    }
  }
  if (live && live.expiresAt <= nowSeconds()) return null;
  return live;
}

/** A session this node has just made: known at once, without a lookup. */
export function rememberNewSession(sid: string, live: LiveSession): void {
  remember(sid, { live, until: Date.now() + LIVE_TTL_MS, seenWritten: nowSeconds() });
}

/** Notes a console call of session sid from ip; written with the next batch if its last write is a minute old. */
export function noteSeen(sid: string, ip: string): void {
  const s = state();
  const now = nowSeconds();
  const entry = s.entries.get(sid);
  if (entry && now - entry.seenWritten < SEEN_EVERY_SECONDS) return;
  if (entry) entry.seenWritten = now;
  s.pending.set(sid, { at: now, ip });
  if (!s.timer) {
    s.timer = setInterval(() => void flushSeen(), FLUSH_EVERY_MS);
    s.timer.unref();
  }
}

/** Writes the queued last-seen times (every 15 s, and at shutdown). An ended session's is dropped. */
export async function flushSeen(): Promise<void> {
  const s = state();
  if (s.pending.size === 0) return;
  const batch = [...s.pending];
  s.pending.clear();
  for (const [sid, seen] of batch) {
    try {
      // updateMany: a session ended meanwhile has no row, and that is no error
      await db().session.updateMany({ where: { id: sid }, data: { last_seen_at: BigInt(seen.at), ip: seen.ip } });
    } catch (err) {
      log.warn({ error: describeError(err) }, "last-seen write failed");
    }
  }
}
registerFlusher(flushSeen);

function dropLocally(sid: string): void {
  const s = state();
  s.generation++;
  s.pending.delete(sid);
  remember(sid, { live: null, until: Date.now() + ENDED_TTL_MS, seenWritten: 0 });
}

function dropUserLocally(userId: number): void {
  const s = state();
  s.generation++;
  for (const [sid, entry] of s.entries) {
    if (entry.live?.userId === userId) {
      s.pending.delete(sid);
      entry.live = null;
      entry.until = Date.now() + ENDED_TTL_MS;
    }
  }
}

/** After session rows were deleted: this node and every other forget them. */
export async function sessionsEnded(sids: string[]): Promise<void> {
  for (const sid of sids) dropLocally(sid);
  for (const sid of sids) await publishInvalidation("sessions", `s:${sid}`);
}

/** After all of a user's session rows were deleted: this node and every other forget them. */
export async function userSessionsEnded(userId: number): Promise<void> {
  dropUserLocally(userId);
  await publishInvalidation("sessions", `u:${userId}`);
}

onInvalidate((topic, id) => {
  if (topic !== "sessions") return;
  const s = state();
  if (id?.startsWith("s:")) dropLocally(id.slice(2));
  else if (id?.startsWith("u:")) dropUserLocally(Number(id.slice(2)));
  else {
    // a missed message cannot be told apart: every session is looked up again
    s.generation++;
    s.entries.clear();
  }
});
