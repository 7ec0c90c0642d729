// Mock upstreams: real node:http servers speaking the OpenAI, Azure OpenAI, Anthropic and
// Gemini wire formats (JSON answers and true SSE framing, tool calls, usage). They record
// every request they receive and fail on demand (an HTTP error with the provider's error
// body, an error in the middle of a stream, a slow first byte, an answer without usage).
import http from "node:http";
import type { AddressInfo } from "node:net";

export type MockKind = "openai" | "azure" | "anthropic" | "gemini";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** the body's bytes (multipart uploads carry binary files) */
  raw: Buffer;
  json?: any;
}

export interface Behavior {
  /** answer this HTTP status with the provider's error body */
  failStatus?: number;
  failMessage?: string;
  /** send some content, then a provider-shaped error event, then close */
  failMidStream?: boolean;
  /** wait this long before the first byte (headers included) */
  delayMs?: number;
  /** leave usage out */
  noUsage?: boolean;
  /** answer with a tool call instead of text */
  toolCall?: { name: string; args: Record<string, unknown> };
  /** the answer text; default: "echo: " + the last user text */
  text?: string;
  /** pieces the stream text is cut into (default: by word) */
  reasoning?: string;
  /** a stream goes silent this long after its second event (keep-alive tests) */
  pauseMs?: number;
  /** a stream sends its headers and an empty first event, is silent this long, then fails with an error event */
  silentFailMs?: number;
  /** OpenAI / Azure: the models exist only on /v1/responses (chat completions answer 404, as OpenAI does for such models) */
  responsesOnly?: boolean;
  /** OpenAI: answer the billing endpoints a channel's balance is read from (the balance is hardLimitUsd - usageCents / 100); unset, they answer 404 */
  billing?: { hardLimitUsd: number; usageCents: number };
}

export const USAGE = { prompt: 21, completion: 9, cached: 5, cacheCreation: 2, reasoning: 3 };
/** what the Anthropic and Gemini mocks answer to a token count */
export const COUNTED_TOKENS = 4242;

export interface MockUpstream {
  kind: MockKind;
  url: string;
  key: string;
  /** more keys it accepts besides `key` (a multi-key channel's); take one out to make it answer 401 */
  keys: Set<string>;
  requests: RecordedRequest[];
  behavior: Behavior;
  close(): Promise<void>;
}

