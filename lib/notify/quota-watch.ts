// The relay's side of quota warnings (docs/notifications.md). The billing store calls
// noteBalance() with the user's balance right after each settlement's statements: a Map
// lookup and a bigint comparison, no allocation, no await and no database read. Only a
// balance below the user's threshold (or a user this node does not know yet) puts the user
// id in a set, and a timer later hands the set to lib/notify/quota-warning.ts, which reads
// the user, claims the warning and delivers it, all in the background.
//
// The state is on globalThis: the relay (server.ts's bundle) notes balances and the console
// (Next's bundle) forgets a user whose settings changed; both must see the same Map.
import "server-only";
import { logger } from "@/lib/logger";
import { onInvalidate } from "@/lib/cache/invalidate";
import { onOptionsApplied } from "@/lib/options/store";

const log = logger("notify");

// expires: when this node reads the user again (WATCH_TTL_MS after it last did)
type Watch = { threshold: bigint; quietUntil: number; expires: number };
type State = { watched: Map<number, Watch>; due: Set<number>; scheduled: boolean };
const g = globalThis as unknown as { __gatewayQuotaWatch?: State };
const state: State = (g.__gatewayQuotaWatch ??= { watched: new Map(), due: new Set(), scheduled: false });

// How long this node trusts its copy of a user's threshold (a setting saved on another node,
// or an option change, is seen within this time); the users noted since are read again.
export const WATCH_TTL_MS = 60_000;
// A bound on the users remembered (the token cache's own bound, lib/relay/token-cache.ts).
const MAX_WATCHED = 50_000;
// Settlements noted within this time are checked together, in one query.
const BATCH_DELAY_MS = 100;
/** A threshold that no balance is below: warnings off for this user. */
export const NO_THRESHOLD = -(1n << 63n);

export function noteBalance(userId: number, balance: bigint): void {
  const w = state.watched.get(userId);
  if (w !== undefined) {
    const now = Date.now();
    if (w.expires > now && (balance >= w.threshold || w.quietUntil > now)) return;
  }
  state.due.add(userId);
  if (!state.scheduled) {
    state.scheduled = true;
    setTimeout(runDue, BATCH_DELAY_MS).unref();
  }
}

/** What this node now knows of a user (quota-warning.ts, after reading the row). */
export function watchUser(userId: number, threshold: bigint, quietUntil: number): void {
  const expires = Date.now() + WATCH_TTL_MS;
  const w = state.watched.get(userId);
  if (w) {
    w.threshold = threshold;
    w.quietUntil = quietUntil;
    w.expires = expires;
  } else {
    if (state.watched.size >= MAX_WATCHED) state.watched.clear();
    state.watched.set(userId, { threshold, quietUntil, expires });
  }
}

/** The user's settings, balance rules or warning time changed: read them again at the next charge. */
export function forgetUser(userId: number): void {
  state.watched.delete(userId);
}

/** An option the thresholds depend on changed (QuotaRemindThreshold). */
export function forgetAll(): void {
  state.watched.clear();
}

function runDue(): void {
  state.scheduled = false;
  const ids = [...state.due];
  state.due.clear();
  void import("@/lib/notify/quota-warning")
    .then((m) => m.checkQuotaWarnings(ids))
    .catch((err: unknown) => log.error({ error: err instanceof Error ? err.message : String(err) }, "quota warning check failed"));
}

// A user changed on another node (lib/users/changed.ts there), or an option here (the
// threshold's default, QuotaRemindThreshold, is an option).
onInvalidate((topic, id) => {
  if (topic !== "users") return;
  if (id) forgetUser(Number(id));
  else forgetAll();
});
onOptionsApplied(forgetAll);
