// Ingress format: Anthropic Messages (POST /v1/messages).
import "server-only";
import { z } from "zod";
import {
  textWithImages,
  type ChatRequest,
  type ContentPart,
  type FinishReason,
  type Message,
  type ToolChoice,
  type UpstreamError,
  type Usage,
} from "@/lib/relay/types";
import { imageMarkdown, json, zodToRelayError, type IngressFormat, type StreamRenderer, outputBudget } from "./types";
import { dict } from "@/lib/own-keys";

const text = z.looseObject({ type: z.literal("text"), text: z.string() });
const image = z.looseObject({
  type: z.literal("image"),
  source: z.union([z.object({ type: z.literal("base64"), media_type: z.string(), data: z.string() }), z.object({ type: z.literal("url"), url: z.string() })]),
});
const toolUse = z.looseObject({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() });
const toolResult = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.discriminatedUnion("type", [text, image]))]).optional(),
  is_error: z.boolean().optional(),
});
// thinking blocks sent back by clients carry no meaning for other providers: accepted, dropped
const thinking = z.looseObject({ type: z.enum(["thinking", "redacted_thinking"]) });
const block = z.discriminatedUnion("type", [text, image, toolUse, toolResult, thinking]);
const schema = z.looseObject({
  model: z.string().min(1),
  max_tokens: outputBudget,
  system: z.union([z.string(), z.array(text)]).optional(),
  messages: z.array(z.object({ role: z.enum(["user", "assistant"]), content: z.union([z.string(), z.array(block)]) })).min(1),
  tools: z
    .array(z.looseObject({ name: z.string().min(1), description: z.string().optional(), input_schema: z.record(z.string(), z.unknown()).optional() }))
    .optional(),
  tool_choice: z.union([z.looseObject({ type: z.enum(["auto", "any", "none"]) }), z.looseObject({ type: z.literal("tool"), name: z.string() })]).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  stop_sequences: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
});
const KNOWN = new Set(["model", "max_tokens", "system", "messages", "tools", "tool_choice", "temperature", "top_p", "stop_sequences", "stream"]);

type Block = z.infer<typeof block>;
function imagePart(b: z.infer<typeof image>): ContentPart {
  return b.source.type === "base64" ? { type: "image", data: b.source.data, mimeType: b.source.media_type } : { type: "image", url: b.source.url };
}

function parse(body: unknown): ChatRequest {
  const r = schema.safeParse(body);
  if (!r.success) throw zodToRelayError(r.error, "request");
  const b = r.data;
  const messages: Message[] = [];
  const names = new Map<string, string>();
  for (const m of b.messages) {
    if (typeof m.content === "string") {
      messages.push({ role: m.role, content: [{ type: "text", text: m.content }] });
      continue;
    }
    const parts: ContentPart[] = [];
    const calls: Message["toolCalls"] = [];
    for (const x of m.content as Block[]) {
      if (x.type === "text") parts.push({ type: "text", text: x.text });
      else if (x.type === "image") parts.push(imagePart(x));
      else if (x.type === "tool_use") {
        calls.push({ id: x.id, name: x.name, arguments: json(x.input ?? {}) });
        names.set(x.id, x.name);
      } else if (x.type === "tool_result") {
        const c = x.content;
        const content: ContentPart[] =
          typeof c === "string" ? [{ type: "text", text: c }] : (c ?? []).map((p) => (p.type === "text" ? { type: "text", text: p.text } : imagePart(p)));
        const msg: Message = { role: "tool", content, toolCallId: x.tool_use_id, toolName: names.get(x.tool_use_id) };
        if (x.is_error) msg.isError = true;
        messages.push(msg);
      }
    }
    if (parts.length || calls.length) {
      const msg: Message = { role: m.role, content: parts };
      if (calls.length) msg.toolCalls = calls;
      messages.push(msg);
    }
  }
  const req: ChatRequest = { model: b.model, messages, stream: b.stream === true, maxTokens: b.max_tokens };
  if (b.system !== undefined) {
    const s = typeof b.system === "string" ? b.system : b.system.map((t) => t.text).join("\n");
    if (s) req.system = s;
  }
  if (b.tools?.length) req.tools = b.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.input_schema }));
  if (b.tool_choice) {
    const t = b.tool_choice;
    const choice: ToolChoice = t.type === "tool" ? { name: (t as { name: string }).name } : t.type === "any" ? "required" : t.type === "none" ? "none" : "auto";
    req.toolChoice = choice;
  }
  if (b.temperature !== undefined) req.temperature = b.temperature;
  if (b.top_p !== undefined) req.topP = b.top_p;
  if (b.stop_sequences?.length) req.stop = b.stop_sequences;
  const extra = dict<unknown>();
  for (const k in b) if (!KNOWN.has(k)) extra[k] = (b as Record<string, unknown>)[k];
  if (Object.keys(extra).length) req.extra = { wire: "anthropic", fields: extra };
  return req;
}

const STOP: Record<FinishReason, string> = { stop: "end_turn", length: "max_tokens", tool_calls: "tool_use", content_filter: "refusal" };

