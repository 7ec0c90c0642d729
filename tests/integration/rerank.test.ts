// POST /v1/rerank and embeddings on the providers that have them (docs/providers.md, "Rerank"):
// Cohere's v2 API, Jina, SiliconFlow and Xinference, each behind a local server speaking its
// wire; rerank never goes to a channel whose wire has none (OpenAI), and the log row is billed
// from the upstream's count, or from the relay's estimate where the upstream gives none.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { openaiChatAnswer } from "../support/provider-wires/openai-hosts";
import {
  COHERE_KEY,
  EMBED_TOKENS,
  RERANK_TOKENS,
  SILICONFLOW_KEY,
  VECTOR,
  cohereWire,
  jinaWire,
  siliconflowRerank,
  xinferenceWire,
} from "../support/provider-wires/rerank-family";
import { serveWire, type WireServer } from "../support/provider-wires/serve";
import { startServer, type TestServer } from "../support/server";

type Mock = WireServer;
const serve = serveWire;

let server: TestServer;
let root: ApiClient;
let user: { id: number; client: ApiClient };
let key: string;
const mocks: Record<string, Mock> = {};
const channelIds: Record<string, number> = {};

// an OpenAI upstream: chat only; a rerank reaching it would be recorded (and answered 404, as OpenAI does)
const OPENAI_KEY = "sk-openai-wire-0123456789";

const QUERY = "which doc"; // 9 ASCII characters: 3 tokens by the relay's estimate
const DOCUMENTS = ["first document", "second one", "third"]; // 4 + 3 + 2 tokens
const ESTIMATE = 12; // lib/relay/estimate.ts: a quarter token per ASCII character, each string rounded up

const MODELS = [
  "rerank-v3.5",
  "embed-v4.0",
  "jina-reranker-v2-base-multilingual",
  "BAAI/bge-reranker-v2-m3",
  "bge-reranker-base",
  "shared-reranker",
  "openai-only-reranker",
];

beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify(Object.fromEntries(MODELS.map((m) => [m, 1]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(MODELS.map((m) => [m, 2]))),
    // no retries: a rerank that reached the OpenAI channel first would fail, not move on
    RetryTimes: "0",
  });
  mocks.cohere = await serve((r, res) => void cohereWire.handle(r, res));
  mocks.jina = await serve((r, res) => void jinaWire.handle(r, res));
  mocks.siliconflow = await serve(siliconflowRerank);
  mocks.xinference = await serve((r, res) => void xinferenceWire.handle(r, res));
  mocks.openai = await serve((r, res) => {
    if (r.headers.authorization !== `Bearer ${OPENAI_KEY}`) return void res.writeHead(401).end();
    if (r.url === "/v1/chat/completions") return openaiChatAnswer(r, res);
    res
      .writeHead(404, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { message: "Invalid URL (POST /v1/rerank)", type: "invalid_request_error" } }));
  });
  const channels = [
    { name: "cohere", type: 34, key: COHERE_KEY, base_url: mocks.cohere.url, models: "rerank-v3.5,embed-v4.0" },
    {
      name: "jina",
      type: 38,
      key: (jinaWire.channel(mocks.jina.url) as { key: string }).key,
      base_url: mocks.jina.url,
      models: "jina-reranker-v2-base-multilingual,shared-reranker",
    },
    { name: "siliconflow", type: 40, key: SILICONFLOW_KEY, base_url: mocks.siliconflow.url, models: "BAAI/bge-reranker-v2-m3" },
    { name: "xinference", type: 47, key: xinferenceWire.channel(mocks.xinference.url).key, base_url: mocks.xinference.url, models: "bge-reranker-base" },
    // higher priority than Jina's for the shared model: only rerank support keeps calls off it
    { name: "openai", type: 1, key: OPENAI_KEY, base_url: mocks.openai.url, models: "shared-reranker,openai-only-reranker", priority: 10 },
  ];
  for (const c of channels) {
    const r = await root.post<{ id: number } | { id: number }[]>("/api/channel/", { group: "default", ...c });
    expect(r.success, `${c.name}: ${r.message}`).toBe(true);
    channelIds[c.name] = Array.isArray(r.data) ? r.data[0].id : r.data.id;
  }
  user = await makeUser(server, root, "rita");
  expect((await root.put("/api/user/", { id: user.id, quota: 50_000_000 })).success).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "rr", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  key = t.data[0].key;
});

