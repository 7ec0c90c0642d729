// The movements of a subscription's pot outside the relay's store (docs/plans.md, "Ledger"):
// its activation, the start of a new period (renewal, or an admin's reset), its end (expiry,
// cancellation, revocation), and a task's reservation and refund. Each runs inside the caller's transaction, changes the row with
// a conditional update (so that two nodes, or a job and an admin, move it once) and writes
// the ledger row of the change with subscription_id = the pot: the sum of a subscription's
// rows is its remaining quota while it is active, 0 once it has ended.
import "server-only";
import type { Plan, Subscription } from "@/generated/sqlite/client";
import type { Tx } from "@/lib/db/client";
import type { LedgerKind } from "@/lib/billing/ledger";
import { DAY_SECONDS, nextResetAt } from "@/lib/plans/periods";

export type SubscriptionSource = "balance" | "epay" | "stripe" | "admin";
export type EndStatus = "expired" | "cancelled" | "revoked";

export const remainingOf = (s: Pick<Subscription, "period_quota" | "carried" | "period_used">): bigint => s.period_quota + s.carried - s.period_used;

export async function potRow(
  tx: Tx,
  input: { userId: number; subscriptionId: number; delta: bigint; balanceAfter: bigint; kind: LedgerKind; ref: string; now: number; tokenId?: number },
): Promise<void> {
  if (input.delta === 0n) return;
  await tx.quotaLedger.create({
    data: {
      user_id: input.userId,
      token_id: input.tokenId ?? 0,
      delta: input.delta,
      balance_after: input.balanceAfter,
      kind: input.kind,
      ref: input.ref,
      created_at: BigInt(input.now),
      subscription_id: input.subscriptionId,
    },
  });
}

// A task's price reserved from a pot (lib/tasks/common.ts, docs/plans.md "Tasks"), in the
// caller's transaction: the relay's conditional debit (lib/billing/store) written in the SQL
// both databases speak. The pot's remaining after it, or null when the pot cannot cover the
// amount (ended, or less left) and nothing moved.
export async function debitPot(tx: Tx, subscriptionId: number, amount: bigint, now: number): Promise<bigint | null> {
  const rows = await tx.$queryRaw<{ remain: bigint | number }[]>`UPDATE "subscriptions" SET "period_used" = "period_used" + ${amount}
    WHERE "id" = ${subscriptionId} AND "status" = 'active' AND "ends_at" > ${BigInt(now)} AND "period_quota" + "carried" - "period_used" >= ${amount}
    RETURNING "period_quota" + "carried" - "period_used" AS "remain"`;
  return rows.length ? BigInt(rows[0]!.remain) : null;
}

// A task's reservation back to its pot (a failed task), with its relay_refund row. A pot that
// has ended, or whose period was renewed under the task (less used than what comes back),
// cannot take it: the row says it came back and a plan_expire row writes it off, so the pot's
// rows still sum to its remaining (as the relay's refunds do, lib/billing/store).
export async function givePotBack(
  tx: Tx,
  input: { userId: number; tokenId: number; subscriptionId: number; amount: bigint; ref: string; now: number },
): Promise<void> {
  const { amount, subscriptionId: id } = input;
  const rows = await tx.$queryRaw<{ remain: bigint | number }[]>`UPDATE "subscriptions" SET "period_used" = "period_used" - ${amount}
    WHERE "id" = ${id} AND "status" = 'active' AND "period_used" >= ${amount}
    RETURNING "period_quota" + "carried" - "period_used" AS "remain"`;
  const row = { userId: input.userId, tokenId: input.tokenId, subscriptionId: id, ref: input.ref, now: input.now };
  if (rows.length) {
    await potRow(tx, { ...row, delta: amount, balanceAfter: BigInt(rows[0]!.remain), kind: "relay_refund" });
    return;
  }
  const sub = await tx.subscription.findUnique({ where: { id }, select: { status: true, period_quota: true, carried: true, period_used: true } });
  const current = sub && sub.status === "active" ? remainingOf(sub) : 0n;
  await potRow(tx, { ...row, delta: amount, balanceAfter: current + amount, kind: "relay_refund" });
  await potRow(tx, { ...row, tokenId: 0, delta: -amount, balanceAfter: current, kind: "plan_expire" });
}

// The fields of the plan a subscription keeps as bought (GET /api/user/plan shows them).
export function planSnapshot(plan: Plan): string {
  return JSON.stringify({
    name: plan.name,
    description: plan.description,
    price: plan.price,
    currency: plan.currency,
    duration_days: plan.duration_days,
    quota: plan.quota.toString(),
    reset_period: plan.reset_period,
    upgrade_group: plan.upgrade_group,
    expiry_group: plan.expiry_group,
    models: plan.models,
    carry_over: plan.carry_over,
  });
}

