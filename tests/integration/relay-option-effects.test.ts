// The relay options of spec 2 section 3 that change what goes upstream or what the client
// gets (docs/relay-options.md), each shown through the real server with the official SDKs as
// clients and the mock upstreams as providers: claude.*, gemini.*, the global.* switches,
// the keep-alive pings, the word filter, chat content in the usage log, and the channel
// test's response-time limit (ChannelDisableThreshold).
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { MOCK_PNG, startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let openaiUp: MockUpstream;
let claudeUp: MockUpstream;
let geminiUp: MockUpstream;
let failingUp: MockUpstream;
let user: { id: number; client: ApiClient };
let key: string;
let exempt: { id: number; client: ApiClient };
let exemptKey: string;

const MODELS = [
  "ro-gpt",
  "ro-gpt-slow",
  "claude-a",
  "claude-a-thinking",
  "claude-b",
  "gem-a",
  "gem-a-thinking",
  "gem-a-nothinking",
  "gem-img",
  "gem-v1",
  "ro-fail",
];

async function addChannel(body: Record<string, unknown>): Promise<number> {
  const r = await root.post("/api/channel/", Object.assign({ group: "default,nsfw-ok" }, body));
  expect(r.success, r.message).toBe(true);
  const list = await root.get<{ items: { id: number; name: string }[] }>("/api/channel/?p=1&page_size=100");
  return list.data.items.find((c) => c.name === body.name)!.id;
}

async function ledgerSum(userId: number): Promise<number> {
  const rows = await query(server, 'SELECT COALESCE(SUM("delta"), 0) AS s FROM "quota_ledger" WHERE "user_id" = ' + userId);
  return Number((rows[0] as { s: number | string | bigint }).s);
}

// rows of the user's ledger and usage log: a reservation refunded whole nets to zero in the
// sum, but not in the count
async function rowCounts(userId: number): Promise<{ ledger: number; logs: number }> {
  const l = await query(server, 'SELECT COUNT(*) AS n FROM "quota_ledger" WHERE "user_id" = ' + userId);
  const g = await query(server, 'SELECT COUNT(*) AS n FROM "logs" WHERE "user_id" = ' + userId);
  return { ledger: Number((l[0] as { n: unknown }).n), logs: Number((g[0] as { n: unknown }).n) };
}

type LogRow = { id: number; model_name: string; other: string; quota: number; request_id?: string };
async function logs(client: ApiClient): Promise<LogRow[]> {
  const r = await client.get<{ items: LogRow[]; total: number }>("/api/log/self/?p=1&page_size=100&type=2");
  return r.data.items;
}
const otherOf = (row: LogRow) => (row.other ? (JSON.parse(row.other) as Record<string, unknown>) : {});
// The newest log row that matches: rows are written in batches, and a row of an earlier call
// may land after this call's, so a test picks its row by what it holds, not by its place.
async function waitForLog(client: ApiClient, match: (row: LogRow) => boolean): Promise<LogRow> {
  for (let i = 0; i < 60; i++) {
    const row = (await logs(client)).find(match);
    if (row) return row;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error("the log row did not arrive");
}
const inputOf = (text: string) => (row: LogRow) => otherOf(row).input_content === text;

const openai = () => new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
const last = (m: MockUpstream) => m.requests.at(-1)!;

beforeAll(async () => {
  server = await startServer();
  openaiUp = await startMockUpstream("openai");
  claudeUp = await startMockUpstream("anthropic");
  geminiUp = await startMockUpstream("gemini");
  failingUp = await startMockUpstream("openai");
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify(Object.fromEntries(MODELS.map((m) => [m, 1]))),
    GroupRatio: JSON.stringify({ default: 1, "nsfw-ok": 1 }),
    RetryTimes: "0",
  });
  await addChannel({ name: "ro-openai", type: 1, key: openaiUp.key, base_url: openaiUp.url, models: "ro-gpt,ro-gpt-slow" });
  await addChannel({ name: "ro-claude", type: 14, key: claudeUp.key, base_url: claudeUp.url, models: "claude-a,claude-a-thinking,claude-b" });
  await addChannel({
    name: "ro-gemini",
    type: 24,
    key: geminiUp.key,
    base_url: geminiUp.url,
    models: "gem-a,gem-a-thinking,gem-a-nothinking,gem-img,gem-v1",
  });
  await addChannel({ name: "ro-failing", type: 1, key: failingUp.key, base_url: failingUp.url, models: "ro-fail" });
  user = await makeUser(server, root, "opt-user");
  expect((await root.put("/api/user/", { id: user.id, quota: 500_000_000 })).success).toBe(true);
  key = (await user.client.post<{ key: string }[]>("/api/token/", { name: "t", unlimited_quota: true })).data[0].key;
  exempt = await makeUser(server, root, "opt-exempt");
  const g = await root.put("/api/user/", { id: exempt.id, quota: 500_000_000, group: "nsfw-ok" });
  expect(g.success, g.message).toBe(true);
  exemptKey = (await exempt.client.post<{ key: string }[]>("/api/token/", { name: "t", unlimited_quota: true })).data[0].key;
});

