// Ingress format: OpenAI chat completions (POST /v1/chat/completions).
import "server-only";
import { z } from "zod";
import { textWithImages, type ChatRequest, type ContentPart, type Message, type ToolChoice, type UpstreamError } from "@/lib/relay/types";
import { MAX_N, dropUnsetBudgets, imageDataUrl, imageMarkdown, json, zodToRelayError, type IngressFormat, type StreamRenderer, outputBudget } from "./types";
import { dict } from "@/lib/own-keys";
import { nowSeconds } from "@/lib/time";

// An image the model produced goes out twice (docs/relay-options.md, gemini.supported_imagine_models):
// as a Markdown image in `content`, which every chat client shows, and as an entry of the
// `images` list beside it (on `message`, or on the stream chunk's `delta`) for clients that
// read images as data.
const imageEntry = (url: string) => ({ type: "image_url", image_url: { url } });

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const imagePart = z.object({
  type: z.literal("image_url"),
  image_url: z.union([z.string(), z.looseObject({ url: z.string() })]),
});
const content = z.union([z.string(), z.null(), z.array(z.discriminatedUnion("type", [textPart, imagePart]))]);
const toolCall = z.looseObject({
  id: z.string(),
  type: z.literal("function").optional(),
  function: z.object({ name: z.string(), arguments: z.string().optional().default("") }),
});
const message = z.discriminatedUnion("role", [
  z.looseObject({ role: z.literal("system"), content }),
  z.looseObject({ role: z.literal("developer"), content }),
  z.looseObject({ role: z.literal("user"), content }),
  z.looseObject({ role: z.literal("assistant"), content: content.optional(), tool_calls: z.array(toolCall).optional() }),
  z.looseObject({ role: z.literal("tool"), content, tool_call_id: z.string() }),
]);
const tool = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({ name: z.string().min(1), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()).optional() }),
});
const schema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  tools: z.array(tool).optional(),
  tool_choice: z.union([z.enum(["auto", "none", "required"]), z.object({ type: z.literal("function"), function: z.object({ name: z.string() }) })]).optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  max_tokens: outputBudget.nullable().optional(),
  max_completion_tokens: outputBudget.nullable().optional(),
  stop: z
    .union([z.string(), z.array(z.string()).max(16)])
    .nullable()
    .optional(),
  n: z.number().int().min(1).max(MAX_N).nullable().optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
});

const KNOWN = new Set(["model", "messages", "tools", "tool_choice", "temperature", "top_p", "max_tokens", "stop", "n", "stream", "stream_options"]);

function toParts(c: z.infer<typeof content> | undefined): ContentPart[] {
  if (c == null) return [];
  if (typeof c === "string") return c ? [{ type: "text", text: c }] : [];
  return c.map((p): ContentPart => {
    if (p.type === "text") return { type: "text", text: p.text };
    const url = typeof p.image_url === "string" ? p.image_url : p.image_url.url;
    // only the prefix is matched: a pattern reaching to the end walks every byte of the image;
    // the URL is kept too, so that an OpenAI upstream gets this very string, not a copy
    // rebuilt from its parts (docs/limits.md)
    const m = /^data:([^;,]+);base64,/.exec(url);
    return m ? { type: "image", data: url.slice(m[0].length), mimeType: m[1], url } : { type: "image", url };
  });
}

const textOf = (parts: ContentPart[]) => parts.map((p) => (p.type === "text" ? p.text : "")).join("");

const BUDGETS = ["max_tokens", "max_completion_tokens"] as const;

function parse(body: unknown): ChatRequest {
  dropUnsetBudgets(body, BUDGETS);
  const r = schema.safeParse(body);
  if (!r.success) throw zodToRelayError(r.error, "request");
  const b = r.data;
  const systems: string[] = [];
  const messages: Message[] = [];
  for (const m of b.messages) {
    if (m.role === "system" || m.role === "developer") systems.push(textOf(toParts(m.content)));
    else if (m.role === "user") messages.push({ role: "user", content: toParts(m.content) });
    else if (m.role === "assistant") {
      const msg: Message = { role: "assistant", content: toParts(m.content) };
      if (m.tool_calls?.length) msg.toolCalls = m.tool_calls.map((t) => ({ id: t.id, name: t.function.name, arguments: t.function.arguments }));
      messages.push(msg);
    } else messages.push({ role: "tool", content: toParts(m.content), toolCallId: m.tool_call_id });
  }
  // tool results carry only the call id; remember the called function's name for wires that need it
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.toolCalls) for (const t of m.toolCalls) names.set(t.id, t.name);
    else if (m.role === "tool" && m.toolCallId) m.toolName = names.get(m.toolCallId);
  }
  let toolChoice: ToolChoice | undefined;
  if (typeof b.tool_choice === "string") toolChoice = b.tool_choice;
  else if (b.tool_choice) toolChoice = { name: b.tool_choice.function.name };
  const extra = dict<unknown>();
  for (const k in b) if (!KNOWN.has(k)) extra[k] = (b as Record<string, unknown>)[k];
  const req: ChatRequest = {
    model: b.model,
    messages,
    stream: b.stream === true,
  };
  if (systems.length) req.system = systems.join("\n\n");
  if (b.tools?.length) req.tools = b.tools.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
  if (toolChoice) req.toolChoice = toolChoice;
  if (b.temperature != null) req.temperature = b.temperature;
  if (b.top_p != null) req.topP = b.top_p;
  const mt = b.max_completion_tokens ?? b.max_tokens;
  if (mt != null) req.maxTokens = mt;
  if (b.stop != null) req.stop = typeof b.stop === "string" ? [b.stop] : b.stop;
  if (b.n != null) req.n = b.n;
  if (b.stream_options?.include_usage) req.streamUsage = true;
  if (Object.keys(extra).length) req.extra = { wire: "openai", fields: extra };
  return req;
}

