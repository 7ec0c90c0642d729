// Test helpers: build a client request in each ingress format and read its answer back
// (JSON or SSE) into one comparable shape.
import type { IngressName } from "@/lib/relay/formats";
import { post, sseEvents } from "./harness";

export interface Extracted {
  text: string;
  calls: { name: string; args: unknown; id?: string }[];
  /** total input tokens (cache included) and output tokens, whatever the format's convention */
  prompt: number;
  completion: number;
  cached: number;
  finish: string;
  events?: { event?: string; data: string }[];
}

export interface Spec {
  model: string;
  stream: boolean;
  system?: string;
  user?: string;
  image?: { mime: string; data: string };
  tools?: boolean;
  /** include an assistant tool call and its result before the last turn */
  toolRound?: boolean;
  maxTokens?: number;
}

const WEATHER_SCHEMA = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

export function send(relayUrl: string, ingress: IngressName, s: Spec): Promise<Response> {
  const user = s.user ?? "hello";
  if (ingress === "openai-chat") {
    const messages: unknown[] = [];
    if (s.system) messages.push({ role: "system", content: s.system });
    messages.push({
      role: "user",
      content: s.image
        ? [
            { type: "text", text: user },
            { type: "image_url", image_url: { url: `data:${s.image.mime};base64,${s.image.data}` } },
          ]
        : user,
    });
    if (s.toolRound) {
      messages.push({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
      });
      messages.push({ role: "tool", tool_call_id: "call_a", content: '{"temp":20}' });
    }
    const body: Record<string, unknown> = { model: s.model, messages, max_tokens: s.maxTokens ?? 100, stream: s.stream };
    if (s.stream) body.stream_options = { include_usage: true };
    if (s.tools || s.toolRound) body.tools = [{ type: "function", function: { name: "get_weather", description: "weather", parameters: WEATHER_SCHEMA } }];
    return post(`${relayUrl}/v1/chat/completions`, body);
  }
  if (ingress === "anthropic-messages") {
    const content: unknown = s.image
      ? [
          { type: "text", text: user },
          { type: "image", source: { type: "base64", media_type: s.image.mime, data: s.image.data } },
        ]
      : user;
    const messages: unknown[] = [{ role: "user", content }];
    if (s.toolRound) {
      messages.push({ role: "assistant", content: [{ type: "tool_use", id: "call_a", name: "get_weather", input: { city: "Paris" } }] });
      messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: "call_a", content: '{"temp":20}' }] });
    }
    const body: Record<string, unknown> = { model: s.model, max_tokens: s.maxTokens ?? 100, messages, stream: s.stream };
    if (s.system) body.system = s.system;
    if (s.tools || s.toolRound) body.tools = [{ name: "get_weather", description: "weather", input_schema: WEATHER_SCHEMA }];
    return post(`${relayUrl}/v1/messages`, body);
  }
  const parts: unknown[] = [{ text: user }];
  if (s.image) parts.push({ inlineData: { mimeType: s.image.mime, data: s.image.data } });
  const contents: unknown[] = [{ role: "user", parts }];
  if (s.toolRound) {
    contents.push({ role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] });
    contents.push({ role: "user", parts: [{ functionResponse: { name: "get_weather", response: { temp: 20 } } }] });
  }
  const body: Record<string, unknown> = { contents, generationConfig: { maxOutputTokens: s.maxTokens ?? 100 } };
  if (s.system) body.systemInstruction = { parts: [{ text: s.system }] };
  if (s.tools || s.toolRound)
    body.tools = [
      {
        functionDeclarations: [
          { name: "get_weather", description: "weather", parameters: { type: "OBJECT", properties: { city: { type: "STRING" } }, required: ["city"] } },
        ],
      },
    ];
  const action = s.stream ? "streamGenerateContent?alt=sse" : "generateContent";
  return post(`${relayUrl}/v1beta/models/${s.model}:${action}`, body);
}

