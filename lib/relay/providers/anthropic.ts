// Anthropic Messages (channel type 14): POST {base}/v1/messages, x-api-key, anthropic-version.
// The claude.* options apply here (docs/relay-options.md, "Claude"): the default max_tokens per
// model, extra headers per model, and the `-thinking` suffix that turns on extended thinking.
import "server-only";
import { getBool, getJson, getNumber, getOption } from "@/lib/options/store";
import type { ChannelView, ChatRequest, ChatResponse, ContentPart, FinishReason, ReasoningEffort, ToolCall, UpstreamError, Usage } from "@/lib/relay/types";
import { RelayError } from "@/lib/relay/types";
import { fallbackError, joinVersioned, redact, tryJson, typeForStatus } from "./common";
import type { ProviderAdapter, StreamParser } from "./types";
import { nowSeconds } from "@/lib/time";

type Json = Record<string, unknown>;
export const ANTHROPIC_VERSION = "2023-06-01";
const DEFAULT_BASE = "https://api.anthropic.com";

// max_tokens is required by Anthropic: claude.default_max_tokens gives it per model (the
// upstream model, suffix dropped), else its "default", else 8192.
export const FALLBACK_MAX_TOKENS = 8192;
function defaultMaxTokens(model: string): number {
  const m = getJson<Record<string, unknown> | null>("claude.default_max_tokens", null);
  if (!m || typeof m !== "object") return FALLBACK_MAX_TOKENS;
  const v = Object.hasOwn(m, model) ? m[model] : m.default;
  return typeof v === "number" && Number.isInteger(v) && v > 0 ? v : FALLBACK_MAX_TOKENS;
}

const THINKING_SUFFIX = "-thinking";
/** Anthropic's smallest thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

/** The model to send and whether the thinking adapter turns extended thinking on for it. */
function thinkingModel(model: string): { model: string; thinking: boolean } | null {
  if (!model.endsWith(THINKING_SUFFIX) || !getBool("claude.thinking_adapter_enabled")) return null;
  return { model: model.slice(0, -THINKING_SUFFIX.length), thinking: true };
}

/** The upstream model name: a `-thinking` suffix is dropped when the thinking adapter is on. */
export function claudeUpstreamModel(model: string): string {
  return thinkingModel(model)?.model ?? model;
}

// Extended thinking with budget = share × max_tokens (claude.thinking_adapter_budget_tokens_percentage,
// 0.1 to 1), kept below max_tokens as Anthropic requires; a budget under Anthropic's minimum
// (1024) is raised to it and max_tokens grows by as much, so the answer keeps the room the
// client asked for. Thinking accepts no temperature but 1 and no top_k; top_p is dropped too.
function addThinking(body: Json, maxTokens: number): void {
  let share = getNumber("claude.thinking_adapter_budget_tokens_percentage", 0.8);
  if (!(share >= 0.1 && share <= 1)) share = 0.8;
  let budget = Math.min(Math.floor(maxTokens * share), maxTokens - 1);
  if (budget < MIN_THINKING_BUDGET) {
    budget = MIN_THINKING_BUDGET;
    body.max_tokens = MIN_THINKING_BUDGET + maxTokens;
  }
  body.thinking = { type: "enabled", budget_tokens: budget };
  if (body.temperature !== undefined) body.temperature = 1;
  delete body.top_p;
  delete body.top_k;
}

// claude.model_headers_settings: {"model": {"header": "value" or ["value", ...]}}, compiled
// once per change of the option's text. Looked up by the model the client named, then by the
// upstream model. anthropic-beta values join the channel's own (comma-separated); other
// headers replace the channel's. The headers that carry the key or frame the body are never
// set from here.
const RESERVED_HEADERS = new Set(["x-api-key", "authorization", "content-type", "content-length", "host", "transfer-encoding"]);
let headerSource: string | undefined;
let headerSettings = new Map<string, [string, string][]>();
function modelHeaders(model: string, upstream: string): [string, string][] | undefined {
  const raw = getOption("claude.model_headers_settings");
  if (raw !== headerSource) {
    headerSource = raw;
    headerSettings = new Map();
    const m = getJson<Record<string, unknown> | null>("claude.model_headers_settings", null);
    if (m && typeof m === "object")
      for (const name in m) {
        const h = m[name];
        if (!h || typeof h !== "object" || Array.isArray(h)) continue;
        const list: [string, string][] = [];
        for (const k in h as Record<string, unknown>) {
          const v = (h as Record<string, unknown>)[k];
          const value = Array.isArray(v) ? v.filter((x) => typeof x === "string").join(",") : typeof v === "string" ? v : "";
          const key = k.trim().toLowerCase();
          if (key && value && !RESERVED_HEADERS.has(key) && !/[\r\n]/.test(value)) list.push([key, value]);
        }
        if (list.length) headerSettings.set(name, list);
      }
  }
  if (headerSettings.size === 0) return undefined;
  return headerSettings.get(model) ?? headerSettings.get(upstream);
}

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

