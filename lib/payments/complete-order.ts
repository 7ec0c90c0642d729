// Completes a pending top-up order exactly once (docs/payments.md, "Exactly once"). In one
// transaction: the conditional update pending -> success (only one caller can win it, on
// SQLite and PostgreSQL alike: the loser's update matches no row), the credit through the
// ledger (kind top_up, ref = trade number), a type-1 log row, and the inviter's rebate.
// Every caller (the epay notify, the Stripe webhook, the root's manual completion) comes
// through here after checking what it has to check.
import "server-only";
import { changeUserQuota } from "@/lib/billing/ledger";
import { LOG_TYPE } from "@/lib/logs/writer";
import type { Tx } from "@/lib/db/client";
import { getBool, getNumber } from "@/lib/options/store";
import { rebateOf } from "@/lib/payments/rebate";
import { TX_OPTIONS } from "@/lib/users/db-errors";
import { createLogRow, transactionWithLogs } from "@/lib/logs/in-transaction";
import { logMessage } from "@/lib/logs/messages";
import { nowSeconds } from "@/lib/time";

export type CompletedBy = "notify" | "webhook" | "admin";
export type CompleteResult = "completed" | "already" | "missing";

// With invitations (AffEnabled) and rebates (RebateEnabled) on, the invitee's inviter earns
// RebatePercentage of the credited quota as invitation earnings (aff_quota), once per order:
// it is paid inside the transaction that won the pending -> success update.
async function payRebate(tx: Tx, inviterId: number, quota: bigint): Promise<bigint> {
  if (inviterId <= 0 || !getBool("AffEnabled") || !getBool("RebateEnabled")) return 0n;
  const rebate = rebateOf(quota, getNumber("RebatePercentage", 0));
  if (rebate <= 0n) return 0n;
  const paid = await tx.user.updateMany({
    where: { id: inviterId, deleted_at: null },
    data: { aff_quota: { increment: rebate }, aff_history_quota: { increment: rebate } },
  });
  return paid.count === 1 ? rebate : 0n;
}

export async function completeOrder(input: {
  tradeNo: string;
  by: CompletedBy;
  providerRef?: string;
  paidMoney?: string;
  ip?: string;
}): Promise<CompleteResult> {
  return transactionWithLogs(async (tx) => {
    const order = await tx.topUp.findUnique({ where: { trade_no: input.tradeNo } });
    if (!order || order.kind !== "topup") return "missing"; // a plan order completes in lib/plans
    const now = BigInt(nowSeconds());
    const won = await tx.topUp.updateMany({
      where: { id: order.id, status: "pending" },
      data: {
        status: "success",
        complete_time: now,
        completed_by: input.by,
        provider_ref: input.providerRef ?? order.provider_ref,
        paid_money: input.paidMoney ?? order.paid_money,
      },
    });
    if (won.count !== 1) return "already";
    const user = await tx.user.findUniqueOrThrow({ where: { id: order.user_id }, select: { username: true, inviter_id: true } });
    await changeUserQuota(tx, { userId: order.user_id, delta: order.amount, kind: "top_up", ref: order.trade_no });
    const rebate = await payRebate(tx, user.inviter_id, order.amount);
    if (rebate > 0n) await tx.topUp.update({ where: { id: order.id }, data: { rebate_quota: rebate } });
    await createLogRow(tx, {
      user_id: order.user_id,
      username: user.username,
      created_at: now,
      type: LOG_TYPE.topup,
      quota: order.amount,
      content: `online top-up ${order.money.toFixed(2)} ${order.currency} (${order.payment_method}, ${order.trade_no}): +${order.amount}`,
      ip: input.ip ?? "",
      other: JSON.stringify({
        trade_no: order.trade_no,
        provider: order.provider,
        completed_by: input.by,
        message: logMessage("online_topup", {
          money: order.money.toFixed(2),
          currency: order.currency,
          method: order.payment_method,
          trade_no: order.trade_no,
          quota: order.amount,
        }),
      }),
    });
    return "completed";
  }, TX_OPTIONS);
}
