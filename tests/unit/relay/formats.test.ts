// Ingress parsing: bounds that keep a charge positive and finite, clear errors, the
// canonical form of each format, and error rendering in each format's own shape.
import { describe, expect, it } from "vitest";
import { formats, parseGeminiPath } from "@/lib/relay/formats";
import { adapterFor, supportedChannelTypes } from "@/lib/relay/providers/registry";
import { redact } from "@/lib/relay/providers/common";
import { RelayError, type ChannelView, type StreamEvent } from "@/lib/relay/types";
import { CompletionCounter, estimatePromptTokens, estimateTextTokens } from "@/lib/relay/estimate";

const oa = (extra: object) => ({ model: "m", messages: [{ role: "user", content: "hi" }], ...extra });
const an = (extra: object) => ({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }], ...extra });
const ge = (gen: object) => ({ contents: [{ role: "user", parts: [{ text: "hi" }] }], generationConfig: gen });

function rejects(fn: () => unknown, pattern: RegExp) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RelayError);
    expect((e as RelayError).status).toBe(400);
    expect((e as RelayError).message).toMatch(pattern);
    return;
  }
  throw new Error("expected a rejection");
}

describe("bounds", () => {
  const p = formats["openai-chat"].parse;
  it.each([0, -1, 129, 1.5, 1e20, "2"])("OpenAI n=%s is refused", (n) => rejects(() => p(oa({ n })), /n/));
  it.each([-5, 10_000_001, 2.5, Number.MAX_SAFE_INTEGER])("OpenAI max_tokens=%s is refused", (v) => {
    rejects(() => p(oa({ max_tokens: v })), /max_tokens/);
    rejects(() => p(oa({ max_completion_tokens: v })), /max_completion_tokens/);
  });
  it("the edges are accepted", () => {
    const r = p(oa({ n: 128, max_tokens: 10_000_000 }));
    expect(r.n).toBe(128);
    expect(r.maxTokens).toBe(10_000_000);
    expect(p(oa({ n: 1, max_completion_tokens: 1 })).maxTokens).toBe(1);
  });
  it("a budget of 0 is not set: dropped from the client's body, no maxTokens", () => {
    const body: Record<string, unknown> = oa({ max_tokens: 0, max_completion_tokens: 0 });
    expect(p(body).maxTokens).toBeUndefined();
    expect(body).not.toHaveProperty("max_tokens");
    expect(body).not.toHaveProperty("max_completion_tokens");
    expect(p(oa({ max_completion_tokens: 0, max_tokens: 7 })).maxTokens).toBe(7);
    const r: Record<string, unknown> = { model: "m", input: "hi", max_output_tokens: 0 };
    expect(formats["openai-responses"].parse(r).maxTokens).toBeUndefined();
    expect(r).not.toHaveProperty("max_output_tokens");
    const g = ge({ maxOutputTokens: 0 });
    expect(formats.gemini.parse(g, { model: "g" }).maxTokens).toBeUndefined();
    expect(g.generationConfig).toEqual({});
  });
  it("Anthropic max_tokens is required and bounded", () => {
    const q = formats["anthropic-messages"].parse;
    rejects(() => q({ model: "m", messages: [{ role: "user", content: "hi" }] }), /max_tokens/);
    rejects(() => q(an({ max_tokens: 0 })), /max_tokens/);
    rejects(() => q(an({ max_tokens: 10_000_001 })), /max_tokens/);
    expect(q(an({ max_tokens: 10_000_000 })).maxTokens).toBe(10_000_000);
  });
  it("Gemini maxOutputTokens and candidateCount are bounded", () => {
    const g = (b: object) => formats.gemini.parse(b, { model: "g", stream: false });
    rejects(() => g(ge({ maxOutputTokens: -1 })), /maxOutputTokens/);
    rejects(() => g(ge({ candidateCount: 129 })), /candidateCount/);
    expect(g(ge({ candidateCount: 128, maxOutputTokens: 5 }))).toMatchObject({ n: 128, maxTokens: 5, model: "g", stream: false });
  });
  it("malformed bodies get a message naming the field", () => {
    rejects(() => formats["openai-chat"].parse({ model: "m", messages: [] }), /messages/);
    rejects(() => formats["openai-chat"].parse({ messages: [{ role: "user", content: "x" }] }), /model/);
    rejects(() => formats["openai-chat"].parse(oa({ messages: [{ role: "wizard", content: "x" }] })), /messages\.0/);
    rejects(() => formats["anthropic-messages"].parse(an({ messages: [{ role: "user", content: [{ type: "image", source: {} }] }] })), /messages\.0\.content/);
    rejects(() => formats.gemini.parse({ contents: "x" }, { model: "g" }), /contents/);
    rejects(() => formats.gemini.parse(ge({}), {}), /model/);
  });
});

