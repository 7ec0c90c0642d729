// Anthropic Messages (channel type 14): POST {base}/v1/messages, x-api-key, anthropic-version.
import "server-only";
import type { ChannelView, ChatRequest, ChatResponse, ContentPart, FinishReason, ToolCall, Usage } from "@/lib/relay/types";
import { RelayError } from "@/lib/relay/types";
import { fallbackError, joinVersioned, redact, tryJson, typeForStatus } from "./common";
import type { ProviderAdapter, StreamParser } from "./types";

type Json = Record<string, unknown>;
export const ANTHROPIC_VERSION = "2023-06-01";
const DEFAULT_BASE = "https://api.anthropic.com";

// max_tokens is required by Anthropic; Claude 3 models cap output at 4096, later ones go higher
const defaultMaxTokens = (model: string) => (/claude-3-(opus|sonnet|haiku)/.test(model) ? 4096 : 8192);

function block(p: ContentPart): Json {
  if (p.type === "text") return { type: "text", text: p.text };
  if (p.data) return { type: "image", source: { type: "base64", media_type: p.mimeType ?? "image/png", data: p.data } };
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(p.url ?? "");
  if (m) return { type: "image", source: { type: "base64", media_type: m[1], data: m[2] } };
  return { type: "image", source: { type: "url", url: p.url } };
}
const nonEmpty = (b: Json) => b.type !== "text" || (b.text as string).length > 0;

function parseArgs(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

export function anthropicBody(req: ChatRequest, model: string): Json {
  const messages: { role: string; content: Json[] }[] = [];
  const push = (role: string, blocks: Json[]) => {
    if (!blocks.length) return;
    const last = messages[messages.length - 1];
    // consecutive turns of one role are merged: tool results and the next user text share a turn
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const m of req.messages) {
    if (m.role === "tool") {
      const content = m.content.map(block).filter(nonEmpty);
      const r: Json = { type: "tool_result", tool_use_id: m.toolCallId ?? "", content };
      if (m.isError) r.is_error = true;
      push("user", [r]);
    } else if (m.role === "assistant") {
      const blocks = m.content.map(block).filter(nonEmpty);
      if (m.toolCalls) for (const t of m.toolCalls) blocks.push({ type: "tool_use", id: t.id, name: t.name, input: parseArgs(t.arguments) });
      push("assistant", blocks);
    } else push("user", m.content.map(block).filter(nonEmpty));
  }
  const body: Json = { model, max_tokens: req.maxTokens ?? defaultMaxTokens(model), messages };
  if (req.system) body.system = req.system;
  if (req.tools?.length)
    body.tools = req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters ?? { type: "object", properties: {} } }));
  if (req.toolChoice) {
    const c = req.toolChoice;
    body.tool_choice = typeof c === "object" ? { type: "tool", name: c.name } : c === "required" ? { type: "any" } : { type: c };
  }
  // Anthropic's temperature is 0..1 where OpenAI's is 0..2
  if (req.temperature !== undefined) body.temperature = Math.min(1, req.temperature);
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.stop) body.stop_sequences = req.stop;
  if (req.extra?.wire === "anthropic") for (const k in req.extra.fields) if (!(k in body)) body[k] = req.extra.fields[k];
  if (req.stream) body.stream = true;
  return body;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** Anthropic's input_tokens excludes cache reads and writes; canonical prompt_tokens includes them. */
function usageOf(u: Json): Partial<Usage> {
  const out: Partial<Usage> = {};
  if ("output_tokens" in u) out.completion_tokens = num(u.output_tokens);
  if ("input_tokens" in u || "cache_read_input_tokens" in u || "cache_creation_input_tokens" in u) {
    const cached = num(u.cache_read_input_tokens);
    const created = num(u.cache_creation_input_tokens);
    out.prompt_tokens = num(u.input_tokens) + cached + created;
    out.cached_tokens = cached;
    out.cache_creation_tokens = created;
  }
  return out;
}

function finish(r: unknown): FinishReason {
  if (r === "max_tokens") return "length";
  if (r === "tool_use") return "tool_calls";
  if (r === "refusal") return "content_filter";
  return "stop";
}

