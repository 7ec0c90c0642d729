// The Stripe client (the official `stripe` package) and the event check. Its calls go out
// through the outbound policy's agents (lib/net/outbound.ts). STRIPE_API_BASE moves the API
// from https://api.stripe.com to another base (a local mock in the tests): its protocol,
// host and port are handed to the client (docs/payments.md, "Stripe").
import "server-only";
import Stripe from "stripe";
import { env } from "@/lib/env";
import { guardedHttpAgents } from "@/lib/net/outbound";

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
