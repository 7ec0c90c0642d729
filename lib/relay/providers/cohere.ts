// Cohere (channel type 34) on its v2 API: POST {base}/v2/chat (SSE stream of typed events),
// POST {base}/v2/embed (the canonical embeddings, so an OpenAI /v1/embeddings client is served
// by conversion) and POST {base}/v2/rerank (passed through). Bearer key. docs/providers.md, "Cohere".
import "server-only";
import type { ChannelView, ChatRequest, ChatResponse, ContentPart, EmbeddingRequest, FinishReason, ToolCall, Usage } from "@/lib/relay/types";
import { emptyUsage, RelayError } from "@/lib/relay/types";
import { fallbackError, numberVector, redact, rerankMetaUsage, trimSlash, tryJson, typeForStatus } from "./common";
import type { PassthroughEndpoint, ProviderAdapter, StreamParser, UpstreamPayload } from "./types";
import { nowSeconds } from "@/lib/time";

type Json = Record<string, unknown>;
export const COHERE_DEFAULT_BASE = "https://api.cohere.com";

/** The API root: a base URL given with a version (…/v1, …/v2) loses it, as each call names its own. */
const rootOf = (ch: Pick<ChannelView, "base_url">) => trimSlash(ch.base_url || COHERE_DEFAULT_BASE).replace(/\/v\d+$/, "");

function headersFor(ch: ChannelView): Record<string, string> {
  const h: Record<string, string> = { "content-type": "application/json", authorization: `Bearer ${ch.key}` };
  if (ch.headers) for (const k in ch.headers) h[k.toLowerCase()] = ch.headers[k];
  return h;
}

function content(parts: ContentPart[]): string | Json[] {
  if (parts.every((p) => p.type === "text")) return parts.map((p) => (p as { text: string }).text).join("");
  return parts.map((p) =>
    p.type === "text"
      ? { type: "text", text: p.text }
      : { type: "image_url", image_url: { url: p.url ?? `data:${p.mimeType ?? "image/png"};base64,${p.data}` } },
  );
}

function messagesJson(req: ChatRequest): Json[] {
  const out: Json[] = [];
  if (req.system) out.push({ role: "system", content: req.system });
  for (const m of req.messages) {
    if (m.role === "tool") {
      const text = m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
      out.push({ role: "tool", tool_call_id: m.toolCallId ?? "", content: text });
    } else if (m.role === "assistant") {
      const msg: Json = { role: "assistant" };
      if (m.content.length) msg.content = content(m.content);
      if (m.toolCalls?.length) msg.tool_calls = m.toolCalls.map((t) => ({ id: t.id, type: "function", function: { name: t.name, arguments: t.arguments } }));
      out.push(msg);
    } else out.push({ role: "user", content: content(m.content) });
  }
  return out;
}

export function cohereChatBody(req: ChatRequest, model: string): Json {
  const body: Json = { model, messages: messagesJson(req) };
  let tools = req.tools;
  const choice = req.toolChoice;
  // Cohere's tool_choice is REQUIRED or NONE: a named tool is asked for by offering only it
  if (choice && typeof choice === "object") tools = tools?.filter((t) => t.name === choice.name);
  if (tools?.length)
    body.tools = tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description ?? "", parameters: t.parameters ?? { type: "object", properties: {} } },
    }));
  if (choice === "required" || (choice && typeof choice === "object")) body.tool_choice = "REQUIRED";
  else if (choice === "none" && tools?.length) body.tool_choice = "NONE";
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.p = req.topP;
  if (req.maxTokens !== undefined) body.max_tokens = req.maxTokens;
  if (req.stop?.length) body.stop_sequences = req.stop;
  const rf = req.responseFormat;
  if (rf) body.response_format = rf.type === "json_schema" && rf.schema ? { type: "json_object", json_schema: rf.schema } : { type: "json_object" };
  if (req.stream) body.stream = true;
  return body;
}

function finishOf(r: unknown): FinishReason {
  switch (r) {
    case "MAX_TOKENS":
      return "length";
    case "TOOL_CALL":
      return "tool_calls";
    default:
      return "stop";
  }
}