afterAll(async () => {
  await server?.stop();
  for (const m of [openaiUp, claudeUp, geminiUp, failingUp]) await m?.close();
});

beforeEach(() => {
  for (const m of [openaiUp, claudeUp, geminiUp, failingUp]) if (m) m.behavior = {};
});

describe("claude.*", () => {
  it("claude.default_max_tokens gives max_tokens per model (else its default) when the client sends none", async () => {
    await setOptions(root, { "claude.default_max_tokens": JSON.stringify({ default: 1234, "claude-a": 777 }) });
    await openai().chat.completions.create({ model: "claude-a", messages: [{ role: "user", content: "hi" }] });
    expect(last(claudeUp).json.max_tokens).toBe(777);
    await openai().chat.completions.create({ model: "claude-b", messages: [{ role: "user", content: "hi" }] });
    expect(last(claudeUp).json.max_tokens).toBe(1234);
    // the client's own value wins
    await openai().chat.completions.create({ model: "claude-b", max_tokens: 55, messages: [{ role: "user", content: "hi" }] });
    expect(last(claudeUp).json.max_tokens).toBe(55);
  });

  it("claude.model_headers_settings adds headers per model; anthropic-beta values join the list", async () => {
    await setOptions(root, {
      "claude.model_headers_settings": JSON.stringify({ "claude-a": { "anthropic-beta": ["beta-one", "beta-two"], "x-extra": "yes", "x-api-key": "stolen" } }),
    });
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    await anthropic.messages.create({ model: "claude-a", max_tokens: 20, messages: [{ role: "user", content: "hi" }] });
    expect(last(claudeUp).headers["anthropic-beta"]).toBe("beta-one,beta-two");
    expect(last(claudeUp).headers["x-extra"]).toBe("yes");
    expect(last(claudeUp).headers["x-api-key"]).toBe(claudeUp.key); // the key header is never overridden
    await anthropic.messages.create({ model: "claude-b", max_tokens: 20, messages: [{ role: "user", content: "hi" }] });
    expect(last(claudeUp).headers["anthropic-beta"]).toBeUndefined();
  });

  it("a -thinking model turns on extended thinking with budget = share x max_tokens, and the suffix is dropped upstream", async () => {
    await setOptions(root, { "claude.thinking_adapter_enabled": "true", "claude.thinking_adapter_budget_tokens_percentage": "0.5" });
    claudeUp.behavior.reasoning = "let me think";
    const r = await openai().chat.completions.create({
      model: "claude-a-thinking",
      max_tokens: 10000,
      temperature: 0.3,
      messages: [{ role: "user", content: "hi" }],
    });
    const sent = last(claudeUp).json;
    expect(sent.model).toBe("claude-a");
    expect(sent.thinking).toEqual({ type: "enabled", budget_tokens: 5000 });
    expect(sent.max_tokens).toBe(10000);
    expect(sent.temperature).toBe(1);
    expect(r.model).toBe("claude-a-thinking");
    // off: the name goes as it is
    await setOptions(root, { "claude.thinking_adapter_enabled": "false" });
    await openai().chat.completions.create({ model: "claude-a-thinking", max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
    expect(last(claudeUp).json.model).toBe("claude-a-thinking");
    expect(last(claudeUp).json.thinking).toBeUndefined();
    await setOptions(root, { "claude.thinking_adapter_enabled": "true" });
  });
});

describe("gemini.*", () => {
  const gemini = () => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: server.url } });

  it("gemini.safety_settings go upstream as the request's safety settings, per model with a default", async () => {
    await setOptions(root, { "gemini.safety_settings": JSON.stringify({ default: "OFF", "gem-v1": "BLOCK_ONLY_HIGH" }) });
    await gemini().models.generateContent({ model: "gem-a", contents: "hi" });
    const s = last(geminiUp).json.safetySettings as { category: string; threshold: string }[];
    expect(s.length).toBeGreaterThanOrEqual(4);
    expect(s.every((x) => x.threshold === "OFF")).toBe(true);
    expect(s.map((x) => x.category)).toContain("HARM_CATEGORY_HATE_SPEECH");
    await openai().chat.completions.create({ model: "gem-v1", messages: [{ role: "user", content: "hi" }] });
    expect((last(geminiUp).json.safetySettings as { threshold: string }[]).every((x) => x.threshold === "BLOCK_ONLY_HIGH")).toBe(true);
  });

  it("gemini.version_settings picks the API version per model", async () => {
    await setOptions(root, { "gemini.version_settings": JSON.stringify({ default: "v1beta", "gem-v1": "v1" }) });
    await openai().chat.completions.create({ model: "gem-v1", messages: [{ role: "user", content: "hi" }] });
    expect(last(geminiUp).url).toBe("/v1/models/gem-v1:generateContent");
    await openai().chat.completions.create({ model: "gem-a", messages: [{ role: "user", content: "hi" }] });
    expect(last(geminiUp).url).toBe("/v1beta/models/gem-a:generateContent");
  });

  it("-thinking and -nothinking set the thinking budget of a listed model, and the suffix is dropped", async () => {
    await setOptions(root, {
      "gemini.thinking_adapter_enabled": "true",
      "gemini.thinking_adapter_budget_tokens_percentage": "0.5",
      "gemini.models_supported_thinking_budget": JSON.stringify(["gem-a"]),
    });
    const r = await openai().chat.completions.create({ model: "gem-a-thinking", max_tokens: 1000, messages: [{ role: "user", content: "hi" }] });
    expect(r.model).toBe("gem-a-thinking");
    expect(last(geminiUp).url).toBe("/v1beta/models/gem-a:generateContent");
    expect(last(geminiUp).json.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 500 });
    await openai().chat.completions.create({ model: "gem-a-nothinking", messages: [{ role: "user", content: "hi" }] });
    expect(last(geminiUp).url).toBe("/v1beta/models/gem-a:generateContent");
    expect(last(geminiUp).json.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 0 });
    // off: the names go as they are
    await setOptions(root, { "gemini.thinking_adapter_enabled": "false" });
    await openai().chat.completions.create({ model: "gem-a-thinking", messages: [{ role: "user", content: "hi" }] });
    expect(last(geminiUp).url).toBe("/v1beta/models/gem-a-thinking:generateContent");
  });

  it("gemini.supported_imagine_models ask for image output, returned to OpenAI clients as Markdown and message.images / delta.images", async () => {
    await setOptions(root, { "gemini.supported_imagine_models": JSON.stringify(["gem-img"]), LogChatContentEnabled: "true" });
    const url = `data:image/png;base64,${MOCK_PNG}`;
    const entry = { type: "image_url", image_url: { url } };
    const r = await openai().chat.completions.create({ model: "gem-img", messages: [{ role: "user", content: "draw a dot" }] });
    expect(last(geminiUp).json.generationConfig.responseModalities).toEqual(["TEXT", "IMAGE"]);
    // the Markdown image stays in the content, where the image came (after the text)
    expect(r.choices[0].message.content).toBe(`echo: draw a dot![image](${url})`);
    // and the image is given as data too (a field the SDK does not type)
    expect((r.choices[0].message as unknown as { images?: unknown }).images).toEqual([entry]);
    // the content log keeps a placeholder, never the image's data
    const whole = await waitForLog(user.client, inputOf("draw a dot"));
    expect(otherOf(whole).output_content).toBe("echo: draw a dot[image]");
    expect(whole.other).not.toContain(MOCK_PNG);
    let streamed = "";
    const deltaImages: unknown[] = [];
    const stream = await openai().chat.completions.create({ model: "gem-img", stream: true, messages: [{ role: "user", content: "draw a dot" }] });
    for await (const c of stream) {
      const d = c.choices[0]?.delta as { content?: string | null; images?: unknown[] } | undefined;
      streamed += d?.content ?? "";
      if (d?.images) deltaImages.push(...d.images);
    }
    expect(streamed).toBe(`echo: draw a dot![image](${url})`);
    expect(deltaImages).toEqual([entry]);
    const streamedRow = await waitForLog(user.client, (row) => row.id !== whole.id && inputOf("draw a dot")(row));
    expect(otherOf(streamedRow).output_content).toBe("echo: draw a dot[image]");
    expect(streamedRow.other).not.toContain(MOCK_PNG);
    await setOptions(root, { LogChatContentEnabled: "false" });
    // a model not listed is not asked for images, and its answer has no images field
    const plain = await openai().chat.completions.create({ model: "gem-a", messages: [{ role: "user", content: "hi" }] });
    expect(last(geminiUp).json.generationConfig?.responseModalities).toBeUndefined();
    expect(plain.choices[0].message).not.toHaveProperty("images");
  });

  it("gemini.supported_imagine_models: a Gemini client gets an inlineData part, a Responses client an image_generation_call item", async () => {
    await setOptions(root, { "gemini.supported_imagine_models": JSON.stringify(["gem-img"]) });
    const image = { inlineData: { mimeType: "image/png", data: MOCK_PNG } };
    const r = await gemini().models.generateContent({ model: "gem-img", contents: "draw a dot" });
    expect(r.candidates?.[0].content?.parts).toEqual([{ text: "echo: draw a dot" }, image]);
    const parts: unknown[] = [];
    for await (const c of await gemini().models.generateContentStream({ model: "gem-img", contents: "draw a dot" }))
      parts.push(...(c.candidates?.[0].content?.parts ?? []));
    expect(parts).toContainEqual(image);
    expect(parts.filter((p) => (p as { inlineData?: unknown }).inlineData)).toHaveLength(1);
    const text = parts.map((p) => (p as { text?: string }).text ?? "").join("");
    expect(text).toBe("echo: draw a dot");
    // the image came after the text, as the upstream sent it
    expect(parts.findIndex((p) => (p as { inlineData?: unknown }).inlineData)).toBeGreaterThan(parts.findIndex((p) => (p as { text?: string }).text));
    // the Responses API: its own image output item, after the message
    const resp = await openai().responses.create({ model: "gem-img", input: "draw a dot" });
    expect(resp.output.map((o) => o.type)).toEqual(["message", "image_generation_call"]);
    expect(resp.output[1]).toMatchObject({ type: "image_generation_call", status: "completed", result: MOCK_PNG, output_format: "png" });
    expect(resp.output_text).toBe("echo: draw a dot");
    // the next turn sends the whole output back, the image item included: it is taken (and left out upstream)
    const next = await openai().responses.create({
      model: "gem-img",
      input: [{ role: "user", content: "draw a dot" }, ...resp.output, { role: "user", content: "and another" }] as OpenAI.Responses.ResponseInput,
    });
    expect(next.output_text).toBe("echo: and another");
    const s = openai().responses.stream({ model: "gem-img", input: "draw a dot" });
    const seen: string[] = [];
    s.on("event", (e) => seen.push(e.type));
    const final = await s.finalResponse();
    expect(final.output.map((o) => o.type)).toEqual(["message", "image_generation_call"]);
    expect(final.output[1]).toMatchObject({ status: "completed", result: MOCK_PNG });
    expect(seen).toContain("response.image_generation_call.completed");
  });
});

