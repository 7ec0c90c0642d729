// POST /api/user/topup/complete: the root completes a pending order by hand (the payment
// arrived but its callback did not). The same exactly-once path as a callback: one ledger
// row whatever the number of calls; the rebate is paid as for a callback, since the root
// states that the order was paid (docs/payments.md, "Manual completion").
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { completeOrder } from "@/lib/payments/complete-order";
import { recordAudit } from "@/lib/audit/record";

export async function completeTopUpByAdmin({ ctx, input }: { ctx: UserCtx; input: { trade_no: string } }): Promise<{ completed: boolean }> {
  const order = await db().topUp.findUnique({
    where: { trade_no: input.trade_no },
    select: { status: true, user_id: true, amount: true, money: true, currency: true },
  });
  if (!order) throw new AppError("NOT_FOUND", "topup_order_not_found");
  if (order.status === "failed") throw new AppError("RULE", "topup_order_not_pending");
  const result = await completeOrder({ tradeNo: input.trade_no, by: "admin", ip: ctx.ip });
  if (result === "missing") throw new AppError("NOT_FOUND", "topup_order_not_found");
  if (result === "completed") {
    await recordAudit(ctx, {
      action: "topup_complete",
      userId: order.user_id,
      target: { type: "topup", id: input.trade_no },
      detail: { user_id: order.user_id, amount: Number(order.amount), money: order.money, currency: order.currency },
    });
  }
  return { completed: result === "completed" };
}
