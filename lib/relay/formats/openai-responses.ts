// Ingress format: the OpenAI Responses API (POST /v1/responses), for any channel.
//
// A channel that serves /v1/responses itself (OpenAI, Azure, OpenRouter, xAI, custom: the
// adapter lists "responses" among its pass-through endpoints) gets the client's body as it
// came, only the model mapped (`responsesBody`, pipeline.ts): that path is today's fast
// pass-through, stateful features included. Every other channel (Anthropic, Gemini, the
// OpenAI-compatible hosts that only have chat completions) gets the canonical request parsed
// here, and its answer is rendered back as a Response object or as the Responses event
// sequence that the openai SDK's `responses.stream()` accumulates. The relay keeps no
// conversation state, so what needs the upstream's stored state (previous_response_id,
// conversation, item references, stored files, background runs) and OpenAI's hosted tools
// cannot be translated: such a request is refused on a translating channel with a message
// that says why (`untranslatable`), and still served by a native one. docs/relay.md,
// "The Responses API".
import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import {
  RelayError,
  eachSegment,
  type ChatRequest,
  type ContentPart,
  type FinishReason,
  type Message,
  type OutputImage,
  type ReasoningEffort,
  type ResponseFormat,
  type ToolCall,
  type ToolChoice,
  type ToolDef,
  type UpstreamError,
  type Usage,
} from "@/lib/relay/types";
import { openaiChat } from "./openai-chat";
import { dropUnsetBudgets, json, zodToRelayError, type IngressFormat, type StreamRenderer, outputBudget } from "./types";
import { nowSeconds } from "@/lib/time";

const EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;

const schema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.looseObject({ type: z.string().optional() }))]).optional(),
  instructions: z.string().nullable().optional(),
  tools: z
    .array(z.looseObject({ type: z.string() }))
    .nullable()
    .optional(),
  tool_choice: z
    .union([z.enum(["auto", "none", "required"]), z.looseObject({ type: z.string(), name: z.string().optional(), mode: z.string().optional() })])
    .nullable()
    .optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  max_output_tokens: outputBudget.nullable().optional(),
  stream: z.boolean().nullable().optional(),
  // any text: an effort this relay does not know still passes through to a native channel
  reasoning: z.looseObject({ effort: z.string().nullable().optional() }).nullable().optional(),
  previous_response_id: z.string().nullable().optional(),
  conversation: z.unknown().optional(),
  background: z.boolean().nullable().optional(),
  prompt: z.unknown().optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  text: z
    .looseObject({ format: z.looseObject({ type: z.string() }).nullable().optional() })
    .nullable()
    .optional(),
});

type Item = Record<string, unknown> & { type?: string };

const bad = (where: string, what: string) => new RelayError(400, `Invalid request: ${where}: ${what}`, "invalid_request_error", "invalid_request");

/** The parts of a message's content (a string, or input_text / input_image / output_text / refusal parts). */
function contentParts(content: unknown, where: string, untranslatable: (why: string, keptUpstream?: boolean) => void): ContentPart[] {
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  if (!Array.isArray(content)) throw bad(where, "content must be a string or an array of content parts");
  const out: ContentPart[] = [];
  content.forEach((p: unknown, i) => {
    const part = p as Record<string, unknown> | null;
    const at = `${where}[${i}]`;
    if (!part || typeof part !== "object") throw bad(at, "a content part must be an object");
    switch (part.type) {
      case "input_text":
      case "output_text":
      case "text":
        if (typeof part.text !== "string") throw bad(at, "text must be a string");
        if (part.text) out.push({ type: "text", text: part.text });
        return;
      case "refusal":
        if (typeof part.refusal === "string" && part.refusal) out.push({ type: "text", text: part.refusal });
        return;
      case "input_image": {
        const url = part.image_url;
        if (typeof url !== "string" || !url) {
          if (typeof part.file_id === "string") untranslatable(`${at}: an input_image by file_id needs OpenAI's file storage`, true);
          else throw bad(at, "input_image needs image_url");
          return;
        }
        // only the prefix is matched (a pattern reaching to the end walks every byte: docs/limits.md)
        const m = /^data:([^;,]+);base64,/.exec(url);
        out.push(m ? { type: "image", data: url.slice(m[0].length), mimeType: m[1], url } : { type: "image", url });
        return;
      }
      case "input_file":
      case "input_audio":
        untranslatable(`${at}: ${part.type} is served only by a channel with the Responses API`, part.type === "input_file");
        return;
      default:
        // a part this relay does not know may still be OpenAI's: a native channel serves it
        untranslatable(`${at}: content parts of type ${JSON.stringify(part.type)} are served only by a channel with the Responses API`);
    }
  });
  return out;
}