function usageJson(u: { prompt_tokens: number; completion_tokens: number; cached_tokens: number; reasoning_tokens: number }) {
  return {
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    total_tokens: u.prompt_tokens + u.completion_tokens,
    prompt_tokens_details: { cached_tokens: u.cached_tokens },
    completion_tokens_details: { reasoning_tokens: u.reasoning_tokens },
  };
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
};

function renderError(err: UpstreamError) {
  return {
    status: err.status,
    body: json({ error: { message: err.message, type: err.type || ERROR_TYPES[err.status] || "upstream_error", param: null, code: err.code } }),
  };
}

function streamRenderer(req: ChatRequest): StreamRenderer {
  let id = "chatcmpl-" + Math.random().toString(36).slice(2, 14);
  const model = req.model;
  const created = nowSeconds();
  const chunk = (choices: unknown[]) => `data: ${json({ id, object: "chat.completion.chunk", created, model, choices })}\n\n`;
  const started = new Set<number>();
  // the role arrives with the first delta of each choice, as OpenAI sends it
  const delta = (index: number, d: Record<string, unknown>) => {
    if (!started.has(index)) {
      started.add(index);
      d = { role: "assistant", ...d };
    }
    return chunk([{ index, delta: d, logprobs: null, finish_reason: null }]);
  };
  return {
    event(e) {
      switch (e.type) {
        case "start":
          id = e.id || id;
          return "";
        case "text":
          return delta(e.index, { content: e.text });
        case "reasoning":
          return delta(e.index, { reasoning_content: e.text });
        case "image": {
          const url = imageDataUrl(e);
          return delta(e.index, { content: `![image](${url})`, images: [imageEntry(url)] });
        }
        case "tool_call_start":
          return delta(e.index, { tool_calls: [{ index: e.callIndex, id: e.id, type: "function", function: { name: e.name, arguments: "" } }] });
        case "tool_call_args":
          return delta(e.index, { tool_calls: [{ index: e.callIndex, function: { arguments: e.args } }] });
        case "finish":
          return chunk([{ index: e.index, delta: {}, logprobs: null, finish_reason: e.reason }]);
        default:
          return "";
      }
    },
    end(usage) {
      const tail = req.streamUsage ? `data: ${json({ id, object: "chat.completion.chunk", created, model, choices: [], usage: usageJson(usage) })}\n\n` : "";
      return tail + "data: [DONE]\n\n";
    },
    error(err) {
      return `data: ${renderError(err).body}\n\n`;
    },
  };
}

export const openaiChat: IngressFormat = {
  name: "openai-chat",
  parse,
  renderResponse(res, req, usage) {
    return json({
      id: res.id,
      object: "chat.completion",
      created: res.created,
      model: req.model,
      choices: res.choices.map((c) => {
        const message: Record<string, unknown> = { role: "assistant", content: textWithImages(c, imageMarkdown) || (c.toolCalls?.length ? null : "") };
        if (c.images) message.images = c.images.map((img) => imageEntry(imageDataUrl(img)));
        if (c.reasoning) message.reasoning_content = c.reasoning;
        if (c.toolCalls?.length)
          message.tool_calls = c.toolCalls.map((t) => ({ id: t.id, type: "function", function: { name: t.name, arguments: t.arguments } }));
        return { index: c.index, message, logprobs: null, finish_reason: c.finishReason };
      }),
      usage: usageJson(usage),
    });
  },
  streamRenderer,
  renderError,
};

// The request schema, also read by the relay's OpenAPI document (docs/api-reference.md).
export { schema as openaiChatRequest };
