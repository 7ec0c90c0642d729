// The Responses API in any direction, through forward(): the openai SDK's responses.create and
// responses.stream to each upstream wire (passed through to OpenAI and Azure, translated for
// Anthropic and Gemini), a function tool round trip, usage with cached and reasoning tokens,
// what cannot be translated refused clearly; and the other way, a channel flagged Responses
// only serving chat completions, Anthropic and Gemini clients.
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { USAGE, type MockKind } from "@/tests/support/mock-upstreams";
import { channelFor, post, relayOverMocks, sseEvents } from "./harness";

const KINDS: MockKind[] = ["openai", "azure", "anthropic", "gemini"];
const f = relayOverMocks(KINDS);
const openai = () => new OpenAI({ apiKey: "sk-relay-client", baseURL: `${f.relay.url}/v1`, maxRetries: 0 });

const weatherTool = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather of a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};

/** The user text the upstream received last, whatever its wire. */
function upstreamSaw(kind: MockKind, j: any): string {
  return JSON.stringify(kind === "gemini" ? j.contents : kind === "anthropic" ? j.messages : j.input);
}

describe.each(["anthropic", "gemini"] as const)("Responses client on a %s channel (translated)", (kind) => {
  it("responses.create: instructions, roles, usage with cached and reasoning tokens", async () => {
    const m = f.use(kind);
    m.behavior = { text: "bonjour le monde" };
    const r = await openai().responses.create({
      model: "some-model",
      instructions: "be brief",
      input: [
        { role: "developer", content: "answer in French" },
        { role: "user", content: [{ type: "input_text", text: "say hello" }] },
      ],
      max_output_tokens: 300,
      temperature: 0.5,
    });
    expect(r.object).toBe("response");
    expect(r.status).toBe("completed");
    expect(r.output_text).toBe("bonjour le monde");
    expect(r.model).toBe("some-model");
    expect(r.usage).toEqual({
      input_tokens: USAGE.prompt,
      input_tokens_details: { cached_tokens: USAGE.cached },
      output_tokens: USAGE.completion,
      output_tokens_details: { reasoning_tokens: kind === "gemini" ? USAGE.reasoning : 0 },
      total_tokens: USAGE.prompt + USAGE.completion,
    });
    const j = m.requests[0].json;
    if (kind === "anthropic") {
      expect(m.requests[0].url).toBe("/v1/messages");
      expect(j.system).toBe("be brief\n\nanswer in French");
      expect(j.max_tokens).toBe(300);
      expect(j.messages).toEqual([{ role: "user", content: [{ type: "text", text: "say hello" }] }]);
    } else {
      expect(m.requests[0].url).toBe("/v1beta/models/up-some-model:generateContent");
      expect(j.systemInstruction.parts[0].text).toBe("be brief\n\nanswer in French");
      expect(j.generationConfig).toMatchObject({ maxOutputTokens: 300, temperature: 0.5 });
    }
  });

  it("a function tool round trip, in stream and not", async () => {
    const m = f.use(kind);
    m.behavior = { toolCall: { name: "get_weather", args: { city: "Paris" } } };
    const first = await openai().responses.create({ model: "some-model", input: "weather in Paris?", tools: [weatherTool] });
    const call = first.output.find((o) => o.type === "function_call");
    expect(call).toMatchObject({ type: "function_call", name: "get_weather", status: "completed" });
    expect(JSON.parse((call as { arguments: string }).arguments)).toEqual({ city: "Paris" });
    const callId = (call as { call_id: string }).call_id;
    expect(callId).toBeTruthy();

    // the same call, streamed: the function-call argument deltas rebuild the arguments
    const stream = openai().responses.stream({ model: "some-model", input: "weather in Paris?", tools: [weatherTool] });
    const types: string[] = [];
    let argDeltas = "";
    for await (const e of stream) {
      types.push(e.type);
      if (e.type === "response.function_call_arguments.delta") argDeltas += e.delta;
    }
    const streamed = await stream.finalResponse();
    expect(JSON.parse(argDeltas)).toEqual({ city: "Paris" });
    expect(types.slice(0, 3)).toEqual(["response.created", "response.in_progress", "response.output_item.added"]);
    expect(types).toContain("response.function_call_arguments.done");
    expect(types.at(-1)).toBe("response.completed");
    const sc = streamed.output.find((o) => o.type === "function_call") as { arguments: string; name: string };
    expect(sc.name).toBe("get_weather");
    expect(JSON.parse(sc.arguments)).toEqual({ city: "Paris" });
    expect(streamed.usage?.input_tokens).toBe(USAGE.prompt);

    // the client runs the tool and sends the whole conversation back with the output
    m.behavior = { text: "It is sunny in Paris." };
    m.requests.length = 0;
    const second = await openai().responses.create({
      model: "some-model",
      tools: [weatherTool],
      input: [
        { role: "user", content: "weather in Paris?" },
        { type: "function_call", call_id: callId, name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: callId, output: '{"sky":"sunny"}' },
      ],
    });
    expect(second.output_text).toBe("It is sunny in Paris.");
    const j = m.requests[0].json;
    if (kind === "anthropic") {
      expect(j.messages[1]).toEqual({ role: "assistant", content: [{ type: "tool_use", id: callId, name: "get_weather", input: { city: "Paris" } }] });
      expect(j.messages[2]).toEqual({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: callId, content: [{ type: "text", text: '{"sky":"sunny"}' }] }],
      });
    } else {
      expect(j.contents[1]).toEqual({ role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] });
      expect(j.contents[2]).toEqual({ role: "user", parts: [{ functionResponse: { name: "get_weather", response: { sky: "sunny" } } }] });
    }
    expect(upstreamSaw(kind, j)).toContain("weather in Paris?");
  });

  it("responses.stream: the event sequence the SDK accumulates, text deltas, usage at the end", async () => {
    const m = f.use(kind);
    m.behavior = { text: "one two three", reasoning: kind === "anthropic" ? "let me think" : undefined };
    const stream = openai().responses.stream({ model: "some-model", input: "count", reasoning: { effort: "low" } });
    const types: string[] = [];
    let text = "";
    const seqs: number[] = [];
    for await (const e of stream) {
      types.push(e.type);
      seqs.push(e.sequence_number);
      if (e.type === "response.output_text.delta") text += e.delta;
    }
    const final = await stream.finalResponse();
    expect(text).toBe("one two three");
    // (the SDK adds output_text to a streamed response only for parsed formats)
    const message = final.output.find((o) => o.type === "message") as { content: { type: string; text: string }[] };
    expect(message.content).toMatchObject([{ type: "output_text", text: "one two three" }]);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    const msg = types.indexOf("response.output_text.delta");
    expect(types.slice(0, 2)).toEqual(["response.created", "response.in_progress"]);
    expect(types.slice(msg - 2, msg)).toEqual(["response.output_item.added", "response.content_part.added"]);
    expect(types.slice(-4)).toEqual(["response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed"]);
    expect(final.usage?.output_tokens).toBe(USAGE.completion);
    if (kind === "anthropic") {
      expect(final.output[0]).toMatchObject({ type: "reasoning", content: [{ type: "reasoning_text", text: "let me think" }] });
      // effort low: extended thinking with its budget added to the default output bound
      expect(m.requests[0].json.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    } else {
      expect(m.requests[0].json.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 1024, includeThoughts: true });
    }
  });

  it("previous_response_id and hosted tools are refused with a message that says why; nothing reaches the upstream", async () => {
    const m = f.use(kind);
    const err = await openai()
      .responses.create({ model: "some-model", input: "go on", previous_response_id: "resp_123" })
      .catch((e: unknown) => e as InstanceType<typeof OpenAI.APIError>);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((err as Error).message).toMatch(/previous_response_id: this relay keeps no conversation state/);
    const hosted = await post(`${f.relay.url}/v1/responses`, { model: "m", input: "hi", tools: [{ type: "web_search" }] });
    expect(hosted.status).toBe(400);
    expect(((await hosted.json()) as { error: { message: string } }).error.message).toMatch(/hosted tool "web_search"/);
    expect(m.requests).toHaveLength(0);
  });

  it("an upstream failure mid-stream ends the stream with an error event", async () => {
    const m = f.use(kind);
    m.behavior = { failMidStream: true };
    const res = await post(`${f.relay.url}/v1/responses`, { model: "m", input: "hi", stream: true });
    const events = await sseEvents(res);
    expect(events[0].event).toBe("response.created");
    expect(events.at(-1)!.event).toBe("error");
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ type: "error", message: expect.any(String) });
  });
});

