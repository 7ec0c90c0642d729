// A fresh install prices the preset table's models (docs/pricing.md): a channel serving
// gpt-4o and deepseek-chat works in external-operation mode (self-use off) with no price
// typed in, billed exactly at the preset ratios; POST /api/option/rest_model_ratio puts the
// price options back to these defaults after an admin changed them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginAs, makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";
import { PRESET_RATIOS } from "@/lib/options/presets/ratios";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";

let server: TestServer;
let upstream: MockUpstream;
let root: ApiClient;
let user: { id: number; client: ApiClient };
let key: string;

// The quota of one call with the mock's usage (21 prompt tokens of which 5 cached, 9
// completion tokens) at group ratio 1: ratio × (uncached + cached × cache ratio + completion × completion ratio).
function costOf(model: string, modelRatio = PRESET_RATIOS.ModelRatio[model]): number {
  const cache = PRESET_RATIOS.CacheRatio[model] ?? 1;
  const completion = PRESET_RATIOS.CompletionRatio[model] ?? 1;
  return Math.round(modelRatio * (USAGE.prompt - USAGE.cached + USAGE.cached * cache + USAGE.completion * completion));
}

async function chat(model: string) {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "price me" }] }),
  });
  return { status: res.status, body: (await res.json()) as { error?: { message: string }; usage?: unknown } };
}

const quota = async () => (await user.client.get<{ quota: number }>("/api/user/self")).data.quota;
const options = async () => new Map((await root.get<{ key: string; value: string }[]>("/api/option/")).data.map((o) => [o.key, o.value]));

// The settlement lands just after the answer (on PostgreSQL a console read waits for it a
// second at most), so the balance is polled until it shows the expected charge.
async function expectBilled(model: string, expected: number): Promise<void> {
  const before = await quota();
  const r = await chat(model);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  await expect.poll(async () => before - (await quota()), { timeout: 5000 }).toBe(expected);
}

beforeAll(async () => {
  server = await startServer();
  upstream = await startMockUpstream("openai");
  root = await setupRoot(server, "root", { SelfUseModeEnabled: false });
  const ch = await root.post("/api/channel/", {
    name: "preset-priced",
    type: 1,
    key: upstream.key,
    base_url: upstream.url,
    models: "gpt-4o,deepseek-chat",
    group: "default",
  });
  expect(ch.success, ch.message).toBe(true);
  user = await makeUser(server, root, "buyer");
  const q = await root.put("/api/user/", { id: user.id, quota: 1_000_000 });
  expect(q.success, q.message).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "preset", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  key = t.data[0].key;
});

afterAll(async () => {
  await server?.stop();
  await upstream?.close();
});

describe("preset prices", () => {
  it("are what a fresh install lists for the four price options", async () => {
    const o = await options();
    expect(JSON.parse(o.get("ModelRatio")!)).toEqual(PRESET_RATIOS.ModelRatio);
    expect(JSON.parse(o.get("CompletionRatio")!)).toEqual(PRESET_RATIOS.CompletionRatio);
    expect(JSON.parse(o.get("CacheRatio")!)).toEqual(PRESET_RATIOS.CacheRatio);
    expect(JSON.parse(o.get("ModelPrice")!)).toEqual(PRESET_RATIOS.ModelPrice);
    expect(JSON.parse(o.get("ModelRatio")!)).toMatchObject({ "gpt-4o": 1.25, "deepseek-chat": 0.14 });
  });

  it("bill gpt-4o and deepseek-chat exactly at the preset ratios with no price typed in", async () => {
    // gpt-4o: 1.25 × (16 + 5 × 0.5 + 9 × 4) = 68.125 → 68
    expect(costOf("gpt-4o")).toBe(68);
    await expectBilled("gpt-4o", 68);
    // deepseek-chat: 0.14 × (16 + 5 × 0.1 + 9 × 1.5) = 4.2 → 4
    expect(costOf("deepseek-chat")).toBe(4);
    await expectBilled("deepseek-chat", 4);
  });

  it("are restored by POST /api/option/rest_model_ratio (root only) after an admin changed them", async () => {
    await setOptions(root, {
      ModelRatio: JSON.stringify({ "gpt-4o": 3 }),
      CompletionRatio: JSON.stringify({}),
      CacheRatio: JSON.stringify({}),
      ModelPrice: JSON.stringify({ "gpt-4o-mini": 1 }),
    });
    // the admin's prices apply: gpt-4o at 3 with ratios 1, deepseek-chat now unpriced
    await expectBilled("gpt-4o", Math.round(3 * (USAGE.prompt + USAGE.completion)));
    const refused = await chat("deepseek-chat");
    expect(refused.status).not.toBe(200);
    expect(refused.body.error?.message).toContain("deepseek-chat");

    const { client: admin } = await makeUser(server, root, "admin", 10);
    expect((await admin.post("/api/option/rest_model_ratio")).status).toBe(403);
    expect(JSON.parse((await options()).get("ModelRatio")!)).toEqual({ "gpt-4o": 3 });

    const r = await root.post("/api/option/rest_model_ratio");
    expect(r.success, r.message).toBe(true);
    const o = await options();
    for (const k of ["ModelRatio", "CompletionRatio", "CacheRatio", "ModelPrice"] as const) expect(o.get(k), k).toBe(OPTION_DEFAULTS[k]);
    await expectBilled("gpt-4o", 68);
    await expectBilled("deepseek-chat", 4);

    // the saved rows are gone: the options read the defaults, also after a reload or on another node
    const rows = await query(server, 'SELECT "key" FROM "options"');
    const saved = rows.map((x) => String(x.key));
    for (const k of ["ModelRatio", "CompletionRatio", "CacheRatio", "ModelPrice"]) expect(saved).not.toContain(k);
  });
});

// Two nodes on one PostgreSQL database and one Redis: the reset made on one node reaches
// the other node's options cache.
describe.skipIf(process.env.TEST_DB !== "postgresql")("rest_model_ratio on two nodes (PostgreSQL + Redis)", () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const { randomBytes } = await import("node:crypto");
    const shared = {
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_PREFIX: `gwtest:${randomBytes(6).toString("hex")}:`,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    };
    a = await startServer({ env: shared });
    b = await startServer({ env: shared, databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it("puts the other node's price options back to the defaults", async () => {
    const rootA = await setupRoot(a);
    const rootB = await loginAs(b, "root", ROOT_PASSWORD);
    const ratioOn = async (c: ApiClient) => (await c.get<{ key: string; value: string }[]>("/api/option/")).data.find((o) => o.key === "ModelRatio")!.value;
    await setOptions(rootA, { ModelRatio: JSON.stringify({ "gpt-4o": 7 }) });
    await expect.poll(() => ratioOn(rootB)).toBe(JSON.stringify({ "gpt-4o": 7 }));
    expect((await rootA.post("/api/option/rest_model_ratio")).success).toBe(true);
    await expect.poll(() => ratioOn(rootB)).toBe(OPTION_DEFAULTS.ModelRatio);
  });
});