// A new active subscription to `plan` with a full first period, its pot row (plan_purchase)
// and the move to the plan's upgrade group. The caller invalidates the user's caches after
// the commit (subscriptionsChanged).
export async function activate(
  tx: Tx,
  input: { userId: number; plan: Plan; source: SubscriptionSource; orderRef: string; stripeSubscriptionId?: string; now: number },
): Promise<Subscription> {
  const { plan, now } = input;
  const sub = await tx.subscription.create({
    data: {
      user_id: input.userId,
      plan_id: plan.id,
      plan_name: plan.name,
      plan_snapshot: planSnapshot(plan),
      status: "active",
      source: input.source,
      order_ref: input.orderRef,
      starts_at: BigInt(now),
      ends_at: BigInt(now + plan.duration_days * DAY_SECONDS),
      period_start: BigInt(now),
      next_reset_at: BigInt(nextResetAt(now, plan.reset_period)),
      reset_period: plan.reset_period,
      period_quota: plan.quota,
      carry_over: plan.carry_over,
      models: plan.models,
      upgrade_group: plan.upgrade_group,
      expiry_group: plan.expiry_group,
      duration_days: plan.duration_days,
      stripe_subscription_id: input.stripeSubscriptionId ?? "",
      created_at: BigInt(now),
      updated_at: BigInt(now),
    },
  });
  await potRow(tx, {
    userId: input.userId,
    subscriptionId: sub.id,
    delta: plan.quota,
    balanceAfter: plan.quota,
    kind: "plan_purchase",
    ref: input.orderRef,
    now,
  });
  if (plan.upgrade_group) await tx.user.update({ where: { id: input.userId }, data: { group: plan.upgrade_group } });
  return sub;
}

// A new period from `start`: period_used back to 0, and the unused quota carried into it
// when the plan carries over (else dropped). kind plan_renew (the job, a Stripe renewal) or
// plan_reset (an admin). `extendDays` lengthens the term too (a paid renewal). False when
// the subscription is no longer in the period the caller read (someone else moved it).
export async function startPeriod(
  tx: Tx,
  sub: Subscription,
  input: { start: number; kind: "plan_renew" | "plan_reset"; ref: string; now: number; extendDays?: number },
): Promise<boolean> {
  const before = remainingOf(sub);
  const carried = sub.carry_over && before > 0n ? before : 0n;
  const endsAt = input.extendDays ? BigInt(Math.max(Number(sub.ends_at), input.now) + input.extendDays * DAY_SECONDS) : sub.ends_at;
  const won = await tx.subscription.updateMany({
    where: { id: sub.id, status: "active", period_start: sub.period_start, period_used: sub.period_used, carried: sub.carried },
    data: {
      period_start: BigInt(input.start),
      next_reset_at: BigInt(nextResetAt(input.start, sub.reset_period)),
      period_used: 0n,
      carried,
      ends_at: endsAt,
      updated_at: BigInt(input.now),
    },
  });
  if (won.count !== 1) return false;
  const after = sub.period_quota + carried;
  await potRow(tx, {
    userId: sub.user_id,
    subscriptionId: sub.id,
    delta: after - before,
    balanceAfter: after,
    kind: input.kind,
    ref: input.ref,
    now: input.now,
  });
  return true;
}

// Ends an active subscription: status, its remaining written off (plan_expire), carried into
// the user's other active subscription of the same plan when the plan carries over and the
// subscription expired on time, and the user's group: another active plan's upgrade group,
// else this plan's expiry group (unchanged when it has none). False when it had already ended.
export async function end(tx: Tx, sub: Subscription, input: { status: EndStatus; ref: string; now: number }): Promise<boolean> {
  const current = await tx.subscription.findUnique({ where: { id: sub.id } });
  if (!current || current.status !== "active") return false;
  const won = await tx.subscription.updateMany({
    where: { id: sub.id, status: "active", period_used: current.period_used, carried: current.carried },
    data: { status: input.status, updated_at: BigInt(input.now) },
  });
  if (won.count !== 1) return false;
  const left = remainingOf(current);
  await potRow(tx, { userId: sub.user_id, subscriptionId: sub.id, delta: -left, balanceAfter: 0n, kind: "plan_expire", ref: input.ref, now: input.now });
  const others = await tx.subscription.findMany({ where: { user_id: sub.user_id, status: "active", id: { not: sub.id } }, orderBy: { ends_at: "desc" } });
  const successor = others.find((o) => o.plan_id === current.plan_id);
  if (input.status === "expired" && current.carry_over && left > 0n && successor) {
    const moved = await tx.subscription.update({ where: { id: successor.id }, data: { carried: { increment: left }, updated_at: BigInt(input.now) } });
    await potRow(tx, {
      userId: sub.user_id,
      subscriptionId: successor.id,
      delta: left,
      balanceAfter: remainingOf(moved),
      kind: "plan_renew",
      ref: `carry:${sub.id}`,
      now: input.now,
    });
  }
  const upgraded = others.find((o) => o.upgrade_group);
  const group = upgraded ? upgraded.upgrade_group : current.expiry_group;
  if (group) await tx.user.update({ where: { id: sub.user_id }, data: { group } });
  return true;
}
