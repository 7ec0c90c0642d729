// The quota movements of a relay call, as one atomic database transaction each. Two
// implementations (SQLite, PostgreSQL) run the same statements through the database driver
// directly: they are on the relay's hot path, where an ORM query costs more than the whole
// rest of the request (bench/ measured Prisma at two thirds of the CPU).
//
// Every method keeps the invariants of lib/billing/ledger.ts: a debit is a conditional
// update that never takes a balance below zero, and every change of a user's quota writes a
// quota_ledger row in the same transaction, so the ledger always sums to the balance.
//
// Holds (docs/channels-tokens-billing.md, "Holds"): a reservation writes its quota_holds row
// in its own transaction, and a settlement, a refund or the sweeper deletes it as the first
// statement of theirs. That conditional delete decides: whoever finds the row gone throws
// HoldGone and moves nothing, so a reservation is closed exactly once.

import { AppError } from "@/lib/errors";
import { logMessage } from "@/lib/logs/messages";

export type ReserveInput = {
  userId: number;
  tokenId: number;
  unlimitedToken: boolean;
  amount: bigint;
  ref: string;
  // The client's own X-Request-Id, kept on the hold so that a sweep's log row names it; null
  // (or absent, outside reservations) when the ref is the call's request id.
  requestId?: string | null;
  // Called once, when the debits are decided and before they are committed (the relay
  // starts its upstream call there). The promise of reserve() still resolves only once the
  // reservation is committed, and rejects if the commit fails.
  beforeCommit?: () => void;
  // The subscription pots the call may spend (docs/plans.md, "Charging"), in the order to try;
  // absent or empty: the balance alone.
  plan?: PlanChoice | null;
  // The pot the reservation was taken from: 0 the balance, else a subscription id. Written by
  // the store's reserve, read by the settlement and the refund.
  subscriptionId?: number;
};

export type PlanChoice = { pots: { id: number; planName: string; resetAt: number }[]; walletFirst: boolean; fallback: boolean };

// A call its plan cannot pay for any more this period and that may not (or cannot) fall back
// to the balance: 429 naming the plan and when it resets, with Retry-After (lib/relay/handler.ts).
export class PlanExhausted extends AppError {
  constructor(
    readonly planName: string,
    readonly resetAt: number, // unix seconds
  ) {
    super("RATE_LIMITED", "plan_exhausted", { plan: planName, reset: new Date(resetAt * 1000).toISOString() });
  }
  retryAfterSeconds(nowSec: number): number {
    return Math.max(1, this.resetAt - nowSec);
  }
}
export function planExhausted(plan: PlanChoice): PlanExhausted {
  const p = plan.pots[0];
  return new PlanExhausted(p.planName, p.resetAt);
}
// The hold of the reservation is gone: it was closed already (by the sweeper, when this is a
// settlement or a refund of the node; by the node or another sweeper, when this is a sweep).
export class HoldGone extends Error {
  constructor(ref: string) {
    super(`the reservation ${ref} was already closed`);
    this.name = "HoldGone";
  }
}

// Why the sweeper refunds a hold (the text of its usage log row, lib/billing/holds.ts).
export type SweepReason = "node_stopped" | "left_open";
export type SweepInput = { ref: string; reason: SweepReason };
export const SWEEP_TEXT: Record<SweepReason, string> = {
  node_stopped: "refunded: the node handling this call stopped",
  left_open: "refunded: the reservation of this call was left open after its refund failed",
};
// The usage log row of a sweep: an error row, like the relay's other billing failures.
export const sweepLogOther = (reason: SweepReason) =>
  JSON.stringify({
    error_type: "billing_error",
    error_code: reason,
    message: logMessage(reason === "node_stopped" ? "sweep_node_stopped" : "sweep_left_open", {}),
  });

export type SettleInput = ReserveInput & { actual: bigint; channelId: number };

// Each returns the token's remaining quota afterwards, or null when no token quota moved.
export interface BillingStore {
  // Debits token (unless unlimited) and user by amount; throws QUOTA_EXCEEDED (token or user).
  reserve(input: ReserveInput): Promise<bigint | null>;
  // Replaces the reservation by the actual cost (the extra may take the user below zero:
  // the upstream has already served the call), counts the usage of user, token and channel.
  settle(input: SettleInput): Promise<bigint | null>;
  // Returns the whole reservation to token and user.
  refund(input: ReserveInput): Promise<bigint | null>;
  // Refunds the hold `ref` left by a call that will never close it (its node stopped, or its
  // refund failed for good): the hold's row, the refund with its ledger row and a usage log
  // row saying why, in one transaction. Throws HoldGone when the hold was closed already.
  sweep(input: SweepInput): Promise<bigint | null>;
  // Commits the movements still waiting (SQLite batches settlements, see store/sqlite.ts)
  // and resolves once every movement begun so far has ended; undefined when none is under
  // way (every console request asks, and most find nothing to wait for).
  flushSoon(): Promise<void> | undefined;
  // Movements waiting for their commit (read by GET /metrics; 0 where each commits at once).
  pending(): number;
}
