// The relay end to end: the real server, real mock upstreams speaking each provider's wire
// format, and the official SDKs as clients. Billing is checked against the price formula (docs/product-rules.md)
// and the ledger; retries, errors, model lists and concurrency against a small balance.
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI, { toFile } from "openai";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";
import { estimateTextTokens } from "@/lib/relay/estimate";

let server: TestServer;
let root: ApiClient;
let user: { id: number; client: ApiClient };
let key: string;
const mocks: Record<string, MockUpstream> = {};

// ModelRatio 1.5, CompletionRatio 4, cache ratio 1, group ratio 1:
// 1.5 × ((21 − 5) + 5 × 1 + 9 × 4) = 85.5 → 86 units per call with the mocks' usage.
const CHAT_COST = Math.round(1.5 * (USAGE.prompt - USAGE.cached + USAGE.cached * 1 + USAGE.completion * 4));

// Embeddings have no output: quota = round(ModelRatio × group ratio 1 × input tokens).
const EMBED_RATIO = 2;

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
    // the page and its count are two reads: on PostgreSQL a batch of rows may land between them
    if (r.data.items.length >= n) return r.data.items;
    await new Promise((res) => setTimeout(res, 150));
  }
  throw new Error("logs did not arrive");
}

beforeAll(async () => {
  server = await startServer();
  for (const kind of ["openai", "anthropic", "gemini"] as const) mocks[kind] = await startMockUpstream(kind);
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify({
      "gpt-4o-mini": 1.5,
      "claude-sonnet-4": 1.5,
      "gemini-2.0-flash": 1.5,
      "text-embedding-3-small": 0.01,
      "flaky-model": 1.5,
      "whisper-ratio": 100,
      "gemini-embedding-001": EMBED_RATIO,
      "text-embedding-3-large": EMBED_RATIO,
      "embed-on-claude-only": EMBED_RATIO,
    }),
    CompletionRatio: JSON.stringify({ "gpt-4o-mini": 4, "claude-sonnet-4": 4, "gemini-2.0-flash": 4, "flaky-model": 4, "whisper-ratio": 2 }),
    // whisper-large-v3 is the channel's name for whisper-1: its own price must never apply
    ModelPrice: JSON.stringify({ "per-call-model": 0.002, "whisper-1": 0.006, "whisper-large-v3": 1 }),
    // cache ratio 1 for every model, not the preset table's (docs/pricing.md)
    CacheRatio: "{}",
    RetryTimes: "2",
  });
  await addChannel({
    name: "openai-main",
    type: 1,
    key: mocks.openai.key,
    base_url: mocks.openai.url,
    models: "gpt-4o-mini,text-embedding-3-small,text-embedding-3-large,per-call-model",
    group: "default",
  });
  await addChannel({ name: "anthropic-main", type: 14, key: mocks.anthropic.key, base_url: mocks.anthropic.url, models: "claude-sonnet-4", group: "default" });
  await addChannel({
    name: "gemini-main",
    type: 24,
    key: mocks.gemini.key,
    base_url: mocks.gemini.url,
    models: "gemini-2.0-flash,gemini-embedding-001",
    group: "default",
  });
  // An Anthropic channel (no embeddings on its wire) first in priority for embedding models:
  // embeddings calls must pass it over.
  await addChannel({
    name: "anthropic-embed",
    type: 14,
    key: mocks.anthropic.key,
    base_url: mocks.anthropic.url,
    models: "gemini-embedding-001,embed-on-claude-only",
    group: "default",
    priority: 10,
  });
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

    // A console request waits for the settlements still queued or under way, so the balance
    // read at once already shows both calls. Their log rows are queued after that.
    expect(before - (await userQuota())).toBe(2 * CHAT_COST);
    const logs = await waitForLogs(user.client, 2);
    const mine = logs.filter((l) => l.model_name === "gpt-4o-mini");
    expect(mine.map((l) => l.quota)).toEqual([CHAT_COST, CHAT_COST]);
    expect(mine.map((l) => l.is_stream).sort()).toEqual([false, true]);
    expect(await ledgerSum(user.id)).toBe(await userQuota());
  });

  // PostgreSQL commits each settlement in its own transaction, a few round trips after the
  // client has its answer: a console request arriving meanwhile waits for it (a second at
  // most). Here the settlement is held on a lock of the channel's row (its last statement).
  it.runIf(process.env.TEST_DB === "postgresql")("a balance read while a settlement is under way waits for it, a second at most (PostgreSQL)", async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const before = await userQuota();
    const lock = new pg.Client({ connectionString: server.databaseUrl });
    await lock.connect();
    try {
      await lock.query("BEGIN");
      await lock.query(`SELECT 1 FROM "channels" WHERE "name" = 'openai-main' FOR UPDATE`);
      await openai.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "held" }] });
      let read: number | undefined;
      const reading = userQuota().then((q) => (read = q));
      await new Promise((r) => setTimeout(r, 300));
      expect(read).toBeUndefined(); // still waiting for the settlement
      await lock.query("COMMIT");
      await reading;
      expect(before - read!).toBe(CHAT_COST);

      // A settlement stuck longer does not stall the console: the read answers after a second.
      await lock.query("BEGIN");
      await lock.query(`SELECT 1 FROM "channels" WHERE "name" = 'openai-main' FOR UPDATE`);
      await openai.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "held longer" }] });
      const startedAt = Date.now();
      await userQuota(); // answered while the lock is still held
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
      await lock.query("COMMIT");
      await expect.poll(userQuota).toBe(before - 2 * CHAT_COST);
    } finally {
      await lock.end();
    }
  });

  it("serves Anthropic Messages and Gemini clients, each to its own provider", async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const m = await anthropic.messages.create({
      model: "claude-sonnet-4",
      max_tokens: 100,
      system: "be brief",
      messages: [{ role: "user", content: "hi claude" }],
    });
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
        messages: [
          { role: "system", content: "you are a tool user" },
          { role: "user", content: "weather?" },
        ],
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
    type GeminiModel = { name: string; supportedGenerationMethods: string[] };
    const methods = (name: string) => (g.models as GeminiModel[]).find((m) => m.name === name)?.supportedGenerationMethods;
    expect(methods("models/gemini-2.0-flash")).toEqual(["generateContent", "streamGenerateContent"]);
    expect(methods("models/text-embedding-3-small")).toEqual(["embedContent", "batchEmbedContents"]);
    const e = await openai.embeddings.create({ model: "text-embedding-3-small", input: "embed me" });
    expect(e.data[0].embedding.length).toBeGreaterThan(0);
  });
});

