// The subscriptions' verbs (docs/plans.md, "API"): the caller's own (GET /api/user/plan,
// PUT /api/user/plan/preference, POST /api/user/plan/{id}/cancel) and the admin's (grant, revoke, reset a period, list a
// plan's subscribers). Every change invalidates the user's caches on every node.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { canManage } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { AppError, describeError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { stripeConfig } from "@/lib/payments/config";
import { stripeClient } from "@/lib/payments/stripe-client";
import { requireAdmin } from "@/lib/plans/admin-plans";
import { subscriptionsChanged } from "@/lib/plans/changed";
import { activate, end, startPeriod } from "@/lib/plans/pot";
import { presentSubscription } from "@/lib/plans/present";
import { TX_OPTIONS } from "@/lib/users/db-errors";
import { nowSeconds } from "@/lib/time";
import { recordAudit } from "@/lib/audit/record";

const log = logger("payments");

// Ended subscriptions shown beside the active ones.
const ENDED_SHOWN = 20;
// Attempts of a change that lost a race with a relay call moving the same pot.
const ATTEMPTS = 5;

export async function ownPlans({ ctx }: { ctx: UserCtx }) {
  const userId = ctx.user.id;
  const [user, active, ended] = await Promise.all([
    db().user.findUniqueOrThrow({ where: { id: userId }, select: { billing_preference: true, wallet_fallback: true } }),
    db().subscription.findMany({ where: { user_id: userId, status: "active" }, orderBy: { ends_at: "asc" } }),
    db().subscription.findMany({ where: { user_id: userId, status: { not: "active" } }, orderBy: { id: "desc" }, take: ENDED_SHOWN }),
  ]);
  return {
    billing_preference: user.billing_preference,
    wallet_fallback: user.wallet_fallback,
    subscriptions: [...active, ...ended].map(presentSubscription),
  };
}

export async function setPreference({ ctx, input }: { ctx: UserCtx; input: { billing_preference: "plan_first" | "wallet_first"; wallet_fallback?: boolean } }) {
  const data = { billing_preference: input.billing_preference, ...(input.wallet_fallback === undefined ? {} : { wallet_fallback: input.wallet_fallback }) };
  const user = await db().user.update({ where: { id: ctx.user.id }, data, select: { billing_preference: true, wallet_fallback: true } });
  await subscriptionsChanged(ctx.user.id);
  return user;
}

// POST /api/user/plan/{id}/cancel: the caller stops the renewal of a Stripe subscription.
// Stripe is told first (cancel_at_period_end, keyed so that a repeated click is one change
// there); the plan stays active to the end of its term, when Stripe's
// customer.subscription.deleted ends it (lib/plans/callbacks.ts). A plan bought with the
// balance or through epay never renews: there is nothing to cancel.
export async function cancelRenewal({ ctx, input }: { ctx: UserCtx; input: { id: number } }) {
  const sub = await db().subscription.findFirst({ where: { id: input.id, user_id: ctx.user.id } });
  if (!sub) throw new AppError("NOT_FOUND", "plan_subscription_not_found");
  if (sub.status !== "active") throw new AppError("RULE", "plan_subscription_not_active");
  if (!sub.stripe_subscription_id) throw new AppError("RULE", "plan_not_renewing");
  if (sub.cancel_at_period_end) return presentSubscription(sub);
  const cfg = stripeConfig();
  try {
    await stripeClient(cfg.apiSecret).subscriptions.update(
      sub.stripe_subscription_id,
      { cancel_at_period_end: true },
      { idempotencyKey: `cancel:${sub.stripe_subscription_id}` },
    );
  } catch (err) {
    log.error({ error: describeError(err), subscription: sub.id }, "stripe cancellation failed");
    throw new AppError("UPSTREAM", "plan_cancel_failed");
  }
  const updated = await db().subscription.update({ where: { id: sub.id }, data: { cancel_at_period_end: true, updated_at: BigInt(nowSeconds()) } });
  await subscriptionsChanged(ctx.user.id);
  return presentSubscription(updated);
}

