// The official client SDKs (openai, @anthropic-ai/sdk, @google/genai) against the relay:
// a node:http front calling forward() with a channel pointed at a mock upstream of another
// (or the same) provider kind. Chat, streaming, tools, embeddings, usage.
import Anthropic from "@anthropic-ai/sdk";
import { ApiError, GoogleGenAI, Type } from "@google/genai";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockUpstream, USAGE, type MockKind, type MockUpstream } from "@/tests/support/mock-upstreams";
import { channelFor, post, startRelay, type Relay } from "./harness";

const KINDS: MockKind[] = ["openai", "azure", "anthropic", "gemini"];
const mocks = {} as Record<MockKind, MockUpstream>;
let relay: Relay;
let openai: OpenAI;
let anthropic: Anthropic;
let genai: GoogleGenAI;

beforeAll(async () => {
  for (const k of KINDS) mocks[k] = await startMockUpstream(k);
  relay = await startRelay(channelFor(mocks.openai));
  // the clients' keys are the relay's business (authenticated elsewhere); the upstream must only ever see the channel's
  openai = new OpenAI({ apiKey: "sk-relay-client", baseURL: `${relay.url}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: "sk-relay-client", baseURL: relay.url, maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: "relay-client", httpOptions: { baseUrl: relay.url } });
});
afterAll(async () => {
  await relay.close();
  for (const k of KINDS) await mocks[k].close();
});

function use(kind: MockKind) {
  const m = mocks[kind];
  m.requests.length = 0;
  m.behavior = {};
  relay.setChannel(channelFor(m));
  return m;
}
function upstreamSawOnlyChannelKey(m: MockUpstream) {
  const sent = JSON.stringify(m.requests.map((r) => r.headers));
  expect(sent).toContain(m.key);
  expect(sent).not.toContain("relay-client");
}

describe.each(KINDS)("upstream %s", (kind) => {
  describe("openai SDK", () => {
    it("chat", async () => {
      const m = use(kind);
      const r = await openai.chat.completions.create({
        model: "gpt-4o",
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: "hi sdk" },
        ],
      });
      expect(r.choices[0].message.content).toBe("echo: hi sdk");
      expect(r.usage?.prompt_tokens).toBe(USAGE.prompt);
      expect(r.usage?.completion_tokens).toBe(USAGE.completion);
      upstreamSawOnlyChannelKey(m);
    });

    it("streaming with usage", async () => {
      use(kind);
      const stream = await openai.chat.completions.create({
        model: "gpt-4o",
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: "user", content: "stream me please" }],
      });
      let text = "";
      let usage: OpenAI.CompletionUsage | undefined | null;
      let chunks = 0;
      for await (const c of stream) {
        chunks++;
        text += c.choices[0]?.delta?.content ?? "";
        if (c.usage) usage = c.usage;
      }
      expect(text).toBe("echo: stream me please");
      expect(chunks).toBeGreaterThan(3);
      expect(usage?.total_tokens).toBe(USAGE.prompt + USAGE.completion);
    });

    it("tools, streamed through the SDK's helper", async () => {
      const m = use(kind);
      m.behavior = { toolCall: { name: "lookup", args: { q: "x" } } };
      const runner = openai.chat.completions.stream({
        model: "gpt-4o",
        messages: [{ role: "user", content: "use the tool" }],
        tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } } } } }],
      });
      const final = await runner.finalChatCompletion();
      const call = final.choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(call.function.name).toBe("lookup");
      expect(JSON.parse(call.function.arguments)).toEqual({ q: "x" });
      expect(final.choices[0].finish_reason).toBe("tool_calls");
    });

    it("errors surface as the SDK's typed errors", async () => {
      const m = use(kind);
      m.behavior = { failStatus: 429 };
      const e = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(OpenAI.RateLimitError);
      expect(String((e as Error).message)).not.toContain(m.key);
    });
  });

  describe("anthropic SDK", () => {
    it("messages", async () => {
      const m = use(kind);
      const r = await anthropic.messages.create({
        model: "claude-sonnet-4-5",
        max_tokens: 50,
        system: "sys",
        messages: [{ role: "user", content: "hello claude" }],
      });
      expect(r.content[0]).toMatchObject({ type: "text", text: "echo: hello claude" });
      expect(r.usage.input_tokens + (r.usage.cache_read_input_tokens ?? 0) + (r.usage.cache_creation_input_tokens ?? 0)).toBe(USAGE.prompt);
      expect(r.usage.output_tokens).toBe(USAGE.completion);
      upstreamSawOnlyChannelKey(m);
    });

    it("streaming", async () => {
      use(kind);
      const stream = anthropic.messages.stream({ model: "claude-sonnet-4-5", max_tokens: 50, messages: [{ role: "user", content: "stream to claude" }] });
      let deltas = "";
      stream.on("text", (t) => (deltas += t));
      const final = await stream.finalMessage();
      expect(deltas).toBe("echo: stream to claude");
      expect(final.content[0]).toMatchObject({ type: "text", text: "echo: stream to claude" });
      expect(final.stop_reason).toBe("end_turn");
      expect(final.usage.output_tokens).toBe(USAGE.completion);
    });

    it("tool use, streamed", async () => {
      const m = use(kind);
      m.behavior = { toolCall: { name: "lookup", args: { q: "y", n: 2 } } };
      const final = await anthropic.messages
        .stream({
          model: "claude-sonnet-4-5",
          max_tokens: 50,
          messages: [{ role: "user", content: "use it" }],
          tools: [{ name: "lookup", input_schema: { type: "object", properties: { q: { type: "string" } } } }],
        })
        .finalMessage();
      const block = final.content.find((b) => b.type === "tool_use");
      expect(block).toMatchObject({ type: "tool_use", name: "lookup", input: { q: "y", n: 2 } });
      expect(final.stop_reason).toBe("tool_use");
    });
  });

  describe("google genai SDK", () => {
    it("generateContent with a system instruction", async () => {
      const m = use(kind);
      const r = await genai.models.generateContent({ model: "gemini-2.5-flash", contents: "hello gemini", config: { systemInstruction: "sys" } });
      expect(r.text).toBe("echo: hello gemini");
      expect(r.usageMetadata?.promptTokenCount).toBe(USAGE.prompt);
      upstreamSawOnlyChannelKey(m);
    });

    it("generateContentStream", async () => {
      use(kind);
      const stream = await genai.models.generateContentStream({ model: "gemini-2.5-flash", contents: "stream gemini now" });
      let text = "";
      let total = 0;
      for await (const c of stream) {
        text += c.text ?? "";
        if (c.usageMetadata?.totalTokenCount) total = c.usageMetadata.totalTokenCount;
      }
      expect(text).toBe("echo: stream gemini now");
      expect(total).toBe(USAGE.prompt + USAGE.completion);
    });

    it("function calling", async () => {
      const m = use(kind);
      m.behavior = { toolCall: { name: "lookup", args: { q: "z" } } };
      const r = await genai.models.generateContent({
        model: "gemini-2.5-flash",
        contents: "call it",
        config: { tools: [{ functionDeclarations: [{ name: "lookup", parameters: { type: Type.OBJECT, properties: { q: { type: Type.STRING } } } }] }] },
      });
      expect(r.functionCalls?.[0]).toMatchObject({ name: "lookup", args: { q: "z" } });
    });
  });
});

describe("openai SDK on the other endpoints", () => {
  for (const kind of ["openai", "azure"] as const)
    it(`embeddings via ${kind}`, async () => {
      const m = use(kind);
      const r = await openai.embeddings.create({ model: "text-embedding-3-small", input: ["a", "b"] });
      expect(r.data.map((d) => d.index)).toEqual([0, 1]);
      expect(r.usage.prompt_tokens).toBe(USAGE.prompt);
      expect(m.requests[0].json.model).toBe("up-text-embedding-3-small");
    });

  // A WAV-like file whose bytes look like a form: CRLFs, dashes, and a model field header.
  const AUDIO = Buffer.concat([
    Buffer.from("RIFF\0\0\0\0WAVE\r\n\r\n--\r\n", "latin1"),
    Buffer.from('Content-Disposition: form-data; name="model"\r\n\r\nmodel\r\n', "latin1"),
    Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 131 + 7) & 0xff)),
  ]);
  for (const kind of ["openai", "azure"] as const)
    it(`audio transcription via ${kind}: the upstream gets the mapped model and the file intact`, async () => {
      const m = use(kind);
      const r = await openai.audio.transcriptions.create({
        model: "whisper-1",
        file: await toFile(AUDIO, "speech.wav", { type: "audio/wav" }),
        language: "en",
      });
      expect(r.text).toBe("hello world");
      const up = m.requests[0];
      expect(up.url).toBe(kind === "openai" ? "/v1/audio/transcriptions" : "/openai/deployments/up-whisper-1/audio/transcriptions?api-version=2024-10-21");
      expect(Number(up.headers["content-length"])).toBe(up.raw.length);
      const ct = String(up.headers["content-type"]);
      expect(ct).toMatch(/^multipart\/form-data; boundary=/);
      const fields = await new Request("http://mock/", { method: "POST", body: new Uint8Array(up.raw), headers: { "content-type": ct } }).formData();
      expect(fields.getAll("model")).toEqual(["up-whisper-1"]);
      expect(fields.get("language")).toBe("en");
      const file = fields.get("file") as File;
      expect(file.name).toBe("speech.wav");
      expect(Buffer.from(await file.arrayBuffer()).equals(AUDIO)).toBe(true);
      upstreamSawOnlyChannelKey(m);
      expect(relay.outcomes.at(-1)).toMatchObject({ ok: true, meter: { seconds: 4 } });
    });

  it("audio transcription without a model: a 400 the SDK reports, nothing sent upstream", async () => {
    const m = use("openai");
    const form = new FormData();
    form.append("file", new Blob([AUDIO], { type: "audio/wav" }), "speech.wav");
    const res = await fetch(`${relay.url}/v1/audio/transcriptions`, { method: "POST", body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { message: expect.stringMatching(/model is required/), type: "invalid_request_error", param: null, code: "invalid_request" },
    });
    expect(m.requests).toHaveLength(0);
  });

  it("responses API", async () => {
    use("openai");
    const r = await openai.responses.create({ model: "gpt-4o", input: "hi" });
    expect(r.output_text).toBe("hi there");
    expect(r.usage?.input_tokens).toBe(USAGE.prompt);
  });
});

// @google/genai's models.embedContent always sends :batchEmbedContents (one request per
// content); the single :embedContent is what REST clients and older SDKs send.
describe("google genai SDK embeddings", () => {
  const lastOutcome = () => relay.outcomes[relay.outcomes.length - 1];

  it("several contents to a Gemini channel: forwarded natively with the hints, vectors as the upstream made them", async () => {
    const m = use("gemini");
    const r = await genai.models.embedContent({
      model: "gemini-embedding-001",
      contents: ["What is the meaning of life?", "hi"],
      config: { taskType: "RETRIEVAL_DOCUMENT", outputDimensionality: 8 },
    });
    // the mock's vector: [index, length of the text, outputDimensionality]
    expect(r.embeddings?.map((e) => e.values)).toEqual([
      [0, 28, 8],
      [1, 2, 8],
    ]);
    expect(m.requests).toHaveLength(1);
    expect(m.requests[0].url).toBe("/v1beta/models/up-gemini-embedding-001:batchEmbedContents");
    expect(m.requests[0].json.requests[1]).toEqual({
      model: "models/up-gemini-embedding-001",
      content: { parts: [{ text: "hi" }] },
      taskType: "RETRIEVAL_DOCUMENT",
      outputDimensionality: 8,
    });
    upstreamSawOnlyChannelKey(m);
    // Gemini counts no tokens for embeddings: ceil(28/4) + ceil(2/4), estimated
    expect(lastOutcome()).toMatchObject({ ok: true, usageEstimated: true, usage: { prompt_tokens: 8, completion_tokens: 0 } });
  });

  it("one content to a Gemini channel", async () => {
    const m = use("gemini");
    const r = await genai.models.embedContent({ model: "gemini-embedding-001", contents: "hello" });
    expect(r.embeddings?.map((e) => e.values)).toEqual([[0, 5, 0]]);
    expect(m.requests[0].json).toEqual({ requests: [{ model: "models/up-gemini-embedding-001", content: { parts: [{ text: "hello" }] } }] });
  });

  for (const kind of ["openai", "azure"] as const)
    it(`several contents to an ${kind} channel: converted to /v1/embeddings and back, usage from the upstream`, async () => {
      const m = use(kind);
      const r = await genai.models.embedContent({
        model: "text-embedding-3-small",
        contents: ["first text", "second"],
        config: { outputDimensionality: 8, taskType: "RETRIEVAL_QUERY" },
      });
      // the mock's vector: [0.1, 0.2, 0.3 + index]
      expect(r.embeddings?.map((e) => e.values)).toEqual([
        [0.1, 0.2, 0.3],
        [0.1, 0.2, 1.3],
      ]);
      expect(m.requests).toHaveLength(1);
      expect(m.requests[0].url).toBe(kind === "openai" ? "/v1/embeddings" : "/openai/deployments/up-text-embedding-3-small/embeddings?api-version=2024-10-21");
      // taskType has no OpenAI counterpart: dropped
      expect(m.requests[0].json).toEqual({ model: "up-text-embedding-3-small", input: ["first text", "second"], encoding_format: "float", dimensions: 8 });
      upstreamSawOnlyChannelKey(m);
      expect(lastOutcome()).toMatchObject({ ok: true, usageEstimated: false, usage: { prompt_tokens: USAGE.prompt } });
    });

  it("one content to an OpenAI channel", async () => {
    const m = use("openai");
    const r = await genai.models.embedContent({ model: "text-embedding-3-small", contents: "only one" });
    expect(r.embeddings?.map((e) => e.values)).toEqual([[0.1, 0.2, 0.3]]);
    expect(m.requests[0].json.input).toEqual(["only one"]);
  });

  it("an Anthropic channel has no embeddings: a Gemini-shaped 400, retryable, the upstream not called", async () => {
    const m = use("anthropic");
    const e = await genai.models.embedContent({ model: "gemini-embedding-001", contents: "x" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    expect((e as ApiError).message).toContain("does not serve embeddings");
    expect(m.requests).toHaveLength(0);
    expect(lastOutcome()).toMatchObject({ ok: false, retryable: true });
  });

  it("upstream errors come back Gemini-shaped, without the channel's key", async () => {
    const m = use("openai");
    m.behavior = { failStatus: 429 };
    const e = await genai.models.embedContent({ model: "text-embedding-3-small", contents: "x" }).catch((x: unknown) => x);
    expect((e as ApiError).status).toBe(429);
    expect((e as ApiError).message).toContain("RESOURCE_EXHAUSTED");
    expect((e as ApiError).message).not.toContain(m.key);
  });
});

describe("Gemini's single :embedContent over REST", () => {
  const url = (model: string) => `${relay.url}/v1beta/models/${model}:embedContent`;
  // Google's own REST samples write the proto names (task_type, output_dimensionality)
  const body = { content: { parts: [{ text: "hello" }, { text: " world" }] }, task_type: "RETRIEVAL_QUERY", output_dimensionality: 4 };

  it("to a Gemini channel: the upstream's :embedContent, the parts kept together", async () => {
    const m = use("gemini");
    const r = await post(url("gemini-embedding-001"), body);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ embedding: { values: [0, 11, 4] } });
    expect(m.requests[0].url).toBe("/v1beta/models/up-gemini-embedding-001:embedContent");
    expect(m.requests[0].json).toEqual({
      model: "models/up-gemini-embedding-001",
      content: { parts: [{ text: "hello" }, { text: " world" }] },
      taskType: "RETRIEVAL_QUERY",
      outputDimensionality: 4,
    });
  });

  it("to an OpenAI channel: one input made of the parts, answered as one embedding", async () => {
    const m = use("openai");
    const r = await post(url("text-embedding-3-small"), body);
    expect(await r.json()).toEqual({ embedding: { values: [0.1, 0.2, 0.3] } });
    expect(m.requests[0].json).toMatchObject({ input: ["hello\n world"], dimensions: 4 });
  });

  it("refuses what Gemini refuses, in Gemini's error shape, before any upstream call", async () => {
    const m = use("gemini");
    const image = await post(url("gemini-embedding-001"), { content: { parts: [{ inlineData: { mimeType: "image/png", data: "AAAA" } }] } });
    expect(image.status).toBe(400);
    const j = (await image.json()) as any;
    expect(j.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
    expect(j.error.message).toContain("only text parts");
    const otherModel = await post(`${relay.url}/v1beta/models/gemini-embedding-001:batchEmbedContents`, {
      requests: [{ model: "models/another-model", content: { parts: [{ text: "x" }] } }],
    });
    expect(otherModel.status).toBe(400);
    expect(((await otherModel.json()) as any).error.message).toContain("requests.0.model");
    const badTask = await post(url("gemini-embedding-001"), { content: { parts: [{ text: "x" }] }, taskType: "retrieval query" });
    expect(badTask.status).toBe(400);
    expect(m.requests).toHaveLength(0);
  });
});
