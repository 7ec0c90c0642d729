// The official client SDKs (openai, @anthropic-ai/sdk, @google/genai) against the relay:
// a node:http front calling forward() with a channel pointed at a mock upstream of another
// (or the same) provider kind. Chat, streaming, tools, embeddings, usage.
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI, Type } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockUpstream, USAGE, type MockKind, type MockUpstream } from "@/tests/support/mock-upstreams";
import { channelFor, startRelay, type Relay } from "./harness";

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
      const r = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "system", content: "sys" }, { role: "user", content: "hi sdk" }] });
      expect(r.choices[0].message.content).toBe("echo: hi sdk");
      expect(r.usage?.prompt_tokens).toBe(USAGE.prompt);
      expect(r.usage?.completion_tokens).toBe(USAGE.completion);
      upstreamSawOnlyChannelKey(m);
    });

    it("streaming with usage", async () => {
      use(kind);
      const stream = await openai.chat.completions.create({ model: "gpt-4o", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "stream me please" }] });
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
      const r = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 50, system: "sys", messages: [{ role: "user", content: "hello claude" }] });
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

  it("responses API", async () => {
    use("openai");
    const r = await openai.responses.create({ model: "gpt-4o", input: "hi" });
    expect(r.output_text).toBe("hi there");
    expect(r.usage?.input_tokens).toBe(USAGE.prompt);
  });
});
