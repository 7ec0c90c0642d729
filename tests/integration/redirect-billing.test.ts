// redirect_billing_enabled end to end (docs/pricing.md, "Redirect billing"): a channel whose own
// model_mapping sends gpt-4o upstream when a client asks for gpt-4o-mini, against a local mock
// upstream, over real HTTP. Off, the call is billed at gpt-4o-mini's price (the model the client
// named); on, at gpt-4o's, the reservation as well as the settlement; an upstream model without
// a price of its own falls back to the requested model's price; a virtual model's actual model
// is redirected by the channel after the virtual model chose it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { queryDb } from "../support/db";
import { startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let user: { id: number; client: ApiClient };
let key: string;
let mock: MockUpstream;

// Cache ratio 1 (CacheRatio {}), group ratio 1, the mock's usage: 21 prompt and 9 completion tokens.
// gpt-4o-mini: 0.075 × (21 + 9 × 4) = 4.275 → 4; gpt-4o: 1.25 × (21 + 9 × 4) = 71.25 → 71.
const weighted = USAGE.prompt + USAGE.completion * 4;
const MINI_COST = Math.round(0.075 * weighted);
const FULL_COST = Math.round(1.25 * weighted);
// per call: $0.01 and $0.04 at 500000 units per dollar
const IMG_MINI = 5000;
const IMG_BIG = 20000;

type LogRow = { model_name: string; quota: number; other: string; request_id: string };

async function userQuota(): Promise<number> {
  return (await user.client.get<{ quota: number }>("/api/user/self")).data.quota;
}

async function chat(model: string): Promise<void> {
  const r = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hello" }], max_tokens: 20 }),
  });
  expect(r.status, await r.clone().text()).toBe(200);
  await r.json();
}

// The newest consume row, once there are n of them.
async function newestLog(n: number): Promise<LogRow> {
  for (let i = 0; i < 60; i++) {
    const r = await root.get<{ items: LogRow[]; total: number }>("/api/log/?p=1&page_size=100&type=2");
    if (r.data.items.length >= n) return r.data.items[0]; // page and count are two reads
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`log row ${n} did not arrive`);
}

async function ledgerOf(ref: string): Promise<Record<string, number>> {
  const rows = await queryDb<{ kind: string; delta: unknown }>(server, 'SELECT "kind", "delta" FROM "quota_ledger" WHERE "ref" = $1', [ref]);
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.delta)]));
}

let calls = 0;
// One call: its charge, its log row and its ledger rows (the reservation and the settlement).
async function call(model: string): Promise<{ charged: number; log: LogRow; other: Record<string, unknown>; ledger: Record<string, number> }> {
  const before = await userQuota();
  await chat(model);
  const log = await newestLog(++calls);
  const charged = before - (await userQuota());
  return { charged, log, other: JSON.parse(log.other) as Record<string, unknown>, ledger: await ledgerOf(log.request_id) };
}

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify({ "gpt-4o-mini": 0.075, "gpt-4o": 1.25, "mini-alias": 0.075 }),
    CompletionRatio: JSON.stringify({ "gpt-4o-mini": 4, "gpt-4o": 4, "mini-alias": 4 }),
    ModelPrice: JSON.stringify({ "img-mini": 0.01, "img-big": 0.04 }),
    CacheRatio: "{}",
    model_mapping: JSON.stringify({ smart: [{ model: "gpt-4o-mini", priorities: 1 }] }),
  });
  const ch = await root.post("/api/channel/", {
    name: "redirecting",
    type: 1,
    key: mock.key,
    base_url: mock.url,
    models: "gpt-4o-mini,img-mini,mini-alias",
    group: "default",
    // mini-alias goes upstream as a model with no price of its own
    model_mapping: JSON.stringify({ "gpt-4o-mini": "gpt-4o", "img-mini": "img-big", "mini-alias": "unpriced-upstream" }),
  });
  expect(ch.success, ch.message).toBe(true);
  user = await makeUser(server, root, "redirected");
  expect((await root.put("/api/user/", { id: user.id, quota: 10_000_000 })).success).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "redirect", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  key = t.data[0].key;
});

