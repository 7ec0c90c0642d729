// Every channel type the relay serves, end to end: for each provider wire (tests/support/
// provider-wires) a real local server speaking that wire, a channel saved through the console
// API, and a non-streamed and a streamed chat through the official openai SDK, billed from the
// usage the upstream reported (the log row's token counts are the wire's, not an estimate).
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { PROVIDER_WIRES } from "../support/provider-wires";
import { WIRE_TEXT, WIRE_USAGE, type ProviderWire, type WireRequest } from "../support/provider-wires/types";
import type http from "node:http";
import { serveWire, type WireServer } from "../support/provider-wires/serve";
import { startServer, type TestServer } from "../support/server";
import { bedrockEvent } from "../support/provider-wires/cloud";
import { query } from "../support/seed";

let server: TestServer;
let root: ApiClient;
let user: { id: number; client: ApiClient };
let key: string;

async function logsOf(model: string, n: number) {
  for (let i = 0; i < 60; i++) {
    const r = await user.client.get<{ items: Record<string, unknown>[] }>(`/api/log/self/?p=1&page_size=100&type=2&model_name=${encodeURIComponent(model)}`);
    if (r.data.items.length >= n) return r.data.items;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`the log rows of ${model} did not arrive`);
}

const groupOf = (wire: ProviderWire) => `g-${wire.label}`;

// by label: two wires may share a type (Vertex AI serves Gemini and Claude models)
const wires = new Map<string, WireServer>();

beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify(Object.assign(Object.fromEntries(PROVIDER_WIRES.map((w) => [w.model, 1])), CACHE_PRICES.ModelRatio)),
    CompletionRatio: JSON.stringify(Object.assign(Object.fromEntries(PROVIDER_WIRES.map((w) => [w.model, 2])), CACHE_PRICES.CompletionRatio)),
    CacheRatio: JSON.stringify(CACHE_PRICES.CacheRatio),
    CreateCacheRatio: JSON.stringify(CACHE_PRICES.CreateCacheRatio),
    CreateCache1hRatio: JSON.stringify(CACHE_PRICES.CreateCache1hRatio),
    RetryTimes: "0",
  });
  for (const wire of PROVIDER_WIRES) {
    const mock = await serveWire((r, res) => wire.handle(r, res));
    wires.set(wire.label, mock);
    // one group per wire, so that each call reaches its own channel whatever the model names
    const r = await root.post("/api/channel/", {
      name: `wire-${wire.label}`,
      type: wire.type,
      models: wire.model,
      group: groupOf(wire),
      ...wire.channel(mock.url),
    });
    expect(r.success, `${wire.label}: ${r.message}`).toBe(true);
  }
  user = await makeUser(server, root, "wanda");
  expect((await root.put("/api/user/", { id: user.id, quota: 50_000_000 })).success).toBe(true);
});

afterAll(async () => {
  await server?.stop();
  for (const w of wires.values()) await w.close();
});

async function tokenFor(wire: ProviderWire): Promise<string> {
  const r = await root.put("/api/user/", { id: user.id, group: groupOf(wire) });
  expect(r.success, r.message).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: `t-${wire.label}`, unlimited_quota: true, group: groupOf(wire) });
  expect(t.success, t.message).toBe(true);
  return t.data[0].key;
}

interface TypeInfo {
  id: number;
  name: string;
  kind: "chat" | "task";
  keyFormat: string | null;
  testModel: string;
  knownModels: string[];
}

