// Payment parties for tests, speaking the real protocols on 127.0.0.1:
// - epay: the MD5 signature (written here from the protocol, independently of
//   lib/payments/epay.ts) and a stand-in provider page that receives the submit form;
// - Stripe: a mock of the REST API's POST /v1/checkout/sessions and POST
//   /v1/subscriptions/{id} (form-encoded request, JSON answer in Stripe's shape), and events
//   signed as Stripe signs them.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import Stripe from "stripe";

export function epaySign(params: Record<string, string>, key: string): string {
  const keys = Object.keys(params)
    .filter((k) => k !== "sign" && k !== "sign_type" && params[k] !== "")
    .sort();
  return createHash("md5")
    .update(keys.map((k) => `${k}=${params[k]}`).join("&") + key)
    .digest("hex");
}

export function signedNotify(fields: Record<string, string>, key: string): Record<string, string> {
  return { ...fields, sign: epaySign(fields, key), sign_type: "MD5" };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => resolve(body));
  });
}

export type Listening = { url: string; close: () => Promise<void> };

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve(`http://127.0.0.1:${port}`);
    });
  });
}

const closer = (server: Server) => () => new Promise<void>((r) => server.close(() => r()));

// The epay stand-in: /submit.php records the posted form and shows a page with its fields.
export async function startEpayStandIn(): Promise<Listening & { forms: Record<string, string>[] }> {
  const forms: Record<string, string>[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.method === "POST" && req.url === "/submit.php") {
      const form = Object.fromEntries(new URLSearchParams(body));
      forms.push(form);
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><title>epay</title><h1>epay stand-in</h1><pre id="form">${JSON.stringify(form).replace(/</g, "&lt;")}</pre>`);
      return;
    }
    res.writeHead(404).end();
  });
  const url = await listen(server);
  server.unref();
  return { url, forms, close: closer(server) };
}

// Stripe's form encoding: a[b][0][c]=v. Enough of it for a Checkout Session request.
function parseStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node = out as Record<string, unknown>;
    for (let i = 0; i < path.length - 1; i++) node = (node[path[i]] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1]] = value;
  }
  return out;
}

export type StripeMock = Listening & {
  requests: { auth: string; idempotencyKey: string; body: Record<string, unknown> }[];
  // POST /v1/subscriptions/{id}: each update as asked (a plan's renewal cancelled)
  subscriptionUpdates: { id: string; idempotencyKey: string; body: Record<string, unknown> }[];
  prices: Record<string, number>; // price id -> unit amount in cents
  fail: boolean;
  // awaited before the session is answered: a test sends a webhook while our server still waits for Stripe
  beforeAnswer?: (session: { id: string; client_reference_id: unknown; amount_total: number }) => Promise<void>;
};

export async function startStripeMock(): Promise<StripeMock> {
  const mock = { requests: [], subscriptionUpdates: [], prices: { price_test_topup: 800 }, fail: false } as unknown as StripeMock;
  let n = 0;
  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const subscription = req.method === "POST" ? /^\/v1\/subscriptions\/(sub_[\w]+)$/.exec(req.url ?? "") : null;
    if (subscription && !mock.fail) {
      const body = parseStripeForm(raw);
      mock.subscriptionUpdates.push({ id: subscription[1], idempotencyKey: String(req.headers["idempotency-key"] ?? ""), body });
      const answer = { id: subscription[1], object: "subscription", status: "active", cancel_at_period_end: body.cancel_at_period_end === "true" };
      res.writeHead(200, { "content-type": "application/json", "request-id": `req_sub_${++n}` }).end(JSON.stringify(answer));
      return;
    }
    if (req.method !== "POST" || req.url !== "/v1/checkout/sessions") {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { type: "invalid_request_error", message: "Unrecognized request URL" } }));
      return;
    }
    const body = parseStripeForm(raw);
    mock.requests.push({ auth: String(req.headers.authorization ?? ""), idempotencyKey: String(req.headers["idempotency-key"] ?? ""), body });
    if (mock.fail) {
      res
        .writeHead(401, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { type: "invalid_request_error", message: "Invalid API Key provided" } }));
      return;
    }
    const item = (body.line_items as Record<string, Record<string, unknown>>)["0"];
    const quantity = Number(item.quantity);
    const unit = item.price ? mock.prices[String(item.price)] : Number((item.price_data as Record<string, unknown>).unit_amount);
    const id = `cs_test_${++n}_${Math.random().toString(36).slice(2, 10)}`;
    const session = {
      id,
      object: "checkout.session",
      url: `https://checkout.stripe.test/c/pay/${id}`,
      mode: body.mode ?? "payment", // "subscription" for a plan (docs/plans.md)
      status: "open",
      payment_status: "unpaid",
      amount_total: unit * quantity,
      currency: "usd",
      client_reference_id: body.client_reference_id,
      metadata: body.metadata ?? {},
      success_url: body.success_url,
      cancel_url: body.cancel_url,
    };
    if (mock.beforeAnswer) await mock.beforeAnswer(session);
    res.writeHead(200, { "content-type": "application/json", "request-id": `req_${n}` }).end(JSON.stringify(session));
  });
  mock.url = await listen(server);
  mock.close = closer(server);
  server.unref();
  return mock;
}

// A checkout.session.* event as Stripe sends it, with its Stripe-Signature header.
export function stripeEvent(
  secret: string,
  session: Record<string, unknown>,
  opts: { type?: string; timestamp?: number } = {},
): { payload: string; signature: string } {
  const payload = JSON.stringify({
    id: `evt_${Math.random().toString(36).slice(2, 12)}`,
    object: "event",
    type: opts.type ?? "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: { object: { object: "checkout.session", ...session } },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000) });
  return { payload, signature };
}

// Any event as Stripe sends it (an invoice, a subscription), with its Stripe-Signature header.
export function stripeEventOf(secret: string, type: string, object: Record<string, unknown>, id?: string): { payload: string; signature: string } {
  const payload = JSON.stringify({
    id: id ?? `evt_${Math.random().toString(36).slice(2, 12)}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) });
  return { payload, signature };
}
