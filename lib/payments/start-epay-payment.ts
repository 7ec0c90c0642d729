// POST /api/user/pay: creates a pending epay order with a new trade number and answers the
// provider's submit URL with the signed form fields, which the console posts as a hidden
// form (docs/payments.md, "epay").
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { callbackBase, epayConfig, epayMoney, quotaPerUnit, siteBase, TOPUP_SUCCESS_PATH } from "@/lib/payments/config";
import { EPAY_SUBMIT_PATH, EPAY_TYPES, signEpayForm } from "@/lib/payments/epay";
import { checkMinimum } from "@/lib/payments/minimum";
import type { EpayPayInput } from "@/lib/payments/schemas";
import { checkPendingCap } from "@/lib/payments/pending-cap";
import { newTradeNo } from "@/lib/payments/trade-no";
import { nowSeconds } from "@/lib/time";

export const EPAY_NOTIFY_PATH = "/api/user/epay/notify";

export async function startEpayPayment({ ctx, input }: { ctx: UserCtx; input: EpayPayInput }) {
  const cfg = epayConfig();
  if (!cfg.enabled) throw new AppError("RULE", "topup_disabled");
  checkMinimum("epay", input.amount);
  const { money } = epayMoney(input.amount, ctx.user.group);
  if (!(money > 0)) throw new AppError("RULE", "topup_payment_failed");
  await checkPendingCap(ctx.user.id);
  const tradeNo = newTradeNo(ctx.user.id);
  await db().topUp.create({
    data: {
      user_id: ctx.user.id,
      amount: BigInt(input.amount) * BigInt(quotaPerUnit()),
      money,
      trade_no: tradeNo,
      payment_method: input.payment_method,
      provider: "epay",
      currency: "CNY",
      top_up_code: input.top_up_code,
      status: "pending",
      create_time: BigInt(nowSeconds()),
    },
  });
  const fields = signEpayForm(
    {
      pid: cfg.pid,
      type: EPAY_TYPES[input.payment_method],
      out_trade_no: tradeNo,
      notify_url: callbackBase() + EPAY_NOTIFY_PATH,
      return_url: siteBase() + TOPUP_SUCCESS_PATH,
      name: `TUC${input.amount}`,
      money: money.toFixed(2),
    },
    cfg.key,
  );
  return { url: cfg.address + EPAY_SUBMIT_PATH, data: fields };
}