const textOf = (parts: ContentPart[]) => parts.map((p) => (p.type === "text" ? p.text : "")).join("");

const BUDGETS = ["max_output_tokens"] as const;

function parse(body: unknown): ChatRequest {
  dropUnsetBudgets(body, BUDGETS);
  const r = schema.safeParse(body);
  if (!r.success) throw zodToRelayError(r.error, "request");
  const b = r.data;
  const reasons: string[] = [];
  let keptUpstream = false;
  const untranslatable = (why: string, upstream = false) => {
    if (upstream) keptUpstream = true;
    if (reasons.length < 3) reasons.push(why);
  };
  if (b.previous_response_id) untranslatable("previous_response_id: this relay keeps no conversation state; send the whole conversation in input", true);
  if (b.conversation != null) untranslatable("conversation: this relay keeps no conversation state; send the whole conversation in input", true);
  if (b.background) untranslatable("background: background responses need the upstream's stored state");
  if (b.prompt != null) untranslatable("prompt: stored prompt templates live with OpenAI", true);

  const systems: string[] = [];
  if (b.instructions) systems.push(b.instructions);
  const messages: Message[] = [];
  const names = new Map<string, string>();
  const items: Item[] = typeof b.input === "string" ? [{ type: "message", role: "user", content: b.input }] : ((b.input ?? []) as Item[]);
  items.forEach((item, i) => {
    const at = `input[${i}]`;
    const type = item.type ?? (item.role !== undefined ? "message" : undefined);
    switch (type) {
      case "message": {
        const role = item.role;
        const parts = contentParts(item.content, `${at}.content`, untranslatable);
        if (role === "system" || role === "developer") {
          const t = textOf(parts);
          if (t) systems.push(t);
        } else if (role === "user") messages.push({ role: "user", content: parts });
        else if (role === "assistant") {
          if (parts.length) messages.push({ role: "assistant", content: parts });
        } else throw bad(`${at}.role`, "must be user, assistant, system or developer");
        return;
      }
      case "function_call": {
        if (typeof item.call_id !== "string" || typeof item.name !== "string") throw bad(at, "a function_call needs call_id and name");
        const call: ToolCall = { id: item.call_id, name: item.name, arguments: typeof item.arguments === "string" ? item.arguments : "" };
        names.set(call.id, call.name);
        // the calls of one turn follow its message (or each other): they join the assistant turn
        const last = messages[messages.length - 1];
        if (last?.role === "assistant") (last.toolCalls ??= []).push(call);
        else messages.push({ role: "assistant", content: [], toolCalls: [call] });
        return;
      }
      case "function_call_output": {
        if (typeof item.call_id !== "string") throw bad(at, "a function_call_output needs call_id");
        const out = item.output;
        const content = typeof out === "string" ? (out ? [{ type: "text" as const, text: out }] : []) : contentParts(out, `${at}.output`, untranslatable);
        messages.push({ role: "tool", content, toolCallId: item.call_id, toolName: names.get(item.call_id) });
        return;
      }
      case "reasoning":
        // another model's reasoning (often encrypted) means nothing to this one: dropped
        return;
      case "image_generation_call":
        // an image the model made earlier, sent back with the conversation (clients resend the
        // whole output): the model cannot take its own image back on every wire, so it is dropped
        return;
      case "item_reference":
        untranslatable(`${at}: item_reference points into the upstream's stored items; this relay keeps none`, true);
        return;
      default:
        untranslatable(`${at}: input items of type ${JSON.stringify(type)} are served only by a channel with the Responses API`);
    }
  });
  if (!messages.length) untranslatable("input: there is no message to answer");

  const tools: ToolDef[] = [];
  for (const [i, t] of (b.tools ?? []).entries()) {
    if (t.type !== "function") {
      // a hosted tool's results (a search, a file, a container) join the prompt upstream
      untranslatable(`tools[${i}]: the hosted tool ${JSON.stringify(t.type)} is served only by a channel with the Responses API`, true);
      continue;
    }
    if (typeof t.name !== "string" || !t.name) throw bad(`tools[${i}].name`, "a function tool needs a name");
    const def: ToolDef = { name: t.name };
    if (typeof t.description === "string") def.description = t.description;
    if (t.parameters && typeof t.parameters === "object") def.parameters = t.parameters as Record<string, unknown>;
    tools.push(def);
  }

  let toolChoice: ToolChoice | undefined;
  const tc = b.tool_choice;
  if (typeof tc === "string") toolChoice = tc;
  else if (tc) {
    if (tc.type === "function" && tc.name) toolChoice = { name: tc.name };
    else if (tc.type === "allowed_tools") toolChoice = tc.mode === "required" ? "required" : "auto";
    else untranslatable(`tool_choice: ${JSON.stringify(tc.type)} names a hosted tool`);
  }

  const req: ChatRequest = { model: b.model, messages, stream: b.stream === true, responsesBody: body as Record<string, unknown> };
  if (systems.length) req.system = systems.join("\n\n");
  if (tools.length) req.tools = tools;
  if (toolChoice) req.toolChoice = toolChoice;
  if (b.temperature != null) req.temperature = b.temperature;
  if (b.top_p != null) req.topP = b.top_p;
  if (b.max_output_tokens != null) req.maxTokens = b.max_output_tokens;
  const effort = b.reasoning?.effort;
  if (effort && (EFFORTS as readonly string[]).includes(effort)) req.reasoningEffort = effort as ReasoningEffort;
  else if (effort) untranslatable(`reasoning.effort: ${JSON.stringify(effort)} is not one of ${EFFORTS.join(", ")}`);
  const format = b.text?.format;
  if (format && format.type === "json_object") req.responseFormat = { type: "json_object" };
  else if (format && format.type === "json_schema") {
    if (typeof format.name !== "string" || !format.name) throw bad("text.format.name", "a json_schema format needs a name");
    if (format.schema !== undefined && (!format.schema || typeof format.schema !== "object")) throw bad("text.format.schema", "must be an object");
    const rf: ResponseFormat = { type: "json_schema", name: format.name };
    if (format.schema) rf.schema = format.schema as Record<string, unknown>;
    if (typeof format.strict === "boolean") rf.strict = format.strict;
    if (typeof format.description === "string") rf.description = format.description;
    req.responseFormat = rf;
  } else if (format && format.type !== "text")
    untranslatable(`text.format: the format ${JSON.stringify(format.type)} is served only by a channel with the Responses API`);
  if (b.parallel_tool_calls != null && tools.length) req.extra = { wire: "openai", fields: { parallel_tool_calls: b.parallel_tool_calls } };
  if (reasons.length) req.untranslatable = `This request cannot be served by this channel: ${reasons.join("; ")}`;
  if (keptUpstream) req.promptKeptUpstream = true;
  return req;
}