const KEYS: Record<MockKind, string> = {
  openai: "sk-upstream-openai-0123456789abcdef",
  azure: "azure-upstream-key-0123456789",
  anthropic: "sk-ant-upstream-0123456789abcdef",
  gemini: "AIzaUpstreamGeminiKey0123456789",
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A 1×1 PNG, the image the Gemini mock draws. */
export const MOCK_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function lastUserText(kind: MockKind, j: any): string {
  try {
    if (kind === "gemini") {
      const users = (j.contents as any[]).filter((c) => c.role !== "model");
      const parts = users[users.length - 1]?.parts ?? [];
      return parts.map((p: any) => p.text ?? (p.functionResponse ? JSON.stringify(p.functionResponse.response) : "")).join("");
    }
    const msgs = (j.messages as any[]).filter((m) => m.role === "user" || m.role === "tool");
    const c = msgs[msgs.length - 1]?.content;
    if (typeof c === "string") return c;
    return (c as any[])
      .map((p) =>
        p.type === "text" ? p.text : p.type === "tool_result" ? (typeof p.content === "string" ? p.content : p.content?.map((x: any) => x.text).join("")) : "",
      )
      .join("");
  } catch {
    return "";
  }
}

function errorBody(kind: MockKind, status: number, message: string): string {
  if (kind === "anthropic") {
    const type =
      status === 401
        ? "authentication_error"
        : status === 429
          ? "rate_limit_error"
          : status === 529
            ? "overloaded_error"
            : status >= 500
              ? "api_error"
              : "invalid_request_error";
    return JSON.stringify({ type: "error", error: { type, message } });
  }
  if (kind === "gemini") {
    const s =
      status === 400
        ? "INVALID_ARGUMENT"
        : status === 401
          ? "UNAUTHENTICATED"
          : status === 429
            ? "RESOURCE_EXHAUSTED"
            : status === 503
              ? "UNAVAILABLE"
              : "INTERNAL";
    return JSON.stringify({ error: { code: status, message, status: s } });
  }
  const type = status === 401 ? "invalid_request_error" : status === 429 ? "rate_limit_error" : status >= 500 ? "server_error" : "invalid_request_error";
  return JSON.stringify({ error: { message, type, param: null, code: status === 401 ? "invalid_api_key" : null } });
}

function keyOf(kind: MockKind, req: http.IncomingMessage): string | undefined {
  const h = req.headers;
  if (kind === "openai") return h.authorization?.replace(/^Bearer /, "");
  if (kind === "azure") return h["api-key"] as string | undefined;
  if (kind === "anthropic") return h["x-api-key"] as string | undefined;
  return h["x-goog-api-key"] as string | undefined;
}

const words = (s: string) => s.match(/\S+\s*/g) ?? [s];

/** Writes SSE events one by one, each in its own write (sometimes cut in two) with a tick between. */
async function sse(res: http.ServerResponse, events: string[], pauseMs = 0): Promise<void> {
  for (let i = 0; i < events.length; i++) {
    if (i === 2 && pauseMs) await sleep(pauseMs);
    const e = events[i];
    if (i % 3 === 1 && e.length > 8) {
      const mid = Math.floor(e.length / 2);
      res.write(e.slice(0, mid));
      await sleep(1);
      res.write(e.slice(mid));
    } else res.write(e);
    await sleep(1);
  }
  res.end();
}

// ---- OpenAI (and Azure) ----

function openaiUsage(b: Behavior) {
  return b.noUsage
    ? undefined
    : {
        prompt_tokens: USAGE.prompt,
        completion_tokens: USAGE.completion,
        total_tokens: USAGE.prompt + USAGE.completion,
        prompt_tokens_details: { cached_tokens: USAGE.cached },
        completion_tokens_details: { reasoning_tokens: USAGE.reasoning },
      };
}

async function openaiChat(b: Behavior, j: any, res: http.ServerResponse) {
  const text = b.text ?? "echo: " + lastUserText("openai", j);
  const n = j.n ?? 1;
  const id = "chatcmpl-mock1";
  const model = j.model;
  if (!j.stream) {
    const choices = Array.from({ length: n }, (_, index) => ({
      index,
      message: b.toolCall
        ? {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "call_mock_1", type: "function", function: { name: b.toolCall.name, arguments: JSON.stringify(b.toolCall.args) } }],
          }
        : { role: "assistant", content: n > 1 ? `${text} #${index}` : text, ...(b.reasoning ? { reasoning_content: b.reasoning } : {}) },
      finish_reason: b.toolCall ? "tool_calls" : "stop",
    }));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id, object: "chat.completion", created: 1700000000, model, choices, usage: openaiUsage(b) }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = (choices: unknown[], extra?: object) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1700000000, model, choices, ...extra })}\n\n`;
  const ev: string[] = [chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])];
  if (b.reasoning) ev.push(chunk([{ index: 0, delta: { reasoning_content: b.reasoning }, finish_reason: null }]));
  if (b.toolCall) {
    const args = JSON.stringify(b.toolCall.args);
    ev.push(
      chunk([
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: "call_mock_1", type: "function", function: { name: b.toolCall.name, arguments: "" } }] },
          finish_reason: null,
        },
      ]),
    );
    const mid = Math.floor(args.length / 2);
    ev.push(chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(0, mid) } }] }, finish_reason: null }]));
    ev.push(chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(mid) } }] }, finish_reason: null }]));
  } else for (const w of words(text)) ev.push(chunk([{ index: 0, delta: { content: w }, finish_reason: null }]));
  const failure = `data: ${JSON.stringify({ error: { message: "mock upstream failed mid-stream", type: "server_error", code: null } })}\n\n`;
  if (b.silentFailMs) {
    res.write(ev[0]);
    await sleep(b.silentFailMs);
    res.end(failure);
    return;
  }
  if (b.failMidStream) {
    ev.push(failure);
    return sse(res, ev);
  }
  ev.push(chunk([{ index: 0, delta: {}, finish_reason: b.toolCall ? "tool_calls" : "stop" }]));
  if (j.stream_options?.include_usage && !b.noUsage) ev.push(chunk([], { usage: openaiUsage(b) }));
  ev.push("data: [DONE]\n\n");
  return sse(res, ev, b.pauseMs);
}

async function openaiOther(path: string, b: Behavior, j: any, raw: string, req: http.IncomingMessage, res: http.ServerResponse) {
  const send = (o: unknown) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(o));
  };
  const usage = b.noUsage ? undefined : { prompt_tokens: USAGE.prompt, total_tokens: USAGE.prompt };
  if (b.billing && path === "/v1/dashboard/billing/subscription") return send({ hard_limit_usd: b.billing.hardLimitUsd });
  if (b.billing && path === "/v1/dashboard/billing/usage") return send({ total_usage: b.billing.usageCents });
  if (path.endsWith("embeddings")) {
    const inputs = Array.isArray(j.input) ? j.input : [j.input];
    // As OpenAI does: base64 of little-endian float32 when asked (the openai SDK asks by default).
    const vector = (index: number) => [0.1, 0.2, 0.3 + index];
    const encode = (v: number[]) => Buffer.from(new Float32Array(v).buffer).toString("base64");
    const embedding = (index: number) => (j.encoding_format === "base64" ? encode(vector(index)) : vector(index));
    return send({
      object: "list",
      model: j.model,
      data: inputs.map((_: unknown, index: number) => ({ object: "embedding", index, embedding: embedding(index) })),
      usage,
    });
  }
  if (path.endsWith("completions")) {
    if (j.stream) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const c = (o: object) => `data: ${JSON.stringify({ id: "cmpl-1", object: "text_completion", model: j.model, ...o })}\n\n`;
      const ev = [c({ choices: [{ index: 0, text: "once ", finish_reason: null }] }), c({ choices: [{ index: 0, text: "upon", finish_reason: "stop" }] })];
      if (j.stream_options?.include_usage && !b.noUsage) ev.push(c({ choices: [], usage: openaiUsage(b) }));
      ev.push("data: [DONE]\n\n");
      return sse(res, ev);
    }
    return send({
      id: "cmpl-1",
      object: "text_completion",
      model: j.model,
      choices: [{ index: 0, text: "once upon", finish_reason: "stop" }],
      usage: openaiUsage(b),
    });
  }
  if (path.endsWith("responses")) return openaiResponses(b, j, res);
  if (path.endsWith("images/generations"))
    return send({ created: 1700000000, data: Array.from({ length: j.n ?? 1 }, () => ({ url: "https://img.example/x.png" })) });
  if (path.endsWith("audio/speech")) {
    res.writeHead(200, { "content-type": "audio/mpeg" });
    const bytes = Buffer.alloc(64 * 1024, 7);
    res.write(bytes.subarray(0, 32 * 1024));
    await sleep(2);
    res.end(bytes.subarray(32 * 1024));
    return;
  }
  if (path.endsWith("audio/transcriptions")) {
    const ok = String(req.headers["content-type"]).startsWith("multipart/form-data") && raw.includes('name="file"');
    return send(ok ? { text: "hello world", usage: { type: "duration", seconds: 4 } } : { text: "" });
  }
  if (path.endsWith("audio/translations")) {
    // like whisper-1: the English text, no usage at all
    const ok = String(req.headers["content-type"]).startsWith("multipart/form-data") && raw.includes('name="file"');
    return send({ text: ok ? "good morning to everyone" : "" });
  }
  if (path.endsWith("moderations")) return send({ id: "modr-1", model: j.model, results: [{ flagged: false, categories: {}, category_scores: {} }] });
  if (path.endsWith("rerank"))
    return send({
      results: (j.documents ?? []).map((_: unknown, index: number) => ({ index, relevance_score: 1 / (index + 1) })),
      usage: b.noUsage ? undefined : { total_tokens: 12 },
    });
  res.writeHead(404, { "content-type": "application/json" });
  res.end(errorBody("openai", 404, `no route ${path}`));
}

// The Responses API as OpenAI serves it: a Response object, or its event sequence (created,
// in_progress, output items with their parts and deltas, completed with usage); reasoning,
// a function call, an error event mid-stream on demand. Default text "hi there".
async function openaiResponses(b: Behavior, j: any, res: http.ServerResponse) {
  const usage = b.noUsage
    ? null
    : {
        input_tokens: USAGE.prompt,
        output_tokens: USAGE.completion,
        total_tokens: USAGE.prompt + USAGE.completion,
        input_tokens_details: { cached_tokens: USAGE.cached },
        output_tokens_details: { reasoning_tokens: USAGE.reasoning },
      };
  const text = b.text ?? "hi there";
  const output: any[] = [];
  if (b.reasoning) output.push({ type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: b.reasoning }] });
  if (b.toolCall)
    output.push({
      type: "function_call",
      id: "fc_1",
      call_id: "call_resp_1",
      name: b.toolCall.name,
      arguments: JSON.stringify(b.toolCall.args),
      status: "completed",
    });
  else output.push({ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] });
  const response = { id: "resp_1", object: "response", created_at: 1700000000, status: "completed", model: j.model, output, usage };
  if (!j.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(response));
    return;
  }
  let seq = 0;
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  const started = { ...response, status: "in_progress", output: [], usage: null };
  const out = [ev("response.created", { response: started }), ev("response.in_progress", { response: started })];
  output.forEach((item, i) => {
    if (item.type === "reasoning") {
      out.push(ev("response.output_item.added", { output_index: i, item: { ...item, summary: [] } }));
      out.push(ev("response.reasoning_summary_text.delta", { item_id: item.id, output_index: i, summary_index: 0, delta: b.reasoning }));
      out.push(ev("response.output_item.done", { output_index: i, item }));
    } else if (item.type === "function_call") {
      out.push(ev("response.output_item.added", { output_index: i, item: { ...item, arguments: "", status: "in_progress" } }));
      const args: string = item.arguments;
      out.push(ev("response.function_call_arguments.delta", { item_id: item.id, output_index: i, delta: args.slice(0, 4) }));
      out.push(ev("response.function_call_arguments.delta", { item_id: item.id, output_index: i, delta: args.slice(4) }));
      out.push(ev("response.function_call_arguments.done", { item_id: item.id, output_index: i, arguments: args }));
      out.push(ev("response.output_item.done", { output_index: i, item }));
    } else {
      out.push(ev("response.output_item.added", { output_index: i, item: { ...item, status: "in_progress", content: [] } }));
      out.push(
        ev("response.content_part.added", { item_id: item.id, output_index: i, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
      );
      for (const w of words(text)) out.push(ev("response.output_text.delta", { item_id: item.id, output_index: i, content_index: 0, delta: w }));
      if (b.failMidStream) return;
      out.push(ev("response.output_text.done", { item_id: item.id, output_index: i, content_index: 0, text }));
      out.push(ev("response.output_item.done", { output_index: i, item }));
    }
  });
  if (b.failMidStream) {
    out.push(ev("error", { code: "server_error", message: "mock upstream failed mid-stream", param: null }));
    res.writeHead(200, { "content-type": "text/event-stream" });
    return sse(res, out);
  }
  out.push(ev("response.completed", { response }));
  res.writeHead(200, { "content-type": "text/event-stream" });
  return sse(res, out, b.pauseMs);
}

// ---- Anthropic ----

async function anthropicMessages(b: Behavior, j: any, res: http.ServerResponse) {
  const text = b.text ?? "echo: " + lastUserText("anthropic", j);
  const usage = {
    input_tokens: USAGE.prompt - USAGE.cached - USAGE.cacheCreation,
    output_tokens: USAGE.completion,
    cache_read_input_tokens: USAGE.cached,
    cache_creation_input_tokens: USAGE.cacheCreation,
  };
  const stop = b.toolCall ? "tool_use" : "end_turn";
  if (!j.stream) {
    const content: unknown[] = [];
    if (b.reasoning) content.push({ type: "thinking", thinking: b.reasoning, signature: "sig" });
    if (b.toolCall) content.push({ type: "tool_use", id: "toolu_mock_1", name: b.toolCall.name, input: b.toolCall.args });
    else content.push({ type: "text", text });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "msg_mock1",
        type: "message",
        role: "assistant",
        model: j.model,
        content,
        stop_reason: stop,
        stop_sequence: null,
        ...(b.noUsage ? {} : { usage }),
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const ev = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
  const out = [
    ev("message_start", {
      message: {
        id: "msg_mock1",
        type: "message",
        role: "assistant",
        model: j.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: b.noUsage ? undefined : { ...usage, output_tokens: 1 },
      },
    }),
    ev("ping", {}),
  ];
  let idx = 0;
  if (b.reasoning) {
    out.push(ev("content_block_start", { index: idx, content_block: { type: "thinking", thinking: "" } }));
    out.push(ev("content_block_delta", { index: idx, delta: { type: "thinking_delta", thinking: b.reasoning } }));
    out.push(ev("content_block_stop", { index: idx++ }));
  }
  if (b.toolCall) {
    const args = JSON.stringify(b.toolCall.args);
    out.push(ev("content_block_start", { index: idx, content_block: { type: "tool_use", id: "toolu_mock_1", name: b.toolCall.name, input: {} } }));
    out.push(ev("content_block_delta", { index: idx, delta: { type: "input_json_delta", partial_json: "" } }));
    out.push(ev("content_block_delta", { index: idx, delta: { type: "input_json_delta", partial_json: args.slice(0, 5) } }));
    out.push(ev("content_block_delta", { index: idx, delta: { type: "input_json_delta", partial_json: args.slice(5) } }));
  } else {
    out.push(ev("content_block_start", { index: idx, content_block: { type: "text", text: "" } }));
    for (const w of words(text)) out.push(ev("content_block_delta", { index: idx, delta: { type: "text_delta", text: w } }));
  }
  if (b.failMidStream) {
    out.push(ev("error", { error: { type: "overloaded_error", message: "mock upstream overloaded mid-stream" } }));
    return sse(res, out);
  }
  out.push(ev("content_block_stop", { index: idx }));
  out.push(ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: b.noUsage ? undefined : { output_tokens: USAGE.completion } }));
  out.push(ev("message_stop", {}));
  return sse(res, out, b.pauseMs);
}

// ---- Gemini ----

async function geminiGenerate(b: Behavior, j: any, model: string, stream: boolean, res: http.ServerResponse) {
  const text = b.text ?? "echo: " + lastUserText("gemini", j);
  const usageMetadata = b.noUsage
    ? undefined
    : {
        promptTokenCount: USAGE.prompt,
        candidatesTokenCount: USAGE.completion - USAGE.reasoning,
        thoughtsTokenCount: USAGE.reasoning,
        cachedContentTokenCount: USAGE.cached,
        totalTokenCount: USAGE.prompt + USAGE.completion,
      };
  const n = j.generationConfig?.candidateCount ?? 1;
  // as Gemini's image models do when asked for IMAGE output: the picture as an inline part
  const image = (j.generationConfig?.responseModalities ?? []).includes("IMAGE") ? [{ inlineData: { mimeType: "image/png", data: MOCK_PNG } }] : [];
  if (!stream) {
    const candidates = Array.from({ length: n }, (_, index) => ({
      content: {
        role: "model",
        parts: b.toolCall
          ? [{ functionCall: { name: b.toolCall.name, args: b.toolCall.args } }]
          : [...(b.reasoning ? [{ text: b.reasoning, thought: true }] : []), { text: n > 1 ? `${text} #${index}` : text }, ...image],
      },
      finishReason: "STOP",
      index,
    }));
    res.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
    res.end(JSON.stringify({ candidates, usageMetadata, modelVersion: model, responseId: "gem-mock1" }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = (o: object) => `data: ${JSON.stringify({ ...o, modelVersion: model, responseId: "gem-mock1" })}\r\n\r\n`;
  const out: string[] = [];
  if (b.toolCall)
    out.push(chunk({ candidates: [{ content: { role: "model", parts: [{ functionCall: { name: b.toolCall.name, args: b.toolCall.args } }] }, index: 0 }] }));
  else for (const w of words(text)) out.push(chunk({ candidates: [{ content: { role: "model", parts: [{ text: w }] }, index: 0 }] }));
  if (image.length) out.push(chunk({ candidates: [{ content: { role: "model", parts: image }, index: 0 }] }));
  if (b.failMidStream) {
    out.push(`data: ${JSON.stringify({ error: { code: 503, message: "mock upstream unavailable mid-stream", status: "UNAVAILABLE" } })}\r\n\r\n`);
    return sse(res, out);
  }
  out.push(chunk({ candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }], usageMetadata }));
  return sse(res, out, b.pauseMs);
}