describe("the channel types the editor offers", () => {
  it("each chat type has a wire in this test, and nothing else is offered", async () => {
    const r = await root.get<TypeInfo[]>("/api/channel/types");
    expect(r.success, r.message).toBe(true);
    const chat = r.data.filter((t) => t.kind === "chat").map((t) => t.id);
    expect(new Set(chat)).toEqual(new Set(PROVIDER_WIRES.map((w) => w.type)));
    // the task relay's types (tests/integration/tasks.test.ts)
    expect(r.data.filter((t) => t.kind === "task").map((t) => t.id)).toEqual([2, 36]);
  });
  it("each type offers its adapter's known models, its test model among them", async () => {
    const r = await root.get<TypeInfo[]>("/api/channel/types");
    for (const t of r.data) expect(t.knownModels, `type ${t.id}`).toContain(t.testModel);
    const known = (id: number) => r.data.find((t) => t.id === id)!.knownModels;
    expect(known(1)).toEqual(expect.arrayContaining(["gpt-4o", "gpt-4o-mini", "text-embedding-3-small"]));
    expect(known(14)).toEqual(expect.arrayContaining(["claude-3-5-haiku-latest", "claude-sonnet-4-20250514"]));
    expect(known(24)).toEqual(expect.arrayContaining(["gemini-2.0-flash", "gemini-2.5-pro"]));
    expect(known(43)).toEqual(["deepseek-chat", "deepseek-reasoner"]);
    // no list of a provider leaks into another's
    expect(known(14).some((m) => m.startsWith("gpt-"))).toBe(false);
  });
  it("a key that does not have its type's shape is refused with the format, and an unserved type is refused", async () => {
    const r = await root.get<TypeInfo[]>("/api/channel/types");
    for (const t of r.data.filter((x) => x.keyFormat)) {
      const saved = await root.post("/api/channel/", { name: `bad-${t.id}`, type: t.id, key: "justoneword", models: "m", base_url: "http://127.0.0.1:9" });
      expect(saved.success, `type ${t.id}`).toBe(false);
      expect(saved.message).toContain(t.keyFormat);
      expect(saved.message).not.toContain("justoneword");
    }
    const unserved = await root.post("/api/channel/", { name: "nope", type: 9999, key: "k", models: "m" });
    expect(unserved.success).toBe(false);
  });
});

