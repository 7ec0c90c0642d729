// The Responses API on translating channels, beyond responses.test.ts: text.format (JSON mode
// and JSON schemas) reaching every wire that has structured output and refused on the one that
// has none; a Custom channel (type 8) translated through chat completions unless flagged
// Responses only; and Gemini's `-thinking` suffix on a model without a thinking budget.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { applyOption } from "@/lib/options/store";
import { formats } from "@/lib/relay/formats";
import { geminiBody } from "@/lib/relay/providers/gemini";
import { openaiChatBody } from "@/lib/relay/providers/openai";
import { channelFor, relayOverMocks } from "./harness";

const f = relayOverMocks(["openai", "anthropic", "gemini"]);
const openai = () => new OpenAI({ apiKey: "sk-relay-client", baseURL: `${f.relay.url}/v1`, maxRetries: 0 });

const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };
const jsonSchemaFormat = { type: "json_schema" as const, name: "place", schema, strict: true };

describe("text.format on translating channels", () => {
  it("becomes chat's response_format on a chat-completions channel (a Custom channel)", async () => {
    const m = f.use("openai");
    f.relay.setChannel(channelFor(m, { type: 8 }));
    m.behavior = { text: '{"city":"Paris"}' };
    const r = await openai().responses.create({ model: "m", input: "where?", text: { format: jsonSchemaFormat } });
    expect(r.output_text).toBe('{"city":"Paris"}');
    expect(m.requests[0].url).toBe("/v1/chat/completions");
    expect(m.requests[0].json.response_format).toEqual({ type: "json_schema", json_schema: { name: "place", schema, strict: true } });
    await openai().responses.create({ model: "m", input: "where?", text: { format: { type: "json_object" } } });
    expect(m.requests[1].json.response_format).toEqual({ type: "json_object" });
    // plain text asks for nothing
    await openai().responses.create({ model: "m", input: "where?", text: { format: { type: "text" } } });
    expect(m.requests[2].json.response_format).toBeUndefined();
  });

  it("becomes Gemini's responseMimeType and responseJsonSchema", async () => {
    const m = f.use("gemini");
    await openai().responses.create({ model: "m", input: "where?", text: { format: jsonSchemaFormat } });
    expect(m.requests[0].json.generationConfig).toMatchObject({ responseMimeType: "application/json", responseJsonSchema: schema });
    await openai().responses.create({ model: "m", input: "where?", text: { format: { type: "json_object" } } });
    expect(m.requests[1].json.generationConfig.responseMimeType).toBe("application/json");
    expect(m.requests[1].json.generationConfig.responseJsonSchema).toBeUndefined();
  });

  it("is refused clearly on Anthropic, which has no structured output, and nothing goes upstream", async () => {
    const m = f.use("anthropic");
    await expect(openai().responses.create({ model: "m", input: "where?", text: { format: jsonSchemaFormat } })).rejects.toMatchObject({
      status: 400,
      code: "unsupported_parameter",
      message: expect.stringMatching(/text\.format: json_schema output has no equivalent/),
    });
    expect(m.requests).toHaveLength(0);
    // without a format the same call is served
    const r = await openai().responses.create({ model: "m", input: "hello" });
    expect(r.status).toBe("completed");
  });

  it("the canonical request carries it; a bad json_schema format is a clear 400", () => {
    const req = formats["openai-responses"].parse({ model: "m", input: "x", text: { format: { type: "json_object" } } });
    expect(req.responseFormat).toEqual({ type: "json_object" });
    expect(openaiChatBody(req, "up").response_format).toEqual({ type: "json_object" });
    expect(() => formats["openai-responses"].parse({ model: "m", input: "x", text: { format: { type: "json_schema", schema } } })).toThrow(
      /text\.format\.name/,
    );
    // a format this relay does not know is served only natively
    const odd = formats["openai-responses"].parse({ model: "m", input: "x", text: { format: { type: "grammar" } } });
    expect(odd.untranslatable).toMatch(/text\.format/);
  });
});

describe("a Custom channel (type 8) and /v1/responses", () => {
  it("is translated through chat completions (most OpenAI-compatible servers have no /v1/responses)", async () => {
    const m = f.use("openai");
    f.relay.setChannel(channelFor(m, { type: 8 }));
    const r = await openai().responses.create({ model: "m", input: "hello there" });
    expect(r.output_text).toBe("echo: hello there");
    expect(m.requests.map((q) => q.url)).toEqual(["/v1/chat/completions"]);
  });

  it("flagged Responses only, gets the client's body on its /v1/responses", async () => {
    const m = f.use("openai");
    f.relay.setChannel(channelFor(m, { type: 8, responsesOnly: true }));
    await openai().responses.create({ model: "m", input: "hello there" });
    expect(m.requests.map((q) => q.url)).toEqual(["/v1/responses"]);
    expect(m.requests[0].json.input).toBe("hello there");
  });
});

describe("gemini `-thinking` on a model without a thinking budget", () => {
  it("asks for the thoughts with no budget; `-nothinking` only drops the suffix", () => {
    applyOption("gemini.thinking_adapter_enabled", "true");
    applyOption("gemini.thinking_adapter_budget_tokens_percentage", "0.5");
    applyOption("gemini.models_supported_thinking_budget", JSON.stringify(["gem-listed"]));
    try {
      const req = formats["openai-chat"].parse({ model: "x", max_tokens: 1000, messages: [{ role: "user", content: "hi" }] });
      expect((geminiBody(req, "gem-other-thinking").generationConfig as Record<string, unknown>).thinkingConfig).toEqual({ includeThoughts: true });
      expect((geminiBody(req, "gem-listed-thinking").generationConfig as Record<string, unknown>).thinkingConfig).toEqual({
        includeThoughts: true,
        thinkingBudget: 500,
      });
      expect((geminiBody(req, "gem-other-nothinking").generationConfig as Record<string, unknown>).thinkingConfig).toBeUndefined();
    } finally {
      applyOption("gemini.thinking_adapter_enabled", "false");
      applyOption("gemini.models_supported_thinking_budget", "");
    }
  });
});