describe.each(["openai", "azure"] as const)("Responses client on an %s channel (passed through)", (kind) => {
  it("the body goes upstream as the client wrote it, stateful fields included; only the model is mapped", async () => {
    const m = f.use(kind);
    const body = { model: "gpt-5", input: "hi", previous_response_id: "resp_9", store: true, tools: [{ type: "web_search" }], stream: false };
    const res = await post(`${f.relay.url}/v1/responses`, body);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { output: { content: { text: string }[] }[] }).output[0].content[0].text).toBe("hi there");
    expect(m.requests[0].url).toBe(kind === "openai" ? "/v1/responses" : "/openai/responses?api-version=2024-10-21");
    expect(m.requests[0].json).toEqual({ ...body, model: "up-gpt-5" });
    expect(f.last().usage).toMatchObject({
      prompt_tokens: USAGE.prompt,
      completion_tokens: USAGE.completion,
      cached_tokens: USAGE.cached,
      reasoning_tokens: USAGE.reasoning,
    });
  });
});

describe("an OpenAI-compatible host without the Responses API (DeepSeek)", () => {
  it("serves a Responses client through chat completions", async () => {
    const m = f.use("openai");
    f.relay.setChannel(channelFor(m, { type: 43 }));
    const r = await openai().responses.create({ model: "deepseek-chat", instructions: "sys", input: "hello ds", reasoning: { effort: "high" } });
    expect(r.output_text).toBe("echo: hello ds");
    expect(m.requests[0].url).toBe("/v1/chat/completions");
    expect(m.requests[0].json).toMatchObject({
      model: "up-deepseek-chat",
      reasoning_effort: "high",
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "hello ds" },
      ],
    });
  });
});

