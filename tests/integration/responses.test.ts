// The Responses API in any direction, end to end: the real server, mock upstreams speaking the
// Anthropic, Gemini and OpenAI wires, the official SDKs as clients. The openai SDK's
// responses.create and responses.stream through an Anthropic and a Gemini channel with a
// function tool round trip, billed exactly as chat; the pass-through to an OpenAI channel; a
// channel flagged Responses only serving chat completions, Anthropic and Gemini clients; the
// token count and the one-model lookups in each format's shape.
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { COUNTED_TOKENS, startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let user: { id: number; client: ApiClient };
let key: string;
const mocks: Record<"openai" | "anthropic" | "gemini" | "only", MockUpstream> = {} as never;

// ModelRatio 1.5, CompletionRatio 4, cache ratio 1 (as tests/integration/relay.test.ts):
// 1.5 × ((21 − 5) + 5 × 1 + 9 × 4) = 85.5 → 86 units per call with the mocks' usage.
const CALL_COST = Math.round(1.5 * (USAGE.prompt - USAGE.cached + USAGE.cached + USAGE.completion * 4));

const weather = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather of a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};

async function addChannel(body: Record<string, unknown>): Promise<number> {
  const r = await root.post<unknown>("/api/channel/", body);
  expect(r.success, r.message).toBe(true);
  const list = await root.get<{ items: { id: number; name: string }[] }>("/api/channel/?p=1&page_size=100");
  return list.data.items.find((c) => c.name === body.name)!.id;
}

const userQuota = async () => (await user.client.get<{ quota: number }>("/api/user/self")).data.quota;
async function ledgerSum(): Promise<number> {
  const rows = await query(server, 'SELECT COALESCE(SUM("delta"), 0) AS s FROM "quota_ledger" WHERE "user_id" = ' + user.id);
  return Number((rows[0] as { s: number | string | bigint }).s);
}
async function logsOf(model: string, n: number) {
  for (let i = 0; i < 40; i++) {
    const r = await user.client.get<{ items: Record<string, unknown>[] }>(`/api/log/self/?p=1&page_size=100&type=2&model_name=${model}`);
    if (r.data.items.length >= n) return r.data.items;
    await new Promise((res) => setTimeout(res, 150));
  }
  throw new Error(`the log rows of ${model} did not arrive`);
}
const openai = () => new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });

beforeAll(async () => {
  server = await startServer();
  mocks.openai = await startMockUpstream("openai");
  mocks.anthropic = await startMockUpstream("anthropic");
  mocks.gemini = await startMockUpstream("gemini");
  mocks.only = await startMockUpstream("openai");
  mocks.only.behavior = { responsesOnly: true };
  root = await setupRoot(server);
  const models = ["gpt-4o-mini", "claude-sonnet-4", "gemini-2.5-flash", "o3-pro"];
  await setOptions(root, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, 1.5]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, 4]))),
    CacheRatio: "{}",
    RetryTimes: "0",
  });
  await addChannel({ name: "oa", type: 1, key: mocks.openai.key, base_url: mocks.openai.url, models: "gpt-4o-mini", group: "default" });
  await addChannel({ name: "claude", type: 14, key: mocks.anthropic.key, base_url: mocks.anthropic.url, models: "claude-sonnet-4", group: "default" });
  await addChannel({ name: "gem", type: 24, key: mocks.gemini.key, base_url: mocks.gemini.url, models: "gemini-2.5-flash", group: "default" });
  await addChannel({
    name: "responses-only",
    type: 1,
    key: mocks.only.key,
    base_url: mocks.only.url,
    models: "o3-pro",
    group: "default",
    setting: JSON.stringify({ responses_only: true }),
  });
  user = await makeUser(server, root, "rita");
  expect((await root.put("/api/user/", { id: user.id, quota: 5_000_000 })).success).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "sdk", unlimited_quota: true });
  key = t.data[0].key;
});

afterAll(async () => {
  await server?.stop();
  for (const m of Object.values(mocks)) await m?.close();
});

