// POST /api/user/stripe/pay: creates a pending Stripe order and a Checkout Session for it
// (client_reference_id and metadata.trade_no = the trade number) and answers the session's
// URL. The session's amount_total becomes the order's money: the webhook compares the paid
// total with it (docs/payments.md, "Stripe").
import "server-only";
import type Stripe from "stripe";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { quotaPerUnit, stripeConfig, stripeMoney, toCents } from "@/lib/payments/config";
import { checkMinimum } from "@/lib/payments/minimum";
import type { AmountInput } from "@/lib/payments/schemas";
import { openCheckout } from "@/lib/payments/stripe-client";
import { checkPendingCap } from "@/lib/payments/pending-cap";
import { newTradeNo } from "@/lib/payments/trade-no";
import { nowSeconds } from "@/lib/time";

export async function startStripePayment({ ctx, input }: { ctx: UserCtx; input: AmountInput }) {
  const cfg = stripeConfig();
  if (!cfg.enabled) throw new AppError("RULE", "topup_disabled");
  checkMinimum("stripe", input.amount);
  const { money, unitPrice } = stripeMoney(input.amount, ctx.user.group);
  if (!(money > 0)) throw new AppError("RULE", "topup_payment_failed");
  await checkPendingCap(ctx.user.id);
  const tradeNo = newTradeNo(ctx.user.id);
  const order = await db().topUp.create({
    data: {
      user_id: ctx.user.id,
      amount: BigInt(input.amount) * BigInt(quotaPerUnit()),
      money,
      trade_no: tradeNo,
      payment_method: "stripe",
      provider: "stripe",
      currency: "USD",
      top_up_code: input.top_up_code,
      status: "pending",
      create_time: BigInt(nowSeconds()),
    },
  });
  const lineItem: Stripe.Checkout.SessionCreateParams.LineItem = cfg.priceId
    ? { price: cfg.priceId, quantity: input.amount }
    : { price_data: { currency: "usd", unit_amount: toCents(unitPrice), product_data: { name: `Top-up ${input.amount} USD` } }, quantity: input.amount };
  return { pay_link: await openCheckout(cfg.apiSecret, order, { mode: "payment", metadata: { trade_no: tradeNo }, line_items: [lineItem] }) };
}