// ---- answers ----

const randomId = (prefix: string) => prefix + randomBytes(12).toString("hex");

/** Responses usage: input includes cached tokens, output includes reasoning tokens (the canonical convention). */
export function responsesUsage(u: Usage) {
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: u.cached_tokens },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: u.reasoning_tokens },
    total_tokens: u.prompt_tokens + u.completion_tokens,
  };
}

type OutputItem = Record<string, unknown>;

const messageItem = (id: string, text: string, status: string): OutputItem => ({
  id,
  type: "message",
  status,
  role: "assistant",
  content: status === "in_progress" ? [] : [{ type: "output_text", text, annotations: [], logprobs: [] }],
});
const reasoningItem = (id: string, text: string, done: boolean): OutputItem => ({
  id,
  type: "reasoning",
  summary: [],
  content: done ? [{ type: "reasoning_text", text }] : [],
});
const callItem = (id: string, c: { id: string; name: string; args: string }, status: string): OutputItem => ({
  id,
  type: "function_call",
  status,
  call_id: c.id,
  name: c.name,
  arguments: c.args,
});

// An image the model produced (docs/relay-options.md, gemini.supported_imagine_models) is the
// Responses API's own image output item, an image_generation_call with the base64 in `result`
// and the image's format (png, jpeg, webp) taken from its MIME type.
const imageItem = (id: string, img: OutputImage | undefined, status: string): OutputItem => ({
  id,
  type: "image_generation_call",
  status,
  result: img && status === "completed" ? img.data : null,
  output_format: img ? img.mimeType.slice(img.mimeType.indexOf("/") + 1) : "png",
});