describe("canonical form", () => {
  it("OpenAI: system and developer messages become the system prompt; unknown fields pass to the same wire", () => {
    const r = formats["openai-chat"].parse(
      oa({
        messages: [
          { role: "system", content: "A" },
          { role: "developer", content: [{ type: "text", text: "B" }] },
          { role: "user", content: "hi" },
        ],
        seed: 7,
        response_format: { type: "json_object" },
        stop: "END",
      }),
    );
    expect(r.system).toBe("A\n\nB");
    expect(r.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
    expect(r.stop).toEqual(["END"]);
    expect(r.extra).toEqual({ wire: "openai", fields: { seed: 7, response_format: { type: "json_object" } } });
  });
  it("Anthropic: tool results become tool messages with the called function's name", () => {
    const r = formats["anthropic-messages"].parse(
      an({
        system: [
          { type: "text", text: "S1" },
          { type: "text", text: "S2" },
        ],
        messages: [
          { role: "user", content: "weather?" },
          {
            role: "assistant",
            content: [
              { type: "text", text: "checking" },
              { type: "tool_use", id: "t1", name: "w", input: { c: 1 } },
            ],
          },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "t1", content: "sunny", is_error: false },
              { type: "text", text: "thanks" },
            ],
          },
        ],
        tool_choice: { type: "any" },
      }),
    );
    expect(r.system).toBe("S1\nS2");
    expect(r.toolChoice).toBe("required");
    expect(r.messages[1]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "checking" }],
      toolCalls: [{ id: "t1", name: "w", arguments: '{"c":1}' }],
    });
    expect(r.messages[2]).toEqual({ role: "tool", toolCallId: "t1", toolName: "w", content: [{ type: "text", text: "sunny" }] });
    expect(r.messages[3]).toEqual({ role: "user", content: [{ type: "text", text: "thanks" }] });
  });
  it("Gemini: function responses are matched to calls by name and order; upper-case schema types are lowered", () => {
    const r = formats.gemini.parse(
      {
        contents: [
          { role: "user", parts: [{ text: "q" }] },
          { role: "model", parts: [{ functionCall: { name: "f", args: { a: 1 } } }, { functionCall: { name: "f", args: { a: 2 } } }] },
          { role: "user", parts: [{ functionResponse: { name: "f", response: { r: 1 } } }, { functionResponse: { name: "f", response: { r: 2 } } }] },
        ],
        tools: [{ functionDeclarations: [{ name: "f", parameters: { type: "OBJECT", properties: { a: { type: "INTEGER" } } } }] }],
        toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["f"] } },
      },
      { model: "g", stream: true },
    );
    const calls = r.messages[1].toolCalls!;
    expect(r.messages[2].toolCallId).toBe(calls[0].id);
    expect(r.messages[3].toolCallId).toBe(calls[1].id);
    expect(calls[0].id).not.toBe(calls[1].id);
    expect(r.tools![0].parameters).toEqual({ type: "object", properties: { a: { type: "integer" } } });
    expect(r.toolChoice).toEqual({ name: "f" });
    expect(r.stream).toBe(true);
  });
  it("Gemini paths", () => {
    expect(parseGeminiPath("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse")).toEqual({
      model: "gemini-2.5-flash",
      action: "streamGenerateContent",
      stream: true,
    });
    expect(parseGeminiPath("/v1beta/models/gemini-pro:generateContent")).toMatchObject({ stream: false });
    expect(parseGeminiPath("/v1beta/models")).toBeNull();
  });
});

