// A fresh install prices the preset table's models (docs/pricing.md): a channel serving
// gpt-4o and deepseek-chat works in external-operation mode (self-use off) with no price
// typed in, billed exactly at the preset ratios; POST /api/option/rest_model_ratio puts the
// price options back to these defaults after an admin changed them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";
import { PRESET_RATIOS } from "@/lib/billing/presets/ratios";
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

async function billedFor(model: string): Promise<number> {
  const before = await quota();
  const r = await chat(model);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return before - (await quota());
}

beforeAll(async () => {
  server = await startServer();
  upstream = await startMockUpstream("openai");
  root = await setupRoot(server, "root", { SelfUseModeEnabled: false });
  const ch = await root.post("/api/channel/", { name: "preset-priced", type: 1, key: upstream.key, base_url: upstream.url, models: "gpt-4o,deepseek-chat", group: "default" });
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
    expect(await billedFor("gpt-4o")).toBe(68);
    // deepseek-chat: 0.14 × (16 + 5 × 0.1 + 9 × 1.5) = 4.2 → 4
    expect(costOf("deepseek-chat")).toBe(4);
    expect(await billedFor("deepseek-chat")).toBe(4);
  });

  it("are restored by POST /api/option/rest_model_ratio (root only) after an admin changed them", async () => {
    await setOptions(root, {
      ModelRatio: JSON.stringify({ "gpt-4o": 3 }),
      CompletionRatio: JSON.stringify({}),
      CacheRatio: JSON.stringify({}),
      ModelPrice: JSON.stringify({ "gpt-4o-mini": 1 }),
    });
    // the admin's prices apply: gpt-4o at 3 with ratios 1, deepseek-chat now unpriced
    expect(await billedFor("gpt-4o")).toBe(Math.round(3 * (USAGE.prompt + USAGE.completion)));
    const refused = await chat("deepseek-chat");
    expect(refused.status).not.toBe(200);
    expect(refused.body.error?.message).toContain("deepseek-chat");

    const { client: admin } = await makeUser(server, root, "admin", 10);
    expect((await admin.post("/api/option/rest_model_ratio")).status).toBe(403);
    expect(JSON.parse((await options()).get("ModelRatio")!)).toEqual({ "gpt-4o": 3 });

    const r = await root.post("/api/option/rest_model_ratio");
    expect(r.success, r.message).toBe(true);
    const o = await options();
    for (const k of ["ModelRatio", "CompletionRatio", "CacheRatio", "ModelPrice"]) expect(o.get(k), k).toBe(OPTION_DEFAULTS[k]);
    expect(await billedFor("gpt-4o")).toBe(68);
    expect(await billedFor("deepseek-chat")).toBe(4);

    // the saved rows are gone: the options read the defaults, also after a reload or on another node
    const rows = await query(server, 'SELECT "key" FROM "options"');
    const saved = rows.map((x) => String(x.key));
    for (const k of ["ModelRatio", "CompletionRatio", "CacheRatio", "ModelPrice"]) expect(saved).not.toContain(k);
  });
});
