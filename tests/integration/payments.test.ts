// Online top-up over HTTP (docs/payments.md): amount and pay rules with the spec's messages,
// the epay notify and the Stripe webhook against signed callbacks (credited once even when
// they arrive three at a time, nothing for a forged, unsigned, empty-key, other-merchant,
// unpaid, under-paid or unknown-order callback), Stripe Checkout against a local mock of its
// API, the root's manual completion, rebates, the order lists, and at the end every balance
// equal to the sum of its ledger rows. Runs on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { execDb, queryDb } from "../support/db";
import { epaySign, signedNotify, startStripeMock, stripeEvent, type StripeMock } from "../support/payments";
import { startServer, type TestServer } from "../support/server";

const EPAY_KEY = "epay-merchant-key-Q7x2";
const PID = "1001";
const PAY_ADDRESS = "http://127.0.0.1:9/epay";
const STRIPE_SECRET = "sk_test_payments_4eC39HqLyjWDarjtT1zdp7dc";
const WHSEC = "whsec_test_payments_secret";
const QPU = 500000;

let server: TestServer;
let stripe: StripeMock;
let root: ApiClient;
beforeAll(async () => {
  stripe = await startStripeMock();
  server = await startServer({ env: { STRIPE_API_BASE: stripe.url } });
  root = await setupRoot(server);
});
afterAll(async () => {
  await server?.stop();
  await stripe?.close();
});

type Self = { quota: number; aff_quota: number; aff_history_quota: number };
type PayAnswer = { success: boolean; message: string; data: Record<string, string>; url: string };

async function ledger(userId: number) {
  return queryDb<{ delta: unknown; kind: string; ref: string }>(server, "SELECT delta, kind, ref FROM quota_ledger WHERE user_id = $1 ORDER BY id", [userId]);
}
async function topUpRows(tradeNo: string) {
  return (await queryDb<{ ref: string }>(server, "SELECT ref FROM quota_ledger WHERE kind = 'top_up' AND ref = $1", [tradeNo])).length;
}
async function quotaOf(client: ApiClient) {
  return (await client.get<Self>("/api/user/self")).data;
}

// GET or POST (form body) to the notify URL; the answer is plain text.
async function notify(params: Record<string, string>, method: "GET" | "POST" = "POST"): Promise<{ status: number; text: string }> {
  const qs = new URLSearchParams(params).toString();
  const res =
    method === "GET"
      ? await fetch(`${server.url}/api/user/epay/notify?${qs}`)
      : await fetch(`${server.url}/api/user/epay/notify`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: qs });
  return { status: res.status, text: await res.text() };
}

function paidNotify(tradeNo: string, money: string, extra: Record<string, string> = {}, key = EPAY_KEY) {
  return signedNotify(
    { pid: PID, trade_no: `EP${Date.now()}`, out_trade_no: tradeNo, type: "alipay", name: "TUC10", money, trade_status: "TRADE_SUCCESS", ...extra },
    key,
  );
}

async function webhook(payload: string, signature?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== undefined) headers["stripe-signature"] = signature;
  const res = await fetch(`${server.url}/api/stripe/webhook`, { method: "POST", headers, body: payload });
  return { status: res.status, text: await res.text() };
}

describe("when online top-up is off", () => {
  it("refuses payment with the spec's message and tells the console nothing is enabled", async () => {
    const { client } = await makeUser(server, root, "early");
    const zh = new ApiClient(server.url, "zh");
    zh.cookie = client.cookie;
    zh.userId = client.userId;
    expect((await client.post("/api/user/pay", { amount: 10, payment_method: "zfb" })).message).toBe("The admin has turned off online top-up");
    expect((await zh.post("/api/user/pay", { amount: 10, payment_method: "wx" })).message).toBe("管理员未开启在线充值");
    expect((await client.post("/api/user/stripe/pay", { amount: 10 })).message).toBe("The admin has turned off online top-up");
    const status = await new ApiClient(server.url).get<Record<string, unknown>>("/api/status");
    expect(status.data).toMatchObject({ enable_online_topup: false, enable_stripe_topup: false });
    // a key alone does not turn it on: the address and merchant id are needed too
    await setOptions(root, { ServerAddress: server.url, EpayKey: EPAY_KEY });
    expect((await client.post("/api/user/pay", { amount: 10, payment_method: "zfb" })).message).toBe("The admin has turned off online top-up");
    expect((await queryDb(server, "SELECT id FROM top_ups")).length).toBe(0);
  });
});