/** The Response object: the client's own settings echoed, as OpenAI does. */
function responseObject(req: ChatRequest, id: string, createdAt: number, status: string, output: OutputItem[], usage: Usage | null, finish?: FinishReason) {
  const b = req.responsesBody ?? {};
  const pick = (k: string, d: unknown) => (b[k] === undefined ? d : b[k]);
  return {
    id,
    object: "response",
    created_at: createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: finish === "content_filter" ? "content_filter" : "max_output_tokens" } : null,
    instructions: pick("instructions", null),
    max_output_tokens: pick("max_output_tokens", null),
    model: req.model,
    output,
    parallel_tool_calls: pick("parallel_tool_calls", true),
    previous_response_id: null,
    reasoning: { effort: req.reasoningEffort ?? null, summary: null },
    store: false,
    temperature: pick("temperature", 1),
    text: pick("text", { format: { type: "text" } }),
    tool_choice: pick("tool_choice", "auto"),
    tools: pick("tools", []),
    top_p: pick("top_p", 1),
    truncation: "disabled",
    usage: usage ? responsesUsage(usage) : null,
    user: null,
    metadata: pick("metadata", {}),
  };
}

const statusOf = (finish: FinishReason | undefined) => (finish === "length" || finish === "content_filter" ? "incomplete" : "completed");

function renderResponse(res: import("@/lib/relay/types").ChatResponse, req: ChatRequest, usage: Usage): string {
  const c = res.choices[0];
  const output: OutputItem[] = [];
  if (c?.reasoning) output.push(reasoningItem(randomId("rs_"), c.reasoning, true));
  if (c)
    eachSegment(
      c,
      (text) => output.push(messageItem(randomId("msg_"), text, "completed")),
      (img) => output.push(imageItem(randomId("ig_"), img, "completed")),
    );
  if (c?.toolCalls) for (const t of c.toolCalls) output.push(callItem(randomId("fc_"), { id: t.id, name: t.name, args: t.arguments }, "completed"));
  const finish = c?.finishReason;
  return json(responseObject(req, randomId("resp_"), nowSeconds(), statusOf(finish), output, usage, finish));
}