// Billed units are what Cohere charges for; `tokens` adds its prompt template. The billed
// counts are used when present (docs/providers.md, "Cohere").
function usageOf(u: unknown): Usage | undefined {
  if (!u || typeof u !== "object") return undefined;
  const x = u as { billed_units?: Json; tokens?: Json };
  const pick = (k: string) => {
    for (const src of [x.billed_units, x.tokens]) {
      const v = src?.[k];
      if (typeof v === "number" && Number.isFinite(v) && v >= 0) return Math.floor(v);
    }
    return undefined;
  };
  const input = pick("input_tokens");
  const output = pick("output_tokens");
  if (input === undefined && output === undefined) return undefined;
  const usage = emptyUsage();
  usage.prompt_tokens = input ?? 0;
  usage.completion_tokens = output ?? 0;
  return usage;
}

function toolCallsOf(v: unknown): ToolCall[] {
  if (!Array.isArray(v)) return [];
  return (v as Json[]).map((t, i) => {
    const f = (t.function ?? {}) as Json;
    return {
      id: String(t.id ?? `call_${i}`),
      name: String(f.name ?? ""),
      arguments: typeof f.arguments === "string" ? f.arguments : JSON.stringify(f.arguments ?? {}),
    };
  });
}

function parseChat(body: unknown): ChatResponse {
  const b = body as Json | undefined;
  const msg = b?.message as Json | undefined;
  if (!b || !msg || typeof msg !== "object") throw new RelayError(502, "upstream answer has no message", "upstream_error", "bad_response");
  let text = "";
  let reasoning = "";
  if (Array.isArray(msg.content))
    for (const c of msg.content as Json[]) {
      if (c.type === "text" && typeof c.text === "string") text += c.text;
      else if (c.type === "thinking" && typeof c.thinking === "string") reasoning += c.thinking;
    }
  const toolCalls = toolCallsOf(msg.tool_calls);
  const res: ChatResponse = {
    id: String(b.id ?? ""),
    model: "",
    created: nowSeconds(),
    choices: [{ index: 0, text, finishReason: toolCalls.length ? "tool_calls" : finishOf(b.finish_reason) }],
  };
  if (reasoning) res.choices[0].reasoning = reasoning;
  if (toolCalls.length) res.choices[0].toolCalls = toolCalls;
  const usage = usageOf(b.usage);
  if (usage) res.usage = usage;
  return res;
}

function streamParser(): StreamParser {
  let started = false;
  let sawToolCall = false;
  return {
    parse(data, _event, emit) {
      const j = tryJson(data) as Json | undefined;
      if (!j || typeof j !== "object") return;
      const type = j.type;
      const delta = (j.delta ?? {}) as Json;
      const message = (delta.message ?? {}) as Json;
      const index = typeof j.index === "number" ? j.index : 0;
      if (!started) {
        started = true;
        emit({ type: "start", id: String(j.id ?? ""), model: "" });
      }
      switch (type) {
        case "content-delta": {
          const c = (message.content ?? {}) as Json;
          if (typeof c.thinking === "string" && c.thinking) emit({ type: "reasoning", index: 0, text: c.thinking });
          if (typeof c.text === "string" && c.text) emit({ type: "text", index: 0, text: c.text });
          return;
        }
        case "tool-call-start": {
          const t = (message.tool_calls ?? {}) as Json;
          const f = (t.function ?? {}) as Json;
          sawToolCall = true;
          emit({ type: "tool_call_start", index: 0, callIndex: index, id: String(t.id ?? `call_${index}`), name: String(f.name ?? "") });
          if (typeof f.arguments === "string" && f.arguments) emit({ type: "tool_call_args", index: 0, callIndex: index, args: f.arguments });
          return;
        }
        case "tool-call-delta": {
          const f = (((message.tool_calls ?? {}) as Json).function ?? {}) as Json;
          if (typeof f.arguments === "string" && f.arguments) emit({ type: "tool_call_args", index: 0, callIndex: index, args: f.arguments });
          return;
        }
        case "message-end": {
          const reason = finishOf(delta.finish_reason);
          emit({ type: "finish", index: 0, reason: sawToolCall ? "tool_calls" : reason });
          const u = usageOf(delta.usage);
          if (u) emit({ type: "usage", usage: u });
          if (delta.finish_reason === "ERROR" && typeof delta.error === "string")
            emit({ type: "error", error: { status: 500, message: delta.error, type: "upstream_error", code: null } });
          return;
        }
        default:
          // message-start, content-start/end, tool-plan-delta, tool-call-end, citation-*: nothing to render
          return;
      }
    },
  };
}