describe("epay", () => {
  beforeAll(async () => {
    await setOptions(root, {
      PayAddress: PAY_ADDRESS,
      EpayId: PID,
      EpayKey: EPAY_KEY,
      Price: "7.3",
      MinTopUp: "2",
      TopupGroupRatio: '{"default": 1, "vip": 0.9}',
    });
  });

  it("prices an amount for the caller's group and applies the minimum", async () => {
    const { id, client } = await makeUser(server, root, "pricer");
    expect((await client.post("/api/user/amount", { amount: 10, top_up_code: "" })).data).toEqual({ amount: 73, unit_price: 7.3, priced_by_stripe: false });
    const low = await client.post("/api/user/amount", { amount: 1 });
    expect(low.success).toBe(false);
    expect(low.message).toBe("The top-up amount cannot be less than $2");
    const zh = new ApiClient(server.url, "zh");
    zh.cookie = client.cookie;
    zh.userId = client.userId;
    expect((await zh.post("/api/user/pay", { amount: 0, payment_method: "zfb" })).message).toBe("充值金额不能小于 $2");
    expect((await client.post("/api/user/pay", { amount: 10, payment_method: "paypal" })).success).toBe(false);
    expect((await client.post("/api/user/amount", { amount: -5 })).success).toBe(false);
    await root.put("/api/user/", { id, group: "vip" });
    expect((await client.post("/api/user/amount", { amount: 10 })).data).toEqual({ amount: 65.7, unit_price: 6.57, priced_by_stripe: false });
    const status = await new ApiClient(server.url).get<Record<string, unknown>>("/api/status");
    expect(status.data).toMatchObject({ enable_online_topup: true, price: 7.3, min_topup: 2 });
    expect(JSON.stringify(status.data)).not.toContain(EPAY_KEY);
  });

  it("creates pending orders with unique trade numbers and signed form fields", async () => {
    const { client } = await makeUser(server, root, "payer");
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => client.post("/api/user/pay", { amount: 10, payment_method: i % 2 ? "wx" : "zfb", top_up_code: "vip-code" })),
    );
    const tradeNos = new Set<string>();
    for (const a of answers as unknown as PayAnswer[]) {
      expect(a.success).toBe(true);
      expect(a.url).toBe(`${PAY_ADDRESS}/submit.php`);
      const f = a.data;
      expect(f).toMatchObject({
        pid: PID,
        notify_url: `${server.url}/api/user/epay/notify`,
        return_url: `${server.url}/app/wallet/topup-success`,
        name: "TUC10",
        money: "73.00",
        sign_type: "MD5",
      });
      expect(["alipay", "wxpay"]).toContain(f.type);
      expect(f.sign).toBe(epaySign(f, EPAY_KEY));
      tradeNos.add(f.out_trade_no);
    }
    expect(tradeNos.size).toBe(5);
    expect(JSON.stringify(answers)).not.toContain(EPAY_KEY);
    const mine = await client.get<{ items: { trade_no: string; status: string; money: number; amount: number }[]; total: number }>(
      "/api/user/topup/self?p=1&page_size=10",
    );
    expect(mine.data.total).toBe(5);
    for (const o of mine.data.items) expect(o).toMatchObject({ status: "pending", money: 73, amount: 10 * QPU });
  });

  it("credits a correctly signed notify once, even three at once and interleaved with another order's", async () => {
    const { id, client } = await makeUser(server, root, "buyer");
    const a = ((await client.post("/api/user/pay", { amount: 10, payment_method: "zfb" })) as unknown as PayAnswer).data;
    const b = ((await client.post("/api/user/pay", { amount: 3, payment_method: "wx" })) as unknown as PayAnswer).data;
    const na = paidNotify(a.out_trade_no, "73.00");
    const nb = paidNotify(b.out_trade_no, "21.90", { type: "wxpay" });
    const answers = await Promise.all([notify(nb), notify(na, "GET"), notify(na), notify(nb, "GET"), notify(na), notify(nb)]);
    for (const r of answers) expect(r).toEqual({ status: 200, text: "success" });
    expect((await quotaOf(client)).quota).toBe(13 * QPU);
    expect(await topUpRows(a.out_trade_no)).toBe(1);
    expect(await topUpRows(b.out_trade_no)).toBe(1);
    const logs = await queryDb<{ quota: unknown }>(server, "SELECT quota FROM logs WHERE user_id = $1 AND type = 1", [id]);
    expect(logs.map((l) => Number(l.quota)).sort((x, y) => x - y)).toEqual([3 * QPU, 10 * QPU]);
    // the provider repeats its notice later: acknowledged, not credited again
    expect(await notify(na)).toEqual({ status: 200, text: "success" });
    expect((await quotaOf(client)).quota).toBe(13 * QPU);
    const mine = await client.get<{ items: { trade_no: string; status: string }[] }>("/api/user/topup/self");
    expect(mine.data.items.every((o) => o.status === "success")).toBe(true);
  });

  it("credits nothing for forged, unsigned, other-merchant, other-method, unpaid, under-paid and unknown-order notifies", async () => {
    const { client } = await makeUser(server, root, "victim");
    const order = ((await client.post("/api/user/pay", { amount: 10, payment_method: "zfb" })) as unknown as PayAnswer).data;
    const t = order.out_trade_no;
    const base = { pid: PID, trade_no: "EP1", out_trade_no: t, type: "alipay", name: "TUC10", money: "73.00", trade_status: "TRADE_SUCCESS" };
    const bad: Record<string, Record<string, string>> = {
      forged: signedNotify(base, "not-the-key"),
      unsigned: base,
      badSignType: { ...signedNotify(base, EPAY_KEY), sign_type: "RSA" },
      tampered: { ...signedNotify(base, EPAY_KEY), money: "730.00" },
      otherMerchant: signedNotify({ ...base, pid: "2002" }, EPAY_KEY),
      unpaid: signedNotify({ ...base, trade_status: "WAIT_BUYER_PAY" }, EPAY_KEY),
      underPaid: signedNotify({ ...base, money: "72.99" }, EPAY_KEY),
      overPaid: signedNotify({ ...base, money: "73.01" }, EPAY_KEY),
      unknownOrder: signedNotify({ ...base, out_trade_no: "USR1NOUNKNOWN" }, EPAY_KEY),
      // paid with another method than the order's (zfb -> alipay)
      otherMethod: signedNotify({ ...base, type: "wxpay" }, EPAY_KEY),
      noMethod: signedNotify({ ...base, type: "" }, EPAY_KEY),
    };
    for (const [name, params] of Object.entries(bad)) {
      for (const method of ["GET", "POST"] as const) expect(await notify(params, method), `${name} ${method}`).toEqual({ status: 200, text: "fail" });
    }
    // an empty configured key verifies nothing (and turns epay off)
    await setOptions(root, { EpayKey: "" });
    expect(await notify(signedNotify(base, ""))).toEqual({ status: 200, text: "fail" });
    expect(await notify(signedNotify(base, EPAY_KEY))).toEqual({ status: 200, text: "fail" });
    expect((await client.post("/api/user/pay", { amount: 10, payment_method: "zfb" })).message).toBe("The admin has turned off online top-up");
    await setOptions(root, { EpayKey: EPAY_KEY });
    expect((await quotaOf(client)).quota).toBe(0);
    expect(await topUpRows(t)).toBe(0);
    // and the genuine notice still works afterwards
    expect(await notify(signedNotify(base, EPAY_KEY))).toEqual({ status: 200, text: "success" });
    expect((await quotaOf(client)).quota).toBe(10 * QPU);
  });

  it("refuses a new order when the user holds 10 pending orders from the last hour", async () => {
    const { client } = await makeUser(server, root, "hoarder");
    for (let i = 0; i < 10; i++) expect((await client.post("/api/user/pay", { amount: 2, payment_method: "wx" })).success, `order ${i}`).toBe(true);
    const refused = await client.post("/api/user/pay", { amount: 2, payment_method: "zfb" });
    expect(refused.success).toBe(false);
    expect(refused.message).toBe("You have 10 unpaid orders from the last hour; pay one or try again later");
    const rows = await queryDb<{ n: unknown }>(server, "SELECT COUNT(*) AS n FROM top_ups t JOIN users u ON u.id = t.user_id WHERE u.username = 'hoarder'");
    expect(Number(rows[0].n)).toBe(10);
    // an order older than an hour no longer counts
    await execDb(
      server,
      "UPDATE top_ups SET create_time = create_time - 7200 WHERE id = (SELECT MIN(t.id) FROM top_ups t JOIN users u ON u.id = t.user_id WHERE u.username = 'hoarder')",
    );
    expect((await client.post("/api/user/pay", { amount: 2, payment_method: "zfb" })).success).toBe(true);
  });

  it("refuses a notify body over 64 KiB before reading it", async () => {
    const { client } = await makeUser(server, root, "bulky");
    const order = ((await client.post("/api/user/pay", { amount: 10, payment_method: "zfb" })) as unknown as PayAnswer).data;
    const params = paidNotify(order.out_trade_no, "73.00", { padding: "x".repeat(70 * 1024) });
    const res = await notify(params);
    expect(res.status).toBe(413);
    expect(res.text).not.toContain(order.out_trade_no);
    expect((await quotaOf(client)).quota).toBe(0);
  });
});