describe.each([
  ["claude-sonnet-4", "anthropic"],
  ["gemini-2.5-flash", "gemini"],
] as const)("the openai SDK's Responses API on %s (a %s channel)", (model, kind) => {
  it("responses.create and responses.stream with a function tool round trip, billed exactly as chat", async () => {
    const m = mocks[kind];
    const before = await userQuota();
    m.behavior = { toolCall: { name: "get_weather", args: { city: "Lyon" } } };
    const first = await openai().responses.create({ model, instructions: "use the tools", input: "weather in Lyon?", tools: [weather] });
    const call = first.output.find((o) => o.type === "function_call") as { call_id: string; name: string; arguments: string };
    expect(call.name).toBe("get_weather");
    expect(JSON.parse(call.arguments)).toEqual({ city: "Lyon" });
    expect(first.usage).toMatchObject({ input_tokens: USAGE.prompt, output_tokens: USAGE.completion, input_tokens_details: { cached_tokens: USAGE.cached } });

    // the tool's output goes back streamed; the SDK accumulates the events into the response
    m.behavior = { text: "Sunny in Lyon." };
    const stream = openai().responses.stream({
      model,
      tools: [weather],
      input: [
        { role: "user", content: "weather in Lyon?" },
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: "function_call_output", call_id: call.call_id, output: '{"sky":"sunny"}' },
      ],
    });
    let text = "";
    const types: string[] = [];
    for await (const e of stream) {
      types.push(e.type);
      if (e.type === "response.output_text.delta") text += e.delta;
    }
    const final = await stream.finalResponse();
    expect(text).toBe("Sunny in Lyon.");
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(final.status).toBe("completed");
    expect(final.usage?.total_tokens).toBe(USAGE.prompt + USAGE.completion);
    // the tool result reached the upstream in its own wire
    const sent = JSON.stringify(m.requests.at(-1)!.json);
    expect(sent).toContain(kind === "anthropic" ? '"tool_result"' : '"functionResponse"');
    expect(sent).toContain("sunny");

    expect(before - (await userQuota())).toBe(2 * CALL_COST);
    const logs = await logsOf(model, 2);
    expect(logs.map((l) => l.quota)).toEqual([CALL_COST, CALL_COST]);
    expect(logs.map((l) => l.is_stream).sort()).toEqual([false, true]);
    expect(await ledgerSum()).toBe(await userQuota());
  });

  it("previous_response_id is refused with the reason, and nothing is charged", async () => {
    const before = await userQuota();
    const calls = mocks[kind].requests.length;
    const err = (await openai()
      .responses.create({ model, input: "and then?", previous_response_id: "resp_abc" })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/previous_response_id: this relay keeps no conversation state; send the whole conversation in input/);
    expect(mocks[kind].requests.length).toBe(calls);
    expect(await userQuota()).toBe(before);
  });
});

describe("an OpenAI channel", () => {
  it("gets a Responses call passed through as the client wrote it, billed from the upstream's usage", async () => {
    const before = await userQuota();
    const r = await openai().responses.create({ model: "gpt-4o-mini", input: "hi", previous_response_id: "resp_kept", store: true });
    expect(r.output_text).toBe("hi there");
    const got = mocks.openai.requests.at(-1)!;
    expect(got.url).toBe("/v1/responses");
    expect(got.json).toEqual({ model: "gpt-4o-mini", input: "hi", previous_response_id: "resp_kept", store: true });
    expect(before - (await userQuota())).toBe(CALL_COST);
  });
});

describe("a channel flagged Responses only", () => {
  it("keeps the flag in its setting, shown back to the editor", async () => {
    const list = await root.get<{ items: { id: number; name: string; setting: string }[] }>("/api/channel/?p=1&page_size=100");
    const ch = list.data.items.find((c) => c.name === "responses-only")!;
    expect(JSON.parse(ch.setting)).toEqual({ responses_only: true });
  });

  it("serves chat completions, Anthropic and Gemini clients through /v1/responses, billed as chat", async () => {
    const m = mocks.only;
    m.requests.length = 0;
    const before = await userQuota();
    const chat = await openai().chat.completions.create({ model: "o3-pro", messages: [{ role: "user", content: "hi" }] });
    expect(chat.choices[0].message.content).toBe("hi there");
    expect(chat.usage?.completion_tokens_details?.reasoning_tokens).toBe(USAGE.reasoning);

    const anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const s = anthropic.messages.stream({ model: "o3-pro", max_tokens: 64, messages: [{ role: "user", content: "hi" }] });
    const msg = await s.finalMessage();
    expect(msg.content.map((c) => (c.type === "text" ? c.text : c.type))).toEqual(["hi there"]);

    const genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: server.url } });
    const g = await genai.models.generateContent({ model: "o3-pro", contents: "hi" });
    expect(g.text).toBe("hi there");

    expect(m.requests.map((r) => r.url)).toEqual(["/v1/responses", "/v1/responses", "/v1/responses"]);
    expect(m.requests.map((r) => r.json.stream === true)).toEqual([false, true, false]);
    expect(before - (await userQuota())).toBe(3 * CALL_COST);
    expect(await ledgerSum()).toBe(await userQuota());
  });
});