// Gemini's embeddings: embedContent answers {embedding:{values}}, batchEmbedContents
// {embeddings:[{values}]} in request order, with no token count. As Gemini does, a batch
// request must name the URL's model, and an unknown task type is refused. Each vector is
// [its index, the length of its text parts, the outputDimensionality asked or 0], so a test
// can tell which input made which vector.
const TASK_TYPES = [
  "TASK_TYPE_UNSPECIFIED",
  "RETRIEVAL_QUERY",
  "RETRIEVAL_DOCUMENT",
  "SEMANTIC_SIMILARITY",
  "CLASSIFICATION",
  "CLUSTERING",
  "QUESTION_ANSWERING",
  "FACT_VERIFICATION",
  "CODE_RETRIEVAL_QUERY",
];

function geminiEmbed(j: any, model: string, batch: boolean, res: http.ServerResponse) {
  const fail = (message: string) => {
    res.writeHead(400, { "content-type": "application/json; charset=UTF-8" });
    res.end(errorBody("gemini", 400, message));
  };
  const requests: any[] = batch ? j?.requests : [j];
  if (!Array.isArray(requests) || !requests.length) return fail("* BatchEmbedContentsRequest.requests: contents is not specified");
  const vectors: number[][] = [];
  for (const [i, r] of requests.entries()) {
    if (batch && r.model !== `models/${model}`) return fail(`* BatchEmbedContentsRequest.requests[${i}].model: model must be models/${model}`);
    if (!Array.isArray(r.content?.parts) || !r.content.parts.length) return fail(`* requests[${i}].content: contents is not specified`);
    if (r.taskType !== undefined && !TASK_TYPES.includes(r.taskType)) return fail(`Invalid value at 'requests[${i}].task_type' (TYPE_ENUM), "${r.taskType}"`);
    const textLength = r.content.parts.reduce((n: number, p: any) => n + (p.text ?? "").length, 0);
    vectors.push([i, textLength, r.outputDimensionality ?? 0]);
  }
  res.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
  res.end(JSON.stringify(batch ? { embeddings: vectors.map((values) => ({ values })) } : { embedding: { values: vectors[0] } }));
}

