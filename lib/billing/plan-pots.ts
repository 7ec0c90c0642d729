// The relay's view of a user's subscription plans, from memory (docs/plans.md, "Charging"):
// whether calls spend the plan or the balance first, whether they may fall back to the
// balance, and the active subscriptions with the models each may pay for. Loaded on a user's
// first call (two indexed reads) and kept for TTL_MS; any change of a user's subscriptions or
// preference drops the entry here and, through the "users" invalidation topic, on every node
// (lib/plans calls userChanged). The pots' balances are not cached: the reservation's
// conditional update in the billing transaction is what decides (lib/billing/store).
import "server-only";
import { onInvalidate } from "@/lib/cache/invalidate";
import { db } from "@/lib/db/client";

export type PlanPot = { id: number; planName: string; models: Set<string> | null; endsAt: number; nextResetAt: number };
export type UserPlans = { walletFirst: boolean; fallback: boolean; pots: PlanPot[] };

const TTL_MS = 60_000;
const MAX_ENTRIES = 100_000;
type Entry = { value: UserPlans | null; expires: number };
const holder = globalThis as unknown as { __gatewayPlanPots?: Map<number, Entry> };
const cache = () => (holder.__gatewayPlanPots ??= new Map());
// Bumped by every invalidation: a load that began before one is not kept (it may have read
// the rows the invalidation is about before they changed).
let generation = 0;

export function forgetPlanPots(userId?: number): void {
  generation++;
  if (userId === undefined) cache().clear();
  else cache().delete(userId);
}

onInvalidate((topic, id) => {
  if (topic === "users") forgetPlanPots(id ? Number(id) : undefined);
});

async function load(userId: number): Promise<UserPlans | null> {
  const [user, subs] = await Promise.all([
    db().user.findUnique({ where: { id: userId }, select: { billing_preference: true, wallet_fallback: true } }),
    db().subscription.findMany({
      where: { user_id: userId, status: "active" },
      select: { id: true, plan_name: true, models: true, ends_at: true, next_reset_at: true },
      orderBy: { ends_at: "asc" },
    }),
  ]);
  if (!user || !subs.length) return null;
  return {
    walletFirst: user.billing_preference === "wallet_first",
    fallback: user.wallet_fallback,
    pots: subs.map((s) => {
      const models = s.models
        .split(",")
        .map((m) => m.trim())
        .filter(Boolean);
      return {
        id: s.id,
        planName: s.plan_name,
        models: models.length ? new Set(models) : null,
        endsAt: Number(s.ends_at),
        nextResetAt: Number(s.next_reset_at),
      };
    }),
  };
}

/** The user's plans (null: none active); a Map lookup unless the entry is missing or stale. */
export function userPlans(userId: number): UserPlans | null | Promise<UserPlans | null> {
  const now = Date.now();
  const hit = cache().get(userId);
  if (hit && hit.expires > now) return hit.value;
  const gen = generation;
  return load(userId).then((value) => {
    if (gen !== generation) return value;
    const c = cache();
    if (c.size >= MAX_ENTRIES) c.clear();
    c.set(userId, { value, expires: now + TTL_MS });
    return value;
  });
}

/** The pots that may pay for `model` now, the one ending first first; empty when none. */
export function potsFor(plans: UserPlans, model: string, nowSec: number): PlanPot[] {
  const out: PlanPot[] = [];
  for (const p of plans.pots) if (p.endsAt > nowSec && (!p.models || p.models.has(model))) out.push(p);
  return out;
}

/** When a pot's quota comes back: its next period, else the end of its term. */
export const potResetAt = (p: PlanPot): number => (p.nextResetAt > 0 && p.nextResetAt < p.endsAt ? p.nextResetAt : p.endsAt);