describe("Stripe", () => {
  it("is off until the secrets and a unit price are set", async () => {
    const { client } = await makeUser(server, root, "early-card");
    await setOptions(root, { StripeApiSecret: STRIPE_SECRET });
    expect((await client.post("/api/user/stripe/pay", { amount: 5 })).message).toBe("The admin has turned off online top-up");
    await setOptions(root, { StripeWebhookSecret: WHSEC, StripeUnitPrice: "8", StripeMinTopUp: "1" });
    const status = await new ApiClient(server.url).get<Record<string, unknown>>("/api/status");
    expect(status.data).toMatchObject({ enable_stripe_topup: true, stripe_unit_price: 8, stripe_min_topup: 1 });
    const text = JSON.stringify(status.data) + JSON.stringify((await root.get("/api/option/")).data);
    expect(text).not.toContain(STRIPE_SECRET);
    expect(text).not.toContain(WHSEC);
  });

  it("creates a Checkout Session against the API and credits a valid webhook once, three at once", async () => {
    const { client } = await makeUser(server, root, "card");
    expect((await client.post("/api/user/stripe/amount", { amount: 5 })).data).toEqual({ amount: 40, unit_price: 8, priced_by_stripe: false });
    const before = stripe.requests.length;
    const r = await client.post<{ pay_link: string }>("/api/user/stripe/pay", { amount: 5 });
    expect(r.success).toBe(true);
    expect(r.data.pay_link).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    expect(stripe.requests).toHaveLength(before + 1);
    const sent = stripe.requests[before];
    expect(sent.auth).toBe(`Bearer ${STRIPE_SECRET}`);
    const tradeNo = String(sent.body.client_reference_id);
    expect(sent.idempotencyKey).toBe(tradeNo);
    expect(sent.body).toMatchObject({
      mode: "payment",
      metadata: { trade_no: tradeNo },
      success_url: `${server.url}/app/wallet/topup-success`,
      line_items: { "0": { quantity: "5", price_data: { currency: "usd", unit_amount: "800" } } },
    });
    const [order] = await queryDb<{ provider_ref: string; status: string; money: number }>(
      server,
      "SELECT provider_ref, status, money FROM top_ups WHERE trade_no = $1",
      [tradeNo],
    );
    expect(order).toMatchObject({ status: "pending" });
    expect(Number(order.money)).toBe(40);
    const session = {
      id: order.provider_ref,
      client_reference_id: tradeNo,
      metadata: { trade_no: tradeNo },
      payment_status: "paid",
      amount_total: 4000,
      currency: "usd",
    };
    // refused first: bad signature, missing signature, stale timestamp, wrong amount, unpaid
    const good = stripeEvent(WHSEC, session);
    expect((await webhook(good.payload, good.signature.replace(/v1=[a-f0-9]{4}/, "v1=0000"))).status).toBe(400);
    expect((await webhook(good.payload)).status).toBe(400);
    expect((await webhook(good.payload, stripeEvent("whsec_someone_else", session).signature)).status).toBe(400);
    const stale = stripeEvent(WHSEC, session, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await webhook(stale.payload, stale.signature)).status).toBe(400);
    for (const wrong of [
      { ...session, amount_total: 3999 },
      { ...session, currency: "eur" },
      { ...session, payment_status: "unpaid" },
      { ...session, id: "cs_test_other" },
      { ...session, client_reference_id: "USR1NOUNKNOWN", metadata: {} },
    ]) {
      const e = stripeEvent(WHSEC, wrong);
      expect(await webhook(e.payload, e.signature)).toEqual({ status: 200, text: '{"received":true}' });
    }
    const expired = stripeEvent(WHSEC, session, { type: "checkout.session.expired" });
    expect((await webhook(expired.payload, expired.signature)).status).toBe(200);
    expect((await quotaOf(client)).quota).toBe(0);
    // the genuine event, three times at once
    const answers = await Promise.all([1, 2, 3].map(() => webhook(good.payload, good.signature)));
    for (const a of answers) expect(a.status).toBe(200);
    expect((await quotaOf(client)).quota).toBe(5 * QPU);
    expect(await topUpRows(tradeNo)).toBe(1);
  });

  it("credits once when async_payment_succeeded comes before checkout.session.completed", async () => {
    const { client } = await makeUser(server, root, "card-async");
    expect((await client.post("/api/user/stripe/pay", { amount: 2 })).success).toBe(true);
    const tradeNo = String(stripe.requests[stripe.requests.length - 1].body.client_reference_id);
    const [order] = await queryDb<{ provider_ref: string }>(server, "SELECT provider_ref FROM top_ups WHERE trade_no = $1", [tradeNo]);
    const session = {
      id: order.provider_ref,
      client_reference_id: tradeNo,
      metadata: { trade_no: tradeNo },
      payment_status: "paid",
      amount_total: 1600,
      currency: "usd",
    };
    const late = stripeEvent(WHSEC, session, { type: "checkout.session.async_payment_succeeded" });
    const completed = stripeEvent(WHSEC, session);
    expect((await webhook(late.payload, late.signature)).status).toBe(200);
    expect((await webhook(completed.payload, completed.signature)).status).toBe(200);
    expect((await webhook(late.payload, late.signature)).status).toBe(200);
    expect((await quotaOf(client)).quota).toBe(2 * QPU);
    expect(await topUpRows(tradeNo)).toBe(1);
  });

  it("finds the order by client_reference_id when the webhook arrives before the session id is stored", async () => {
    const { client } = await makeUser(server, root, "card-early");
    const early: { status: number }[] = [];
    stripe.beforeAnswer = async (s) => {
      // our server is still waiting for this answer: the order has no session id yet
      const [o] = await queryDb<{ provider_ref: string; status: string }>(server, "SELECT provider_ref, status FROM top_ups WHERE trade_no = $1", [
        String(s.client_reference_id),
      ]);
      expect(o).toEqual({ provider_ref: "", status: "pending" });
      const byRef = stripeEvent(WHSEC, {
        id: s.id,
        client_reference_id: s.client_reference_id,
        payment_status: "paid",
        amount_total: s.amount_total,
        currency: "usd",
      });
      const byMeta = stripeEvent(WHSEC, {
        id: s.id,
        metadata: { trade_no: s.client_reference_id },
        payment_status: "paid",
        amount_total: s.amount_total,
        currency: "usd",
      });
      early.push(...(await Promise.all([webhook(byRef.payload, byRef.signature), webhook(byMeta.payload, byMeta.signature)])));
    };
    try {
      expect((await client.post("/api/user/stripe/pay", { amount: 4 })).success).toBe(true);
    } finally {
      stripe.beforeAnswer = undefined;
    }
    expect(early.map((r) => r.status)).toEqual([200, 200]);
    const tradeNo = String(stripe.requests[stripe.requests.length - 1].body.client_reference_id);
    expect((await quotaOf(client)).quota).toBe(4 * QPU);
    expect(await topUpRows(tradeNo)).toBe(1);
    // the completed event again, now that the session id is stored: acknowledged, not credited again
    const [order] = await queryDb<{ provider_ref: string; status: string }>(server, "SELECT provider_ref, status FROM top_ups WHERE trade_no = $1", [tradeNo]);
    expect(order.status).toBe("success");
    const again = stripeEvent(WHSEC, { id: order.provider_ref, client_reference_id: tradeNo, payment_status: "paid", amount_total: 3200, currency: "usd" });
    expect((await webhook(again.payload, again.signature)).status).toBe(200);
    expect((await quotaOf(client)).quota).toBe(4 * QPU);
    expect(await topUpRows(tradeNo)).toBe(1);
  });

  it("uses a configured Stripe Price, and records the session's total as what must be paid", async () => {
    await setOptions(root, { StripePriceId: "price_test_topup" });
    const { client } = await makeUser(server, root, "card2");
    // the quote names no figure: Stripe's Price sets what is charged
    expect((await client.post("/api/user/stripe/amount", { amount: 3 })).data).toEqual({ amount: null, unit_price: null, priced_by_stripe: true });
    const before = stripe.requests.length;
    expect((await client.post("/api/user/stripe/pay", { amount: 3 })).success).toBe(true);
    const sent = stripe.requests[before];
    expect(sent.body.line_items).toEqual({ "0": { price: "price_test_topup", quantity: "3" } });
    const tradeNo = String(sent.body.client_reference_id);
    const [order] = await queryDb<{ provider_ref: string; money: number }>(server, "SELECT provider_ref, money FROM top_ups WHERE trade_no = $1", [tradeNo]);
    expect(Number(order.money)).toBe(24);
    const e = stripeEvent(WHSEC, { id: order.provider_ref, client_reference_id: tradeNo, payment_status: "paid", amount_total: 2400, currency: "usd" });
    expect((await webhook(e.payload, e.signature)).status).toBe(200);
    expect((await quotaOf(client)).quota).toBe(3 * QPU);
    await setOptions(root, { StripePriceId: "" });
  });

  it("answers the catalogue's failure when Stripe refuses, and marks the order failed", async () => {
    const { id, client } = await makeUser(server, root, "card3");
    stripe.fail = true;
    try {
      const r = await client.post("/api/user/stripe/pay", { amount: 2 });
      expect(r.success).toBe(false);
      expect(r.message).toBe("Payment request failed");
      expect(r.message).not.toContain(STRIPE_SECRET);
    } finally {
      stripe.fail = false;
    }
    const rows = await queryDb<{ status: string }>(server, "SELECT status FROM top_ups WHERE user_id = $1", [id]);
    expect(rows.map((r) => r.status)).toEqual(["failed"]);
    expect(server.logs()).not.toContain(STRIPE_SECRET);
  });

  it("refuses a webhook body over 64 KiB", async () => {
    const res = await webhook(JSON.stringify({ pad: "x".repeat(70 * 1024) }), "t=1,v1=00");
    expect(res.status).toBe(413);
  });
});

