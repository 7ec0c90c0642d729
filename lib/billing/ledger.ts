// Every change of a user's quota goes through changeUserQuota, inside the caller's
// transaction: one conditional update of the balance and one append-only ledger row, so
// that the ledger always sums to the balance and no debit can take a balance below zero.
import "server-only";
import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { nowSeconds } from "@/lib/time";

export type LedgerKind =
  | "register_bonus" // QuotaForNewUser
  | "invitee_bonus" // QuotaForInvitee, credited to the new user
  | "aff_transfer" // invitation earnings moved into the balance
  | "check_in"
  | "admin_adjust" // an admin set the quota in the user editor
  | "redeem"
  | "top_up"
  | "relay_reserve" // estimate reserved before an upstream call
  | "relay_settle" // difference between the exact cost and the reservation (either sign)
  | "relay_refund" // reservation returned after a failed call
  // subscription plans (docs/plans.md, "Ledger"): rows with subscription_id > 0 move that
  // subscription's pot, the others the balance (a purchase with the balance writes both)
  | "plan_purchase" // a plan bought (the balance's debit) or activated (the pot's first quota)
  | "plan_renew" // a new period (the job, a Stripe renewal), or quota carried over into it
  | "plan_expire" // the pot's remaining written off when the subscription ends
  | "plan_reset"; // an admin reset the subscriber's period

// Adds delta (negative to debit) to the user's quota. A debit only happens when the
// balance covers it; otherwise nothing is written and QUOTA_EXCEEDED is thrown (unless
// allowNegative, used only to settle a call whose true cost exceeded its reservation).
export async function changeUserQuota(
  tx: Tx,
  input: { userId: number; delta: bigint; kind: LedgerKind; ref?: string; tokenId?: number; allowNegative?: boolean },
): Promise<bigint> {
  const { userId, delta, kind } = input;
  if (delta === 0n) {
    const u = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { quota: true } });
    return u.quota;
  }
  const where = delta < 0n && !input.allowNegative ? { id: userId, quota: { gte: -delta } } : { id: userId };
  const changed = await tx.user.updateMany({ where, data: { quota: { increment: delta } } });
  if (changed.count !== 1) throw new AppError("QUOTA_EXCEEDED", "quota_insufficient_user");
  const { quota } = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { quota: true } });
  await tx.quotaLedger.create({
    data: {
      user_id: userId,
      token_id: input.tokenId ?? 0,
      delta,
      balance_after: quota,
      kind,
      ref: input.ref ?? "",
      created_at: BigInt(nowSeconds()),
    },
  });
  return quota;
}