function parseChat(body: unknown): ChatResponse {
  const b = body as Json;
  if (!b || !Array.isArray(b.content)) throw new RelayError(502, "upstream answer has no content", "upstream_error", "bad_response");
  let text = "";
  let reasoning = "";
  const calls: ToolCall[] = [];
  for (const c of b.content as Json[]) {
    if (c.type === "text") text += String(c.text ?? "");
    else if (c.type === "thinking") reasoning += String(c.thinking ?? "");
    else if (c.type === "tool_use") calls.push({ id: String(c.id), name: String(c.name), arguments: JSON.stringify(c.input ?? {}) });
  }
  const res: ChatResponse = {
    id: String(b.id ?? ""),
    model: String(b.model ?? ""),
    created: Math.floor(Date.now() / 1000),
    choices: [{ index: 0, text, finishReason: finish(b.stop_reason), ...(reasoning ? { reasoning } : {}), ...(calls.length ? { toolCalls: calls } : {}) }],
  };
  if (b.usage && typeof b.usage === "object") {
    const u = usageOf(b.usage as Json);
    res.usage = {
      prompt_tokens: u.prompt_tokens ?? 0,
      completion_tokens: u.completion_tokens ?? 0,
      cached_tokens: u.cached_tokens ?? 0,
      cache_creation_tokens: u.cache_creation_tokens ?? 0,
      reasoning_tokens: 0,
    };
  }
  return res;
}

function streamParser(): StreamParser {
  // content block index → tool call index (Anthropic numbers blocks, OpenAI numbers calls)
  const callOfBlock = new Map<number, number>();
  let calls = 0;
  return {
    parse(data, event, emit) {
      const e = tryJson(data) as Json | undefined;
      if (!e) return;
      const type = (e.type as string | undefined) ?? event;
      switch (type) {
        case "message_start": {
          const m = (e.message ?? {}) as Json;
          emit({ type: "start", id: String(m.id ?? ""), model: String(m.model ?? ""), usage: m.usage ? usageOf(m.usage as Json) : undefined });
          if (m.usage) emit({ type: "usage", usage: usageOf(m.usage as Json) });
          return;
        }
        case "content_block_start": {
          const b = (e.content_block ?? {}) as Json;
          const index = num(e.index);
          if (b.type === "tool_use") {
            const callIndex = calls++;
            callOfBlock.set(index, callIndex);
            emit({ type: "tool_call_start", index: 0, callIndex, id: String(b.id ?? ""), name: String(b.name ?? "") });
          } else if (b.type === "text" && typeof b.text === "string" && b.text) emit({ type: "text", index: 0, text: b.text });
          return;
        }
        case "content_block_delta": {
          const d = (e.delta ?? {}) as Json;
          if (d.type === "text_delta") emit({ type: "text", index: 0, text: String(d.text ?? "") });
          else if (d.type === "input_json_delta") {
            const callIndex = callOfBlock.get(num(e.index));
            if (callIndex !== undefined && d.partial_json) emit({ type: "tool_call_args", index: 0, callIndex, args: String(d.partial_json) });
          } else if (d.type === "thinking_delta") emit({ type: "reasoning", index: 0, text: String(d.thinking ?? "") });
          return;
        }
        case "message_delta": {
          const d = (e.delta ?? {}) as Json;
          if (d.stop_reason) emit({ type: "finish", index: 0, reason: finish(d.stop_reason) });
          if (e.usage) emit({ type: "usage", usage: usageOf(e.usage as Json) });
          return;
        }
        case "error": {
          const er = (e.error ?? {}) as Json;
          const t = String(er.type ?? "api_error");
          const status = t === "overloaded_error" ? 529 : t === "rate_limit_error" ? 429 : t === "invalid_request_error" ? 400 : 500;
          emit({ type: "error", error: { status, message: String(er.message ?? "upstream error"), type: t, code: t } });
          return;
        }
        default:
          return; // ping, content_block_stop, message_stop
      }
    },
  };
}

function messagesHeaders(ch: ChannelView): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", "x-api-key": ch.key, "anthropic-version": ANTHROPIC_VERSION };
  if (ch.headers) for (const k in ch.headers) headers[k.toLowerCase()] = ch.headers[k];
  return headers;
}

const messagesUrl = (ch: ChannelView) => joinVersioned(ch.base_url || DEFAULT_BASE, "/v1", "/messages");

export const anthropic: ProviderAdapter = {
  name: "anthropic",
  supports: { stream: true, tools: true, images: true, n: false, passthrough: [] },
  chatRequest(req, ch: ChannelView) {
    return { url: messagesUrl(ch), headers: messagesHeaders(ch), body: JSON.stringify(anthropicBody(req, ch.upstreamModel)) };
  },
  chatPayload(req, ch: ChannelView) {
    return { url: messagesUrl(ch), headers: messagesHeaders(ch), json: anthropicBody(req, ch.upstreamModel) };
  },
  parseChat,
  streamParser,
  parseError(status, body, ch) {
    const j = tryJson(body) as Json | undefined;
    const e = j?.error as Json | undefined;
    if (e && typeof e.message === "string")
      return { status, message: redact(e.message, ch), type: String(e.type ?? typeForStatus(status)), code: e.type ? String(e.type) : null };
    return fallbackError(status, body, ch);
  },
};