describe("error shapes", () => {
  const err = { status: 429, message: "slow down", type: "rate_limit_error", code: "rate_limited" };
  it("OpenAI", () =>
    expect(JSON.parse(formats["openai-chat"].renderError(err).body)).toEqual({
      error: { message: "slow down", type: "rate_limit_error", param: null, code: "rate_limited" },
    }));
  it("Anthropic", () =>
    expect(JSON.parse(formats["anthropic-messages"].renderError(err).body)).toEqual({
      type: "error",
      error: { type: "rate_limit_error", message: "slow down" },
    }));
  it("Gemini", () =>
    expect(JSON.parse(formats.gemini.renderError(err).body)).toEqual({ error: { code: 429, message: "slow down", status: "RESOURCE_EXHAUSTED" } }));
});

describe("registry and adapters", () => {
  const ch = (type: number, base_url = ""): ChannelView => ({ id: 1, type, base_url, key: "k-secret-123", other: "", upstreamModel: "mdl" });
  const req = { model: "m", messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }], stream: false };
  it("maps every listed type to an adapter", () => {
    expect(supportedChannelTypes()).toEqual([1, 3, 4, 8, 14, 15, 17, 18, 20, 23, 24, 25, 26, 27, 33, 34, 35, 38, 39, 40, 41, 42, 43, 45, 46, 47, 48]);
    // the task relay's types (docs/tasks.md) have no chat adapter
    expect(adapterFor(2)).toBeUndefined();
  });
  it.each([
    [1, "", "https://api.openai.com/v1/chat/completions"],
    [20, "", "https://openrouter.ai/api/v1/chat/completions"],
    [27, "", "https://api.perplexity.ai/chat/completions"],
    [43, "", "https://api.deepseek.com/v1/chat/completions"],
    [4, "", "http://localhost:11434/v1/chat/completions"],
    [8, "https://my.host/api/v3/", "https://my.host/api/v3/chat/completions"],
    [14, "", "https://api.anthropic.com/v1/messages"],
    [24, "", "https://generativelanguage.googleapis.com/v1beta/models/mdl:generateContent"],
    [34, "", "https://api.cohere.com/v2/chat"],
  ])("type %i default URL", async (type, base, url) => expect((await adapterFor(type)!.chatRequest(req, ch(type, base))).url).toBe(url));
  it("Azure uses the deployment URL, the channel's api-version, the api-key header", async () => {
    const r = await adapterFor(3)!.chatRequest(req, { ...ch(3, "https://x.openai.azure.com/"), other: "2025-01-01-preview", upstreamModel: "gpt-3.5-turbo" });
    expect(r.url).toBe("https://x.openai.azure.com/openai/deployments/gpt-35-turbo/chat/completions?api-version=2025-01-01-preview");
    expect(r.headers["api-key"]).toBe("k-secret-123");
    expect(r.headers.authorization).toBeUndefined();
  });
  it("a custom channel without a base URL is refused", () => expect(() => adapterFor(8)!.chatRequest(req, ch(8))).toThrow(RelayError));
  it("Cloudflare: the account from other in the path; an AI Gateway base with its own version is used as is", async () => {
    const acct = "0123456789abcdef0123456789abcdef";
    expect((await adapterFor(39)!.chatRequest(req, { ...ch(39, ""), other: acct })).url).toBe(
      `https://api.cloudflare.com/client/v4/accounts/${acct}/ai/v1/chat/completions`,
    );
    const gw = `https://gateway.ai.cloudflare.com/v1/${acct}/gw/workers-ai/v1`;
    expect((await adapterFor(39)!.chatRequest(req, { ...ch(39, gw), other: acct })).url).toBe(`${gw}/chat/completions`);
    expect(adapterFor(39)!.profile.checkOther!("")).toBeTruthy();
    expect(adapterFor(39)!.profile.checkOther!(acct)).toBeUndefined();
  });
  it("Jina has no chat; Xinference needs a base URL; rerank only where the wire has one", () => {
    expect(() => adapterFor(38)!.chatRequest(req, ch(38))).toThrow(RelayError);
    expect(() => adapterFor(47)!.chatRequest(req, ch(47))).toThrow(RelayError);
    const rerank = (t: number) => adapterFor(t)!.supports.passthrough.includes("rerank");
    expect([1, 3, 4, 8, 20, 34, 38, 39, 40, 47].filter(rerank)).toEqual([8, 34, 38, 40, 47]);
  });
  it("redaction removes the key, every part of a composite key, and key-like strings", () => {
    expect(redact("bad key k-secret-123 here", { key: "k-secret-123" })).toBe("bad key *** here");
    expect(redact("ak=AKID1234 sk=SECRET99", { key: "AKID1234|SECRET99" })).toBe("ak=*** sk=***");
    expect(redact("Incorrect API key provided: sk-proj-abcdefgh1234", { key: "" })).toBe("Incorrect API key provided: ***");
  });
});

