// Ingress parsing: bounds that keep a charge positive and finite, clear errors, the
// canonical form of each format, and error rendering in each format's own shape.
import { describe, expect, it } from "vitest";
import { formats, parseGeminiPath } from "@/lib/relay/formats";
import { adapterFor, supportedChannelTypes } from "@/lib/relay/providers/registry";
import { redact } from "@/lib/relay/providers/common";
import { RelayError, type ChannelView } from "@/lib/relay/types";
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
  it.each([0, -5, 10_000_001, 2.5, Number.MAX_SAFE_INTEGER])("OpenAI max_tokens=%s is refused", (v) => {
    rejects(() => p(oa({ max_tokens: v })), /max_tokens/);
    rejects(() => p(oa({ max_completion_tokens: v })), /max_completion_tokens/);
  });
  it("the edges are accepted", () => {
    const r = p(oa({ n: 128, max_tokens: 10_000_000 }));
    expect(r.n).toBe(128);
    expect(r.maxTokens).toBe(10_000_000);
    expect(p(oa({ n: 1, max_completion_tokens: 1 })).maxTokens).toBe(1);
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
    rejects(() => g(ge({ maxOutputTokens: 0 })), /maxOutputTokens/);
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
    expect(supportedChannelTypes()).toEqual([1, 3, 4, 8, 14, 20, 24, 25, 27, 40, 42, 43, 48]);
    expect(adapterFor(41)).toBeUndefined();
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
  ])("type %i default URL", (type, base, url) => expect(adapterFor(type)!.chatRequest(req, ch(type, base)).url).toBe(url));
  it("Azure uses the deployment URL, the channel's api-version, the api-key header", () => {
    const r = adapterFor(3)!.chatRequest(req, { ...ch(3, "https://x.openai.azure.com/"), other: "2025-01-01-preview", upstreamModel: "gpt-3.5-turbo" });
    expect(r.url).toBe("https://x.openai.azure.com/openai/deployments/gpt-35-turbo/chat/completions?api-version=2025-01-01-preview");
    expect(r.headers["api-key"]).toBe("k-secret-123");
    expect(r.headers.authorization).toBeUndefined();
  });
  it("a custom channel without a base URL is refused", () => expect(() => adapterFor(8)!.chatRequest(req, ch(8))).toThrow(RelayError));
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