async function managedUser(ctx: UserCtx, userId: number) {
  requireAdmin(ctx);
  const user = await db().user.findUnique({ where: { id: userId }, select: { id: true, role: true, deleted_at: true } });
  if (!user || user.deleted_at !== null) throw new AppError("NOT_FOUND", "user_not_found");
  // an admin manages users below their own role (the root anyone), as in the user editor
  if (user.id !== ctx.user.id && !canManage(ctx.user.role, user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  return user;
}

// POST /api/user/{id}/plan {plan_id}: a subscription without payment (source admin; it does
// not count toward the plan's purchase limit).
export async function grantPlan({ ctx, input }: { ctx: UserCtx; input: { id: number; plan_id: number } }) {
  await managedUser(ctx, input.id);
  const plan = await db().plan.findUnique({ where: { id: input.plan_id } });
  if (!plan || plan.deleted_at !== null) throw new AppError("NOT_FOUND", "plan_not_found");
  const sub = await db().$transaction(
    (tx) => activate(tx, { userId: input.id, plan, source: "admin", orderRef: `admin:${ctx.user.id}`, now: nowSeconds() }),
    TX_OPTIONS,
  );
  await subscriptionsChanged(input.id);
  await recordAudit(ctx, {
    action: "plan_grant",
    userId: input.id,
    target: { type: "subscription", id: sub.id },
    detail: { user_id: input.id, plan_id: plan.id, plan_name: plan.name },
  });
  return presentSubscription(sub);
}

async function ownedSubscription(userId: number, subscriptionId: number) {
  const sub = await db().subscription.findFirst({ where: { id: subscriptionId, user_id: userId } });
  if (!sub) throw new AppError("NOT_FOUND", "plan_subscription_not_found");
  if (sub.status !== "active") throw new AppError("RULE", "plan_subscription_not_active");
  return sub;
}

// DELETE /api/user/{id}/plan/{subscription_id}: ends it now (status revoked).
export async function revokePlan({ ctx, input }: { ctx: UserCtx; input: { id: number; subscription_id: number } }) {
  await managedUser(ctx, input.id);
  for (let i = 0; i < ATTEMPTS; i++) {
    // ownedSubscription refuses once it has ended; false: a call moved the pot meanwhile
    const sub = await ownedSubscription(input.id, input.subscription_id);
    const ended = await db().$transaction((tx) => end(tx, sub, { status: "revoked", ref: `admin:${ctx.user.id}`, now: nowSeconds() }), TX_OPTIONS);
    if (ended) {
      await subscriptionsChanged(input.id);
      await recordAudit(ctx, {
        action: "plan_revoke",
        userId: input.id,
        target: { type: "subscription", id: sub.id },
        detail: { user_id: input.id, plan_id: sub.plan_id, plan_name: sub.plan_name },
      });
      return presentSubscription(await db().subscription.findUniqueOrThrow({ where: { id: sub.id } }));
    }
  }
  throw new AppError("RATE_LIMITED", "too_many_requests");
}

// POST /api/user/{id}/plan/{subscription_id}/reset: a new period from now (plan_reset).
export async function resetPlanPeriod({ ctx, input }: { ctx: UserCtx; input: { id: number; subscription_id: number } }) {
  await managedUser(ctx, input.id);
  for (let i = 0; i < ATTEMPTS; i++) {
    const sub = await ownedSubscription(input.id, input.subscription_id);
    const now = nowSeconds();
    const done = await db().$transaction((tx) => startPeriod(tx, sub, { start: now, kind: "plan_reset", ref: `admin:${ctx.user.id}`, now }), TX_OPTIONS);
    if (done) {
      await subscriptionsChanged(input.id);
      return presentSubscription(await db().subscription.findUniqueOrThrow({ where: { id: sub.id } }));
    }
  }
  throw new AppError("RATE_LIMITED", "too_many_requests");
}

// GET /api/plan/{id}/subscribers?status=: a plan's subscribers with their meters.
export async function listSubscribers({ ctx, input }: { ctx: UserCtx; input: { id: number; status: string } }) {
  requireAdmin(ctx);
  const subs = await db().subscription.findMany({
    where: { plan_id: input.id, ...(input.status === "all" ? {} : { status: input.status }) },
    orderBy: { id: "desc" },
    take: 500,
  });
  const users = await db().user.findMany({ where: { id: { in: [...new Set(subs.map((s) => s.user_id))] } }, select: { id: true, username: true } });
  const names = new Map(users.map((u) => [u.id, u.username]));
  return subs.map((s) => ({ ...presentSubscription(s), username: names.get(s.user_id) ?? "" }));
}