describe("manual completion and the order lists", () => {
  it("completes a pending order once for the root, whatever the number of calls", async () => {
    const { id, client } = await makeUser(server, root, "lost-notice");
    const order = ((await client.post("/api/user/pay", { amount: 4, payment_method: "wx" })) as unknown as PayAnswer).data;
    expect((await client.post("/api/user/topup/complete", { trade_no: order.out_trade_no })).status).toBe(403);
    const { client: admin } = await makeUser(server, root, "plain-admin", 10);
    expect((await admin.post("/api/user/topup/complete", { trade_no: order.out_trade_no })).status).toBe(403);
    expect((await admin.get("/api/user/topup")).status).toBe(403);
    const answers = await Promise.all([
      root.post<{ completed: boolean }>("/api/user/topup/complete", { trade_no: order.out_trade_no }),
      root.post<{ completed: boolean }>("/api/user/topup/complete", { trade_no: order.out_trade_no }),
      notify(paidNotify(order.out_trade_no, "29.20", { type: "wxpay" })),
      root.post<{ completed: boolean }>("/api/user/topup/complete", { trade_no: order.out_trade_no }),
    ]);
    const completions = [answers[0], answers[1], answers[3]] as { success: boolean; data: { completed: boolean }; message: string }[];
    for (const c of completions) expect(c.success).toBe(true);
    const wins =
      completions.filter((c) => c.data.completed).length +
      ((await queryDb<{ completed_by: string }>(server, "SELECT completed_by FROM top_ups WHERE trade_no = $1", [order.out_trade_no]))[0].completed_by ===
      "notify"
        ? 1
        : 0);
    expect(wins).toBe(1);
    expect(await topUpRows(order.out_trade_no)).toBe(1);
    expect((await quotaOf(client)).quota).toBe(4 * QPU);
    const again = await root.post<{ completed: boolean }>("/api/user/topup/complete", { trade_no: order.out_trade_no });
    expect(again).toMatchObject({ success: true, data: { completed: false }, message: "The order was already completed; nothing was credited again" });
    expect((await root.post("/api/user/topup/complete", { trade_no: "USR0NOPE" })).message).toBe("The order does not exist");
    const kinds = (await ledger(id)).map((l) => l.kind);
    expect(kinds).toEqual(["top_up"]);
  });

  it("lists every order for the root with search, and only the caller's own for a user", async () => {
    const all = await root.get<{ items: { trade_no: string; username: string; user_id: number }[]; total: number; page: number; page_size: number }>(
      "/api/user/topup?p=1&page_size=100",
    );
    expect(all.success).toBe(true);
    expect(all.data.total).toBeGreaterThan(10);
    expect(new Set(all.data.items.map((o) => o.username)).size).toBeGreaterThan(3);
    const buyer = await root.get<{ items: { username: string }[]; total: number }>("/api/user/topup?keyword=buyer");
    expect(buyer.data.total).toBe(2);
    expect(buyer.data.items.every((o) => o.username === "buyer")).toBe(true);
    const one = all.data.items[0];
    const byTrade = await root.get<{ items: { trade_no: string }[] }>(`/api/user/topup?keyword=${one.trade_no}`);
    expect(byTrade.data.items.map((o) => o.trade_no)).toEqual([one.trade_no]);
    const paged = await root.get<{ items: unknown[]; page: number; page_size: number }>("/api/user/topup?p=2&page_size=5");
    expect(paged.data).toMatchObject({ page: 2, page_size: 5 });
    expect(paged.data.items).toHaveLength(5);
    const { client } = await makeUser(server, root, "nobody");
    expect((await client.get<{ total: number }>("/api/user/topup/self")).data.total).toBe(0);
    expect((await client.get("/api/user/topup")).status).toBe(403);
  });
});

