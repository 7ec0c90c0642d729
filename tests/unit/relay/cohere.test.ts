// The Cohere v2 adapter's pieces (docs/providers.md, "Cohere"): the request body (tools,
// tool_choice, structured output), the answer with tool calls, the stream's typed events, and
// the rerank usage of Cohere-shaped answers.
import { describe, expect, it } from "vitest";
import { cohere, cohereChatBody } from "@/lib/relay/providers/cohere";
import { rerankMetaUsage } from "@/lib/relay/providers/common";
import type { ChatRequest, StreamEvent } from "@/lib/relay/types";

const ch = { id: 1, type: 34, base_url: "http://127.0.0.1:9/v2/", key: "co-key-123456", other: "", upstreamModel: "command-a-03-2025" };

describe("cohere request", () => {
  it("maps system, roles, tool calls and results, sampling and a named tool choice", () => {
    const req: ChatRequest = {
      model: "m",
      system: "be brief",
      messages: [
        { role: "user", content: [{ type: "text", text: "weather?" }] },
        { role: "assistant", content: [], toolCalls: [{ id: "c1", name: "weather", arguments: '{"city":"Paris"}' }] },
        { role: "tool", toolCallId: "c1", content: [{ type: "text", text: "sunny" }] },
      ],
      tools: [
        { name: "weather", description: "w", parameters: { type: "object", properties: { city: { type: "string" } } } },
        { name: "other", parameters: { type: "object", properties: {} } },
      ],
      toolChoice: { name: "weather" },
      temperature: 0.3,
      topP: 0.9,
      maxTokens: 50,
      stop: ["END"],
      stream: true,
    };
    expect(cohereChatBody(req, "command-a-03-2025")).toEqual({
      model: "command-a-03-2025",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "weather?" },
        { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }] },
        { role: "tool", tool_call_id: "c1", content: "sunny" },
      ],
      tools: [{ type: "function", function: { name: "weather", description: "w", parameters: { type: "object", properties: { city: { type: "string" } } } } }],
      tool_choice: "REQUIRED",
      temperature: 0.3,
      p: 0.9,
      max_tokens: 50,
      stop_sequences: ["END"],
      stream: true,
    });
  });

  it("calls {root}/v2/chat with the Bearer key, a versioned base URL trimmed to its root", async () => {
    const up = await cohere.chatRequest({ model: "m", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], stream: false }, ch);
    expect(up.url).toBe("http://127.0.0.1:9/v2/chat");
    expect(up.headers.authorization).toBe("Bearer co-key-123456");
    const rr = await cohere.passthroughRequest!("rerank", ch, "application/json");
    expect(rr.url).toBe("http://127.0.0.1:9/v2/rerank");
  });

  it("structured output: JSON mode with the schema", () => {
    const body = cohereChatBody(
      { model: "m", messages: [], stream: false, responseFormat: { type: "json_schema", name: "x", schema: { type: "object" } } },
      "m",
    );
    expect(body.response_format).toEqual({ type: "json_object", json_schema: { type: "object" } });
  });
});

describe("cohere answers", () => {
  it("reads text, tool calls and billed units", () => {
    const r = cohere.parseChat({
      id: "a1",
      finish_reason: "TOOL_CALL",
      message: {
        role: "assistant",
        tool_plan: "I will call weather",
        tool_calls: [{ id: "t1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
      },
      usage: { billed_units: { input_tokens: 10, output_tokens: 4 }, tokens: { input_tokens: 210, output_tokens: 5 } },
    });
    expect(r.choices[0]).toMatchObject({ text: "", finishReason: "tool_calls", toolCalls: [{ id: "t1", name: "weather", arguments: '{"city":"Paris"}' }] });
    expect(r.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 4 });
  });

  it("turns the stream's typed events into text, tool calls, the finish and usage", () => {
    const p = cohere.streamParser();
    const out: StreamEvent[] = [];
    const feed = (o: Record<string, unknown>) => p.parse(JSON.stringify(o), String(o.type), (e) => out.push(e));
    feed({ id: "s1", type: "message-start", delta: { message: { role: "assistant" } } });
    feed({ type: "content-start", index: 0, delta: { message: { content: { type: "text", text: "" } } } });
    feed({ type: "content-delta", index: 0, delta: { message: { content: { text: "Hel" } } } });
    feed({ type: "content-delta", index: 0, delta: { message: { content: { text: "lo" } } } });
    feed({ type: "content-end", index: 0 });
    feed({ type: "tool-plan-delta", delta: { message: { tool_plan: "plan" } } });
    feed({
      type: "tool-call-start",
      index: 0,
      delta: { message: { tool_calls: { id: "t1", type: "function", function: { name: "weather", arguments: "" } } } },
    });
    feed({ type: "tool-call-delta", index: 0, delta: { message: { tool_calls: { function: { arguments: '{"city":' } } } } });
    feed({ type: "tool-call-delta", index: 0, delta: { message: { tool_calls: { function: { arguments: '"Paris"}' } } } } });
    feed({ type: "tool-call-end", index: 0 });
    feed({ type: "message-end", delta: { finish_reason: "TOOL_CALL", usage: { billed_units: { input_tokens: 7, output_tokens: 3 } } } });
    expect(out).toEqual([
      { type: "start", id: "s1", model: "" },
      { type: "text", index: 0, text: "Hel" },
      { type: "text", index: 0, text: "lo" },
      { type: "tool_call_start", index: 0, callIndex: 0, id: "t1", name: "weather" },
      { type: "tool_call_args", index: 0, callIndex: 0, args: '{"city":' },
      { type: "tool_call_args", index: 0, callIndex: 0, args: '"Paris"}' },
      { type: "finish", index: 0, reason: "tool_calls" },
      { type: "usage", usage: expect.objectContaining({ prompt_tokens: 7, completion_tokens: 3 }) },
    ]);
  });

  it("an error answer's message, without the key", () => {
    const e = cohere.parseError(401, JSON.stringify({ id: "e", message: "invalid api token co-key-123456" }), ch);
    expect(e).toMatchObject({ status: 401, type: "authentication_error" });
    expect(e.message).not.toContain("co-key-123456");
  });
});

describe("rerank usage of Cohere-shaped answers", () => {
  it("tokens first, billed tokens next, search units alone give none (the relay estimates)", () => {
    expect(rerankMetaUsage({ meta: { tokens: { input_tokens: 20, output_tokens: 0 }, billed_units: { input_tokens: 19 } } })).toEqual({
      prompt_tokens: 20,
      completion_tokens: 0,
    });
    expect(rerankMetaUsage({ meta: { billed_units: { input_tokens: 19 }, tokens: null } })).toEqual({ prompt_tokens: 19, completion_tokens: 0 });
    expect(rerankMetaUsage({ meta: { billed_units: { search_units: 1 } } })).toBeUndefined();
    expect(rerankMetaUsage({ usage: { total_tokens: 5 } })).toBeUndefined();
  });
});