describe("every provider wire through the openai SDK", () => {
  it.each(PROVIDER_WIRES.filter((w) => (w.kind ?? "chat") === "chat").map((w) => [w.label, w] as const))(
    "%s: a chat and a streamed chat, billed from the upstream's usage",
    async (_label, wire) => {
      key = await tokenFor(wire);
      const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
      const mock = wires.get(wire.label)!;

      const before = mock.requests.length;
      const chat = await client.chat.completions.create({ model: wire.model, messages: [{ role: "user", content: "hi" }] });
      expect(chat.choices[0].message.content).toBe(WIRE_TEXT);
      expect(chat.usage).toMatchObject({ prompt_tokens: WIRE_USAGE.prompt, completion_tokens: WIRE_USAGE.completion });
      wire.check?.(mock.requests.slice(before), false);

      const mid = mock.requests.length;
      const stream = await client.chat.completions.create({
        model: wire.model,
        messages: [{ role: "user", content: "hi" }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = "";
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const c of stream) {
        text += c.choices[0]?.delta?.content ?? "";
        if (c.usage) usage = c.usage;
      }
      expect(text).toBe(WIRE_TEXT);
      expect(usage).toMatchObject({ prompt_tokens: WIRE_USAGE.prompt, completion_tokens: WIRE_USAGE.completion });
      wire.check?.(mock.requests.slice(mid), true);

      const rows = await logsOf(wire.model, 2);
      for (const row of rows.slice(0, 2)) {
        expect(row).toMatchObject({ prompt_tokens: WIRE_USAGE.prompt, completion_tokens: WIRE_USAGE.completion });
        // ModelRatio 1, CompletionRatio 2: 17 + 6 × 2 = 29 units
        expect(Number(row.quota)).toBe(WIRE_USAGE.prompt + WIRE_USAGE.completion * 2);
      }
    },
  );
});

// A wire without chat (Jina) is tested with what it serves: embeddings through the SDK.
describe("every embeddings-only provider wire through the openai SDK", () => {
  const embeddingWires = PROVIDER_WIRES.filter((w) => w.kind === "embeddings");
  it.each(embeddingWires.map((w) => [w.label, w] as const))("%s: embeddings, billed from the upstream's usage", async (_label, wire) => {
    key = await tokenFor(wire);
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const mock = wires.get(wire.label)!;
    const before = mock.requests.length;
    const r = await client.embeddings.create({ model: wire.model, input: ["one", "two"], encoding_format: "float" });
    expect(r.data).toHaveLength(2);
    expect(r.data.every((d) => d.embedding.length > 0)).toBe(true);
    expect(r.usage.prompt_tokens).toBe(WIRE_USAGE.prompt);
    wire.check?.(mock.requests.slice(before), false);
    const [row] = await logsOf(wire.model, 1);
    expect(row).toMatchObject({ prompt_tokens: WIRE_USAGE.prompt, completion_tokens: 0 });
    expect(Number(row.quota)).toBe(WIRE_USAGE.prompt);
  });
});

// Prompt-cache writes (docs/pricing.md, "Prompt-cache writes"): an upstream that reports cache
// reads and 5-minute and 1-hour writes is billed each at its ratio, through Anthropic's wire
// (the official Anthropic SDK, streamed and not) and Bedrock's Converse (the openai SDK).
const CW_CLAUDE = "cw-claude";
const CW_BEDROCK = "anthropic.cw-claude-v1:0";
const CACHE_PRICES = {
  ModelRatio: { [CW_CLAUDE]: 2, [CW_BEDROCK]: 2 },
  CompletionRatio: { [CW_CLAUDE]: 5, [CW_BEDROCK]: 5 },
  CacheRatio: { [CW_CLAUDE]: 0.1, [CW_BEDROCK]: 0.1 },
  CreateCacheRatio: { [CW_CLAUDE]: 1.25, [CW_BEDROCK]: 1.25 },
  CreateCache1hRatio: { [CW_CLAUDE]: 2, [CW_BEDROCK]: 2 },
};
// 100 plain input tokens, 400 read, 300 written (100 for 5 minutes, 200 for one hour), 50 out
const CW = { plain: 100, read: 400, write5m: 100, write1h: 200, out: 50 };
const CW_PROMPT = CW.plain + CW.read + CW.write5m + CW.write1h;
// 2 × (100 + 400 × 0.1 + 100 × 1.25 + 200 × 2 + 50 × 5) = 2 × 915
const CW_QUOTA = 1830;

function anthropicCacheWire(req: WireRequest, res: http.ServerResponse): void {
  const model = String(req.json?.model);
  const usage = {
    input_tokens: CW.plain,
    cache_read_input_tokens: CW.read,
    cache_creation_input_tokens: CW.write5m + CW.write1h,
    cache_creation: { ephemeral_5m_input_tokens: CW.write5m, ephemeral_1h_input_tokens: CW.write1h },
    output_tokens: CW.out,
  };
  if (!req.json?.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ id: "msg_cw", type: "message", role: "assistant", model, content: [{ type: "text", text: WIRE_TEXT }], stop_reason: "end_turn", usage }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const ev = (name: string, data: object) => res.write(`event: ${name}\ndata: ${JSON.stringify(Object.assign({ type: name }, data))}\n\n`);
  ev("message_start", {
    message: { id: "msg_cw", type: "message", role: "assistant", model, content: [], usage: Object.assign({}, usage, { output_tokens: 1 }) },
  });
  ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
  ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: WIRE_TEXT } });
  ev("content_block_stop", { index: 0 });
  // as Anthropic does today: the final totals again, without the 5m / 1h split
  ev("message_delta", {
    delta: { stop_reason: "end_turn" },
    usage: { input_tokens: CW.plain, cache_read_input_tokens: CW.read, cache_creation_input_tokens: CW.write5m + CW.write1h, output_tokens: CW.out },
  });
  ev("message_stop", {});
  res.end();
}

function bedrockCacheWire(req: WireRequest, res: http.ServerResponse): void {
  const usage = {
    inputTokens: CW.plain,
    outputTokens: CW.out,
    totalTokens: CW_PROMPT + CW.out,
    cacheReadInputTokens: CW.read,
    cacheWriteInputTokens: CW.write5m + CW.write1h,
    cacheDetails: [
      { ttl: "1h", inputTokens: CW.write1h },
      { ttl: "5m", inputTokens: CW.write5m },
    ],
  };
  if (req.url.endsWith("/converse")) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ output: { message: { role: "assistant", content: [{ text: WIRE_TEXT }] } }, stopReason: "end_turn", usage }));
    return;
  }
  res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
  res.end(
    Buffer.concat([
      bedrockEvent("messageStart", { role: "assistant" }),
      bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: WIRE_TEXT } }),
      bedrockEvent("contentBlockStop", { contentBlockIndex: 0 }),
      bedrockEvent("messageStop", { stopReason: "end_turn" }),
      bedrockEvent("metadata", { usage }),
    ]),
  );
}