afterAll(async () => {
  await server?.stop();
  for (const m of Object.values(mocks)) await m.close();
});

async function logsOf(model: string, n: number) {
  for (let i = 0; i < 60; i++) {
    const r = await user.client.get<{ items: Record<string, unknown>[] }>(`/api/log/self/?p=1&page_size=100&type=2&model_name=${encodeURIComponent(model)}`);
    if (r.data.items.length >= n) return r.data.items;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`the log rows of ${model} did not arrive`);
}

const rerank = (body: Record<string, unknown>) =>
  fetch(`${server.url}/v1/rerank`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("POST /v1/rerank on the providers that have it", () => {
  it("Cohere: /v2/rerank with the Bearer key; search units only, so billed from the estimate of the query and documents", async () => {
    const r = await rerank({ model: "rerank-v3.5", query: QUERY, documents: DOCUMENTS, top_n: 2 });
    expect(r.status).toBe(200);
    const j = (await r.json()) as { results: { index: number; relevance_score: number }[]; meta: unknown };
    expect(j.results.map((x) => x.index)).toEqual([0, 1]);
    expect(j.meta).toMatchObject({ billed_units: { search_units: 1 } });
    const up = mocks.cohere.requests.at(-1)!;
    expect(up.url).toBe("/v2/rerank");
    expect(up.json).toMatchObject({ model: "rerank-v3.5", query: QUERY, documents: DOCUMENTS, top_n: 2 });
    const [row] = await logsOf("rerank-v3.5", 1);
    expect(row).toMatchObject({ prompt_tokens: ESTIMATE, completion_tokens: 0 });
    expect(Number(row.quota)).toBe(ESTIMATE);
  });

  it("Jina: /v1/rerank, billed from usage.total_tokens", async () => {
    const r = await rerank({ model: "jina-reranker-v2-base-multilingual", query: QUERY, documents: DOCUMENTS });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { results: unknown[] }).results).toHaveLength(3);
    expect(mocks.jina.requests.at(-1)!.url).toBe("/v1/rerank");
    const [row] = await logsOf("jina-reranker-v2-base-multilingual", 1);
    expect(row).toMatchObject({ prompt_tokens: RERANK_TOKENS, completion_tokens: 0 });
    expect(Number(row.quota)).toBe(RERANK_TOKENS);
  });

  it("SiliconFlow: /v1/rerank, billed from meta.tokens", async () => {
    const r = await rerank({ model: "BAAI/bge-reranker-v2-m3", query: QUERY, documents: DOCUMENTS, top_n: 1 });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { results: unknown[] }).results).toHaveLength(1);
    expect(mocks.siliconflow.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SILICONFLOW_KEY}`);
    const [row] = await logsOf("BAAI/bge-reranker-v2-m3", 1);
    expect(row).toMatchObject({ prompt_tokens: RERANK_TOKENS, completion_tokens: 0 });
    expect(Number(row.quota)).toBe(RERANK_TOKENS);
  });

  it("Xinference: /v1/rerank, billed from meta.tokens when it counts them (return_len), else from the estimate", async () => {
    const counted = await rerank({ model: "bge-reranker-base", query: QUERY, documents: DOCUMENTS, return_len: true });
    expect(counted.status).toBe(200);
    await counted.json();
    const [first] = await logsOf("bge-reranker-base", 1);
    expect(first).toMatchObject({ prompt_tokens: RERANK_TOKENS });
    const plain = await rerank({ model: "bge-reranker-base", query: QUERY, documents: DOCUMENTS });
    expect(plain.status).toBe(200);
    await plain.json();
    const [latest] = await logsOf("bge-reranker-base", 2);
    expect(latest).toMatchObject({ prompt_tokens: ESTIMATE });
    expect(mocks.xinference.requests.filter((q) => q.url === "/v1/rerank")).toHaveLength(2);
  });

  it("never goes to an OpenAI channel: the model's Jina channel serves it, and a model only OpenAI serves is refused", async () => {
    for (let i = 0; i < 3; i++) {
      const r = await rerank({ model: "shared-reranker", query: QUERY, documents: DOCUMENTS });
      expect(r.status).toBe(200);
      await r.json();
    }
    expect(mocks.jina.requests.filter((q) => q.url === "/v1/rerank" && q.json?.model === "shared-reranker")).toHaveLength(3);
    const refused = await rerank({ model: "openai-only-reranker", query: QUERY, documents: DOCUMENTS });
    expect(refused.status).toBe(503);
    const body = (await refused.json()) as { error?: { message?: string } };
    expect(body.error?.message).toBeTruthy();
    expect(mocks.openai.requests).toHaveLength(0);
    // the OpenAI channel still serves chat for that model
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const chat = await client.chat.completions.create({ model: "openai-only-reranker", messages: [{ role: "user", content: "hi" }] });
    expect(chat.choices[0].message.content).toBeTruthy();
    expect(mocks.openai.requests).toHaveLength(1);
  });
});

describe("embeddings on Cohere through the openai SDK", () => {
  it("/v2/embed with input_type and float embeddings, answered in OpenAI's shape and billed from billed_units", async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const r = await client.embeddings.create({ model: "embed-v4.0", input: ["alpha", "beta"], encoding_format: "float" });
    expect(r.data.map((d) => d.embedding)).toEqual([
      [...VECTOR, 0],
      [...VECTOR, 1],
    ]);
    expect(r.usage.prompt_tokens).toBe(EMBED_TOKENS);
    const up = mocks.cohere.requests.at(-1)!;
    expect(up.url).toBe("/v2/embed");
    expect(up.headers.authorization).toBe(`Bearer ${COHERE_KEY}`);
    expect(up.json).toEqual({ model: "embed-v4.0", texts: ["alpha", "beta"], input_type: "search_document", embedding_types: ["float"] });
    const [row] = await logsOf("embed-v4.0", 1);
    expect(row).toMatchObject({ prompt_tokens: EMBED_TOKENS, completion_tokens: 0 });
    expect(Number(row.quota)).toBe(EMBED_TOKENS);
  });

  it("a wrong key is refused by the upstream, and the client gets the error without any key", async () => {
    const r = await root.post<{ id: number }>("/api/channel/", {
      name: "cohere-bad",
      type: 34,
      key: "co-wrong-key-0000000000",
      base_url: mocks.cohere.url,
      models: "embed-bad",
      group: "default",
    });
    expect(r.success, r.message).toBe(true);
    await setOptions(root, { ModelRatio: JSON.stringify(Object.fromEntries([...MODELS, "embed-bad"].map((m) => [m, 1]))) });
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const err = await client.embeddings.create({ model: "embed-bad", input: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(JSON.stringify((err as InstanceType<typeof OpenAI.APIError>).error)).not.toContain("co-wrong-key");
    expect(mocks.cohere.requests.at(-1)!.headers.authorization).toBe("Bearer co-wrong-key-0000000000");
  });
});

describe("the channel rules of these types", () => {
  it("a Jina channel (no chat) is tested with one embedding", async () => {
    const before = mocks.jina.requests.length;
    const r = await root.call<never>("GET", `/api/channel/test/${channelIds.jina}?model=jina-embeddings-v3`);
    expect(r).toMatchObject({ success: true });
    const sent = mocks.jina.requests.slice(before);
    expect(sent.map((q) => q.url)).toEqual(["/v1/embeddings"]);
    expect(sent[0].json).toMatchObject({ model: "jina-embeddings-v3", input: ["hi"] });
  });

  it("a chat on a Jina channel is refused before any upstream call", async () => {
    const before = mocks.jina.requests.length;
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const err = await client.chat.completions
      .create({ model: "jina-reranker-v2-base-multilingual", messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect(mocks.jina.requests.length).toBe(before);
  });

  it("a Cloudflare channel needs its account id in other, at creation and at update", async () => {
    const base = { name: "cf", type: 39, key: "cf-token-0123456789", models: "@cf/x", group: "default" };
    const missing = await root.post("/api/channel/", base);
    expect(missing.success).toBe(false);
    expect(missing.message).toContain("32 hexadecimal");
    const ok = await root.post<{ id: number } | { id: number }[]>("/api/channel/", { ...base, other: "0123456789ABCDEF0123456789abcdef" });
    expect(ok.success, ok.message).toBe(true);
    const id = Array.isArray(ok.data) ? ok.data[0].id : ok.data.id;
    const bad = await root.put("/api/channel/", { id, other: "not-an-account" });
    expect(bad.success).toBe(false);
    expect(bad.message).toContain("32 hexadecimal");
    // an edit that leaves other alone is not refused
    expect((await root.put("/api/channel/", { id, name: "cf2" })).success).toBe(true);
  });
});