export function anthropicBody(req: ChatRequest, upstreamModel: string): Json {
  const t = thinkingModel(upstreamModel);
  const model = t ? t.model : upstreamModel;
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
  const maxTokens = req.maxTokens ?? defaultMaxTokens(model);
  const body: Json = { model, max_tokens: maxTokens, messages };
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
  // a client that asked for thinking itself keeps its own settings; a `-thinking` model name
  // comes before a reasoning effort
  if (t && body.thinking === undefined) addThinking(body, maxTokens);
  if (req.reasoningEffort) thinkingForEffort(req, body);
  if (req.stream) body.stream = true;
  return body;
}

// A reasoning effort (the Responses API's reasoning.effort) as extended thinking. OpenAI counts
// reasoning inside max_output_tokens, Anthropic's budget inside max_tokens: a client's own limit
// bounds the budget; without one the budget is added to the default. Anthropic refuses thinking
// below 1024 tokens, with a forced tool choice, and with a temperature or top_p of its own.
const THINKING_BUDGET: Record<ReasoningEffort, number> = { none: 0, minimal: 1024, low: 2048, medium: 8192, high: 24576, xhigh: 32000 };
function thinkingForEffort(req: ChatRequest, body: Json): void {
  if ("thinking" in body || req.reasoningEffort === undefined) return;
  const choice = body.tool_choice as Json | undefined;
  if (choice && (choice.type === "any" || choice.type === "tool")) return;
  let budget = THINKING_BUDGET[req.reasoningEffort];
  if (budget === 0) return;
  if (req.maxTokens === undefined) body.max_tokens = (body.max_tokens as number) + budget;
  else budget = Math.min(budget, (body.max_tokens as number) - 1);
  if (budget < 1024) return;
  body.thinking = { type: "enabled", budget_tokens: budget };
  delete body.temperature;
  delete body.top_p;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** Anthropic's input_tokens excludes cache reads and writes; canonical prompt_tokens includes them.
 *  cache_creation splits the writes by lifetime (ephemeral_5m_input_tokens,
 *  ephemeral_1h_input_tokens), priced apart (docs/pricing.md, "Prompt-cache writes"). */
function usageOf(u: Json): Partial<Usage> {
  const out: Partial<Usage> = {};
  if ("output_tokens" in u) out.completion_tokens = num(u.output_tokens);
  if ("input_tokens" in u || "cache_read_input_tokens" in u || "cache_creation_input_tokens" in u) {
    const cached = num(u.cache_read_input_tokens);
    let created = num(u.cache_creation_input_tokens);
    // The split is set only when sent: a stream's message_delta repeats the totals without it,
    // and the split of its message_start stands (billing caps it by the total).
    const split = u.cache_creation;
    if (split && typeof split === "object") {
      const s = split as Json;
      const hour = num(s.ephemeral_1h_input_tokens);
      // the split alone, without the total: the total is its sum
      if (created === 0) created = num(s.ephemeral_5m_input_tokens) + hour;
      out.cache_creation_1h_tokens = hour < created ? hour : created;
    }
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

/** A Messages answer (Anthropic's, and Vertex AI's rawPredict for Claude: lib/relay/providers/vertex.ts). */
export function parseAnthropicChat(body: unknown): ChatResponse {
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
    created: nowSeconds(),
    choices: [{ index: 0, text, finishReason: finish(b.stop_reason), ...(reasoning ? { reasoning } : {}), ...(calls.length ? { toolCalls: calls } : {}) }],
  };
  if (b.usage && typeof b.usage === "object") {
    const u = usageOf(b.usage as Json);
    res.usage = {
      prompt_tokens: u.prompt_tokens ?? 0,
      completion_tokens: u.completion_tokens ?? 0,
      cached_tokens: u.cached_tokens ?? 0,
      cache_creation_tokens: u.cache_creation_tokens ?? 0,
      cache_creation_1h_tokens: u.cache_creation_1h_tokens ?? 0,
      reasoning_tokens: 0,
    };
  }
  return res;
}

/** The Messages stream's events (shared with Vertex AI's streamRawPredict). */
export function anthropicStreamParser(): StreamParser {
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

function messagesHeaders(ch: ChannelView, requestModel: string): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", "x-api-key": ch.key, "anthropic-version": ANTHROPIC_VERSION };
  if (ch.headers) for (const k in ch.headers) headers[k.toLowerCase()] = ch.headers[k];
  const extra = modelHeaders(requestModel, claudeUpstreamModel(ch.upstreamModel));
  if (extra)
    for (const [k, v] of extra)
      headers[k] = k === "anthropic-beta" && headers[k] ? [...new Set((headers[k] + "," + v).split(",").map((x) => x.trim()))].join(",") : v;
  return headers;
}

const messagesUrl = (ch: ChannelView) => joinVersioned(ch.base_url || DEFAULT_BASE, "/v1", "/messages");

// count_tokens takes the request's prompt fields only (it refuses max_tokens, stream, sampling)
const COUNTED_FIELDS = ["model", "messages", "system", "tools", "tool_choice", "thinking"];
function countTokensBody(req: ChatRequest, model: string): Json {
  const full = anthropicBody(req, model);
  return Object.fromEntries(COUNTED_FIELDS.filter((k) => full[k] !== undefined).map((k) => [k, full[k]]));
}

/** The max_tokens anthropicBody sends: the thinking adapter may raise the client's (addThinking). */
export const anthropicOutputBudget = (req: ChatRequest, upstreamModel: string): number => anthropicBody(req, upstreamModel).max_tokens as number;

export const anthropic: ProviderAdapter = {
  name: "anthropic",
  profile: {
    defaultBaseUrl: DEFAULT_BASE,
    testModel: "claude-3-5-haiku-latest",
    knownModels: [
      "claude-sonnet-4-20250514",
      "claude-opus-4-20250514",
      "claude-3-7-sonnet-latest",
      "claude-3-5-sonnet-latest",
      "claude-3-5-haiku-latest",
      "claude-3-haiku-20240307",
    ],
    async listModels(ch, http) {
      const r = await http.getJson(joinVersioned(ch.base_url || DEFAULT_BASE, "/v1", "/models?limit=1000"), {
        "x-api-key": ch.key,
        "anthropic-version": ANTHROPIC_VERSION,
      });
      return ((r.data ?? []) as Array<{ id?: unknown }>).map((m) => String(m.id ?? ""));
    },
  },
  // Anthropic's Messages API has no JSON mode nor response schema: a structured-output request is refused
  supports: { stream: true, tools: true, images: true, n: false, passthrough: [], structuredOutput: false },
  chatRequest(req, ch: ChannelView) {
    return { url: messagesUrl(ch), headers: messagesHeaders(ch, req.model), body: JSON.stringify(anthropicBody(req, ch.upstreamModel)) };
  },
  chatPayload(req, ch: ChannelView) {
    return { url: messagesUrl(ch), headers: messagesHeaders(ch, req.model), json: anthropicBody(req, ch.upstreamModel) };
  },
  outputBudget: (req, ch) => anthropicOutputBudget(req, ch.upstreamModel),
  ingress: "anthropic-messages",
  rawChatPayload(json, req, ch) {
    const body = Object.assign({}, json);
    body.model = ch.upstreamModel;
    return { url: messagesUrl(ch), headers: messagesHeaders(ch, req.model), json: body };
  },
  parseChat: parseAnthropicChat,
  streamParser: anthropicStreamParser,
  countTokens: {
    request: (req, ch) => ({
      url: joinVersioned(ch.base_url || DEFAULT_BASE, "/v1", "/messages/count_tokens"),
      headers: messagesHeaders(ch, req.model),
      body: JSON.stringify(countTokensBody(req, ch.upstreamModel)),
    }),
    parse: (body) => {
      const n = (body as Json | null)?.input_tokens;
      return typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : undefined;
    },
  },
  parseError: parseAnthropicError,
};

/** An Anthropic error body ({type: "error", error: {type, message}}). */
export function parseAnthropicError(status: number, body: string, ch: ChannelView): UpstreamError {
  const j = tryJson(body) as Json | undefined;
  const e = j?.error as Json | undefined;
  if (e && typeof e.message === "string")
    return { status, message: redact(e.message, ch), type: String(e.type ?? typeForStatus(status)), code: e.type ? String(e.type) : null };
  return fallbackError(status, body, ch);
}
