// Settlement after an upstream call, and refund after a failed one.
//
// settle: the exact cost replaces the reservation. A cheaper call gives the difference back;
// a dearer one takes the extra, even below zero for the user (the upstream already served
// the call; the debt is a ledger row like any other), while a limited token's remaining
// quota stops at 0. The same transaction adds the cost to the used_quota of user, token and
// channel and counts the request; the usage log row is queued after the commit and written
// in a batch (lib/logs/writer.ts).
//
// refund: returns the whole reservation to the token and the user.
//
// settleOrRefund / refundOrLog: what the relay calls. A movement that fails (a database
// error, a charge that cannot be computed) is retried a bounded number of times; if it still
// fails, the reservation is refunded (the state of the reservation makes that happen once at
// most) and an error log row records the call (docs/channels-tokens-billing.md).
//
// Holds: every movement closes the reservation's hold first; a hold already gone means the
// sweeper refunded the reservation (its node was taken for dead), so a refund has nothing
// left to do and a settlement must not charge: the call ends unbilled, with its error row.
import "server-only";
import { logger } from "@/lib/logger";
import { setTimeout as sleep } from "node:timers/promises";
import type { Reservation } from "@/lib/billing/reserve";
import { describeError } from "@/lib/errors";
import { billingStore } from "@/lib/billing/store";
import { enqueueLog, LOG_TYPE, type LogInput } from "@/lib/logs/writer";
import { getBool } from "@/lib/options/store";
import { noteTokenQuota } from "@/lib/cache/token-store";
import { openHolds } from "@/lib/billing/node";
import { HoldGone } from "@/lib/billing/store/types";

const serverLog = logger("billing");

// What the relay knows about the call; type, quota and user are filled in by settle.
export type ConsumeLog = Omit<LogInput, "type" | "quota" | "user_id"> & { channel_id: number };

// A reservation is settled or refunded exactly once; a failed attempt leaves it open.
async function close(r: Reservation, to: "settled" | "refunded", move: () => Promise<bigint | null>): Promise<void> {
  if (r.state !== "open") throw new Error(`reservation ${r.ref} is already ${r.state}`);
  r.state = to;
  let remain: bigint | null;
  try {
    remain = await move();
  } catch (err) {
    if (err instanceof HoldGone) {
      // the sweeper refunded it: closed, and by a refund
      r.state = "refunded";
      openHolds().delete(r.ref);
      if (to === "refunded") return;
    } else r.state = "open";
    throw err;
  }
  openHolds().delete(r.ref);
  if (remain !== null) noteTokenQuota(r.tokenId, remain);
}

export async function settle(reservation: Reservation, actualQuota: bigint, log: ConsumeLog): Promise<void> {
  if (actualQuota < 0n) throw new Error("settle: negative quota");
  const r = reservation;
  const { userId, tokenId, unlimitedToken, amount, ref, subscriptionId } = r;
  await close(r, "settled", async () =>
    (await billingStore()).settle({ userId, tokenId, unlimitedToken, amount, ref, actual: actualQuota, channelId: log.channel_id, subscriptionId }),
  );
  if (getBool("LogConsumeEnabled")) {
    const entry: LogInput = Object.assign({ user_id: userId, type: LOG_TYPE.consume, quota: actualQuota }, log);
    entry.token_id ??= tokenId;
    enqueueLog(entry);
  }
}

export async function refund(reservation: Reservation): Promise<void> {
  const r = reservation;
  if (r.amount === 0n) {
    if (r.state !== "open") throw new Error(`reservation ${r.ref} is already ${r.state}`);
    r.state = "refunded";
    return;
  }
  await close(r, "refunded", async () => (await billingStore()).refund(r));
}

// Attempts of one movement before it is given up, and the pauses between them.
export const MOVEMENT_ATTEMPTS = 3;
const RETRY_PAUSE_MS = [50, 250];

// Settles the call at `cost`, or, when cost is the error that prevented computing it, or the
// settlement still fails after MOVEMENT_ATTEMPTS, refunds the reservation and logs the call
// as a billing failure. Never throws; true when the call was charged.
export async function settleOrRefund(reservation: Reservation, cost: bigint | Error, log: ConsumeLog): Promise<boolean> {
  let failure: unknown = cost;
  if (typeof cost === "bigint") {
    for (let attempt = 1; ; attempt++) {
      try {
        await settle(reservation, cost, log);
        return true;
      } catch (err) {
        // settled already: the movement committed and only what followed it failed
        if (reservation.state === "settled") return true;
        failure = err;
        if (attempt >= MOVEMENT_ATTEMPTS || reservation.state !== "open") break;
        await sleep(RETRY_PAUSE_MS[attempt - 1]);
      }
    }
  }
  serverLog.error({ ref: reservation.ref, error: describeError(failure) }, "settlement failed");
  await refundOrLog(reservation, log, "settlement_failed");
  return false;
}

// Refunds the reservation, retried like a settlement. `reason` (a billing failure that led
// here) writes an error log row for the call; a refund that fails for good writes one too,
// since the reservation then stays debited. Never throws; true when the reservation is back.
export async function refundOrLog(reservation: Reservation, log: ConsumeLog, reason?: "settlement_failed"): Promise<boolean> {
  let refunded = false;
  for (let attempt = 1; ; attempt++) {
    if (reservation.state !== "open") {
      refunded = reservation.state === "refunded";
      break;
    }
    try {
      await refund(reservation);
      refunded = true;
      break;
    } catch (err) {
      serverLog.error({ ref: reservation.ref, error: describeError(err) }, "refund failed");
      if (attempt >= MOVEMENT_ATTEMPTS) break;
      await sleep(RETRY_PAUSE_MS[attempt - 1]);
    }
  }
  // given up: the node's sweeper returns it later (lib/billing/holds.ts)
  if (!refunded) openHolds().delete(reservation.ref);
  if (reason || !refunded) billingErrorLog(reservation, log, refunded ? (reason ?? "settlement_failed") : "refund_failed");
  return refunded;
}

const BILLING_FAILURE_TEXT = {
  settlement_failed: "billing failed: the call was not charged and its reservation was returned",
  refund_failed: "billing failed: the reservation of the call could not be returned yet; the node's hold sweeper returns it later",
};

// Written whatever LogErrorEnabled says: this is the record of a quota movement that did not
// happen as it should, not an upstream error.
function billingErrorLog(r: Reservation, log: ConsumeLog, code: "settlement_failed" | "refund_failed"): void {
  const entry: LogInput = Object.assign({ user_id: r.userId, type: LOG_TYPE.error, quota: 0n }, log);
  entry.content = BILLING_FAILURE_TEXT[code];
  entry.token_id ??= r.tokenId;
  const other: Record<string, unknown> = log.other && typeof log.other === "object" ? log.other : {};
  other.error_type = "billing_error";
  other.error_code = code;
  entry.other = other;
  enqueueLog(entry);
}