describe("estimate", () => {
  it("is deterministic: ASCII 1/4, CJK 1, other 1/2 per character, rounded up", () => {
    expect(estimateTextTokens("")).toBe(0);
    expect(estimateTextTokens("hello world")).toBe(3);
    expect(estimateTextTokens("你好世界")).toBe(4);
    expect(estimateTextTokens("héllo")).toBe(2); // 4 x 1/4 + 1/2 = 1.5
    const c = new CompletionCounter();
    c.add("hel");
    c.add("lo world");
    expect(c.tokens).toBe(3);
  });
  it("prompt: framing per message, image cost, tools", () => {
    const base = { model: "m", stream: false, messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hello world" }] }] };
    expect(estimatePromptTokens(base)).toBe(3 + 4 + 3);
    expect(estimatePromptTokens({ ...base, system: "be brief" })).toBe(3 + 4 + 4 + 3 + 2);
    const img = { ...base, messages: [{ role: "user" as const, content: [{ type: "image" as const, url: "http://x/y.png" }] }] };
    expect(estimatePromptTokens(img)).toBe(3 + 4 + 765);
    expect(estimatePromptTokens({ ...base, tools: [{ name: "f", parameters: { type: "object" } }] })).toBeGreaterThan(estimatePromptTokens(base) + 4);
  });
});

// Gemini's image output (docs/relay-options.md, gemini.supported_imagine_models): the adapter
// gives images as their own item, and each format renders them in its own form.
describe("image output", () => {
  const PNG = "iVBORw0KGgo=";
  const URL = `data:image/png;base64,${PNG}`;
  const gem = adapterFor(24)!;
  const req = { model: "m", messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "draw" }] }], stream: false };
  const usage = { prompt_tokens: 5, completion_tokens: 7, cached_tokens: 0, cache_creation_tokens: 0, cache_creation_1h_tokens: 0, reasoning_tokens: 0 };
  const answer = () =>
    gem.parseChat({
      responseId: "r1",
      modelVersion: "gm",
      candidates: [
        {
          index: 0,
          finishReason: "STOP",
          content: {
            role: "model",
            parts: [
              { text: "here " },
              { inlineData: { mimeType: "image/png", data: PNG } },
              { inlineData: { mimeType: "audio/wav", data: "AAAA" } },
              { text: "done" },
            ],
          },
        },
      ],
    });
  const streamed = () => {
    const events: StreamEvent[] = [];
    const parser = gem.streamParser();
    for (const parts of [[{ text: "here " }], [{ inlineData: { mimeType: "image/png", data: PNG } }], [{ text: "done" }]])
      parser.parse(JSON.stringify({ responseId: "r1", candidates: [{ index: 0, content: { role: "model", parts } }] }), undefined, (e) => events.push(e));
    return events;
  };

  it("the Gemini adapter gives an image as its own item, in its place among the text; other inline data is dropped", () => {
    const c = answer().choices[0];
    expect(c.text).toBe("here done");
    expect(c.images).toEqual([{ mimeType: "image/png", data: PNG, offset: 5 }]);
    expect(streamed().slice(1)).toEqual([
      { type: "text", index: 0, text: "here " },
      { type: "image", index: 0, mimeType: "image/png", data: PNG },
      { type: "text", index: 0, text: "done" },
    ]);
    // an answer without images has no list
    const plain = gem.parseChat({ candidates: [{ index: 0, content: { parts: [{ text: "hi" }] }, finishReason: "STOP" }] });
    expect(plain.choices[0].images).toBeUndefined();
  });

  it("OpenAI chat: Markdown in the content and the image in message.images / delta.images", () => {
    const whole = JSON.parse(formats["openai-chat"].renderResponse(answer(), req, usage));
    expect(whole.choices[0].message.content).toBe(`here ![image](${URL})done`);
    expect(whole.choices[0].message.images).toEqual([{ type: "image_url", image_url: { url: URL } }]);
    const plain = JSON.parse(formats["openai-chat"].renderResponse(gem.parseChat({ candidates: [{ content: { parts: [{ text: "hi" }] } }] }), req, usage));
    expect(plain.choices[0].message).toEqual({ role: "assistant", content: "hi" });
    const r = formats["openai-chat"].streamRenderer({ ...req, stream: true });
    const chunks = streamed()
      .map((e) => r.event(e))
      .filter(Boolean)
      .map((s) => JSON.parse(s.slice("data: ".length)));
    expect(chunks.map((c) => c.choices[0].delta)).toEqual([
      { role: "assistant", content: "here " },
      { content: `![image](${URL})`, images: [{ type: "image_url", image_url: { url: URL } }] },
      { content: "done" },
    ]);
  });

  it("Gemini: an inlineData part, as Gemini sends it, whole and streamed", () => {
    const whole = JSON.parse(formats.gemini.renderResponse(answer(), req, usage));
    expect(whole.candidates[0].content.parts).toEqual([{ text: "here " }, { inlineData: { mimeType: "image/png", data: PNG } }, { text: "done" }]);
    const r = formats.gemini.streamRenderer({ ...req, stream: true });
    const parts = streamed()
      .map((e) => r.event(e))
      .filter(Boolean)
      .map((s) => JSON.parse(s.slice("data: ".length)).candidates[0].content.parts[0]);
    expect(parts).toEqual([{ text: "here " }, { inlineData: { mimeType: "image/png", data: PNG } }, { text: "done" }]);
  });

  it("Anthropic: Markdown text (its assistant content has no image block)", () => {
    const whole = JSON.parse(formats["anthropic-messages"].renderResponse(answer(), req, usage));
    expect(whole.content).toEqual([{ type: "text", text: `here ![image](${URL})done` }]);
    const r = formats["anthropic-messages"].streamRenderer({ ...req, stream: true });
    const text = streamed()
      .map((e) => r.event(e))
      .join("")
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)))
      .filter((d) => d.type === "content_block_delta")
      .map((d) => d.delta.text)
      .join("");
    expect(text).toBe(`here ![image](${URL})done`);
  });

  it("Responses: an image_generation_call item between the message items, whole and streamed", () => {
    const whole = JSON.parse(formats["openai-responses"].renderResponse(answer(), req, usage));
    expect(whole.output.map((o: { type: string }) => o.type)).toEqual(["message", "image_generation_call", "message"]);
    expect(whole.output[1]).toMatchObject({ type: "image_generation_call", status: "completed", result: PNG, output_format: "png" });
    expect(whole.output[0].content[0].text).toBe("here ");
    const r = formats["openai-responses"].streamRenderer({ ...req, stream: true });
    const events = (
      streamed()
        .map((e) => r.event(e))
        .join("") + r.end(usage)
    )
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)));
    const image = events.filter((e) => e.type.startsWith("response.image_generation_call") || e.item?.type === "image_generation_call");
    expect(image.map((e) => e.type)).toEqual([
      "response.output_item.added",
      "response.image_generation_call.in_progress",
      "response.image_generation_call.completed",
      "response.output_item.done",
    ]);
    expect(image[0].item.result).toBeNull();
    expect(image[3].item).toMatchObject({ status: "completed", result: PNG });
    const done = events.at(-1);
    expect(done.type).toBe("response.completed");
    expect(done.response.output.map((o: { type: string }) => o.type)).toEqual(["message", "image_generation_call", "message"]);
    // sequence numbers stay in order
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
  });

  it("the completion estimate counts an image as an image, never its base64 as text", () => {
    const c = new CompletionCounter();
    c.add("done");
    c.addImages(2);
    expect(c.tokens).toBe(1 + 2 * 765);
  });
});
