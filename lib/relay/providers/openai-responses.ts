// The Responses wire as an upstream: a channel flagged "Responses only" (its models exist only
// on /v1/responses: the channel setting `responses_only`, docs/relay.md) is called with the
// canonical request written as a Responses request, and its answer, whole or streamed, read
// back into canonical form. Used by the OpenAI-wire adapters (openai.ts) for such channels;
// a client of any format (chat completions, Anthropic, Gemini) is served this way.
import "server-only";
import type { ChatRequest, ChatResponse, ContentPart, FinishReason, StreamEvent, ToolCall } from "@/lib/relay/types";
import { RelayError } from "@/lib/relay/types";
import { tryJson, typeForStatus } from "./common";
import { openaiUsage } from "./openai";
import type { StreamParser } from "./types";
import { nowSeconds } from "@/lib/time";

type Json = Record<string, unknown>;

/** OpenAI refuses max_output_tokens below 16. */
const MIN_OUTPUT_TOKENS = 16;
/** The max_output_tokens sent for a client's budget. */
export const responsesOutputBudget = (maxTokens: number): number => Math.max(MIN_OUTPUT_TOKENS, maxTokens);

function inputContent(parts: ContentPart[]): Json[] {
  return parts.map((p) =>
    p.type === "text"
      ? { type: "input_text", text: p.text }
      : { type: "input_image", image_url: p.url ?? `data:${p.mimeType ?? "image/png"};base64,${p.data}`, detail: "auto" },
  );
}

const textOf = (parts: ContentPart[]) => parts.map((p) => (p.type === "text" ? p.text : "")).join("");

export function responsesRequestBody(req: ChatRequest, model: string): Json {
  if (req.n !== undefined && req.n > 1)
    throw new RelayError(400, "this channel serves the Responses API, which has no n > 1", "invalid_request_error", "unsupported");
  const input: Json[] = [];
  for (const m of req.messages) {
    if (m.role === "tool") {
      input.push({ type: "function_call_output", call_id: m.toolCallId ?? "", output: textOf(m.content) });
    } else if (m.role === "assistant") {
      const text = textOf(m.content);
      if (text) input.push({ type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] });
      if (m.toolCalls) for (const t of m.toolCalls) input.push({ type: "function_call", call_id: t.id, name: t.name, arguments: t.arguments || "{}" });
    } else input.push({ type: "message", role: "user", content: inputContent(m.content) });
  }
  // the relay keeps no state, and asks the upstream to keep none either
  const body: Json = { model, input, store: false };
  if (req.system) body.instructions = req.system;
  if (req.tools?.length)
    body.tools = req.tools.map((t) => ({
      type: "function",
      name: t.name,
      description: t.description ?? null,
      parameters: t.parameters ?? { type: "object", properties: {} },
      strict: false,
    }));
  if (req.toolChoice) body.tool_choice = typeof req.toolChoice === "string" ? req.toolChoice : { type: "function", name: req.toolChoice.name };
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.maxTokens !== undefined) body.max_output_tokens = responsesOutputBudget(req.maxTokens);
  if (req.reasoningEffort) body.reasoning = { effort: req.reasoningEffort };
  const extra = req.extra?.wire === "openai" ? req.extra.fields : undefined;
  if (extra) {
    if (typeof extra.parallel_tool_calls === "boolean") body.parallel_tool_calls = extra.parallel_tool_calls;
    if (!req.reasoningEffort && typeof extra.reasoning_effort === "string") body.reasoning = { effort: extra.reasoning_effort };
    // chat's response_format, in the Responses API's text.format
    const rf = extra.response_format as Json | undefined;
    if (rf?.type === "json_object") body.text = { format: { type: "json_object" } };
    else if (rf?.type === "json_schema" && rf.json_schema && typeof rf.json_schema === "object")
      body.text = { format: { type: "json_schema", ...(rf.json_schema as Json) } };
  }
  if (req.responseFormat && body.text === undefined) {
    const rf = req.responseFormat;
    body.text = { format: rf.type === "json_object" ? { type: "json_object" } : Object.assign({ type: "json_schema" }, rf) };
  }
  if (req.stream) body.stream = true;
  return body;
}

/** A Response object (the answer of a non-stream call), rather than a chat completion. */
export const isResponseObject = (b: unknown): boolean => !!b && typeof b === "object" && Array.isArray((b as Json).output) && !("choices" in (b as Json));

function finishOf(r: Json, hasCalls: boolean): FinishReason {
  if (r.status === "incomplete") return (r.incomplete_details as Json | null)?.reason === "content_filter" ? "content_filter" : "length";
  return hasCalls ? "tool_calls" : "stop";
}

function reasoningText(item: Json): string {
  const parts = (Array.isArray(item.content) && item.content.length ? item.content : item.summary) as Json[] | undefined;
  return (parts ?? []).map((p) => (typeof p.text === "string" ? p.text : "")).join("");
}

