// The payment callbacks for plan orders (docs/plans.md, "Purchase"). The routes
// /api/user/epay/notify and /api/stripe/webhook come here first: a callback naming a plan
// order (top_ups.kind = "plan") is handled here, any other goes on to the top-up verbs of
// lib/payments unchanged. Every check of the top-up (signature, merchant, method, money,
// session, currency) applies to a plan order alike.
//
// Exactly once: an order activates its subscription in the transaction that wins its
// pending -> success update; a Stripe renewal in the transaction that inserts the invoice's
// key into plan_payment_events (primary key), so a second delivery of either moves nothing.
import "server-only";
import type Stripe from "stripe";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { describeError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { toCents } from "@/lib/payments/config";
import { completeEpayTopUp, verifiedEpayOrder } from "@/lib/payments/epay-notify";
import { handleTopUpEvent, verifiedStripeEvent } from "@/lib/payments/stripe-webhook";
import { subscriptionsChanged } from "@/lib/plans/changed";
import { activate, end, startPeriod } from "@/lib/plans/pot";
import { TX_OPTIONS } from "@/lib/users/db-errors";
import { nowSeconds } from "@/lib/time";

const log = logger("payments");

// Activates the subscription a pending plan order paid for, once. "missing": no plan order.
export async function completePlanOrder(input: {
  tradeNo: string;
  by: "notify" | "webhook";
  providerRef?: string;
  paidMoney?: string;
  stripeSubscriptionId?: string;
}): Promise<"completed" | "already" | "missing"> {
  const out = await db().$transaction(async (tx) => {
    const order = await tx.topUp.findUnique({ where: { trade_no: input.tradeNo } });
    if (!order || order.kind !== "plan") return { result: "missing" as const };
    const now = nowSeconds();
    const won = await tx.topUp.updateMany({
      where: { id: order.id, status: "pending" },
      data: {
        status: "success",
        complete_time: BigInt(now),
        completed_by: input.by,
        provider_ref: input.providerRef ?? order.provider_ref,
        paid_money: input.paidMoney ?? order.paid_money,
      },
    });
    if (won.count !== 1) return { result: "already" as const };
    // the plan as it is now (a deleted plan still activates what was paid for)
    const plan = await tx.plan.findUniqueOrThrow({ where: { id: order.plan_id } });
    const sub = await activate(tx, {
      userId: order.user_id,
      plan,
      source: order.provider === "stripe" ? "stripe" : "epay",
      orderRef: order.trade_no,
      stripeSubscriptionId: input.stripeSubscriptionId,
      now,
    });
    // Stripe deleted the subscription before its activation arrived (events come in any
    // order): it is activated as paid for, and cancelled at once, as the deletion says
    if (input.stripeSubscriptionId && (await tx.planPaymentEvent.findUnique({ where: { key: deletedKey(input.stripeSubscriptionId) } }))) {
      await end(tx, sub, { status: "cancelled", ref: `stripe:${input.stripeSubscriptionId}`, now });
    }
    return { result: "completed" as const, userId: order.user_id };
  }, TX_OPTIONS);
  if (out.result === "completed") await subscriptionsChanged(out.userId);
  return out.result;
}

// GET|POST /api/user/epay/notify
export async function handlePaymentNotify({ ctx, input }: { ctx: Ctx; input: { params: Record<string, string> } }): Promise<"success" | "fail"> {
  const p = input.params;
  const order = await verifiedEpayOrder(p);
  if (!order) return "fail";
  if (order.kind !== "plan") return completeEpayTopUp(ctx, order, p);
  if (order.status === "success") return "success";
  if (order.status !== "pending") return "fail";
  const result = await completePlanOrder({ tradeNo: order.trade_no, by: "notify", providerRef: String(p.trade_no ?? "").slice(0, 128), paidMoney: p.money });
  return result === "missing" ? "fail" : "success";
}

// POST /api/stripe/webhook
export async function handleStripeCallback({ ctx, input }: { ctx: Ctx; input: { raw: string; signature: string } }): Promise<"ok" | "bad_signature"> {
  const event = verifiedStripeEvent(input.raw, input.signature);
  if (!event) return "bad_signature";
  if (await handlePlanEvent(event)) return "ok";
  return handleTopUpEvent(ctx, event);
}

const CHECKOUT_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);
const INVOICE_EVENTS = new Set(["invoice.paid", "invoice.payment_succeeded"]);
const deletedKey = (stripeSubscriptionId: string) => `stripe_deleted:${stripeSubscriptionId}`;
const idOf = (v: unknown): string => (typeof v === "string" ? v : v && typeof v === "object" && "id" in v ? String((v as { id: unknown }).id) : "");

// The subscription id and trade number an invoice names, in the shapes of older and newer
// API versions (invoice.subscription / subscription_details, or parent.subscription_details).
function invoiceRefs(inv: Record<string, unknown>): { subscription: string; tradeNo: string } {
  const parent = (inv.parent ?? {}) as { subscription_details?: { subscription?: unknown; metadata?: Record<string, string> } };
  const details = (inv.subscription_details ?? parent.subscription_details ?? {}) as { subscription?: unknown; metadata?: Record<string, string> };
  return { subscription: idOf(inv.subscription) || idOf(details.subscription), tradeNo: details.metadata?.trade_no ?? "" };
}