describe("rebates", () => {
  it("credits the inviter RebatePercentage of a paid order once, and nothing while off", async () => {
    const { id: inviterId, client: inviter } = await makeUser(server, root, "inviter");
    const code = (await inviter.get<string>("/api/user/aff")).data;
    const anon = new ApiClient(server.url);
    expect((await anon.post("/api/user/register", { username: "invitee", password: "invitee-pass", aff_code: code })).success).toBe(true);
    const invitee = new ApiClient(server.url);
    await invitee.login("invitee", "invitee-pass");
    // rebates off: nothing
    const first = ((await invitee.post("/api/user/pay", { amount: 10, payment_method: "zfb" })) as unknown as PayAnswer).data;
    expect((await notify(paidNotify(first.out_trade_no, "73.00"))).text).toBe("success");
    expect((await quotaOf(inviter)).aff_quota).toBe(0);
    // on at 12.5 %: floor(5000000 × 12.5 / 100) per paid order, once even with three notices
    await setOptions(root, { RebatePercentage: "12.5", RebateEnabled: "true" });
    const second = ((await invitee.post("/api/user/pay", { amount: 10, payment_method: "zfb" })) as unknown as PayAnswer).data;
    const n = paidNotify(second.out_trade_no, "73.00");
    await Promise.all([notify(n), notify(n), notify(n, "GET")]);
    expect(await quotaOf(inviter)).toMatchObject({ quota: 0, aff_quota: 625000, aff_history_quota: 625000 });
    // the root's manual completion states the order was paid: it pays the rebate too
    const third = ((await invitee.post("/api/user/pay", { amount: 3, payment_method: "wx" })) as unknown as PayAnswer).data;
    await root.post("/api/user/topup/complete", { trade_no: third.out_trade_no });
    await root.post("/api/user/topup/complete", { trade_no: third.out_trade_no });
    expect((await quotaOf(inviter)).aff_quota).toBe(625000 + 187500);
    // with invitations off (AffEnabled), no rebate
    await setOptions(root, { AffEnabled: "false" });
    const fourth = ((await invitee.post("/api/user/pay", { amount: 10, payment_method: "zfb" })) as unknown as PayAnswer).data;
    expect((await notify(paidNotify(fourth.out_trade_no, "73.00"))).text).toBe("success");
    expect((await quotaOf(inviter)).aff_quota).toBe(812500);
    await setOptions(root, { AffEnabled: "true", RebateEnabled: "false" });
    expect((await quotaOf(invitee)).quota).toBe(33 * QPU);
    expect(await ledger(inviterId)).toEqual([]);
  });
});

describe("after all of it", () => {
  it("every balance equals the sum of its ledger rows", async () => {
    const users = await queryDb<{ id: number; quota: unknown }>(server, "SELECT id, quota FROM users");
    const sums = await queryDb<{ user_id: number; total: unknown }>(server, "SELECT user_id, SUM(delta) AS total FROM quota_ledger GROUP BY user_id");
    const byUser = new Map(sums.map((s) => [Number(s.user_id), BigInt(String(s.total))]));
    for (const u of users) expect(BigInt(String(u.quota)), `user ${u.id}`).toBe(byUser.get(Number(u.id)) ?? 0n);
    const credited = await queryDb<{ n: unknown }>(server, "SELECT COUNT(*) AS n FROM top_ups WHERE status = 'success'");
    const rows = await queryDb<{ n: unknown }>(server, "SELECT COUNT(*) AS n FROM quota_ledger WHERE kind = 'top_up'");
    expect(Number(rows[0].n)).toBe(Number(credited[0].n));
  });
});