afterAll(async () => {
  await server?.stop();
  await mock?.close();
});

describe("redirect billing", () => {
  it("off (the default): the channel's redirect goes upstream, the bill is the requested model's", async () => {
    const r = await call("gpt-4o-mini");
    expect(mock.requests.at(-1)!.json.model).toBe("gpt-4o");
    expect(r.charged).toBe(MINI_COST);
    expect(r.log).toMatchObject({ model_name: "gpt-4o-mini", quota: MINI_COST });
    expect(r.other).toMatchObject({ model_ratio: 0.075, is_model_mapped: true, upstream_model_name: "gpt-4o" });
    expect(r.other).not.toHaveProperty("billed_model");

    const img = await call("img-mini");
    expect(img.charged).toBe(IMG_MINI);
    expect(img.ledger).toEqual({ relay_reserve: -IMG_MINI });
  });

  it("on: billed at the price of the model the channel sent upstream, reservation and settlement alike", async () => {
    await setOptions(root, { redirect_billing_enabled: "true" });
    const r = await call("gpt-4o-mini");
    expect(mock.requests.at(-1)!.json.model).toBe("gpt-4o");
    expect(r.charged).toBe(FULL_COST);
    expect(r.log).toMatchObject({ model_name: "gpt-4o-mini", quota: FULL_COST });
    expect(r.other).toMatchObject({ model_ratio: 1.25, completion_ratio: 4, billed_model: "gpt-4o", upstream_model_name: "gpt-4o" });
    // the reservation was the estimate at gpt-4o's ratios (≥ the cost), the settlement returned the rest
    expect(-r.ledger.relay_reserve - r.ledger.relay_settle).toBe(FULL_COST);
    expect(-r.ledger.relay_reserve).toBeGreaterThan(FULL_COST);

    // a per-call price: the reservation is the upstream model's price exactly, nothing to settle
    const img = await call("img-mini");
    expect(img.charged).toBe(IMG_BIG);
    expect(img.ledger).toEqual({ relay_reserve: -IMG_BIG });
    expect(img.other).toMatchObject({ model_price: 0.04, billed_model: "img-big" });
  });

  it("on: an upstream model without a price of its own is billed at the requested model's price", async () => {
    const r = await call("mini-alias");
    expect(mock.requests.at(-1)!.json.model).toBe("unpriced-upstream");
    expect(r.charged).toBe(MINI_COST);
    expect(r.other).toMatchObject({ model_ratio: 0.075, upstream_model_name: "unpriced-upstream" });
    expect(r.other).not.toHaveProperty("billed_model");
  });

  it("on: a virtual model's actual model is redirected by its channel after the virtual model chose it", async () => {
    const r = await call("smart");
    expect(mock.requests.at(-1)!.json.model).toBe("gpt-4o");
    expect(r.charged).toBe(FULL_COST);
    expect(r.log).toMatchObject({ model_name: "gpt-4o-mini", quota: FULL_COST });
    expect(r.other).toMatchObject({ virtual_model: "smart", billed_model: "gpt-4o", model_ratio: 1.25 });

    // a virtual model with a price of its own keeps it, whatever the channel sends upstream
    await setOptions(root, { ModelPrice: JSON.stringify({ "img-mini": 0.01, "img-big": 0.04, smart: 0.002 }) });
    const own = await call("smart");
    expect(own.charged).toBe(1000);
    expect(own.other).toMatchObject({ virtual_model: "smart", virtual_priced: true, model_price: 0.002 });
    expect(own.other).not.toHaveProperty("billed_model");
  });

  it("off again: back to the requested model's price", async () => {
    await setOptions(root, { redirect_billing_enabled: "false" });
    const r = await call("gpt-4o-mini");
    expect(r.charged).toBe(MINI_COST);
  });
});
