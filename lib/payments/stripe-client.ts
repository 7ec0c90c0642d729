// The Stripe client (the official `stripe` package) and the event check. Its calls go out
// through the outbound policy's agents (lib/net/outbound.ts). STRIPE_API_BASE moves the API
// from https://api.stripe.com to another base (a local mock in the tests): its protocol,
// host and port are handed to the client (docs/payments.md, "Stripe").
import "server-only";
import Stripe from "stripe";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { AppError, describeError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { guardedHttpAgents } from "@/lib/net/outbound";
import { fromCents, siteBase, TOPUP_SUCCESS_PATH } from "@/lib/payments/config";

const log = logger("payments");

const agents = guardedHttpAgents({ keepAlive: true });

export function stripeClient(apiSecret: string): Stripe {
  const base = env().STRIPE_API_BASE;
  const url = base ? new URL(base) : null;
  const protocol = url?.protocol === "http:" ? "http" : "https";
  return new Stripe(apiSecret, {
    host: url?.hostname.replace(/^\[|\]$/g, ""),
    port: url ? url.port || (protocol === "http" ? 80 : 443) : undefined,
    protocol,
    httpAgent: protocol === "http" ? agents.current.http : agents.current.https,
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
  });
}

/**
 * Opens a Checkout Session for a pending order (a top-up or a plan), keyed by its trade
 * number (client_reference_id, metadata.trade_no and the idempotency key), back to the
 * wallet. A refusal or a session without a URL fails the order; otherwise the session's id,
 * and its total and currency where Stripe gives them, become the order's. Answers the URL.
 */
export async function openCheckout(
  apiSecret: string,
  order: { id: number; trade_no: string },
  params: Pick<Stripe.Checkout.SessionCreateParams, "mode" | "line_items" | "metadata" | "subscription_data">,
): Promise<string> {
  const base = siteBase();
  let session: Stripe.Checkout.Session;
  try {
    session = await stripeClient(apiSecret).checkout.sessions.create(
      { ...params, client_reference_id: order.trade_no, success_url: base + TOPUP_SUCCESS_PATH, cancel_url: base + "/app/wallet" },
      { idempotencyKey: order.trade_no },
    );
  } catch (err) {
    // describeError masks anything shaped like a key; the payer sees only the catalogue text.
    log.error({ error: describeError(err), mode: params.mode }, "stripe session failed");
    await db().topUp.update({ where: { id: order.id }, data: { status: "failed" } });
    throw new AppError("UPSTREAM", "topup_payment_failed");
  }
  if (!session.url) {
    await db().topUp.update({ where: { id: order.id }, data: { status: "failed" } });
    throw new AppError("UPSTREAM", "topup_payment_failed");
  }
  await db().topUp.update({
    where: { id: order.id },
    data: {
      provider_ref: session.id,
      ...(typeof session.amount_total === "number" ? { money: fromCents(session.amount_total) } : {}),
      ...(session.currency ? { currency: session.currency.toUpperCase() } : {}),
    },
  });
  return session.url;
}

// Stripe's default tolerance: an event signed more than five minutes ago is refused.
export const STRIPE_TOLERANCE_SECONDS = 300;

/** The event, or null when the signature (or its timestamp) does not verify. Needs no API key. */
export function stripeEvent(raw: string, signature: string, webhookSecret: string): Stripe.Event | null {
  if (!webhookSecret || !signature) return null;
  try {
    return Stripe.webhooks.constructEvent(raw, signature, webhookSecret, STRIPE_TOLERANCE_SECONDS);
  } catch {
    return null;
  }
}