export async function extract(ingress: IngressName, res: Response, stream: boolean): Promise<Extracted> {
  const out: Extracted = { text: "", calls: [], prompt: -1, completion: -1, cached: -1, finish: "" };
  if (!stream) {
    const j = (await res.json()) as any;
    if (ingress === "openai-chat") {
      const m = j.choices[0].message;
      out.text = m.content ?? "";
      out.calls = (m.tool_calls ?? []).map((t: any) => ({ name: t.function.name, args: JSON.parse(t.function.arguments), id: t.id }));
      out.prompt = j.usage.prompt_tokens;
      out.completion = j.usage.completion_tokens;
      out.cached = j.usage.prompt_tokens_details.cached_tokens;
      out.finish = j.choices[0].finish_reason;
    } else if (ingress === "anthropic-messages") {
      for (const b of j.content) {
        if (b.type === "text") out.text += b.text;
        if (b.type === "tool_use") out.calls.push({ name: b.name, args: b.input, id: b.id });
      }
      out.prompt = j.usage.input_tokens + j.usage.cache_read_input_tokens + j.usage.cache_creation_input_tokens;
      out.completion = j.usage.output_tokens;
      out.cached = j.usage.cache_read_input_tokens;
      out.finish = j.stop_reason;
    } else {
      for (const p of j.candidates[0].content.parts) {
        if (p.text && !p.thought) out.text += p.text;
        if (p.functionCall) out.calls.push({ name: p.functionCall.name, args: p.functionCall.args });
      }
      out.prompt = j.usageMetadata.promptTokenCount;
      out.completion = j.usageMetadata.candidatesTokenCount + (j.usageMetadata.thoughtsTokenCount ?? 0);
      out.cached = j.usageMetadata.cachedContentTokenCount ?? 0;
      out.finish = j.candidates[0].finishReason;
    }
    return out;
  }
  const events = await sseEvents(res);
  out.events = events;
  if (ingress === "openai-chat") {
    if (events[events.length - 1]?.data !== "[DONE]") throw new Error("stream did not end with [DONE]");
    const calls = new Map<number, { name: string; args: string; id?: string }>();
    for (const e of events.slice(0, -1)) {
      const j = JSON.parse(e.data);
      if (j.error) throw new Error("stream error: " + j.error.message);
      for (const c of j.choices) {
        if (c.delta?.content) out.text += c.delta.content;
        for (const t of c.delta?.tool_calls ?? []) {
          const cur = calls.get(t.index) ?? { name: "", args: "" };
          if (t.function?.name) cur.name = t.function.name;
          if (t.id) cur.id = t.id;
          cur.args += t.function?.arguments ?? "";
          calls.set(t.index, cur);
        }
        if (c.finish_reason) out.finish = c.finish_reason;
      }
      if (j.usage) {
        out.prompt = j.usage.prompt_tokens;
        out.completion = j.usage.completion_tokens;
        out.cached = j.usage.prompt_tokens_details.cached_tokens;
      }
    }
    out.calls = [...calls.values()].map((c) => ({ name: c.name, args: JSON.parse(c.args), id: c.id }));
  } else if (ingress === "anthropic-messages") {
    if (events[0]?.event !== "message_start" || events[events.length - 1]?.event !== "message_stop")
      throw new Error("bad anthropic event sequence: " + events.map((e) => e.event).join(","));
    const blocks = new Map<number, { type: string; name?: string; id?: string; json: string }>();
    for (const e of events) {
      const j = JSON.parse(e.data);
      if (e.event !== j.type) throw new Error("event name and type differ");
      if (j.type === "error") throw new Error("stream error: " + j.error.message);
      if (j.type === "content_block_start") blocks.set(j.index, { type: j.content_block.type, name: j.content_block.name, id: j.content_block.id, json: "" });
      if (j.type === "content_block_delta") {
        if (j.delta.type === "text_delta") out.text += j.delta.text;
        if (j.delta.type === "input_json_delta") blocks.get(j.index)!.json += j.delta.partial_json;
      }
      if (j.type === "message_delta") {
        out.finish = j.delta.stop_reason;
        out.prompt = j.usage.input_tokens + j.usage.cache_read_input_tokens + j.usage.cache_creation_input_tokens;
        out.completion = j.usage.output_tokens;
        out.cached = j.usage.cache_read_input_tokens;
      }
    }
    out.calls = [...blocks.values()].filter((b) => b.type === "tool_use").map((b) => ({ name: b.name!, args: JSON.parse(b.json || "{}"), id: b.id }));
  } else {
    for (const e of events) {
      const j = JSON.parse(e.data);
      if (j.error) throw new Error("stream error: " + j.error.message);
      for (const p of j.candidates?.[0]?.content?.parts ?? []) {
        if (p.text && !p.thought) out.text += p.text;
        if (p.functionCall) out.calls.push({ name: p.functionCall.name, args: p.functionCall.args });
      }
      if (j.candidates?.[0]?.finishReason) out.finish = j.candidates[0].finishReason;
      if (j.usageMetadata) {
        out.prompt = j.usageMetadata.promptTokenCount;
        out.completion = j.usageMetadata.candidatesTokenCount + (j.usageMetadata.thoughtsTokenCount ?? 0);
        out.cached = j.usageMetadata.cachedContentTokenCount ?? 0;
      }
    }
  }
  return out;
}
