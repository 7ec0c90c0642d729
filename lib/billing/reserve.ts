// Quota reservation before an upstream call: the token's remaining quota (unless the token
// is unlimited) and the user's balance are debited by the estimate in one transaction, with
// its ledger row; either both happen or neither, and neither goes below zero however many
// calls race for the same balance (lib/billing/store does the SQL). The same transaction
// writes the reservation's hold, which the node's own sweeper leaves alone while the ref is
// in openHolds() (docs/channels-tokens-billing.md, "Holds").
import "server-only";
import { randomUUID } from "node:crypto";
import { billingStore } from "@/lib/billing/store";
import { noteTokenQuota } from "@/lib/cache/token-store";
import { openHolds } from "@/lib/billing/node";
import { potResetAt, potsFor, userPlans, type UserPlans } from "@/lib/billing/plan-pots";
import type { PlanChoice } from "@/lib/billing/store/types";
import { nowSeconds } from "@/lib/time";

export type Reservation = {
  userId: number;
  tokenId: number; // 0 in the playground (billed to the user alone)
  unlimitedToken: boolean;
  amount: bigint; // quota units reserved (>= 0)
  ref: string; // ties the reserve, settle and refund ledger rows of one call together
  state: "open" | "settled" | "refunded";
  subscriptionId?: number; // the pot reserved from: 0 or absent the balance, else a subscription (docs/plans.md)
};

// The pots a call for `model` may spend, in the user's order; null when the balance alone pays.
export function planChoice(plans: UserPlans | null, model: string | undefined): PlanChoice | null {
  if (!plans) return null;
  const pots = potsFor(plans, model ?? "", nowSeconds());
  if (!pots.length) return null;
  return { pots: pots.map((p) => ({ id: p.id, planName: p.planName, resetAt: potResetAt(p) })), walletFirst: plans.walletFirst, fallback: plans.fallback };
}

// beforeCommit: called once the debits are decided, before the promise resolves (see
// ReserveInput); a refused reservation never calls it.
export async function reserve(
  input: { userId: number; tokenId: number; unlimitedToken: boolean; amount: bigint; ref?: string; requestId?: string | null; model?: string },
  beforeCommit?: () => void,
): Promise<Reservation> {
  if (input.amount < 0n) throw new Error("reserve: negative amount");
  // explicit literals: { ...input, more } costs a new hidden class per call on Node 20
  const { userId, tokenId, unlimitedToken, amount } = input;
  const ref = input.ref ?? randomUUID();
  const r: Reservation = { userId, tokenId, unlimitedToken, amount, ref, state: "open", subscriptionId: 0 };
  if (r.amount > 0n) {
    // the user's plans from memory (a query only on the entry's first use, lib/billing/plan-pots.ts)
    let plans = userPlans(userId);
    if (plans instanceof Promise) plans = await plans;
    const plan = planChoice(plans, input.model);
    const open = openHolds();
    open.add(ref); // before the hold can exist, so that the node's sweep never sees it unlisted
    let remain: bigint | null;
    try {
      const movement = { userId, tokenId, unlimitedToken, amount, ref, requestId: input.requestId ?? null, beforeCommit, plan, subscriptionId: 0 };
      remain = await (await billingStore()).reserve(movement);
      r.subscriptionId = movement.subscriptionId;
    } catch (err) {
      open.delete(ref);
      throw err;
    }
    if (remain !== null) noteTokenQuota(r.tokenId, remain);
  } else beforeCommit?.();
  return r;
}