describe.each(["openai", "azure"] as const)("a Responses-only %s channel serves every client format", (kind) => {
  const only = () => {
    const m = f.use(kind);
    m.behavior = { responsesOnly: true };
    f.relay.setChannel(channelFor(m, { responsesOnly: true }));
    return m;
  };
  const responsesUrl = kind === "openai" ? "/v1/responses" : "/openai/responses?api-version=2024-10-21";

  it("chat completions, whole and streamed, with a tool call", async () => {
    const m = only();
    const r = await openai().chat.completions.create({
      model: "o3-pro",
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "hi" },
      ],
      max_tokens: 5,
    });
    expect(r.choices[0].message.content).toBe("hi there");
    expect(r.usage).toMatchObject({ prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion });
    expect(m.requests[0].url).toBe(responsesUrl);
    expect(m.requests[0].json).toEqual({
      model: "up-o3-pro",
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }],
      instructions: "sys",
      max_output_tokens: 16,
      store: false,
    });

    m.behavior = { responsesOnly: true, toolCall: { name: "get_weather", args: { city: "Oslo" } } };
    const stream = await openai().chat.completions.create({
      model: "o3-pro",
      messages: [{ role: "user", content: "weather?" }],
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: {} } } }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let args = "";
    let name = "";
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const c of stream) {
      const d = c.choices[0]?.delta;
      if (d?.tool_calls?.[0]?.function?.name) name = d.tool_calls[0].function.name;
      args += d?.tool_calls?.[0]?.function?.arguments ?? "";
      finish = c.choices[0]?.finish_reason ?? finish;
      if (c.usage) usage = c.usage;
    }
    expect(name).toBe("get_weather");
    expect(JSON.parse(args)).toEqual({ city: "Oslo" });
    expect(finish).toBe("tool_calls");
    expect(usage?.completion_tokens_details?.reasoning_tokens).toBe(USAGE.reasoning);
    expect(m.requests[1].json.tools).toEqual([
      { type: "function", name: "get_weather", description: null, parameters: { type: "object", properties: {} }, strict: false },
    ]);
  });

  it("an Anthropic client, streamed", async () => {
    const m = only();
    const anthropic = new Anthropic({ apiKey: "sk-relay-client", baseURL: f.relay.url, maxRetries: 0 });
    const s = anthropic.messages.stream({ model: "o3-pro", max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
    const msg = await s.finalMessage();
    expect(msg.content.map((c) => (c.type === "text" ? c.text : c.type))).toEqual(["hi there"]);
    expect(msg.usage.output_tokens).toBe(USAGE.completion);
    expect(m.requests[0].url).toBe(responsesUrl);
    expect(m.requests[0].json.stream).toBe(true);
  });

  it("a Gemini client", async () => {
    const m = only();
    const genai = new GoogleGenAI({ apiKey: "relay-client", httpOptions: { baseUrl: f.relay.url } });
    const r = await genai.models.generateContent({ model: "o3-pro", contents: "hi" });
    expect(r.text).toBe("hi there");
    expect(r.usageMetadata?.promptTokenCount).toBe(USAGE.prompt);
    expect(m.requests[0].url).toBe(responsesUrl);
  });

  it("a Responses client is passed through", async () => {
    const m = only();
    const r = await openai().responses.create({ model: "o3-pro", input: "hi" });
    expect(r.output_text).toBe("hi there");
    expect(m.requests[0].json).toEqual({ model: "up-o3-pro", input: "hi" });
  });
});
