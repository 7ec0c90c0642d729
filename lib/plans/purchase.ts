// POST /api/user/plan/purchase (docs/plans.md, "Purchase"): a plan for sale bought with the
// balance (done at once: the debit, its plan_purchase row and the activation in one
// transaction), through epay (a pending plan order and the signed form, as /api/user/pay
// answers it), or through Stripe (a pending plan order and a Checkout Session in
// subscription mode for the plan's Stripe price; answers its URL). Epay and Stripe activate
// in their callbacks (lib/plans/callbacks.ts), once per order.
import "server-only";
import type { Plan } from "@/generated/sqlite/client";
import type { UserCtx } from "@/lib/ctx";
import { changeUserQuota } from "@/lib/billing/ledger";
import { db, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { callbackBase, epayConfig, fromCents, quotaPerUnit, siteBase, stripeConfig, toCents, TOPUP_SUCCESS_PATH } from "@/lib/payments/config";
import { EPAY_SUBMIT_PATH, EPAY_TYPES, signEpayForm } from "@/lib/payments/epay";
import { checkPendingCap } from "@/lib/payments/pending-cap";
import { EPAY_NOTIFY_PATH } from "@/lib/payments/start-epay-payment";
import { openCheckout } from "@/lib/payments/stripe-client";
import { newTradeNo } from "@/lib/payments/trade-no";
import { getNumber } from "@/lib/options/store";
import { subscriptionsChanged } from "@/lib/plans/changed";
import { activate } from "@/lib/plans/pot";
import { presentSubscription } from "@/lib/plans/present";
import { priceCents, type PurchaseInput } from "@/lib/plans/schemas";
import { toFraction } from "@/lib/quota-display";
import { TX_OPTIONS } from "@/lib/users/db-errors";
import { nowSeconds } from "@/lib/time";

const PENDING_WINDOW_SECONDS = 3600;

// The plan's price in quota units: USD × QuotaPerUnit; CNY converts at the top-up rate
// (Price, yuan per dollar of quota). Rounded to the nearest unit.
export function priceUnits(plan: Pick<Plan, "price" | "currency">): bigint {
  const cents = priceCents(plan.price);
  const qpu = BigInt(quotaPerUnit());
  if (plan.currency === "USD") return (cents * qpu + 50n) / 100n;
  // the rate as an exact fraction (7.3 = 73/10): units = cents × QuotaPerUnit ÷ (100 × rate), half up
  const rate = toFraction(getNumber("Price", 7.3));
  if (!rate || rate.n <= 0n) throw new AppError("RULE", "topup_payment_failed");
  const num = cents * qpu * rate.d;
  const den = 100n * rate.n;
  return (2n * num + den) / (2n * den);
}

// What epay charges, in the site's currency (CNY): the price as is, or USD × Price.
export function epayPlanMoney(plan: Pick<Plan, "price" | "currency">): number {
  const yuan = plan.currency === "CNY" ? Number(priceCents(plan.price)) / 100 : (Number(priceCents(plan.price)) / 100) * getNumber("Price", 7.3);
  return fromCents(toCents(yuan));
}

async function planForSale(id: number): Promise<Plan> {
  const plan = await db().plan.findUnique({ where: { id } });
  if (!plan || plan.deleted_at !== null) throw new AppError("NOT_FOUND", "plan_not_found");
  if (!plan.enabled) throw new AppError("RULE", "plan_not_for_sale");
  return plan;
}

// The purchase limit: subscriptions bought (an admin's grant does not count) and plan orders
// still pending from the last hour. Read in the purchase's transaction for the balance (after
// the debit has locked the user's row on PostgreSQL), before the order for the others.
async function checkMaxPerUser(tx: Tx, userId: number, plan: Plan): Promise<void> {
  if (plan.max_per_user <= 0) return;
  const [bought, pending] = await Promise.all([
    tx.subscription.count({ where: { user_id: userId, plan_id: plan.id, source: { not: "admin" } } }),
    tx.topUp.count({
      where: { user_id: userId, kind: "plan", plan_id: plan.id, status: "pending", create_time: { gte: BigInt(nowSeconds() - PENDING_WINDOW_SECONDS) } },
    }),
  ]);
  if (bought + pending >= plan.max_per_user) throw new AppError("RULE", "plan_max_per_user", { max: plan.max_per_user });
}

export type PurchaseResult =
  | { kind: "balance"; subscription: ReturnType<typeof presentSubscription> }
  | { kind: "epay"; url: string; data: Record<string, string> }
  | { kind: "stripe"; pay_link: string };

export async function purchasePlan({ ctx, input }: { ctx: UserCtx; input: PurchaseInput }): Promise<PurchaseResult> {
  const plan = await planForSale(input.plan_id);
  const userId = ctx.user.id;
  if (input.payment_method === "balance") {
    if (!plan.wallet_purchasable) throw new AppError("RULE", "plan_not_wallet_purchasable");
    const units = priceUnits(plan);
    const ref = newTradeNo(userId);
    const sub = await db().$transaction(async (tx) => {
      const now = nowSeconds();
      if (units > 0n) await changeUserQuota(tx, { userId, delta: -units, kind: "plan_purchase", ref });
      await checkMaxPerUser(tx, userId, plan);
      return activate(tx, { userId, plan, source: "balance", orderRef: ref, now });
    }, TX_OPTIONS);
    await subscriptionsChanged(userId);
    return { kind: "balance", subscription: presentSubscription(sub) };
  }
  await checkMaxPerUser(db(), userId, plan);
  await checkPendingCap(userId);
  return input.payment_method === "stripe" ? startStripe(ctx, plan) : startEpay(ctx, plan, input.payment_method);
}

async function startEpay(ctx: UserCtx, plan: Plan, method: "zfb" | "wx"): Promise<PurchaseResult> {
  const cfg = epayConfig();
  if (!cfg.enabled) throw new AppError("RULE", "topup_disabled");
  const money = epayPlanMoney(plan);
  if (!(money > 0)) throw new AppError("RULE", "topup_payment_failed");
  const tradeNo = newTradeNo(ctx.user.id);
  await db().topUp.create({
    data: {
      user_id: ctx.user.id,
      amount: plan.quota,
      money,
      trade_no: tradeNo,
      payment_method: method,
      provider: "epay",
      currency: "CNY",
      status: "pending",
      create_time: BigInt(nowSeconds()),
      kind: "plan",
      plan_id: plan.id,
    },
  });
  const data = signEpayForm(
    {
      pid: cfg.pid,
      type: EPAY_TYPES[method],
      out_trade_no: tradeNo,
      notify_url: callbackBase() + EPAY_NOTIFY_PATH,
      return_url: siteBase() + TOPUP_SUCCESS_PATH,
      name: `PLAN${plan.id}`,
      money: money.toFixed(2),
    },
    cfg.key,
  );
  return { kind: "epay", url: cfg.address + EPAY_SUBMIT_PATH, data };
}

async function startStripe(ctx: UserCtx, plan: Plan): Promise<PurchaseResult> {
  const cfg = stripeConfig();
  if (!cfg.enabled) throw new AppError("RULE", "topup_disabled");
  if (!plan.stripe_price_id) throw new AppError("RULE", "plan_no_stripe_price");
  const tradeNo = newTradeNo(ctx.user.id);
  const order = await db().topUp.create({
    data: {
      user_id: ctx.user.id,
      amount: plan.quota,
      money: Number(priceCents(plan.price)) / 100,
      trade_no: tradeNo,
      payment_method: "stripe",
      provider: "stripe",
      currency: plan.currency,
      status: "pending",
      create_time: BigInt(nowSeconds()),
      kind: "plan",
      plan_id: plan.id,
    },
  });
  // Stripe's Price decides what is charged: the session's total and currency become the order's
  const payLink = await openCheckout(cfg.apiSecret, order, {
    mode: "subscription",
    metadata: { trade_no: tradeNo, plan_id: String(plan.id) },
    // the invoices of the subscription carry the trade number too (lib/plans/callbacks.ts)
    subscription_data: { metadata: { trade_no: tradeNo, plan_id: String(plan.id) } },
    line_items: [{ price: plan.stripe_price_id, quantity: 1 }],
  });
  return { kind: "stripe", pay_link: payLink };
}