/** Anthropic counts input_tokens without the cache reads and writes; canonical prompt_tokens includes them. */
function usageJson(u: Usage) {
  return {
    input_tokens: Math.max(0, u.prompt_tokens - u.cached_tokens - u.cache_creation_tokens),
    output_tokens: u.completion_tokens,
    cache_read_input_tokens: u.cached_tokens,
    cache_creation_input_tokens: u.cache_creation_tokens,
  };
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};
const errorType = (status: number) => ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
const errorBody = (err: UpstreamError) => json({ type: "error", error: { type: errorType(err.status), message: err.message } });

function streamRenderer(req: ChatRequest): StreamRenderer {
  let id = "msg_" + Math.random().toString(36).slice(2, 14);
  let started = false;
  let startUsage: Partial<Usage> | undefined;
  let open: "text" | "thinking" | "tool" | null = null;
  let openCall = -1;
  let blockIndex = -1;
  let stop: FinishReason = "stop";
  const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${json(data)}\n\n`;
  const start = () => {
    if (started) return "";
    started = true;
    const u = startUsage;
    return ev("message_start", {
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model: req.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: u ? Math.max(0, (u.prompt_tokens ?? 0) - (u.cached_tokens ?? 0) - (u.cache_creation_tokens ?? 0)) : 0,
          output_tokens: 0,
          cache_read_input_tokens: u?.cached_tokens ?? 0,
          cache_creation_input_tokens: u?.cache_creation_tokens ?? 0,
        },
      },
    });
  };
  const close = () => {
    if (!open) return "";
    open = null;
    openCall = -1;
    return ev("content_block_stop", { type: "content_block_stop", index: blockIndex });
  };
  const openBlock = (kind: "text" | "thinking", block: Record<string, unknown>) => {
    if (open === kind) return "";
    const s = close();
    open = kind;
    blockIndex++;
    return s + ev("content_block_start", { type: "content_block_start", index: blockIndex, content_block: block });
  };
  const textDelta = (text: string) =>
    start() +
    openBlock("text", { type: "text", text: "" }) +
    ev("content_block_delta", { type: "content_block_delta", index: blockIndex, delta: { type: "text_delta", text } });
  return {
    event(e) {
      // Anthropic has no n: only the first choice is rendered
      if ("index" in e && e.index !== 0) return "";
      switch (e.type) {
        case "start":
          if (e.id) id = e.id.startsWith("msg") ? e.id : "msg_" + e.id;
          startUsage = e.usage;
          // message_start waits for the first content, so that nothing is written before the
          // upstream has produced something (the caller may still retry another channel)
          return "";
        case "text":
          return textDelta(e.text);
        case "image":
          // Anthropic's assistant content has no image block: the image as Markdown text
          // (docs/relay-options.md, gemini.supported_imagine_models)
          return textDelta(imageMarkdown(e));
        case "reasoning":
          return (
            start() +
            openBlock("thinking", { type: "thinking", thinking: "" }) +
            ev("content_block_delta", { type: "content_block_delta", index: blockIndex, delta: { type: "thinking_delta", thinking: e.text } })
          );
        case "tool_call_start": {
          const s = start() + close();
          open = "tool";
          openCall = e.callIndex;
          blockIndex++;
          return (
            s +
            ev("content_block_start", {
              type: "content_block_start",
              index: blockIndex,
              content_block: { type: "tool_use", id: e.id, name: e.name, input: {} },
            })
          );
        }
        case "tool_call_args":
          // arguments of a call that is not the open block cannot be interleaved in this format
          if (open !== "tool" || openCall !== e.callIndex || !e.args) return "";
          return ev("content_block_delta", { type: "content_block_delta", index: blockIndex, delta: { type: "input_json_delta", partial_json: e.args } });
        case "finish":
          stop = e.reason;
          return start() + close();
        default:
          return "";
      }
    },
    end(usage) {
      return (
        start() +
        close() +
        ev("message_delta", { type: "message_delta", delta: { stop_reason: STOP[stop], stop_sequence: null }, usage: usageJson(usage) }) +
        ev("message_stop", { type: "message_stop" })
      );
    },
    error(err) {
      return `event: error\ndata: ${errorBody(err)}\n\n`;
    },
  };
}

export const anthropicMessages: IngressFormat = {
  name: "anthropic-messages",
  parse,
  renderResponse(res, req, usage) {
    const c = res.choices[0];
    const content: unknown[] = [];
    if (c?.reasoning) content.push({ type: "thinking", thinking: c.reasoning, signature: "" });
    const text = c ? textWithImages(c, imageMarkdown) : "";
    if (text) content.push({ type: "text", text });
    if (c?.toolCalls) for (const t of c.toolCalls) content.push({ type: "tool_use", id: t.id, name: t.name, input: parseArgsSafe(t.arguments) });
    return json({
      id: res.id.startsWith("msg") ? res.id : "msg_" + res.id,
      type: "message",
      role: "assistant",
      model: req.model,
      content,
      stop_reason: STOP[c?.finishReason ?? "stop"],
      stop_sequence: null,
      usage: usageJson(usage),
    });
  },
  streamRenderer,
  renderError(err) {
    return { status: err.status, body: errorBody(err) };
  },
};

function parseArgsSafe(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

// The request schema, also read by the relay's OpenAPI document (docs/api-reference.md).
export { schema as anthropicMessagesRequest };
