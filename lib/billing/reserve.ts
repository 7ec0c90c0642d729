// Quota reservation before an upstream call. One transaction debits the token's remaining
// quota (conditionally, unless the token is unlimited) and the user's balance (through
// changeUserQuota: conditional update plus a ledger row). Either both happen or neither;
// neither can go below zero, however many calls race for the same balance.
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { changeUserQuota } from "@/lib/billing/ledger";
import { noteTokenQuota } from "@/lib/relay/token-cache";

export type Reservation = {
  userId: number;
  tokenId: number;
  unlimitedToken: boolean;
  amount: bigint; // quota units reserved (>= 0)
  ref: string; // ties the reserve, settle and refund ledger rows of one call together
  state: "open" | "settled" | "refunded";
};

export async function reserve(input: { userId: number; tokenId: number; unlimitedToken: boolean; amount: bigint; ref?: string }): Promise<Reservation> {
  const { userId, tokenId, unlimitedToken, amount } = input;
  if (amount < 0n) throw new Error("reserve: negative amount");
  const ref = input.ref ?? randomUUID();
  let remain: bigint | null = null;
  if (amount > 0n) {
    remain = await db().$transaction(async (tx) => {
      let left: bigint | null = null;
      if (!unlimitedToken) {
        const t = await tx.token.updateMany({
          where: { id: tokenId, remain_quota: { gte: amount } },
          data: { remain_quota: { decrement: amount } },
        });
        if (t.count !== 1) throw new AppError("QUOTA_EXCEEDED", "quota_insufficient_token");
        left = (await tx.token.findUniqueOrThrow({ where: { id: tokenId }, select: { remain_quota: true } })).remain_quota;
      }
      await changeUserQuota(tx, { userId, delta: -amount, kind: "relay_reserve", ref, tokenId });
      return left;
    });
  }
  if (remain !== null) noteTokenQuota(tokenId, remain);
  return { userId, tokenId, unlimitedToken, amount, ref, state: "open" };
}