describe("global.*", () => {
  it("global.pass_through_request_enabled sends the client's body unchanged but for the model on the same wire", async () => {
    const body = { model: "ro-gpt", messages: [{ role: "user", content: "hi" }], custom_field: { a: 1 }, stream: true };
    const send = () =>
      fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.text());
    await send();
    expect(last(openaiUp).json.stream_options).toEqual({ include_usage: true }); // rebuilt: usage asked for
    await setOptions(root, { "global.pass_through_request_enabled": "true" });
    const text = await send();
    expect(text).toContain("[DONE]");
    expect(last(openaiUp).json).toEqual(body);
    // an Anthropic client on an Anthropic channel: also unchanged
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    await anthropic.messages.create({ model: "claude-b", max_tokens: 20, metadata: { user_id: "u1" }, messages: [{ role: "user", content: "hi" }] });
    expect(last(claudeUp).json).toEqual({ model: "claude-b", max_tokens: 20, metadata: { user_id: "u1" }, messages: [{ role: "user", content: "hi" }] });
    // another wire: converted as usual
    const r = await openai().chat.completions.create({ model: "claude-b", messages: [{ role: "user", content: "hi" }] });
    expect(r.choices[0].message.content).toBe("echo: hi");
    expect(last(claudeUp).json.max_tokens).toBeGreaterThan(0);
    await setOptions(root, { "global.pass_through_request_enabled": "false" });
  });

  it("global.block_browser_extension_enabled refuses calls from a browser extension's origin", async () => {
    const call = (origin: string) =>
      fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", origin, "accept-language": "en" },
        body: JSON.stringify({ model: "ro-gpt", messages: [{ role: "user", content: "hi" }] }),
      });
    expect((await call("chrome-extension://abcdefgh")).status).toBe(200);
    await setOptions(root, { "global.block_browser_extension_enabled": "true" });
    const refused = await call("chrome-extension://abcdefgh");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/browser extensions/);
    expect((await call("moz-extension://1234")).status).toBe(403);
    expect((await call("https://example.com")).status).toBe(200);
    await setOptions(root, { "global.block_browser_extension_enabled": "false" });
  });

  it("global.auto_retry_force_channel_switch: off, a retry may use the same channel when no other is left; on, it never does", async () => {
    failingUp.behavior.failStatus = 500;
    await setOptions(root, { RetryTimes: "2" });
    let before = failingUp.requests.length;
    await expect(openai().chat.completions.create({ model: "ro-fail", messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({ status: 500 });
    expect(failingUp.requests.length - before).toBe(3);
    await setOptions(root, { "global.auto_retry_force_channel_switch": "true" });
    before = failingUp.requests.length;
    await expect(openai().chat.completions.create({ model: "ro-fail", messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({ status: 500 });
    expect(failingUp.requests.length - before).toBe(1);
    await setOptions(root, { RetryTimes: "0", "global.auto_retry_force_channel_switch": "false" });
  });
});

describe("sensitive words", () => {
  it("refuses a prompt with a listed word (any case) before anything is reserved; an exempt group passes", async () => {
    await setOptions(root, { CheckSensitiveEnabled: "true", CheckSensitiveOnPromptEnabled: "true", SensitiveWords: "forbiddenword\n禁止词\n" });
    // the log rows of the calls before this test land first (they are written in batches)
    await new Promise((r) => setTimeout(r, 300));
    const quota = await ledgerSum(user.id);
    const rowsBefore = await rowCounts(user.id);
    const upstreamBefore = openaiUp.requests.length;
    const err = await openai()
      .chat.completions.create({ model: "ro-gpt", messages: [{ role: "user", content: "this has a ForbiddenWord inside" }] })
      .catch((e: unknown) => e as InstanceType<typeof OpenAI.APIError>);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    const message = (err as InstanceType<typeof OpenAI.APIError>).message;
    expect(message).toMatch(/敏感词|words this site does not allow/);
    expect(message.toLowerCase()).not.toContain("forbiddenword");
    // the Anthropic format too, and a word in the system prompt
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const aerr = await anthropic.messages
      .create({ model: "claude-b", max_tokens: 10, system: "说 禁止词", messages: [{ role: "user", content: "hello" }] })
      .catch((e: unknown) => e as InstanceType<typeof Anthropic.APIError>);
    expect((aerr as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
    expect(JSON.stringify((aerr as InstanceType<typeof Anthropic.APIError>).error)).toContain('"type":"error"');
    expect(openaiUp.requests.length).toBe(upstreamBefore);
    expect(await ledgerSum(user.id)).toBe(quota); // nothing charged
    await new Promise((r) => setTimeout(r, 300)); // a batch of log rows would have landed by now
    expect(await rowCounts(user.id)).toEqual(rowsBefore); // nothing reserved, nothing logged
    // a clean prompt passes
    const ok = await openai().chat.completions.create({ model: "ro-gpt", messages: [{ role: "user", content: "a harmless prompt" }] });
    expect(ok.choices[0].message.content).toBe("echo: a harmless prompt");
    // the exempt group skips the filter only while its switch is on
    const exemptClient = new OpenAI({ apiKey: exemptKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(exemptClient.chat.completions.create({ model: "ro-gpt", messages: [{ role: "user", content: "forbiddenword" }] })).rejects.toMatchObject({
      status: 400,
    });
    await setOptions(root, { "global.safe_check_exempt_enabled": "true" });
    const passed = await exemptClient.chat.completions.create({ model: "ro-gpt", messages: [{ role: "user", content: "forbiddenword" }] });
    expect(passed.choices[0].message.content).toBe("echo: forbiddenword");
    // the prompt switch off: no check
    await setOptions(root, { CheckSensitiveOnPromptEnabled: "false" });
    await openai().chat.completions.create({ model: "ro-gpt", messages: [{ role: "user", content: "forbiddenword" }] });
    await setOptions(root, { CheckSensitiveEnabled: "false", "global.safe_check_exempt_enabled": "false" });
  });
});

describe("general_setting.ping_interval_*", () => {
  it("a stream whose upstream is silent past the interval gets ': ping' comments, then completes and is billed once", async () => {
    await setOptions(root, { "general_setting.ping_interval_enabled": "true", "general_setting.ping_interval_seconds": "1" });
    openaiUp.behavior.pauseMs = 3000;
    const ledgerBefore = await ledgerSum(user.id);
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "ro-gpt-slow", stream: true, messages: [{ role: "user", content: "one two three four" }] }),
    });
    const text = await res.text();
    const pings = text.split("\n").filter((l) => l === ": ping").length;
    expect(pings).toBeGreaterThanOrEqual(2);
    expect(text).toContain("data: [DONE]");
    // the content arrived whole around the pings
    const content = text
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => (JSON.parse(l.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta?.content ?? "")
      .join("");
    expect(content).toBe("echo: one two three four");
    await waitForLog(user.client, (l) => l.model_name === "ro-gpt-slow");
    await new Promise((r) => setTimeout(r, 300));
    const mine = (await logs(user.client)).filter((l) => l.model_name === "ro-gpt-slow");
    expect(mine).toHaveLength(1);
    // billed once: the ledger moved by exactly the logged quota (ratio 1: prompt + completion tokens)
    expect(mine[0].quota).toBe(USAGE.prompt + USAGE.completion);
    expect(ledgerBefore - (await ledgerSum(user.id))).toBe(mine[0].quota);
    // the official SDK reads the same stream through the pings
    let streamed = "";
    const stream = await openai().chat.completions.create({ model: "ro-gpt-slow", stream: true, messages: [{ role: "user", content: "a b c" }] });
    for await (const c of stream) streamed += c.choices[0]?.delta?.content ?? "";
    expect(streamed).toBe("echo: a b c");
    await setOptions(root, { "general_setting.ping_interval_enabled": "false" });
  }, 30_000);

  it("a ping is no answer: a stream that fails after pings alone is refunded, not billed", async () => {
    await setOptions(root, { "general_setting.ping_interval_enabled": "true", "general_setting.ping_interval_seconds": "1" });
    try {
      openaiUp.behavior.silentFailMs = 2500;
      const before = await ledgerSum(user.id);
      // the earlier tests' last rows are written in batches: count once they have all landed
      let consumed = (await rowCounts(user.id)).logs;
      for (let settled = false; !settled;) {
        await new Promise((r) => setTimeout(r, 700));
        const now = (await rowCounts(user.id)).logs;
        settled = now === consumed;
        consumed = now;
      }
      const res = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "ro-gpt-slow", stream: true, messages: [{ role: "user", content: "never answered" }] }),
      });
      const text = await res.text();
      expect(res.status).toBe(200); // the pings committed the headers
      expect(text.split("\n").filter((l) => l === ": ping").length).toBeGreaterThanOrEqual(2);
      expect(text).toContain("mock upstream failed mid-stream");
      expect(text).not.toContain('"content"');
      // the reservation came back whole and no consumption row was written
      await new Promise((r) => setTimeout(r, 500));
      expect(await ledgerSum(user.id)).toBe(before);
      const rows = (await query(server, "SELECT type FROM logs WHERE user_id = $1 ORDER BY id", [user.id])) as { type: unknown }[];
      expect(rows.slice(consumed).map((r) => Number(r.type))).not.toContain(2); // no consumption row
    } finally {
      openaiUp.behavior.silentFailMs = undefined;
      await setOptions(root, { "general_setting.ping_interval_enabled": "false" });
    }
  }, 30_000);

  it("a ping is no answer: the logged first response time is that of the first content, after the silence", async () => {
    await setOptions(root, { "general_setting.ping_interval_enabled": "true", "general_setting.ping_interval_seconds": "1" });
    try {
      // a Responses client on a Claude channel (translated): nothing reaches the client before
      // the upstream's first text, which comes after 3 s of silence; pings go out at 1 s and 2 s
      claudeUp.behavior.pauseMs = 3000;
      const seen = new Set((await logs(user.client)).map((r) => r.other));
      const res = await fetch(`${server.url}/v1/responses`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "claude-a", stream: true, input: "slow words" }),
      });
      const text = await res.text();
      expect(text.split("\n").filter((l) => l === ": ping").length).toBeGreaterThanOrEqual(2);
      expect(text).toContain("response.completed");
      const row = await waitForLog(user.client, (r) => r.model_name === "claude-a" && !seen.has(r.other));
      expect(Number(otherOf(row).frt)).toBeGreaterThanOrEqual(2500);
    } finally {
      await setOptions(root, { "general_setting.ping_interval_enabled": "false" });
    }
  }, 30_000);

  it("pings a pass-through stream too (/v1/responses to a channel with the Responses API)", async () => {
    await setOptions(root, { "general_setting.ping_interval_enabled": "true", "general_setting.ping_interval_seconds": "1" });
    try {
      openaiUp.behavior.pauseMs = 3000;
      const res = await fetch(`${server.url}/v1/responses`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "ro-gpt-slow", stream: true, input: "one two three" }),
      });
      const text = await res.text();
      expect(last(openaiUp).url).toBe("/v1/responses");
      // comments between whole events: every event still parses, and the text arrived whole
      expect(text.split("\n").filter((l) => l === ": ping").length).toBeGreaterThanOrEqual(2);
      const deltas = text
        .split("\n")
        .filter((l) => l.startsWith("data: {"))
        .map((l) => JSON.parse(l.slice(6)) as { type: string; delta?: string })
        .filter((e) => e.type === "response.output_text.delta")
        .map((e) => e.delta)
        .join("");
      const done = text
        .split("\n")
        .filter((l) => l.startsWith("data: {"))
        .map((l) => JSON.parse(l.slice(6)) as { type: string; response?: { output: { content?: { text: string }[] }[] } })
        .find((e) => e.type === "response.completed");
      expect(deltas).toBe("hi there"); // the mock's native Responses answer
      expect(done).toBeTruthy();
      // the official SDK reads it through the pings
      const stream = openai().responses.stream({ model: "ro-gpt-slow", input: "a b c" });
      expect((await stream.finalResponse()).status).toBe("completed");
    } finally {
      await setOptions(root, { "general_setting.ping_interval_enabled": "false" });
    }
  }, 30_000);
});

