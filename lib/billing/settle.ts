// Settlement after an upstream call, and refund after a failed one.
//
// settle: the exact cost replaces the reservation. A cheaper call gives the difference back;
// a dearer one takes the extra. The extra is taken from the user even if it makes the
// balance negative (the upstream already served the call; the debt is a ledger row like
// any other), while a limited token's remaining quota stops at 0. The same transaction adds
// the cost to the used_quota of user, token and channel and counts the request; the usage
// log is queued after the commit.
//
// refund: returns the whole reservation to the token and the user.
import type { Tx } from "@/lib/db/client";
import { db } from "@/lib/db/client";
import { changeUserQuota, nowSeconds } from "@/lib/billing/ledger";
import type { Reservation } from "@/lib/billing/reserve";
import { enqueueLog, LOG_TYPE, type LogInput } from "@/lib/logs/writer";
import { getBool } from "@/lib/options/store";
import { noteTokenQuota } from "@/lib/relay/token-cache";

// What the relay knows about the call; type, quota and user are filled in by settle.
export type ConsumeLog = Omit<LogInput, "type" | "quota" | "user_id"> & { channel_id: number };

async function adjustToken(tx: Tx, r: Reservation, delta: bigint): Promise<bigint | null> {
  // delta > 0: the call cost more than reserved (take from the token); < 0: give back.
  if (r.unlimitedToken || delta === 0n) return null;
  if (delta < 0n) {
    await tx.token.update({ where: { id: r.tokenId }, data: { remain_quota: { increment: -delta } } });
  } else {
    const t = await tx.token.updateMany({ where: { id: r.tokenId, remain_quota: { gte: delta } }, data: { remain_quota: { decrement: delta } } });
    if (t.count !== 1) await tx.token.update({ where: { id: r.tokenId }, data: { remain_quota: 0 } });
  }
  return (await tx.token.findUniqueOrThrow({ where: { id: r.tokenId }, select: { remain_quota: true } })).remain_quota;
}

function claim(r: Reservation, to: "settled" | "refunded") {
  if (r.state !== "open") throw new Error(`reservation ${r.ref} is already ${r.state}`);
  r.state = to;
}

export async function settle(reservation: Reservation, actualQuota: bigint, log: ConsumeLog): Promise<void> {
  if (actualQuota < 0n) throw new Error("settle: negative quota");
  claim(reservation, "settled");
  const r = reservation;
  const delta = actualQuota - r.amount;
  let remain: bigint | null;
  try {
    remain = await db().$transaction(async (tx) => {
      if (delta !== 0n) {
        await changeUserQuota(tx, { userId: r.userId, delta: -delta, kind: "relay_settle", ref: r.ref, tokenId: r.tokenId, allowNegative: true });
      }
      const left = await adjustToken(tx, r, delta);
      await tx.user.update({ where: { id: r.userId }, data: { used_quota: { increment: actualQuota }, request_count: { increment: 1 } } });
      // updateMany: the playground bills the user with no token (tokenId 0).
      await tx.token.updateMany({
        where: { id: r.tokenId },
        data: { used_quota: { increment: actualQuota }, accessed_time: BigInt(nowSeconds()) },
      });
      if (log.channel_id > 0) {
        await tx.channel.updateMany({ where: { id: log.channel_id }, data: { used_quota: { increment: actualQuota } } });
      }
      return left;
    });
  } catch (err) {
    r.state = "open";
    throw err;
  }
  if (remain !== null) noteTokenQuota(r.tokenId, remain);
  if (getBool("LogConsumeEnabled")) {
    enqueueLog({ ...log, user_id: r.userId, type: LOG_TYPE.consume, quota: actualQuota, token_id: log.token_id ?? r.tokenId });
  }
}

export async function refund(reservation: Reservation): Promise<void> {
  claim(reservation, "refunded");
  const r = reservation;
  if (r.amount === 0n) return;
  let remain: bigint | null;
  try {
    remain = await db().$transaction(async (tx) => {
      await changeUserQuota(tx, { userId: r.userId, delta: r.amount, kind: "relay_refund", ref: r.ref, tokenId: r.tokenId });
      return adjustToken(tx, r, -r.amount);
    });
  } catch (err) {
    r.state = "open";
    throw err;
  }
  if (remain !== null) noteTokenQuota(r.tokenId, remain);
}