// ---- the server ----

/** The key a recorded request carried, in the mock's wire. */
export const requestKey = (kind: MockKind, r: RecordedRequest): string | undefined => keyOf(kind, { headers: r.headers } as http.IncomingMessage);

export async function startMockUpstream(kind: MockKind): Promise<MockUpstream> {
  const requests: RecordedRequest[] = [];
  const mock: MockUpstream = { kind, url: "", key: KEYS[kind], keys: new Set(), requests, behavior: {}, close: async () => {} };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const body = raw.toString("utf8");
    let json: any;
    try {
      json = body && String(req.headers["content-type"]).includes("json") ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, raw, json });
    const b = mock.behavior;
    if (b.delayMs) await sleep(b.delayMs);
    if (res.destroyed) return;
    const key = keyOf(kind, req);
    if (key !== mock.key && !(key && mock.keys.has(key))) {
      // like OpenAI, echo (part of) the wrong key: the relay must not pass it on
      res.writeHead(401, { "content-type": "application/json" });
      res.end(errorBody(kind, 401, `Incorrect API key provided: ${key}.`));
      return;
    }
    if (b.failStatus) {
      res.writeHead(b.failStatus, { "content-type": "application/json" });
      res.end(errorBody(kind, b.failStatus, b.failMessage ?? `mock failure ${b.failStatus} (key ${key})`));
      return;
    }
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname;
    try {
      if (kind === "openai" || kind === "azure") {
        if (kind === "azure") {
          const m = /^\/openai\/deployments\/([^/]+)\/(.+)$/.exec(path);
          if (!url.searchParams.get("api-version") || (!m && path !== "/openai/responses")) {
            res.writeHead(404, { "content-type": "application/json" });
            res.end(errorBody(kind, 404, "Resource not found"));
            return;
          }
          if (m && json) json.model = json.model ?? m[1];
          const rest = m ? m[2] : "responses";
          if (rest === "chat/completions" && !b.responsesOnly) return await openaiChat(b, json, res);
          return await openaiOther(rest, b, json ?? {}, body, req, res);
        }
        if (path === "/v1/chat/completions" && !b.responsesOnly) return await openaiChat(b, json, res);
        if (path === "/v1/chat/completions") {
          res.writeHead(404, { "content-type": "application/json" });
          res.end(errorBody(kind, 404, `This model is only supported in v1/responses and not in v1/chat/completions.`));
          return;
        }
        return await openaiOther(path, b, json ?? {}, body, req, res);
      }
      if (kind === "anthropic" && path === "/v1/messages") return await anthropicMessages(b, json, res);
      // token counts: a fixed figure, so that a test can tell the upstream's count from an estimate
      if (kind === "anthropic" && path === "/v1/messages/count_tokens") {
        const extra = Object.keys(json ?? {}).filter((k) => !["model", "messages", "system", "tools", "tool_choice", "thinking"].includes(k));
        res.writeHead(extra.length ? 400 : 200, { "content-type": "application/json" });
        res.end(extra.length ? errorBody(kind, 400, `${extra[0]}: Extra inputs are not permitted`) : JSON.stringify({ input_tokens: COUNTED_TOKENS }));
        return;
      }
      if (kind === "gemini") {
        // both API versions (gemini.version_settings picks one per model)
        const m = /^\/v1(?:beta)?\/models\/([^:]+):(\w+)$/.exec(path);
        if (m && (m[2] === "generateContent" || m[2] === "streamGenerateContent"))
          return await geminiGenerate(b, json, m[1], m[2] === "streamGenerateContent" && url.searchParams.get("alt") === "sse", res);
        if (m && (m[2] === "embedContent" || m[2] === "batchEmbedContents")) return geminiEmbed(json, m[1], m[2] === "batchEmbedContents", res);
        if (m && m[2] === "countTokens") {
          const ok = json?.generateContentRequest?.model === `models/${m[1]}` && Array.isArray(json.generateContentRequest.contents);
          res.writeHead(ok ? 200 : 400, { "content-type": "application/json; charset=UTF-8" });
          res.end(ok ? JSON.stringify({ totalTokens: COUNTED_TOKENS }) : errorBody(kind, 400, "generateContentRequest is malformed"));
          return;
        }
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(errorBody(kind, 404, `no route ${path}`));
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(errorBody(kind, 500, String(e)));
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return mock;
}