describe("LogChatContentEnabled", () => {
  it("keeps the prompt and the answer in the log row's other when on, nothing of them when off", async () => {
    await setOptions(root, { LogChatContentEnabled: "true" });
    await openai().chat.completions.create({
      model: "ro-gpt",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "first question" },
        { role: "assistant", content: "first answer" },
        { role: "user", content: "remember the lighthouse" },
      ],
    });
    let o = otherOf(await waitForLog(user.client, inputOf("remember the lighthouse")));
    expect(o.system_prompt).toBe("be brief");
    expect(o.input_content).toBe("remember the lighthouse");
    expect(o.output_content).toBe("echo: remember the lighthouse");
    expect(o.context).toEqual([
      { role: "user", content: "first question" },
      { role: "assistant", content: "first answer" },
    ]);
    // a stream keeps its answer too
    const stream = await openai().chat.completions.create({ model: "ro-gpt", stream: true, messages: [{ role: "user", content: "streamed words here" }] });
    for await (const _ of stream) void _;
    expect(otherOf(await waitForLog(user.client, inputOf("streamed words here"))).output_content).toBe("echo: streamed words here");
    // bounded: a long prompt is cut
    await openai().chat.completions.create({ model: "ro-gpt", max_tokens: 5, messages: [{ role: "user", content: "x".repeat(40_000) }] });
    const long = await waitForLog(user.client, (r) => String(otherOf(r).input_content ?? "").startsWith("xxxx"));
    expect(String(otherOf(long).input_content).length).toBeLessThanOrEqual(16_385);
    // /v1/responses: prompt and answer, served natively (ro-gpt) or translated (claude-a), streamed or not
    for (const model of ["ro-gpt", "claude-a"]) {
      await openai().responses.create({ model, instructions: "be terse", input: `responses prompt ${model}` });
      // the mock's native Responses answer is "hi there"; the translated one echoes
      const answer = model === "ro-gpt" ? "hi there" : `echo: responses prompt ${model}`;
      const row = await waitForLog(user.client, inputOf(`responses prompt ${model}`));
      o = otherOf(row);
      expect(row.model_name).toBe(model);
      expect(o.system_prompt).toBe("be terse");
      expect(o.input_content).toBe(`responses prompt ${model}`);
      expect(o.output_content).toBe(answer);
      const s = openai().responses.stream({ model, input: `streamed responses ${model}` });
      await s.finalResponse();
      const streamedRow = await waitForLog(user.client, inputOf(`streamed responses ${model}`));
      expect(otherOf(streamedRow).output_content).toBe(model === "ro-gpt" ? "hi there" : `echo: streamed responses ${model}`);
    }

    await setOptions(root, { LogChatContentEnabled: "false" });
    // every earlier row of this test has arrived: the next new row is this call's
    const lastId = (await logs(user.client))[0].id;
    await openai().chat.completions.create({
      model: "ro-gpt",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "secret topic" },
      ],
    });
    const off = await waitForLog(user.client, (r) => r.id > lastId);
    expect(off.other ?? "").not.toContain("secret topic");
    o = otherOf(off);
    expect(o.input_content).toBeUndefined();
    expect(o.output_content).toBeUndefined();
    expect(o.system_prompt).toBeUndefined();
  });
});

