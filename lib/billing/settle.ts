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
import "server-only";
import type { Reservation } from "@/lib/billing/reserve";
import { billingStore } from "@/lib/billing/store";
import { enqueueLog, LOG_TYPE, type LogInput } from "@/lib/logs/writer";
import { getBool } from "@/lib/options/store";
import { noteTokenQuota } from "@/lib/cache/token-store";

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
    r.state = "open";
    throw err;
  }
  if (remain !== null) noteTokenQuota(r.tokenId, remain);
}

export async function settle(reservation: Reservation, actualQuota: bigint, log: ConsumeLog): Promise<void> {
  if (actualQuota < 0n) throw new Error("settle: negative quota");
  const r = reservation;
  const { userId, tokenId, unlimitedToken, amount, ref } = r;
  await close(r, "settled", async () =>
    (await billingStore()).settle({ userId, tokenId, unlimitedToken, amount, ref, actual: actualQuota, channelId: log.channel_id }),
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