describe("token counts and single models, each in its client's shape", () => {
  it("POST /v1/messages/count_tokens: the upstream's count where the wire has one, else the estimate; never charged", async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const before = await userQuota();
    const messages = [{ role: "user" as const, content: "count these words please" }];
    const onClaude = await anthropic.messages.countTokens({
      model: "claude-sonnet-4",
      system: "sys",
      messages,
      tools: [{ name: "t", input_schema: { type: "object" } }],
    });
    expect(onClaude).toEqual({ input_tokens: COUNTED_TOKENS });
    const sent = mocks.anthropic.requests.at(-1)!;
    expect(sent.url).toBe("/v1/messages/count_tokens");
    expect(sent.headers["x-api-key"]).toBe(mocks.anthropic.key);
    expect(Object.keys(sent.json).sort()).toEqual(["messages", "model", "system", "tools"]);

    expect(await anthropic.messages.countTokens({ model: "gemini-2.5-flash", messages })).toEqual({ input_tokens: COUNTED_TOKENS });
    expect(mocks.gemini.requests.at(-1)!.url).toBe("/v1beta/models/gemini-2.5-flash:countTokens");

    // the OpenAI wire has no count: the relay's estimate (4 + 3 framing, 24 characters / 4)
    const estimated = await anthropic.messages.countTokens({ model: "gpt-4o-mini", messages });
    expect(estimated.input_tokens).toBe(13);

    const missing = (await anthropic.messages.countTokens({ model: "no-such-model", messages }).catch((e: unknown) => e)) as InstanceType<
      typeof Anthropic.APIError
    >;
    expect(missing.status).toBe(503);
    expect((missing.error as { error: { type: string } }).error.type).toBe("api_error");
    expect(await userQuota()).toBe(before);
  });

  it("POST /v1/messages/count_tokens with an admin key pinned to a channel counts on that channel", async () => {
    const pinUp = await startMockUpstream("anthropic");
    try {
      // a channel no model routes to by selection: only the pin reaches it
      const id = await addChannel({ name: "claude-pin", type: 14, key: pinUp.key, base_url: pinUp.url, models: "claude-pin-only", group: "default" });
      const rootKey = (await root.post<{ key: string }[]>("/api/token/", { name: "pin", unlimited_quota: true })).data[0].key;
      const pinned = new Anthropic({ apiKey: `${rootKey}-${id}`, baseURL: server.url, maxRetries: 0 });
      const before = mocks.anthropic.requests.length;
      const messages = [{ role: "user" as const, content: "count on the pinned channel" }];
      expect(await pinned.messages.countTokens({ model: "claude-sonnet-4", messages })).toEqual({ input_tokens: COUNTED_TOKENS });
      expect(pinUp.requests.map((r) => r.url)).toEqual(["/v1/messages/count_tokens"]);
      expect(mocks.anthropic.requests.length).toBe(before);
      // gone again, so that the model lists below stay as they were
      expect((await root.call("DELETE", `/api/channel/${id}`)).success).toBe(true);
    } finally {
      await pinUp.close();
    }
  });

  it("GET /v1/models/{model} as OpenAI's model object, Anthropic's for an Anthropic client, and /v1beta/models/{model} as Gemini's", async () => {
    expect(await openai().models.retrieve("gpt-4o-mini")).toMatchObject({ id: "gpt-4o-mini", object: "model", owned_by: "ai-gateway" });
    const gone = (await openai()
      .models.retrieve("no-such-model")
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(gone.status).toBe(404);
    expect(gone.code).toBe("model_not_found");

    const anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const info = await anthropic.models.retrieve("claude-sonnet-4");
    expect(info).toMatchObject({ type: "model", id: "claude-sonnet-4", display_name: "claude-sonnet-4" });
    expect(new Date(info.created_at).getTime()).toBeGreaterThan(0);
    const page = await anthropic.models.list();
    expect(page.data.map((d) => d.id).sort()).toEqual(["claude-sonnet-4", "gemini-2.5-flash", "gpt-4o-mini", "o3-pro"]);
    const notThere = (await anthropic.models.retrieve("no-such-model").catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(notThere.status).toBe(404);
    expect((notThere.error as { error: { type: string } }).error.type).toBe("not_found_error");

    const genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: server.url } });
    const g = await genai.models.get({ model: "gemini-2.5-flash" });
    expect(g).toMatchObject({ name: "models/gemini-2.5-flash", displayName: "gemini-2.5-flash" });
    await expect(genai.models.get({ model: "no-such-model" })).rejects.toThrow(/NOT_FOUND|404/);
  });
});
