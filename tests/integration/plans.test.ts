// Subscription plans over HTTP (docs/plans.md), on SQLite and PostgreSQL: the plan CRUD and
// its validation; a plan bought three ways activates once (the balance; the epay notify sent
// three times at once; Stripe's checkout and first-invoice events sent three times each, out
// of order, then a renewal invoice three times and the cancellation); relay calls through the
// openai SDK against a mock upstream charge the plan's pot or the balance in the user's
// order, an exhausted plan answers 429 naming it with Retry-After or falls back to the
// balance; the periodic job renews a period (with carry-over) and expires a term (group
// back) once the test moves the subscription's timestamps in the database; the admin's
// grant, reset and revoke; and at the end the ledger check passes for balances and plans.
import Anthropic from "@anthropic-ai/sdk";
import { ApiError, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { execDb, queryDb } from "../support/db";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { signedNotify, startStripeMock, stripeEventOf, type StripeMock } from "../support/payments";
import { startServer, type TestServer } from "../support/server";

const EPAY_KEY = "epay-plans-key-9k2";
const PID = "2002";
const STRIPE_SECRET = "sk_test_plans_4eC39HqLyjWDarjtT1zdp7dc";
const WHSEC = "whsec_test_plans_secret";
const QPU = 500000;

let server: TestServer;
let stripe: StripeMock;
let mock: MockUpstream;
let root: ApiClient;

type Plan = { id: number; name: string; price: string; currency: string; quota: number; models: string[]; enabled: boolean; stripe_price_id?: string };
type Sub = {
  id: number;
  plan_id: number;
  status: string;
  remaining: number;
  period_used: number;
  carried: number;
  ends_at: number;
  next_reset_at: number;
  source: string;
};
type Own = { billing_preference: string; wallet_fallback: boolean; subscriptions: Sub[] };

beforeAll(async () => {
  stripe = await startStripeMock();
  stripe.prices.price_plan_monthly = 999;
  mock = await startMockUpstream("openai");
  server = await startServer({ env: { STRIPE_API_BASE: stripe.url, PLAN_JOB_INTERVAL_SECONDS: "1" } });
  root = await setupRoot(server);
  await setOptions(root, {
    ServerAddress: server.url,
    PayAddress: "http://127.0.0.1:9/epay",
    EpayId: PID,
    EpayKey: EPAY_KEY,
    Price: "7.3",
    StripeApiSecret: STRIPE_SECRET,
    StripeWebhookSecret: WHSEC,
    StripeUnitPrice: "8",
    ModelRatio: JSON.stringify({ "gpt-4o-mini": 0.075, "gpt-4o": 1.25 }),
    CompletionRatio: JSON.stringify({ "gpt-4o-mini": 4, "gpt-4o": 4 }),
  });
  const ch = await root.post("/api/channel/", {
    name: "plans-upstream",
    type: 1,
    key: mock.key,
    base_url: mock.url,
    models: "gpt-4o-mini,gpt-4o",
    group: "default,vip",
  });
  expect(ch.success, ch.message).toBe(true);
});
afterAll(async () => {
  await server?.stop();
  await stripe?.close();
  await mock?.close();
});

const planBody = (over: Record<string, unknown> = {}) => ({
  name: "Basic",
  description: "a month of calls",
  price: "2.5",
  currency: "USD",
  duration_days: 30,
  quota: 1_000_000,
  reset_period: "none",
  ...over,
});
async function createPlan(over: Record<string, unknown> = {}): Promise<Plan> {
  const r = await root.post<Plan>("/api/plan/", planBody(over));
  expect(r.success, r.message).toBe(true);
  return r.data;
}
async function balanceOf(userId: number): Promise<number> {
  return Number((await queryDb<{ quota: unknown }>(server, 'SELECT "quota" FROM "users" WHERE "id" = $1', [userId]))[0].quota);
}
async function groupOf(userId: number): Promise<string> {
  return String((await queryDb<{ group: string }>(server, 'SELECT "group" FROM "users" WHERE "id" = $1', [userId]))[0].group);
}
async function subsOf(userId: number) {
  return queryDb<{ id: number; status: string; period_used: unknown; carried: unknown; order_ref: string; stripe_subscription_id: string; ends_at: unknown }>(
    server,
    'SELECT "id", "status", "period_used", "carried", "order_ref", "stripe_subscription_id", "ends_at" FROM "subscriptions" WHERE "user_id" = $1 ORDER BY "id"',
    [userId],
  );
}
async function potRows(subId: number) {
  return queryDb<{ kind: string; delta: unknown; token_id: unknown }>(
    server,
    'SELECT "kind", "delta", "token_id" FROM "quota_ledger" WHERE "subscription_id" = $1 ORDER BY "id"',
    [subId],
  );
}
async function userWithBalance(name: string, usd: number) {
  const u = await makeUser(server, root, name);
  expect((await root.put("/api/user/", { id: u.id, quota: usd * QPU })).success).toBe(true);
  return u;
}
async function tokenOf(client: ApiClient): Promise<string> {
  const t = await client.post<{ key: string }[]>("/api/token/", { name: "plan-calls", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  return t.data[0].key;
}
async function waitFor<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
// A relay call's settlement comes after its answer: wait until the user's holds are closed.
async function settled(userId: number): Promise<void> {
  await waitFor(
    "settlement",
    async () => Number((await queryDb<{ n: unknown }>(server, 'SELECT COUNT(*) AS n FROM "quota_holds" WHERE "user_id" = $1', [userId]))[0].n),
    (n) => n === 0,
  );
}
async function webhook(e: { payload: string; signature: string }) {
  const res = await fetch(`${server.url}/api/stripe/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": e.signature },
    body: e.payload,
  });
  return res.status;
}

describe("plan CRUD", () => {
  it("lets an admin create, update, list and delete plans, with validation, and refuses a user", async () => {
    const user = await makeUser(server, root, "plan-viewer");
    expect((await user.client.post("/api/plan/", planBody())).status).toBe(403);
    for (const bad of [{ price: "abc" }, { price: "1.234" }, { reset_period: "hour" }, { quota: 0 }, { currency: "EUR" }, { duration_days: 0 }, { name: "" }]) {
      const r = await root.post("/api/plan/", planBody(bad));
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.message).toMatch(/Invalid parameter|无效的参数/);
    }
    const p = await createPlan({ name: "Listed", price: "10", models: ["gpt-4o-mini", "gpt-4o-mini"], stripe_price_id: "price_x" });
    expect(p).toMatchObject({
      name: "Listed",
      price: "10.00",
      currency: "USD",
      quota: 1_000_000,
      models: ["gpt-4o-mini"],
      enabled: true,
      stripe_price_id: "price_x",
    });
    const up = await root.put<Plan>("/api/plan/", { id: p.id, name: "Listed 2", enabled: false });
    expect(up.data).toMatchObject({ name: "Listed 2", enabled: false, price: "10.00" });
    expect((await user.client.get<Plan[]>("/api/plans")).data.find((x) => x.id === p.id)).toBeUndefined();
    await root.put("/api/plan/", { id: p.id, enabled: true });
    const forSale = (await user.client.get<Plan[]>("/api/plans")).data.find((x) => x.id === p.id)!;
    expect(forSale.name).toBe("Listed 2");
    expect(forSale).not.toHaveProperty("stripe_price_id");
    expect((await root.put("/api/plan/", { id: 999_999, name: "none" })).message).toBe("The plan does not exist");
    expect((await root.del(`/api/plan/${p.id}`)).success).toBe(true);
    expect((await user.client.get<Plan[]>("/api/plans")).data.find((x) => x.id === p.id)).toBeUndefined();
    expect((await root.get<Plan[]>("/api/plan/")).data.find((x) => x.id === p.id)).toBeUndefined();
  });
});

describe("purchase", () => {
  it("with the balance: done at once, the price in USD × QuotaPerUnit, the group upgraded, the purchase limit kept", async () => {
    const plan = await createPlan({ name: "Wallet plan", price: "2.5", upgrade_group: "vip", expiry_group: "default", max_per_user: 1 });
    const u = await userWithBalance("buyer", 10);
    const r = await u.client.post<Sub>("/api/user/plan/purchase", { plan_id: plan.id, payment_method: "balance" });
    expect(r.success, r.message).toBe(true);
    expect(r.data).toMatchObject({ plan_id: plan.id, status: "active", remaining: 1_000_000, source: "balance" });
    expect(await balanceOf(u.id)).toBe(10 * QPU - 1_250_000);
    expect(await groupOf(u.id)).toBe("vip");
    const own = (await u.client.get<Own>("/api/user/plan")).data;
    expect(own.subscriptions.filter((s) => s.status === "active")).toHaveLength(1);
    const again = await u.client.post("/api/user/plan/purchase", { plan_id: plan.id, payment_method: "balance" });
    expect(again.message).toBe("This plan can be bought at most 1 times per user");
    expect(await balanceOf(u.id)).toBe(10 * QPU - 1_250_000);
    expect((await subsOf(u.id)).length).toBe(1);
    // a plan priced in CNY: converted at the top-up rate (Price 7.3 yuan a dollar), exactly
    // (7.31 / 7.3 × 500000 = 500684.93…, rounded to 500685)
    const yuan = await createPlan({ name: "Yuan plan", price: "7.31", currency: "CNY" });
    const v = await userWithBalance("yuan-buyer", 10);
    expect((await v.client.post("/api/user/plan/purchase", { plan_id: yuan.id, payment_method: "balance" })).success).toBe(true);
    expect(await balanceOf(v.id)).toBe(10 * QPU - 500_685);
    // not enough balance: nothing moves
    const poor = await userWithBalance("poor-buyer", 1);
    expect((await poor.client.post("/api/user/plan/purchase", { plan_id: plan.id, payment_method: "balance" })).success).toBe(false);
    expect(await balanceOf(poor.id)).toBe(QPU);
    expect(await subsOf(poor.id)).toHaveLength(0);
    // the admin's user list shows the plan
    const list = await root.get<{ items: { id: number; plan: string }[] }>("/api/user/?p=0&page_size=50");
    expect(list.data.items.find((x) => x.id === u.id)?.plan).toBe("Wallet plan");
    expect(list.data.items.find((x) => x.id === poor.id)?.plan).toBe("");
  });

  it("through epay: the signed form, and one activation for three notifies at once", async () => {
    const plan = await createPlan({ name: "Epay plan", price: "2.5", wallet_purchasable: false });
    const u = await userWithBalance("epay-buyer", 10);
    expect((await u.client.post("/api/user/plan/purchase", { plan_id: plan.id, payment_method: "balance" })).message).toBe(
      "This plan cannot be bought with the balance",
    );
    const r = (await u.client.post("/api/user/plan/purchase", { plan_id: plan.id, payment_method: "zfb" })) as unknown as {
      success: boolean;
      url: string;
      data: Record<string, string>;
    };
    expect(r.success).toBe(true);
    expect(r.url).toBe("http://127.0.0.1:9/epay/submit.php");
    expect(r.data).toMatchObject({ pid: PID, type: "alipay", money: "18.25", sign_type: "MD5", notify_url: `${server.url}/api/user/epay/notify` });
    const tradeNo = r.data.out_trade_no;
    const params = signedNotify(
      { pid: PID, trade_no: "EP1", out_trade_no: tradeNo, type: "alipay", name: "PLAN", money: "18.25", trade_status: "TRADE_SUCCESS" },
      EPAY_KEY,
    );
    const send = () =>
      fetch(`${server.url}/api/user/epay/notify`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(params),
      }).then((res) => res.text());
    expect(await Promise.all([send(), send(), send()])).toEqual(["success", "success", "success"]);
    const subs = await subsOf(u.id);
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ status: "active", order_ref: tradeNo });
    // a plan order is never credited as a top-up, and the balance did not move
    expect(await balanceOf(u.id)).toBe(10 * QPU);
    expect(await queryDb(server, "SELECT 1 FROM quota_ledger WHERE kind = 'top_up' AND ref = $1", [tradeNo])).toHaveLength(0);
    // a wrong amount activates nothing
    const r2 = (await u.client.post("/api/user/plan/purchase", { plan_id: plan.id, payment_method: "wx" })) as unknown as { data: Record<string, string> };
    const under = signedNotify(
      { pid: PID, trade_no: "EP2", out_trade_no: r2.data.out_trade_no, type: "wxpay", name: "PLAN", money: "18.24", trade_status: "TRADE_SUCCESS" },
      EPAY_KEY,
    );
    const res = await fetch(`${server.url}/api/user/epay/notify?${new URLSearchParams(under)}`);
    expect(await res.text()).toBe("fail");
    expect(await subsOf(u.id)).toHaveLength(1);
  });

  it("through Stripe: a subscription-mode Checkout, one activation for nine out-of-order deliveries, one renewal per invoice, the cancellation", async () => {
    const plan = await createPlan({ name: "Stripe plan", price: "9.99", stripe_price_id: "price_plan_monthly", duration_days: 30 });
    const noPrice = await createPlan({ name: "No stripe" });
    const u = await userWithBalance("card-buyer", 0);
    expect((await u.client.post("/api/user/plan/purchase", { plan_id: noPrice.id, payment_method: "stripe" })).message).toBe(
      "This plan has no Stripe price and cannot be bought through Stripe",
    );
    const before = stripe.requests.length;
    const r = await u.client.post<{ pay_link: string }>("/api/user/plan/purchase", { plan_id: plan.id, payment_method: "stripe" });
    expect(r.success, r.message).toBe(true);
    expect(r.data.pay_link).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const sent = stripe.requests[before];
    const tradeNo = String(sent.body.client_reference_id);
    expect(sent.body).toMatchObject({
      mode: "subscription",
      line_items: { 0: { price: "price_plan_monthly", quantity: "1" } },
      subscription_data: { metadata: { trade_no: tradeNo } },
    });
    const sessionId = String(r.data.pay_link.split("/").at(-1));
    const session = stripeEventOf(WHSEC, "checkout.session.completed", {
      id: sessionId,
      object: "checkout.session",
      mode: "subscription",
      payment_status: "paid",
      amount_total: 999,
      currency: "usd",
      client_reference_id: tradeNo,
      metadata: { trade_no: tradeNo },
      subscription: "sub_plan_1",
    });
    const invoice = (type: string) =>
      stripeEventOf(WHSEC, type, {
        id: "in_first",
        object: "invoice",
        billing_reason: "subscription_create",
        subscription: "sub_plan_1",
        amount_paid: 999,
        currency: "usd",
        subscription_details: { metadata: { trade_no: tradeNo } },
      });
    const events = [invoice("invoice.paid"), session, invoice("invoice.payment_succeeded")];
    const nine = [2, 0, 1, 1, 2, 0, 0, 1, 2].map((i) => events[i]);
    expect(await Promise.all(nine.map(webhook))).toEqual(Array(9).fill(200));
    let subs = await subsOf(u.id);
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ status: "active", order_ref: tradeNo, stripe_subscription_id: "sub_plan_1" });
    const endsAt = Number(subs[0].ends_at);
    // a forged event: 400, nothing moves
    expect(await webhook({ payload: session.payload, signature: "t=1,v1=bad" })).toBe(400);
    // a renewal invoice, three times at once: one new period, the term a duration longer
    const renewal = stripeEventOf(WHSEC, "invoice.paid", {
      id: "in_cycle_1",
      object: "invoice",
      billing_reason: "subscription_cycle",
      subscription: "sub_plan_1",
      amount_paid: 999,
      currency: "usd",
    });
    expect(await Promise.all([webhook(renewal), webhook(renewal), webhook(renewal)])).toEqual([200, 200, 200]);
    subs = await subsOf(u.id);
    // extended once: by one duration, not three
    expect(Number(subs[0].ends_at)).toBeGreaterThanOrEqual(endsAt + 30 * 86400 - 5);
    expect(Number(subs[0].ends_at)).toBeLessThan(endsAt + 60 * 86400);
    expect(await queryDb(server, 'SELECT "key" FROM "plan_payment_events" WHERE "subscription_id" = $1', [subs[0].id])).toEqual([
      { key: "stripe_invoice:in_cycle_1" },
    ]);
    // the term runs out before Stripe's next renewal arrives (Stripe pays about an hour after
    // the period's end): the job keeps a renewing Stripe subscription, and the late renewal renews it
    const ago = Math.floor(Date.now() / 1000) - 60;
    await execDb(server, 'UPDATE "subscriptions" SET "ends_at" = $1 WHERE "id" = $2', [ago, subs[0].id]);
    await new Promise((r) => setTimeout(r, 2_500)); // two rounds of the plan job (PLAN_JOB_INTERVAL_SECONDS=1)
    expect((await subsOf(u.id))[0].status).toBe("active");
    const late = stripeEventOf(WHSEC, "invoice.paid", {
      id: "in_cycle_2",
      object: "invoice",
      billing_reason: "subscription_cycle",
      subscription: "sub_plan_1",
      amount_paid: 999,
      currency: "usd",
    });
    expect(await webhook(late)).toBe(200);
    subs = await subsOf(u.id);
    expect(subs[0].status).toBe("active");
    expect(Number(subs[0].ends_at)).toBeGreaterThan(Math.floor(Date.now() / 1000) + 29 * 86400);
    // the user stops the renewal: Stripe is told once (a second click changes nothing), the
    // plan stays active without renewing; the portal resuming it shows again through the webhook
    type Own = { subscriptions: { id: number; auto_renew: boolean; cancel_at_period_end: boolean; status: string }[] };
    const own = async () => (await u.client.get<Own>("/api/user/plan")).data.subscriptions.find((x) => x.id === subs[0].id)!;
    expect(await own()).toMatchObject({ auto_renew: true, cancel_at_period_end: false });
    const updates = stripe.subscriptionUpdates.length;
    for (let i = 0; i < 2; i++) {
      const c = await u.client.post<{ auto_renew: boolean; status: string }>(`/api/user/plan/${subs[0].id}/cancel`);
      expect(c.success, c.message).toBe(true);
      expect(c.data).toMatchObject({ auto_renew: false, status: "active" });
    }
    expect(stripe.subscriptionUpdates.slice(updates)).toEqual([
      { id: "sub_plan_1", idempotencyKey: "cancel:sub_plan_1", body: { cancel_at_period_end: "true" } },
    ]);
    expect(await own()).toMatchObject({ status: "active", auto_renew: false, cancel_at_period_end: true });
    const resumed = (on: boolean) =>
      webhook(stripeEventOf(WHSEC, "customer.subscription.updated", { id: "sub_plan_1", object: "subscription", status: "active", cancel_at_period_end: on }));
    expect(await resumed(false)).toBe(200);
    expect(await own()).toMatchObject({ auto_renew: true, cancel_at_period_end: false });
    expect(await resumed(true)).toBe(200);
    expect(await own()).toMatchObject({ auto_renew: false, cancel_at_period_end: true });
    // another user's subscription is not found; one bought with the balance does not renew
    const other = await userWithBalance("card-other", 0);
    expect((await other.client.post(`/api/user/plan/${subs[0].id}/cancel`)).message).toBe("The subscription does not exist");
    const walletPlan = await createPlan({ name: "Wallet renewal" });
    const granted = await root.post<{ id: number }>(`/api/user/${u.id}/plan`, { plan_id: walletPlan.id });
    expect((await u.client.post(`/api/user/plan/${granted.data.id}/cancel`)).message).toBe("This subscription does not renew: there is nothing to cancel");
    // Stripe deletes the subscription: cancelled, its remaining written off
    expect(await webhook(stripeEventOf(WHSEC, "customer.subscription.deleted", { id: "sub_plan_1", object: "subscription", status: "canceled" }))).toBe(200);
    subs = await subsOf(u.id);
    expect(subs[0].status).toBe("cancelled");
    expect((await potRows(subs[0].id)).at(-1)!.kind).toBe("plan_expire");
  });

  it("through Stripe: a deletion that arrives before the activation cancels the plan as soon as it activates", async () => {
    const plan = await createPlan({ name: "Stripe early end", price: "9.99", stripe_price_id: "price_plan_monthly" });
    const u = await userWithBalance("early-end", 0);
    const r = await u.client.post<{ pay_link: string }>("/api/user/plan/purchase", { plan_id: plan.id, payment_method: "stripe" });
    expect(r.success, r.message).toBe(true);
    const tradeNo = String(stripe.requests.at(-1)!.body.client_reference_id);
    const deleted = stripeEventOf(WHSEC, "customer.subscription.deleted", { id: "sub_early_1", object: "subscription", status: "canceled" });
    expect(await webhook(deleted)).toBe(200);
    expect(await queryDb(server, 'SELECT "key" FROM "plan_payment_events" WHERE "key" = $1', ["stripe_deleted:sub_early_1"])).toHaveLength(1);
    const completed = stripeEventOf(WHSEC, "checkout.session.completed", {
      id: String(r.data.pay_link.split("/").at(-1)),
      object: "checkout.session",
      mode: "subscription",
      payment_status: "paid",
      amount_total: 999,
      currency: "usd",
      client_reference_id: tradeNo,
      metadata: { trade_no: tradeNo },
      subscription: "sub_early_1",
    });
    expect(await webhook(completed)).toBe(200);
    const subs = await subsOf(u.id);
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ status: "cancelled", stripe_subscription_id: "sub_early_1" });
  });
});

describe("charging", () => {
  it("plan first spends the pot, wallet first the balance, a model outside the plan the balance", async () => {
    const plan = await createPlan({ name: "Mini plan", models: ["gpt-4o-mini"], quota: 5_000_000 });
    const u = await userWithBalance("charged", 2);
    const grant = await root.post<Sub>(`/api/user/${u.id}/plan`, { plan_id: plan.id });
    expect(grant.success, grant.message).toBe(true);
    const sub = grant.data;
    const openai = new OpenAI({ apiKey: await tokenOf(u.client), baseURL: `${server.url}/v1`, maxRetries: 0 });
    const call = (model: string) => openai.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }], max_tokens: 20 });

    await call("gpt-4o-mini");
    const used = async () => Number((await subsOf(u.id))[0].period_used);
    await settled(u.id);
    const spent = await used();
    expect(spent).toBeGreaterThan(0);
    expect(await balanceOf(u.id)).toBe(2 * QPU);
    const rows = await potRows(sub.id);
    expect(rows.map((r) => r.kind)).toContain("relay_reserve");
    expect(rows.filter((r) => r.kind.startsWith("relay_")).reduce((s, r) => s - Number(r.delta), 0)).toBe(spent);

    expect((await u.client.put("/api/user/plan/preference", { billing_preference: "wallet_first" })).success).toBe(true);
    await call("gpt-4o-mini");
    await settled(u.id);
    expect(await balanceOf(u.id)).toBeLessThan(2 * QPU);
    expect(await used()).toBe(spent);

    expect((await u.client.put("/api/user/plan/preference", { billing_preference: "plan_first" })).success).toBe(true);
    const wallet = await balanceOf(u.id);
    await call("gpt-4o");
    await settled(u.id);
    expect(await balanceOf(u.id)).toBeLessThan(wallet);
    expect(await used()).toBe(spent);
    // GET /api/usage/limits names the plan's meter, for the session and for the token alike
    const meter = { scope: "plan", limit: "plan", max: 5_000_000, used: spent, left: 5_000_000 - spent, reset_at: Number((await subsOf(u.id))[0].ends_at) };
    expect((await u.client.get("/api/usage/limits")).data).toEqual([meter]);
    const byToken = await fetch(`${server.url}/api/usage/limits`, { headers: { authorization: `Bearer ${await tokenOf(u.client)}` } });
    expect(((await byToken.json()) as { data: unknown[] }).data).toEqual([meter]);
    expect((await u.client.get<Own>("/api/user/plan")).data).toMatchObject({ billing_preference: "plan_first", wallet_fallback: true });
    expect((await u.client.put("/api/user/plan/preference", { billing_preference: "pot" })).success).toBe(false);
  });

  it("an exhausted plan answers 429 naming it with Retry-After, or falls back to the balance when allowed", async () => {
    const plan = await createPlan({ name: "Tiny plan", quota: 1, reset_period: "day" });
    const u = await userWithBalance("exhausted", 2);
    const sub = (await root.post<Sub>(`/api/user/${u.id}/plan`, { plan_id: plan.id })).data;
    expect((await u.client.put("/api/user/plan/preference", { billing_preference: "plan_first", wallet_fallback: false })).success).toBe(true);
    const key = await tokenOf(u.client);
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const upstreamBefore = mock.requests.length;
    const err = await openai.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const rl = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rl.status).toBe(429);
    expect(rl.message).toContain("Tiny plan");
    const retryAfter = Number(rl.headers?.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(86400 - 120);
    expect(retryAfter).toBeLessThanOrEqual(86400);
    expect(mock.requests.length).toBe(upstreamBefore);
    // the raw answer is OpenAI's error shape
    const raw = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(raw.status).toBe(429);
    expect(((await raw.json()) as { error: { type: string; code: string } }).error).toMatchObject({ type: "rate_limit_error", code: "plan_exhausted" });
    // the other ingresses in their own shapes, as their SDKs read them
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const aErr = await anthropic.messages
      .create({ model: "gpt-4o-mini", max_tokens: 16, messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(aErr).toBeInstanceOf(Anthropic.RateLimitError);
    expect((aErr as InstanceType<typeof Anthropic.RateLimitError>).message).toContain("Tiny plan");
    const gemini = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: server.url } });
    const gErr = await gemini.models.generateContent({ model: "gpt-4o-mini", contents: "hi" }).catch((e: unknown) => e);
    expect(gErr).toBeInstanceOf(ApiError);
    expect((gErr as ApiError).status).toBe(429);
    expect(mock.requests.length).toBe(upstreamBefore);
    expect(await balanceOf(u.id)).toBe(2 * QPU);
    // allowed to fall back: the balance pays
    expect((await u.client.put("/api/user/plan/preference", { billing_preference: "plan_first", wallet_fallback: true })).success).toBe(true);
    await openai.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
    await settled(u.id);
    expect(await balanceOf(u.id)).toBeLessThan(2 * QPU);
    expect(Number((await subsOf(u.id))[0].period_used)).toBe(0);
    expect((await potRows(sub.id)).map((r) => r.kind)).toEqual(["plan_purchase"]);
  });
});

describe("periods, expiry and the admin", () => {
  it("the job renews a period with carry-over and expires a term, moving the group back", async () => {
    const plan = await createPlan({ name: "Carry plan", quota: 1000, reset_period: "day", carry_over: true, upgrade_group: "vip", expiry_group: "default" });
    const u = await userWithBalance("periodic", 1);
    const sub = (await root.post<Sub>(`/api/user/${u.id}/plan`, { plan_id: plan.id })).data;
    expect(await groupOf(u.id)).toBe("vip");
    // 300 used in this period (as calls would have), written with its ledger row as the relay does
    await execDb(server, 'UPDATE "subscriptions" SET "period_used" = 300 WHERE "id" = $1', [sub.id]);
    await execDb(
      server,
      'INSERT INTO "quota_ledger" ("user_id", "token_id", "delta", "balance_after", "kind", "ref", "created_at", "subscription_id") VALUES ($1, 0, -300, 700, \'relay_reserve\', \'test-call\', 0, $2)',
      [u.id, sub.id],
    );
    // the period's end moved into the past: the job starts the next one, carrying 700
    const now = Math.floor(Date.now() / 1000);
    await execDb(server, 'UPDATE "subscriptions" SET "period_start" = $1, "next_reset_at" = $2 WHERE "id" = $3', [now - 86400 - 10, now - 10, sub.id]);
    const renewed = await waitFor(
      "renewal",
      async () => (await subsOf(u.id))[0],
      (s) => Number(s.period_used) === 0,
    );
    expect(Number(renewed.carried)).toBe(700);
    expect((await potRows(sub.id)).at(-1)).toMatchObject({ kind: "plan_renew" });
    expect(Number((await potRows(sub.id)).at(-1)!.delta)).toBe(1000);
    const own = (await u.client.get<Own>("/api/user/plan")).data.subscriptions[0];
    expect(own).toMatchObject({ remaining: 1700, carried: 700 });
    expect(own.next_reset_at).toBeGreaterThan(now);
    // the term's end moved into the past: expired, the pot written off, the group back
    await execDb(server, 'UPDATE "subscriptions" SET "ends_at" = $1 WHERE "id" = $2', [now - 1, sub.id]);
    await waitFor(
      "expiry",
      async () => (await subsOf(u.id))[0].status,
      (s) => s === "expired",
    );
    expect(await groupOf(u.id)).toBe("default");
    expect((await potRows(sub.id)).at(-1)).toMatchObject({ kind: "plan_expire" });
    expect(Number((await potRows(sub.id)).at(-1)!.delta)).toBe(-1700);
  });

  it("an admin grants, resets a period and revokes; the subscribers list shows them; the ledger check passes", async () => {
    const plan = await createPlan({ name: "Granted plan", quota: 5000, reset_period: "week" });
    const u = await userWithBalance("granted", 1);
    const other = await makeUser(server, root, "not-admin");
    expect((await other.client.post(`/api/user/${u.id}/plan`, { plan_id: plan.id })).status).toBe(403);
    expect((await root.post(`/api/user/${u.id}/plan`, { plan_id: 999_999 })).message).toBe("The plan does not exist");
    const sub = (await root.post<Sub>(`/api/user/${u.id}/plan`, { plan_id: plan.id })).data;
    expect(sub).toMatchObject({ status: "active", source: "admin", remaining: 5000 });
    await execDb(server, 'UPDATE "subscriptions" SET "period_used" = 1200 WHERE "id" = $1', [sub.id]);
    await execDb(
      server,
      'INSERT INTO "quota_ledger" ("user_id", "token_id", "delta", "balance_after", "kind", "ref", "created_at", "subscription_id") VALUES ($1, 0, -1200, 3800, \'relay_reserve\', \'test-call-2\', 0, $2)',
      [u.id, sub.id],
    );
    const reset = await root.post<Sub>(`/api/user/${u.id}/plan/${sub.id}/reset`, {});
    expect(reset.success, reset.message).toBe(true);
    expect(reset.data).toMatchObject({ period_used: 0, remaining: 5000 });
    expect((await potRows(sub.id)).at(-1)).toMatchObject({ kind: "plan_reset" });
    const subscribers = await root.get<{ id: number; username: string }[]>(`/api/plan/${plan.id}/subscribers`);
    expect(subscribers.data.map((s) => s.username)).toEqual(["granted"]);
    const revoked = await root.del<Sub>(`/api/user/${u.id}/plan/${sub.id}`);
    expect(revoked.success, revoked.message).toBe(true);
    expect(revoked.data.status).toBe("revoked");
    expect((await root.del(`/api/user/${u.id}/plan/${sub.id}`)).message).toBe("This subscription is not active");
    expect((await root.post(`/api/user/${u.id}/plan/${sub.id}/reset`, {})).message).toBe("This subscription is not active");
    expect((await root.get<unknown[]>(`/api/plan/${plan.id}/subscribers`)).data).toHaveLength(0);
    expect((await root.get<unknown[]>(`/api/plan/${plan.id}/subscribers?status=all`)).data).toHaveLength(1);

    const check = await root.get<{ ok: boolean; subscriptions_checked: number; users: unknown[]; tokens: unknown[]; subscriptions: unknown[] }>(
      "/api/ledger/check",
    );
    expect(check.data.subscriptions).toEqual([]);
    expect(check.data.users).toEqual([]);
    expect(check.data.tokens).toEqual([]);
    expect(check.data.ok).toBe(true);
    expect(check.data.subscriptions_checked).toBeGreaterThanOrEqual(6);
  });
});