// True when the event concerns plans (handled, or acknowledged without effect).
async function handlePlanEvent(event: Stripe.Event): Promise<boolean> {
  const obj = event.data.object as unknown as Record<string, unknown>;
  if (CHECKOUT_EVENTS.has(event.type)) {
    const session = obj as unknown as Stripe.Checkout.Session;
    const tradeNo = session.client_reference_id ?? session.metadata?.trade_no ?? "";
    if (!tradeNo) return false;
    const order = await db().topUp.findUnique({ where: { trade_no: tradeNo } });
    if (!order || order.kind !== "plan") return false;
    if (order.provider !== "stripe" || order.status !== "pending" || session.mode !== "subscription" || session.payment_status !== "paid") return true;
    if (order.provider_ref !== "" && order.provider_ref !== session.id) return true;
    if (typeof session.amount_total !== "number" || session.amount_total !== toCents(order.money)) return true;
    if ((session.currency ?? "").toUpperCase() !== order.currency) return true;
    await completePlanOrder({
      tradeNo,
      by: "webhook",
      providerRef: session.id,
      paidMoney: (session.amount_total / 100).toFixed(2),
      stripeSubscriptionId: idOf(session.subscription),
    });
    return true;
  }
  if (INVOICE_EVENTS.has(event.type)) {
    const { subscription, tradeNo } = invoiceRefs(obj);
    if (!subscription) return false;
    const invoiceId = idOf(obj.id);
    if (obj.billing_reason === "subscription_create") {
      // the first payment: the same activation as the Checkout Session's, once per order
      if (!tradeNo) return true;
      const order = await db().topUp.findUnique({ where: { trade_no: tradeNo } });
      if (!order || order.kind !== "plan" || order.provider !== "stripe" || order.status !== "pending") return true;
      if (obj.amount_paid !== toCents(order.money) || String(obj.currency ?? "").toUpperCase() !== order.currency) return true;
      await completePlanOrder({ tradeNo, by: "webhook", paidMoney: (Number(obj.amount_paid) / 100).toFixed(2), stripeSubscriptionId: subscription });
      return true;
    }
    await renewFromInvoice(subscription, invoiceId);
    return true;
  }
  if (event.type === "customer.subscription.updated") {
    // the renewal stopped (or resumed) elsewhere (Stripe's customer portal or dashboard)
    const stripeId = idOf(obj.id);
    if (!stripeId || typeof obj.cancel_at_period_end !== "boolean") return false;
    const changed = await db().subscription.updateManyAndReturn({
      where: { stripe_subscription_id: stripeId, status: "active", cancel_at_period_end: !obj.cancel_at_period_end },
      data: { cancel_at_period_end: obj.cancel_at_period_end, updated_at: BigInt(nowSeconds()) },
      select: { user_id: true },
    });
    for (const sub of changed) await subscriptionsChanged(sub.user_id);
    return (await db().subscription.count({ where: { stripe_subscription_id: stripeId } })) > 0;
  }
  if (event.type === "customer.subscription.deleted") {
    const stripeId = idOf(obj.id);
    if (!stripeId) return false;
    // kept, for an activation that arrives after it (completePlanOrder); a second delivery is one row
    const key = deletedKey(stripeId);
    await db()
      .planPaymentEvent.upsert({ where: { key }, create: { key, subscription_id: 0, created_at: BigInt(nowSeconds()) }, update: {} })
      .catch(() => undefined); // a concurrent delivery wrote it

    const subs = await db().subscription.findMany({ where: { stripe_subscription_id: stripeId, status: "active" } });
    for (const sub of subs) {
      const ended = await db().$transaction((tx) => end(tx, sub, { status: "cancelled", ref: `stripe:${stripeId}`, now: nowSeconds() }), TX_OPTIONS);
      if (ended) await subscriptionsChanged(sub.user_id);
    }
    return true; // a subscription's event: never a top-up's
  }
  return false;
}

// A paid renewal invoice: a new period and a term one plan duration longer, once per invoice.
const RENEW_ATTEMPTS = 5;
async function renewFromInvoice(stripeId: string, invoiceId: string): Promise<void> {
  if (!invoiceId) return;
  const sub0 = await db().subscription.findFirst({ where: { stripe_subscription_id: stripeId, status: "active" } });
  if (!sub0) return; // not (or no longer) active here: nothing to renew
  for (let i = 0; i < RENEW_ATTEMPTS; i++) {
    try {
      const done = await db().$transaction(async (tx) => {
        await tx.planPaymentEvent.create({ data: { key: `stripe_invoice:${invoiceId}`, subscription_id: sub0.id, created_at: BigInt(nowSeconds()) } });
        const sub = await tx.subscription.findUniqueOrThrow({ where: { id: sub0.id } });
        const now = nowSeconds();
        if (sub.status !== "active") return true; // ended meanwhile: the key is kept, nothing renews
        // false: a call moved the pot between the read and the update; the transaction is retried
        if (!(await startPeriod(tx, sub, { start: now, kind: "plan_renew", ref: `stripe_invoice:${invoiceId}`, now, extendDays: sub.duration_days })))
          throw new RetryRenewal();
        return true;
      }, TX_OPTIONS);
      if (done) await subscriptionsChanged(sub0.user_id);
      return;
    } catch (err) {
      if (isUniqueViolation(err)) return; // delivered before: renewed once already
      if (err instanceof RetryRenewal) continue;
      throw err;
    }
  }
  log.error({ subscription: sub0.id, error: describeError(new Error("renewal kept racing")) }, "stripe renewal not applied");
  throw new Error("stripe renewal not applied"); // a 500: Stripe delivers the invoice again later
}

class RetryRenewal extends Error {}