// Gemini's task types, for a Gemini client's embeddings; anything else embeds as a document.
const INPUT_TYPES: Record<string, string> = {
  RETRIEVAL_QUERY: "search_query",
  RETRIEVAL_DOCUMENT: "search_document",
  CLASSIFICATION: "classification",
  CLUSTERING: "clustering",
};

function embedBody(req: EmbeddingRequest, model: string): Json {
  const first = req.inputs[0];
  if (req.inputs.some((i) => i.dimensions !== first.dimensions || i.taskType !== first.taskType))
    throw new RelayError(400, "this channel embeds one batch with one task type and one vector length", "invalid_request_error", "unsupported");
  const body: Json = {
    model,
    texts: req.inputs.map((i) => i.parts.join("\n")),
    input_type: (first.taskType && INPUT_TYPES[first.taskType]) || "search_document",
    embedding_types: ["float"],
  };
  if (first.dimensions) body.output_dimension = first.dimensions;
  return body;
}

function parseEmbed(body: unknown): { vectors: number[][]; promptTokens?: number } {
  const b = body as Json | undefined;
  const e = b?.embeddings;
  // embedding_types asked for floats: { float: [...] }; the legacy answer is the list itself
  const list = Array.isArray(e) ? e : e && typeof e === "object" ? (e as Json).float : undefined;
  if (!Array.isArray(list)) throw new RelayError(502, "upstream answer has no float embeddings", "upstream_error", "bad_response");
  const billed = ((b?.meta as Json | undefined)?.billed_units ?? {}) as Json;
  const n = typeof billed.input_tokens === "number" ? Math.floor(billed.input_tokens) : 0;
  return { vectors: list.map(numberVector), promptTokens: n > 0 ? n : undefined };
}

function parseError(status: number, body: string, ch: ChannelView) {
  const j = tryJson(body) as Json | undefined;
  if (j && typeof j.message === "string") return { status, message: redact(j.message, ch), type: typeForStatus(status), code: null };
  return fallbackError(status, body, ch);
}

const payload = (req: ChatRequest, ch: ChannelView): UpstreamPayload => ({
  url: `${rootOf(ch)}/v2/chat`,
  headers: headersFor(ch),
  json: cohereChatBody(req, ch.upstreamModel),
});

const PASSTHROUGH: readonly PassthroughEndpoint[] = ["rerank"];

export const cohere: ProviderAdapter = {
  name: "cohere",
  profile: {
    defaultBaseUrl: COHERE_DEFAULT_BASE,
    testModel: "command-r-08-2024",
    keyHint: {
      en: "An API key from dashboard.cohere.com (API keys)",
      zh: "dashboard.cohere.com 的 API 密钥（API keys）",
      "zh-TW": "dashboard.cohere.com 的 API 金鑰（API keys）",
      ja: "dashboard.cohere.com の API キー（API keys）",
      fr: "Une clé d'API de dashboard.cohere.com (API keys)",
      ru: "API-ключ с dashboard.cohere.com (API keys)",
      vi: "Khóa API từ dashboard.cohere.com (API keys)",
      es: "Una clave de API de dashboard.cohere.com (API keys)",
    },
    async listModels(ch, http) {
      const r = await http.getJson(`${rootOf(ch)}/v1/models?page_size=1000`, { authorization: `Bearer ${ch.key}` });
      return ((r.models ?? []) as Array<{ name?: unknown }>).map((m) => String(m.name ?? ""));
    },
  },
  // Cohere answers one message per request (no n); images go to its vision models
  supports: { stream: true, tools: true, images: true, n: false, passthrough: PASSTHROUGH },
  chatPayload: payload,
  chatRequest(req, ch) {
    const p = payload(req, ch);
    return { url: p.url, headers: p.headers, body: JSON.stringify(p.json) };
  },
  parseChat,
  streamParser,
  parseError,
  embeddings: {
    request: (req, ch) => ({ url: `${rootOf(ch)}/v2/embed`, headers: headersFor(ch), body: JSON.stringify(embedBody(req, ch.upstreamModel)) }),
    parse: parseEmbed,
  },
  passthroughRequest(endpoint, ch, contentType) {
    const h = headersFor(ch);
    h["content-type"] = contentType;
    return { url: `${rootOf(ch)}/v2/${endpoint}`, headers: h };
  },
  passthroughUsage: (endpoint, json) => (endpoint === "rerank" ? rerankMetaUsage(json) : undefined),
};
