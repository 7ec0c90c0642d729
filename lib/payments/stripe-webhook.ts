// POST /api/stripe/webhook: Stripe reports an event. The signature is checked on the raw
// body with the webhook secret and a five-minute tolerance (a bad or missing signature, or
// no configured secret: 400). checkout.session.completed (and async_payment_succeeded)
// complete the order once when the session is paid, names one of our Stripe orders by
// client_reference_id, is the session created for it, and its total and currency equal the
// order's. Any other event, or a session that fails a check, is acknowledged and credits
// nothing; the answer is the same either way (docs/payments.md).
import "server-only";
import type Stripe from "stripe";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { stripeConfig, toCents } from "@/lib/payments/config";
import { completeOrder } from "@/lib/payments/complete-order";
import { stripeEvent } from "@/lib/payments/stripe-client";

const PAID_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

export async function handleStripeWebhook({ ctx, input }: { ctx: Ctx; input: { raw: string; signature: string } }): Promise<"ok" | "bad_signature"> {
  const event = verifiedStripeEvent(input.raw, input.signature);
  if (!event) return "bad_signature";
  return handleTopUpEvent(ctx, event);
}

/** The event when its signature verifies under the webhook secret (and is fresh), else null. */
export const verifiedStripeEvent = (raw: string, signature: string): Stripe.Event | null => stripeEvent(raw, signature, stripeConfig().webhookSecret);

// A verified event, as it concerns top-up orders (a plan order is left alone: docs/plans.md).
export async function handleTopUpEvent(ctx: Ctx, event: Stripe.Event): Promise<"ok"> {
  if (!PAID_EVENTS.has(event.type)) return "ok";
  const session = event.data.object as Stripe.Checkout.Session;
  if (session.object !== "checkout.session" || session.payment_status !== "paid") return "ok";
  const tradeNo = session.client_reference_id ?? session.metadata?.trade_no ?? "";
  if (!tradeNo) return "ok";
  const order = await db().topUp.findUnique({ where: { trade_no: tradeNo } });
  if (!order || order.kind !== "topup" || order.provider !== "stripe" || order.status !== "pending") return "ok";
  if (order.provider_ref !== "" && order.provider_ref !== session.id) return "ok";
  if (typeof session.amount_total !== "number" || session.amount_total !== toCents(order.money)) return "ok";
  if ((session.currency ?? "").toUpperCase() !== order.currency) return "ok";
  await completeOrder({ tradeNo, by: "webhook", providerRef: session.id, paidMoney: (session.amount_total / 100).toFixed(2), ip: ctx.ip });
  return "ok";
}
