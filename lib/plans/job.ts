// The subscription plans' periodic job (docs/plans.md, "Periodic job"), once per cluster
// under the "plans" lease (lib/db/lease.ts), every PLAN_JOB_INTERVAL_SECONDS on each node:
//   - a subscription whose term has ended (ends_at <= now) expires: status expired, its
//     remaining written off or carried over, the user's group back (lib/plans/pot.ts end);
//     a Stripe subscription that still renews waits STRIPE_RENEWAL_GRACE_SECONDS more, so
//     that the renewal invoice Stripe pays after the period's end still finds it active (it
//     is not charged meanwhile: a pot pays only before its ends_at);
//   - a subscription whose period has ended (next_reset_at <= now) starts the period that
//     holds now (plan_renew), carrying the unused quota when the plan says so.
// Each change is a conditional update: a second node, a round that lost its lease, or an
// admin acting at the same moment changes nothing twice. One that lost a race with a relay
// call is left for the next round. The users changed are invalidated on every node.
import "server-only";
import { db } from "@/lib/db/client";
import { withClusterLease } from "@/lib/db/lease";
import { env } from "@/lib/env";
import { describeError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { subscriptionsChanged } from "@/lib/plans/changed";
import { currentPeriodStart } from "@/lib/plans/periods";
import { end, startPeriod } from "@/lib/plans/pot";
import { TX_OPTIONS } from "@/lib/users/db-errors";
import { nowSeconds } from "@/lib/time";

const log = logger("plans");
const LEASE_MS = 60_000;
const BATCH = 200;
// Stripe pays a renewal about an hour after the period ends, and retries a failed payment for
// days before it deletes the subscription (then customer.subscription.deleted ends it here)
export const STRIPE_RENEWAL_GRACE_SECONDS = 3 * 86400;

export type PlanRound = { expired: number; renewed: number };

export async function runPlanRound(): Promise<PlanRound> {
  const out: PlanRound = { expired: 0, renewed: 0 };
  const users = new Set<number>();
  await withClusterLease("plans", LEASE_MS, async (lease) => {
    const now = nowSeconds();
    const tried = new Set<number>();
    for (;;) {
      const due = await db().subscription.findMany({
        where: {
          status: "active",
          ends_at: { lte: BigInt(now) },
          id: { notIn: [...tried] },
          OR: [{ stripe_subscription_id: "" }, { cancel_at_period_end: true }, { ends_at: { lte: BigInt(now - STRIPE_RENEWAL_GRACE_SECONDS) } }],
        },
        orderBy: { ends_at: "asc" },
        take: BATCH,
      });
      if (!due.length) break;
      for (const sub of due) {
        tried.add(sub.id);
        if (await db().$transaction((tx) => end(tx, sub, { status: "expired", ref: "expired", now }), TX_OPTIONS)) {
          out.expired++;
          users.add(sub.user_id);
        }
      }
      if (!(await lease.renew())) return;
    }
    for (;;) {
      const due = await db().subscription.findMany({
        where: { status: "active", next_reset_at: { gt: 0n, lte: BigInt(now) }, ends_at: { gt: BigInt(now) }, id: { notIn: [...tried] } },
        orderBy: { next_reset_at: "asc" },
        take: BATCH,
      });
      if (!due.length) break;
      for (const sub of due) {
        tried.add(sub.id);
        const start = currentPeriodStart(Number(sub.period_start), sub.reset_period, now);
        if (await db().$transaction((tx) => startPeriod(tx, sub, { start, kind: "plan_renew", ref: `period:${start}`, now }), TX_OPTIONS)) {
          out.renewed++;
          users.add(sub.user_id);
        }
      }
      if (!(await lease.renew())) return;
    }
  });
  for (const id of users) await subscriptionsChanged(id);
  if (out.expired || out.renewed) log.info(out, "plan periods renewed and terms expired");
  return out;
}

const holder = globalThis as unknown as { __gatewayPlanJob?: { timer: NodeJS.Timeout; running?: Promise<void> } };

export function startPlanJob(): void {
  if (holder.__gatewayPlanJob) return;
  const state: { timer: NodeJS.Timeout; running?: Promise<void> } = {
    timer: setInterval(() => {
      if (state.running) return;
      state.running = runPlanRound()
        .then(() => undefined)
        .catch((err) => log.error({ error: describeError(err) }, "plan round failed"))
        .finally(() => (state.running = undefined));
    }, env().PLAN_JOB_INTERVAL_SECONDS * 1000),
  };
  state.timer.unref();
  holder.__gatewayPlanJob = state;
}

export async function stopPlanJob(): Promise<void> {
  const state = holder.__gatewayPlanJob;
  if (!state) return;
  clearInterval(state.timer);
  holder.__gatewayPlanJob = undefined;
  await state.running;
}