// The event sequence of a streamed response: response.created and response.in_progress (held
// until the upstream produced its first content, so that a failure before it can still be
// retried elsewhere), then per output item: output_item.added, content_part.added, the deltas,
// their .done events, output_item.done; finally response.completed (or response.incomplete)
// carrying the whole response and its usage. Every event has its sequence_number.
function streamRenderer(req: ChatRequest): StreamRenderer {
  const id = randomId("resp_");
  const createdAt = nowSeconds();
  let seq = 0;
  let started = false;
  let finish: FinishReason | undefined;
  // the output so far; `open` is the item still receiving deltas
  const output: {
    kind: "message" | "reasoning" | "call" | "image";
    id: string;
    text: string;
    call?: { id: string; name: string; args: string };
    image?: OutputImage;
    done: boolean;
  }[] = [];
  let open = -1;
  const callItemIndex = new Map<number, number>();
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${json(Object.assign({ type, sequence_number: seq++ }, data))}\n\n`;
  const itemJson = (i: number): OutputItem => {
    const it = output[i];
    if (it.kind === "message") return messageItem(it.id, it.text, it.done ? "completed" : "in_progress");
    if (it.kind === "reasoning") return reasoningItem(it.id, it.text, it.done);
    if (it.kind === "image") return imageItem(it.id, it.image, it.done ? "completed" : "in_progress");
    return callItem(it.id, it.call!, it.done ? "completed" : "in_progress");
  };
  const start = () => {
    if (started) return "";
    started = true;
    const r = responseObject(req, id, createdAt, "in_progress", [], null);
    return ev("response.created", { response: r }) + ev("response.in_progress", { response: r });
  };
  const close = () => {
    if (open === -1) return "";
    const i = open;
    open = -1;
    const it = output[i];
    it.done = true;
    let s = "";
    if (it.kind === "message") {
      const part = { type: "output_text", text: it.text, annotations: [], logprobs: [] };
      s += ev("response.output_text.done", { item_id: it.id, output_index: i, content_index: 0, text: it.text, logprobs: [] });
      s += ev("response.content_part.done", { item_id: it.id, output_index: i, content_index: 0, part });
    } else if (it.kind === "reasoning") {
      s += ev("response.reasoning_text.done", { item_id: it.id, output_index: i, content_index: 0, text: it.text });
      s += ev("response.content_part.done", { item_id: it.id, output_index: i, content_index: 0, part: { type: "reasoning_text", text: it.text } });
    } else {
      s += ev("response.function_call_arguments.done", { item_id: it.id, output_index: i, name: it.call!.name, arguments: it.call!.args });
    }
    return s + ev("response.output_item.done", { output_index: i, item: itemJson(i) });
  };
  const openText = (kind: "message" | "reasoning") => {
    if (open !== -1 && output[open].kind === kind) return "";
    let s = start() + close();
    const it = { kind, id: randomId(kind === "message" ? "msg_" : "rs_"), text: "", done: false };
    output.push(it);
    open = output.length - 1;
    s += ev("response.output_item.added", { output_index: open, item: itemJson(open) });
    const part = kind === "message" ? { type: "output_text", text: "", annotations: [], logprobs: [] } : { type: "reasoning_text", text: "" };
    return s + ev("response.content_part.added", { item_id: it.id, output_index: open, content_index: 0, part });
  };
  return {
    event(e) {
      // the Responses API has no n: only the first choice is rendered
      if ("index" in e && e.index !== 0) return "";
      switch (e.type) {
        case "text": {
          const s = openText("message");
          output[open].text += e.text;
          return s + ev("response.output_text.delta", { item_id: output[open].id, output_index: open, content_index: 0, delta: e.text, logprobs: [] });
        }
        case "reasoning": {
          const s = openText("reasoning");
          output[open].text += e.text;
          return s + ev("response.reasoning_text.delta", { item_id: output[open].id, output_index: open, content_index: 0, delta: e.text });
        }
        case "image": {
          // one whole image: its item opens and closes at once
          const s = start() + close();
          const it = { kind: "image" as const, id: randomId("ig_"), text: "", image: { mimeType: e.mimeType, data: e.data }, done: false };
          output.push(it);
          const i = output.length - 1;
          const ref = { output_index: i, item_id: it.id };
          const added = ev("response.output_item.added", { output_index: i, item: itemJson(i) }) + ev("response.image_generation_call.in_progress", ref);
          it.done = true;
          return s + added + ev("response.image_generation_call.completed", ref) + ev("response.output_item.done", { output_index: i, item: itemJson(i) });
        }
        case "tool_call_start": {
          const s = start() + close();
          output.push({ kind: "call", id: randomId("fc_"), text: "", call: { id: e.id, name: e.name, args: "" }, done: false });
          open = output.length - 1;
          callItemIndex.set(e.callIndex, open);
          return s + ev("response.output_item.added", { output_index: open, item: itemJson(open) });
        }
        case "tool_call_args": {
          const i = callItemIndex.get(e.callIndex);
          if (i === undefined || !e.args) return "";
          output[i].call!.args += e.args;
          return ev("response.function_call_arguments.delta", { item_id: output[i].id, output_index: i, delta: e.args });
        }
        case "finish":
          finish = e.reason;
          return "";
        default:
          return "";
      }
    },
    end(usage) {
      let s = start() + close();
      // a call whose arguments came after another item opened was left open: close it too
      for (let i = 0; i < output.length; i++) {
        if (output[i].done) continue;
        open = i;
        s += close();
      }
      const status = statusOf(finish);
      const r = responseObject(
        req,
        id,
        createdAt,
        status,
        output.map((_, i) => itemJson(i)),
        usage,
        finish,
      );
      return s + ev(status === "completed" ? "response.completed" : "response.incomplete", { response: r });
    },
    error(err) {
      return ev("error", { code: err.code ?? err.type, message: err.message, param: null });
    },
  };
}

export const openaiResponses: IngressFormat = {
  name: "openai-responses",
  parse,
  renderResponse,
  streamRenderer,
  // the Responses API reports errors in the OpenAI shape
  renderError: (err: UpstreamError) => openaiChat.renderError(err),
};

// The request schema, also read by the relay's OpenAPI document (docs/api-reference.md).
export { schema as openaiResponsesRequest };