describe("audio transcriptions on a channel with a model mapping", () => {
  // bytes that look like a form inside the file: CRLFs, dashes, a model field header
  const AUDIO = Buffer.concat([
    Buffer.from('RIFF\0\0\0\0WAVE\r\n--\r\nContent-Disposition: form-data; name="model"\r\n\r\nmodel\r\n', "latin1"),
    Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 131 + 7) & 0xff)),
  ]);

  it("sends the mapped model upstream with the file intact, bills and logs the model the client named", async () => {
    await addChannel({
      name: "openai-audio",
      type: 1,
      key: mocks.openai.key,
      base_url: mocks.openai.url,
      models: "whisper-1",
      group: "default",
      model_mapping: JSON.stringify({ "whisper-1": "whisper-large-v3" }),
    });
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const before = await userQuota();
    const r = await openai.audio.transcriptions.create({ model: "whisper-1", file: await toFile(AUDIO, "speech.wav", { type: "audio/wav" }) });
    expect(r.text).toBe("hello world");

    const up = mocks.openai.requests.at(-1)!;
    expect(up.url).toBe("/v1/audio/transcriptions");
    expect(Number(up.headers["content-length"])).toBe(up.raw.length);
    const fields = await new Request("http://mock/", {
      method: "POST",
      body: new Uint8Array(up.raw),
      headers: { "content-type": String(up.headers["content-type"]) },
    }).formData();
    expect(fields.getAll("model")).toEqual(["whisper-large-v3"]);
    expect(Buffer.from(await (fields.get("file") as File).arrayBuffer()).equals(AUDIO)).toBe(true);

    // per-call price of whisper-1: $0.006 × 500000 = 3000 units
    let items: { model_name: string; quota: number; other: string }[] = [];
    for (let i = 0; i < 40 && !items.length; i++) {
      await new Promise((res) => setTimeout(res, 150));
      items = (await user.client.get<{ items: typeof items }>("/api/log/self/?p=1&page_size=10&type=2&model_name=whisper-1")).data.items;
    }
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ model_name: "whisper-1", quota: 3000 });
    expect(JSON.parse(items[0].other)).toMatchObject({ model_price: 0.006, is_model_mapped: true, upstream_model_name: "whisper-large-v3" });
    expect(before - (await userQuota())).toBe(3000);
    expect(await ledgerSum(user.id)).toBe(await userQuota());
  });

  it("bills a transcription priced by ratio for its transcript's tokens when the upstream reports only a duration", async () => {
    await addChannel({ name: "openai-audio-ratio", type: 1, key: mocks.openai.key, base_url: mocks.openai.url, models: "whisper-ratio", group: "default" });
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const before = await userQuota();
    const r = await openai.audio.transcriptions.create({ model: "whisper-ratio", file: await toFile(AUDIO, "speech.wav", { type: "audio/wav" }) });
    expect(r.text).toBe("hello world"); // the mock reports usage {type: "duration", seconds: 4}
    // ModelRatio 100 × (0 prompt tokens + completion tokens of "hello world" × CompletionRatio 2)
    const expected = Math.round(100 * estimateTextTokens("hello world") * 2);
    expect(expected).toBeGreaterThan(0);
    let items: { quota: number; completion_tokens: number; other: string }[] = [];
    for (let i = 0; i < 40 && !items.length; i++) {
      await new Promise((res) => setTimeout(res, 150));
      items = (await user.client.get<{ items: typeof items }>("/api/log/self/?p=1&page_size=10&type=2&model_name=whisper-ratio")).data.items;
    }
    expect(items[0]).toMatchObject({ quota: expected, completion_tokens: estimateTextTokens("hello world") });
    expect(JSON.parse(items[0].other)).toMatchObject({ audio_seconds: 4, usage_estimated: true });
    expect(before - (await userQuota())).toBe(expected);
  });

  it("translates speech through /v1/audio/translations, billed for the English text's tokens", async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const before = await userQuota();
    const r = await openai.audio.translations.create({ model: "whisper-ratio", file: await toFile(AUDIO, "speech.wav", { type: "audio/wav" }) });
    expect(r.text).toBe("good morning to everyone");
    expect(mocks.openai.requests.at(-1)!.url).toBe("/v1/audio/translations");
    const expected = Math.round(100 * estimateTextTokens("good morning to everyone") * 2);
    // the newest whisper-ratio row (the transcription test wrote the other one)
    let items: { quota: number; completion_tokens: number }[] = [];
    for (let i = 0; i < 40 && items.length < 2; i++) {
      await new Promise((res) => setTimeout(res, 150));
      items = (await user.client.get<{ items: typeof items }>("/api/log/self/?p=1&page_size=10&type=2&model_name=whisper-ratio")).data.items;
    }
    expect(items[0]).toMatchObject({ quota: expected, completion_tokens: estimateTextTokens("good morning to everyone") });
    expect(before - (await userQuota())).toBe(expected);
  });

  it("refuses a form without a model with an OpenAI-shaped 400, charging nothing and calling no upstream", async () => {
    const before = await userQuota();
    const calls = mocks.openai.requests.length;
    const form = new FormData();
    form.append("file", new Blob([AUDIO], { type: "audio/wav" }), "speech.wav");
    const res = await fetch(`${server.url}/v1/audio/transcriptions`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { message: expect.stringMatching(/model is required/), type: "invalid_request_error", param: null, code: "invalid_request" },
    });
    expect(mocks.openai.requests.length).toBe(calls);
    expect(await userQuota()).toBe(before);
  });
});