describe("prompt-cache writes, billed as the providers bill them", () => {
  const mocks: WireServer[] = [];
  afterAll(async () => {
    for (const m of mocks) await m.close();
  });

  async function cacheUser(name: string, type: number, model: string, handle: typeof anthropicCacheWire, key: string) {
    const mock = await serveWire(handle);
    mocks.push(mock);
    const group = `g-${name}`;
    const ch = await root.post("/api/channel/", { name, type, models: model, group, key, base_url: mock.url });
    expect(ch.success, ch.message).toBe(true);
    const u = await makeUser(server, root, name);
    expect((await root.put("/api/user/", { id: u.id, quota: 1_000_000, group })).success).toBe(true);
    const t = await u.client.post<{ key: string }[]>("/api/token/", { name: "cw", unlimited_quota: true, group });
    expect(t.success, t.message).toBe(true);
    return { u, key: t.data[0].key };
  }

  async function checkBilled(u: { id: number; client: ApiClient }, model: string) {
    let rows: Record<string, unknown>[] = [];
    for (let i = 0; i < 60 && rows.length < 2; i++) {
      rows = (await u.client.get<{ items: Record<string, unknown>[] }>(`/api/log/self/?p=1&page_size=10&type=2&model_name=${encodeURIComponent(model)}`)).data
        .items;
      if (rows.length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ prompt_tokens: CW_PROMPT, completion_tokens: CW.out });
      expect(Number(row.quota)).toBe(CW_QUOTA);
      const other = typeof row.other === "string" ? JSON.parse(row.other) : row.other;
      expect(other).toMatchObject({
        cache_tokens: CW.read,
        cache_ratio: 0.1,
        cache_creation_tokens: CW.write5m + CW.write1h,
        cache_creation_ratio: 1.25,
        cache_creation_tokens_5m: CW.write5m,
        cache_creation_ratio_5m: 1.25,
        cache_creation_tokens_1h: CW.write1h,
        cache_creation_ratio_1h: 2,
      });
    }
    // two calls charged exactly, and the ledger equals the balance
    const [{ quota }] = await query(server, 'SELECT "quota" FROM "users" WHERE "id" = $1', [u.id]);
    expect(Number(quota)).toBe(1_000_000 - 2 * CW_QUOTA);
    const [{ s }] = await query(server, 'SELECT COALESCE(SUM("delta"), 0) AS s FROM "quota_ledger" WHERE "user_id" = $1', [u.id]);
    expect(Number(s)).toBe(Number(quota));
  }

  it("Anthropic: reads, 5-minute and 1-hour writes through the Anthropic SDK, streamed and not", async () => {
    const { u, key: k } = await cacheUser("cw-anthropic", 14, CW_CLAUDE, anthropicCacheWire, "sk-ant-cw-0123456789");
    const client = new Anthropic({ apiKey: k, baseURL: server.url, maxRetries: 0 });
    const r = await client.messages.create({ model: CW_CLAUDE, max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
    expect(r.usage).toMatchObject({
      input_tokens: CW.plain,
      cache_read_input_tokens: CW.read,
      cache_creation_input_tokens: CW.write5m + CW.write1h,
      output_tokens: CW.out,
    });
    const stream = client.messages.stream({ model: CW_CLAUDE, max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
    const done = await stream.finalMessage();
    expect(done.usage).toMatchObject({ cache_read_input_tokens: CW.read, output_tokens: CW.out });
    await checkBilled(u, CW_CLAUDE);
  });

  it("Bedrock Converse: cacheWriteInputTokens split by cacheDetails, streamed and not", async () => {
    const { u, key: k } = await cacheUser(
      "cw-bedrock",
      33,
      CW_BEDROCK,
      bedrockCacheWire,
      "AKIACWTEST0EXAMPLE00|cwSecretKeyForTheCacheWriteTest012345678|us-west-2",
    );
    const client = new OpenAI({ apiKey: k, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const chat = await client.chat.completions.create({ model: CW_BEDROCK, messages: [{ role: "user", content: "hi" }] });
    expect(chat.usage).toMatchObject({ prompt_tokens: CW_PROMPT, completion_tokens: CW.out, prompt_tokens_details: { cached_tokens: CW.read } });
    const stream = await client.chat.completions.create({
      model: CW_BEDROCK,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const _c of stream) void _c;
    await checkBilled(u, CW_BEDROCK);
  });
});
