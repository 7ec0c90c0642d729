// The relay end to end: the real server, real mock upstreams speaking each provider's wire
// format, and the official SDKs as clients. Billing is checked against the spec's formula
// and the ledger; retries, errors, model lists and concurrency against a small balance.
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let user: { id: number; client: ApiClient };
let key: string;
const mocks: Record<string, MockUpstream> = {};

// ModelRatio 1.5, CompletionRatio 4, cache ratio 1, group ratio 1:
// 1.5 × ((21 − 5) + 5 × 1 + 9 × 4) = 85.5 → 86 units per call with the mocks' usage.
const CHAT_COST = Math.round(1.5 * (USAGE.prompt - USAGE.cached + USAGE.cached * 1 + USAGE.completion * 4));

async function addChannel(body: Record<string, unknown>): Promise<number> {
  const r = await root.post<unknown>("/api/channel/", body);
  expect(r.success, r.message).toBe(true);
  const list = await root.get<{ items: { id: number; name: string }[] }>("/api/channel/?p=1&page_size=100");
  return list.data.items.find((c) => c.name === body.name)!.id;
}

async function userQuota(): Promise<number> {
  return (await user.client.get<{ quota: number }>("/api/user/self")).data.quota;
}

async function ledgerSum(userId: number): Promise<number> {
  const rows = await query(server, 'SELECT COALESCE(SUM("delta"), 0) AS s FROM "quota_ledger" WHERE "user_id" = ' + userId);
  return Number((rows[0] as { s: number | string | bigint }).s);
}

async function waitForLogs(client: ApiClient, n: number) {
  for (let i = 0; i < 40; i++) {
    const r = await client.get<{ items: Record<string, unknown>[]; total: number }>("/api/log/self/?p=1&page_size=100&type=2");
    if (r.data.total >= n) return r.data.items;
    await new Promise((res) => setTimeout(res, 150));
  }
  throw new Error("logs did not arrive");
}

beforeAll(async () => {
  server = await startServer();
  for (const kind of ["openai", "anthropic", "gemini"] as const) mocks[kind] = await startMockUpstream(kind);
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify({ "gpt-4o-mini": 1.5, "claude-sonnet-4": 1.5, "gemini-2.0-flash": 1.5, "text-embedding-3-small": 0.01, "flaky-model": 1.5 }),
    CompletionRatio: JSON.stringify({ "gpt-4o-mini": 4, "claude-sonnet-4": 4, "gemini-2.0-flash": 4, "flaky-model": 4 }),
    ModelPrice: JSON.stringify({ "per-call-model": 0.002 }),
    RetryTimes: "2",
  });
  await addChannel({ name: "openai-main", type: 1, key: mocks.openai.key, base_url: mocks.openai.url, models: "gpt-4o-mini,text-embedding-3-small,per-call-model", group: "default" });
  await addChannel({ name: "anthropic-main", type: 14, key: mocks.anthropic.key, base_url: mocks.anthropic.url, models: "claude-sonnet-4", group: "default" });
  await addChannel({ name: "gemini-main", type: 24, key: mocks.gemini.key, base_url: mocks.gemini.url, models: "gemini-2.0-flash", group: "default" });
  user = await makeUser(server, root, "alice");
  const q = await root.put("/api/user/", { id: user.id, quota: 5_000_000 });
  expect(q.success, q.message).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "sdk", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  key = t.data[0].key;
  expect(key).toMatch(/^sk-[A-Za-z0-9]{48}$/);
});

afterAll(async () => {
  await server?.stop();
  for (const m of Object.values(mocks)) await m.close();
});