describe("Gemini embeddings (embedContent, batchEmbedContents)", () => {
  type LogRow = {
    model_name: string;
    quota: number;
    prompt_tokens: number;
    completion_tokens: number;
    is_stream: boolean;
    token_name: string;
    other: string;
    channel_name?: string;
  };
  const adminLog = async (model: string) =>
    (await root.get<{ items: LogRow[] }>(`/api/log/?p=1&page_size=10&type=2&username=carol&model_name=${model}`)).data.items[0];
  // a user of its own: its balance and logs move only with these tests
  let carol: { id: number; client: ApiClient };
  let carolKey: string;
  const carolQuota = async () => (await carol.client.get<{ quota: number }>("/api/user/self")).data.quota;
  beforeAll(async () => {
    carol = await makeUser(server, root, "carol");
    expect((await root.put("/api/user/", { id: carol.id, quota: 1_000_000 })).success).toBe(true);
    const t = await carol.client.post<{ key: string }[]>("/api/token/", { name: "embed", unlimited_quota: true });
    expect(t.success, t.message).toBe(true);
    carolKey = t.data[0].key;
  });

  it("bills exactly from the input tokens: estimated on a Gemini channel, counted by an OpenAI channel; logs both", async () => {
    const gemini = new GoogleGenAI({ apiKey: carolKey, httpOptions: { baseUrl: server.url } });
    const before = await carolQuota();
    const anthropicCalls = mocks.anthropic.requests.length;

    const native = await gemini.models.embedContent({ model: "gemini-embedding-001", contents: ["What is the meaning of life?", "How does the brain work?"] });
    // the mock's vector: [index, length of the text, outputDimensionality or 0]
    expect(native.embeddings?.map((e) => e.values)).toEqual([
      [0, 28, 0],
      [1, 24, 0],
    ]);
    const upstream = mocks.gemini.requests.at(-1)!;
    expect(upstream.url).toBe("/v1beta/models/gemini-embedding-001:batchEmbedContents");
    expect(upstream.headers["x-goog-api-key"]).toBe(mocks.gemini.key);
    expect(upstream.body + JSON.stringify(upstream.headers)).not.toContain(carolKey);

    const converted = await gemini.models.embedContent({ model: "text-embedding-3-large", contents: "embed me" });
    expect(converted.embeddings?.map((e) => e.values)).toEqual([[0.1, 0.2, 0.3]]);
    expect(mocks.openai.requests.at(-1)!.json).toMatchObject({ model: "text-embedding-3-large", input: ["embed me"] });

    // Gemini counts no tokens: ceil(28/4) + ceil(24/4) = 13 estimated, × 2 = 26 units.
    // The OpenAI mock counts USAGE.prompt = 21 tokens, × 2 = 42 units.
    const nativeTokens = 13;
    const nativeCost = EMBED_RATIO * nativeTokens;
    const convertedCost = EMBED_RATIO * USAGE.prompt;
    await waitForLogs(carol.client, 2);
    expect(before - (await carolQuota())).toBe(nativeCost + convertedCost);
    expect(await ledgerSum(carol.id)).toBe(await carolQuota());

    const nativeLog = await adminLog("gemini-embedding-001");
    expect(nativeLog).toMatchObject({
      quota: nativeCost,
      prompt_tokens: nativeTokens,
      completion_tokens: 0,
      is_stream: false,
      token_name: "embed",
      channel_name: "gemini-main",
    });
    const nativeOther = JSON.parse(nativeLog.other);
    expect(nativeOther).toMatchObject({ model_ratio: EMBED_RATIO, group_ratio: 1, usage_estimated: true });
    // the Anthropic channel, first by priority, was passed over without costing an attempt
    expect(nativeOther.admin_info.use_channel).toHaveLength(1);
    expect(nativeOther.retry_count).toBeUndefined();
    expect(mocks.anthropic.requests.length).toBe(anthropicCalls);

    const convertedLog = await adminLog("text-embedding-3-large");
    expect(convertedLog).toMatchObject({ quota: convertedCost, prompt_tokens: USAGE.prompt, completion_tokens: 0, channel_name: "openai-main" });
    expect(JSON.parse(convertedLog.other).usage_estimated).toBeUndefined();
  });

  it("serves the single :embedContent with the key in ?key=", async () => {
    const before = await carolQuota();
    const r = await fetch(`${server.url}/v1beta/models/gemini-embedding-001:embedContent?key=${carolKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: { parts: [{ text: "hello world" }] }, outputDimensionality: 16 }),
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ embedding: { values: [0, 11, 16] } });
    expect(mocks.gemini.requests.at(-1)!.url).toBe("/v1beta/models/gemini-embedding-001:embedContent");
    // ceil(11/4) = 3 tokens × 2; the log row is queued after the settlement commits
    await waitForLogs(carol.client, 3);
    expect(before - (await carolQuota())).toBe(EMBED_RATIO * 3);
  });

  it("answers a model that only channels without embeddings serve with a Gemini-shaped 503, and charges nothing", async () => {
    const before = await carolQuota();
    const r = await fetch(`${server.url}/v1beta/models/embed-on-claude-only:batchEmbedContents`, {
      method: "POST",
      headers: { "x-goog-api-key": carolKey, "content-type": "application/json", "accept-language": "en" },
      body: JSON.stringify({ requests: [{ model: "models/embed-on-claude-only", content: { parts: [{ text: "x" }] } }] }),
    });
    expect(r.status).toBe(503);
    const j = await r.json();
    expect(j.error).toMatchObject({ code: 503, status: "UNAVAILABLE" });
    expect(j.error.message).toContain("embeddings");
    expect(j.error.message).toContain("embed-on-claude-only");
    expect(await carolQuota()).toBe(before);
  });

  it("refuses a bad key and a bad body in Gemini's error shape", async () => {
    const bad = await fetch(`${server.url}/v1beta/models/gemini-embedding-001:batchEmbedContents?key=bad`, { method: "POST", body: "{}" });
    expect(bad.status).toBe(401);
    expect((await bad.json()).error.code).toBe(401);
    const before = await carolQuota();
    const empty = await fetch(`${server.url}/v1beta/models/gemini-embedding-001:batchEmbedContents`, {
      method: "POST",
      headers: { "x-goog-api-key": carolKey, "content-type": "application/json" },
      body: JSON.stringify({ requests: [] }),
    });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
    expect(await carolQuota()).toBe(before);
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