describe("ChannelDisableThreshold", () => {
  it("a channel test slower than the threshold (seconds) fails and disables the channel when auto-disable is on", async () => {
    const id = await addChannel({ name: "ro-slow-test", type: 1, key: openaiUp.key, base_url: openaiUp.url, models: "ro-gpt" });
    await setOptions(root, { ChannelDisableThreshold: "1", AutomaticDisableChannelEnabled: "false" });
    openaiUp.behavior.delayMs = 1300;
    const channel = async () =>
      (await root.get<{ items: { id: number; status: number; other_info: string }[] }>("/api/channel/?p=1&page_size=100")).data.items.find((c) => c.id === id)!;
    let r = (await root.call<never>("GET", `/api/channel/test/${id}?model=ro-gpt`)) as unknown as { success: boolean; message: string };
    expect(r.success).toBe(false);
    expect(r.message).toMatch(/over the threshold of 1s/);
    expect((await channel()).status).toBe(1); // auto-disable off: only reported
    await setOptions(root, { AutomaticDisableChannelEnabled: "true" });
    r = (await root.call<never>("GET", `/api/channel/test/${id}?model=ro-gpt`)) as unknown as { success: boolean; message: string };
    expect(r.success).toBe(false);
    expect((await channel()).status).toBe(3);
    expect(JSON.parse((await channel()).other_info).status_reason).toMatch(/response time/);
    // a fast test passes (and the channel comes back only through auto-enable, off here)
    openaiUp.behavior.delayMs = 0;
    r = (await root.call<never>("GET", `/api/channel/test/${id}?model=ro-gpt`)) as unknown as { success: boolean; message: string };
    expect(r.success).toBe(true);
    await setOptions(root, { AutomaticDisableChannelEnabled: "false", ChannelDisableThreshold: "5" });
  });
});