describe("relay through the official SDKs", () => {
  it("bills an OpenAI chat exactly, in stream and not, and logs both", async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const before = await userQuota();
    const r = await openai.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hello there" }] });
    expect(r.choices[0].message.content).toContain("hello there");
    expect(r.usage?.prompt_tokens).toBe(USAGE.prompt);
    expect(mocks.openai.requests.at(-1)!.headers.authorization).toBe(`Bearer ${mocks.openai.key}`);

    const stream = await openai.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "stream this" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toContain("stream this");
    expect(usage?.completion_tokens).toBe(USAGE.completion);

    // Settlement runs right after the answer is sent; its log row is queued after it commits.
    const logs = await waitForLogs(user.client, 2);
    expect(before - (await userQuota())).toBe(2 * CHAT_COST);
    const mine = logs.filter((l) => l.model_name === "gpt-4o-mini");
    expect(mine.map((l) => l.quota)).toEqual([CHAT_COST, CHAT_COST]);
    expect(mine.map((l) => l.is_stream).sort()).toEqual([false, true]);
    expect(await ledgerSum(user.id)).toBe(await userQuota());
  });

  it("serves Anthropic Messages and Gemini clients, each to its own provider", async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const m = await anthropic.messages.create({ model: "claude-sonnet-4", max_tokens: 100, system: "be brief", messages: [{ role: "user", content: "hi claude" }] });
    expect(m.content[0].type === "text" && m.content[0].text).toContain("hi claude");
    expect(mocks.anthropic.requests.at(-1)!.headers["x-api-key"]).toBe(mocks.anthropic.key);

    const events: string[] = [];
    const s = anthropic.messages.stream({ model: "claude-sonnet-4", max_tokens: 100, messages: [{ role: "user", content: "stream claude" }] });
    for await (const e of s) events.push(e.type);
    expect(events[0]).toBe("message_start");
    expect(events.at(-1)).toBe("message_stop");

    const gemini = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: server.url } });
    const g = await gemini.models.generateContent({ model: "gemini-2.0-flash", contents: "hi gemini" });
    expect(g.text).toContain("hi gemini");
    let streamed = "";
    for await (const c of await gemini.models.generateContentStream({ model: "gemini-2.0-flash", contents: "stream gemini" })) streamed += c.text ?? "";
    expect(streamed).toContain("stream gemini");
    expect(mocks.gemini.requests.at(-1)!.headers["x-goog-api-key"]).toBe(mocks.gemini.key);
  });

  it("translates any ingress to any provider: an OpenAI client reaching Claude with tools", async () => {
    mocks.anthropic.behavior.toolCall = { name: "get_weather", args: { city: "Paris" } };
    try {
      const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
      const r = await openai.chat.completions.create({
        model: "claude-sonnet-4",
        messages: [{ role: "system", content: "you are a tool user" }, { role: "user", content: "weather?" }],
        tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }],
      });
      const call = r.choices[0].message.tool_calls?.[0];
      expect(call?.type === "function" && call.function.name).toBe("get_weather");
      expect(JSON.parse(call?.type === "function" ? call.function.arguments : "{}")).toEqual({ city: "Paris" });
      expect(mocks.anthropic.requests.at(-1)!.json.system).toBeDefined();
    } finally {
      mocks.anthropic.behavior.toolCall = undefined;
    }
  });

  it("lists the token's models in OpenAI and Gemini shapes, and embeds", async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const ids = (await openai.models.list()).data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(["gpt-4o-mini", "claude-sonnet-4", "gemini-2.0-flash"]));
    const g = await fetch(`${server.url}/v1beta/models?key=${key}`).then((r) => r.json());
    expect(g.models.map((m: { name: string }) => m.name)).toContain("models/gemini-2.0-flash");
    const e = await openai.embeddings.create({ model: "text-embedding-3-small", input: "embed me" });
    expect(e.data[0].embedding.length).toBeGreaterThan(0);
  });
});

describe("errors in each ingress format", () => {
  it("refuses a bad key with a provider-shaped 401", async () => {
    const openai = new OpenAI({ apiKey: "sk-not-a-real-key", baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(openai.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "x" }] })).rejects.toMatchObject({ status: 401 });
    const a = await fetch(`${server.url}/v1/messages`, { method: "POST", headers: { "x-api-key": "bad", "content-type": "application/json" }, body: "{}" });
    expect(a.status).toBe(401);
    expect((await a.json()).type).toBe("error");
    const g = await fetch(`${server.url}/v1beta/models/gemini-2.0-flash:generateContent?key=bad`, { method: "POST", body: "{}" });
    expect(g.status).toBe(401);
    expect((await g.json()).error.code).toBe(401);
  });

  it("answers an unpriced or unserved model with a clear error and charges nothing", async () => {
    const before = await userQuota();
    const r = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "no-such-model", messages: [{ role: "user", content: "x" }] }),
    });
    expect(r.status).toBe(400);
    expect((await r.json()).error.message).toMatch(/no-such-model/);
    expect(await userQuota()).toBe(before);
  });

  it("retries another channel after an upstream failure, excluding the failed one, and logs both", async () => {
    const bad = await startMockUpstream("openai");
    bad.behavior.failStatus = 500;
    try {
      await addChannel({ name: "flaky-high", type: 1, key: bad.key, base_url: bad.url, models: "flaky-model", group: "default", priority: 10 });
      await addChannel({ name: "flaky-low", type: 1, key: mocks.openai.key, base_url: mocks.openai.url, models: "flaky-model", group: "default", priority: 0 });
      const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
      const r = await openai.chat.completions.create({ model: "flaky-model", messages: [{ role: "user", content: "retry me" }] });
      expect(r.choices[0].message.content).toContain("retry me");
      expect(bad.requests.length).toBe(1);
      let items: { model_name: string; other: string }[] = [];
      for (let i = 0; i < 40 && !items.length; i++) {
        await new Promise((res) => setTimeout(res, 150));
        items = (await root.get<{ items: typeof items }>("/api/log/?p=1&page_size=50&type=2&model_name=flaky-model")).data.items;
      }
      const other = JSON.parse(items[0].other);
      expect(other.admin_info.use_channel).toHaveLength(2);
      expect(other.retry_count).toBe(1);
    } finally {
      await bad.close();
    }
  });
});

describe("billing under concurrency, through HTTP", () => {
  it("lets at most as many calls through as the balance covers; the balance stays >= 0 and equals the ledger", async () => {
    const bob = await makeUser(server, root, "bob");
    // per-call price $0.002 = 1000 units; the balance covers exactly 10 calls
    expect((await root.put("/api/user/", { id: bob.id, quota: 10_000 })).success).toBe(true);
    const t = await bob.client.post<{ key: string }[]>("/api/token/", { name: "burst", unlimited_quota: true });
    const bobKey = t.data[0].key;
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${server.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${bobKey}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "per-call-model", messages: [{ role: "user", content: "x" }] }),
        }).then(async (r) => ({ status: r.status, body: await r.text() })),
      ),
    );
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeLessThanOrEqual(10);
    expect(ok).toBeGreaterThan(0);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.status).toBe(403);
    const quota = (await bob.client.get<{ quota: number }>("/api/user/self")).data.quota;
    expect(quota).toBe(10_000 - ok * 1000);
    expect(quota).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(bob.id)).toBe(quota);
  });
});