export function parseResponseObject(body: unknown): ChatResponse {
  const b = body as Json;
  if (!isResponseObject(b)) throw new RelayError(502, "upstream answer has no output", "upstream_error", "bad_response");
  let text = "";
  let reasoning = "";
  const calls: ToolCall[] = [];
  for (const item of b.output as Json[]) {
    if (item.type === "message" && Array.isArray(item.content)) {
      for (const c of item.content as Json[]) {
        if (c.type === "output_text" && typeof c.text === "string") text += c.text;
        else if (c.type === "refusal" && typeof c.refusal === "string") text += c.refusal;
      }
    } else if (item.type === "reasoning") reasoning += reasoningText(item);
    else if (item.type === "function_call")
      calls.push({
        id: String(item.call_id ?? item.id ?? ""),
        name: String(item.name ?? ""),
        arguments: typeof item.arguments === "string" ? item.arguments : "",
      });
  }
  const res: ChatResponse = {
    id: String(b.id ?? ""),
    model: String(b.model ?? ""),
    created: typeof b.created_at === "number" ? b.created_at : nowSeconds(),
    choices: [{ index: 0, text, finishReason: finishOf(b, calls.length > 0) }],
  };
  if (reasoning) res.choices[0].reasoning = reasoning;
  if (calls.length) res.choices[0].toolCalls = calls;
  const usage = openaiUsage(b.usage);
  if (usage) res.usage = usage;
  return res;
}

function errorEvent(e: Json, fallbackStatus: number): StreamEvent {
  const code = e.code == null ? null : String(e.code);
  const status =
    typeof e.status === "number"
      ? e.status
      : code === "rate_limit_exceeded"
        ? 429
        : code === "server_error" || code === "server_is_overloaded"
          ? 500
          : code
            ? 400
            : fallbackStatus;
  return { type: "error", error: { status, message: String(e.message ?? "upstream error"), type: typeForStatus(status), code } };
}

/** The Responses event stream, as canonical events. */
export function responsesStreamParser(): StreamParser {
  let started = false;
  let calls = 0;
  // output item (by its id) → tool call index, and whether its arguments came as deltas
  const callOf = new Map<string, { index: number; streamed: boolean }>();
  return {
    parse(data, event, emit) {
      const e = tryJson(data) as Json | undefined;
      if (!e) return;
      const type = typeof e.type === "string" ? e.type : event;
      if (!started && type !== "error") {
        started = true;
        const r = (e.response ?? {}) as Json;
        emit({ type: "start", id: String(r.id ?? ""), model: String(r.model ?? "") });
      }
      switch (type) {
        case "response.output_text.delta":
        case "response.refusal.delta":
          if (typeof e.delta === "string" && e.delta) emit({ type: "text", index: 0, text: e.delta });
          return;
        case "response.reasoning_text.delta":
        case "response.reasoning_summary_text.delta":
          if (typeof e.delta === "string" && e.delta) emit({ type: "reasoning", index: 0, text: e.delta });
          return;
        case "response.output_item.added": {
          const item = (e.item ?? {}) as Json;
          if (item.type !== "function_call") return;
          const c = { index: calls++, streamed: false };
          callOf.set(String(item.id ?? `item_${e.output_index}`), c);
          emit({ type: "tool_call_start", index: 0, callIndex: c.index, id: String(item.call_id ?? item.id ?? ""), name: String(item.name ?? "") });
          if (typeof item.arguments === "string" && item.arguments) {
            c.streamed = true;
            emit({ type: "tool_call_args", index: 0, callIndex: c.index, args: item.arguments });
          }
          return;
        }
        case "response.function_call_arguments.delta": {
          const c = callOf.get(String(e.item_id ?? ""));
          if (!c || typeof e.delta !== "string" || !e.delta) return;
          c.streamed = true;
          emit({ type: "tool_call_args", index: 0, callIndex: c.index, args: e.delta });
          return;
        }
        case "response.output_item.done": {
          // an upstream that sends a call's arguments only whole
          const item = (e.item ?? {}) as Json;
          const c = item.type === "function_call" ? callOf.get(String(item.id ?? "")) : undefined;
          if (c && !c.streamed && typeof item.arguments === "string" && item.arguments) {
            c.streamed = true;
            emit({ type: "tool_call_args", index: 0, callIndex: c.index, args: item.arguments });
          }
          return;
        }
        case "response.completed":
        case "response.incomplete": {
          const r = (e.response ?? {}) as Json;
          emit({ type: "finish", index: 0, reason: finishOf(r, calls > 0) });
          const u = openaiUsage(r.usage);
          if (u) emit({ type: "usage", usage: u });
          return;
        }
        case "response.failed": {
          const r = (e.response ?? {}) as Json;
          emit(errorEvent((r.error ?? { message: "the upstream response failed" }) as Json, 500));
          return;
        }
        case "error":
          emit(errorEvent((e.error && typeof e.error === "object" ? e.error : e) as Json, 500));
          return;
        default:
          return;
      }
    },
  };
}
