// forward(): one attempt of one request on one channel. It calls the upstream (undici with
// keep-alive by default, node:http on request: see transport.ts for why; the client's
// abort signal passed through, a first-byte timeout), writes the answer to the client
// in the client's own format, chunk by chunk, and resolves an outcome the caller (the retry
// loop, billing, logging: built elsewhere) acts on.
//
// Invariant: nothing is written to the client before the upstream has produced a success
// (for a stream: its first rendered content), so that a failure before that point can be
// retried on another channel. `firstByteSentToClient` tells whether that point was passed.
import "server-only";
import type { ServerResponse } from "node:http";
import { CompletionCounter, estimateEmbeddingTokens, estimateInputTokens, estimatePromptTokens, estimateTextTokens } from "@/lib/relay/estimate";
import { formats, MAX_EMBED_INPUTS, renderGeminiEmbeddings, type IngressName, type StreamRenderer } from "@/lib/relay/formats";
import { withMultipartModel, type MultipartModel } from "@/lib/relay/multipart";
import { Canceller, type Cancellation } from "@/lib/relay/cancel";
import { serializeOffThread, type LiftedStrings } from "@/lib/relay/json-worker";
import { adapterFor } from "@/lib/relay/providers/registry";
import { PassthroughRedactor, redactError, redactPassthroughText } from "@/lib/relay/providers/common";
import { openaiUsage } from "@/lib/relay/providers/openai";
import type { PassthroughEndpoint, ProviderAdapter, UpstreamRequest } from "@/lib/relay/providers/types";
import { readSse, startSse, write } from "@/lib/relay/sse";
import { undiciTransport, type Transport, type UpstreamResponse } from "@/lib/relay/transport";
import { tracing } from "@/lib/tracing";
import {
  RelayError,
  eachSegment,
  emptyUsage,
  textWithImages,
  isEmbeddingRequest,
  type ChannelView,
  type ChatRequest,
  type ChatResponse,
  type Choice,
  type EmbeddingRequest,
  type FinishReason,
  type StreamEvent,
  type UpstreamError,
  type Usage,
} from "@/lib/relay/types";

/** A request to one of the OpenAI endpoints other than chat, forwarded nearly as is. */
export interface PassthroughRequest {
  endpoint: PassthroughEndpoint;
  /** JSON endpoints: the parsed body; `model` is replaced by the channel's upstream model */
  json?: Record<string, unknown>;
  /**
   * multipart endpoints (audio/transcriptions, audio/translations): the raw body and where its model field is
   * (`locateMultipartModel`); forwarded byte for byte but for the model, replaced by the
   * channel's upstream model
   */
  multipart?: { body: Uint8Array; model: MultipartModel };
  /** the client's content type (with the multipart boundary) */
  contentType: string;
}

export interface ForwardOptions {
  ingress: IngressName;
  request: ChatRequest | PassthroughRequest | EmbeddingRequest;
  channel: ChannelView;
  clientRes: ServerResponse;
  /** the client's abort signal (closed connection) */
  signal?: Cancellation;
  /** called once, when the first byte is about to be written to the client */
  onFirstByte?: () => void;
  /** connect and first-byte timeout (a stream: until its first chunk; a whole answer: until it is read); default 300 s */
  timeoutMs?: number;
  /** how to call the upstream; default undici with keep-alive (see transport.ts) */
  transport?: Transport;
  /** a large body's long strings (lib/relay/json-worker.ts): the upstream body is serialised on a worker thread */
  offload?: LiftedStrings;
  /**
   * global.pass_through_request_enabled: the client's parsed body, sent unchanged but for the
   * model when the channel's wire is the ingress format's own (adapter.ingress)
   */
  raw?: Record<string, unknown>;
  /** general_setting.ping_interval_*: ms of upstream silence after which a stream gets an SSE `: ping` comment (0: never) */
  pingMs?: number;
  /** LogChatContentEnabled: keep the answer's text (choice 0), up to this many characters (0: nothing kept) */
  captureOutput?: number;
}

/** Non-token quantities some endpoints are billed by. */
export interface Meter {
  images?: number;
  characters?: number;
  seconds?: number;
}

export interface ForwardOutcome {
  ok: boolean;
  /** the HTTP status of the upstream (499: the client went away; 504: timeout; 502: network) */
  status: number;
  usage: Usage;
  /** true when usage is our estimate because the upstream sent none */
  usageEstimated: boolean;
  meter?: Meter;
  firstByteSentToClient: boolean;
  /** ms from the call to the first byte written to the client (0 when none) */
  frtMs: number;
  upstreamError?: UpstreamError;
  /** whether the caller may try another channel (never once bytes reached the client) */
  retryable: boolean;
  /** the answer's text (choice 0) when captureOutput asked for it, cut to that length */
  output?: string;
  /** tracing on (lib/tracing): a chat answer's finish reasons, one per choice, and the model its upstream named */
  finishReasons?: FinishReason[];
  responseModel?: string;
}

export const DEFAULT_TIMEOUT_MS = 300_000;

/** Statuses worth another channel: rate limits, server failures, and this channel's auth or model problems. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500 || status === 401 || status === 403 || status === 404;
}

/** Writes an error in the ingress format's shape (for the caller, once retries are over). */
export function writeError(ingress: IngressName, res: ServerResponse, err: UpstreamError): void {
  const { status, body } = formats[ingress].renderError(err);
  if (!res.headersSent) res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export async function forward(opts: ForwardOptions): Promise<ForwardOutcome> {
  const adapter = adapterFor(opts.channel.type);
  if (!adapter) return refused(502, `channel type ${opts.channel.type} is not supported by the relay`, true);
  const req = opts.request;
  try {
    if ("endpoint" in req) return await passthrough(opts, adapter, req);
    // only the Gemini ingress builds an EmbeddingRequest (OpenAI's /v1/embeddings is a pass-through)
    if (isEmbeddingRequest(req)) return await embeddings(opts, adapter, req, (vectors) => renderGeminiEmbeddings(vectors, req.single));
    return await chat(opts, adapter, req);
  } catch (e) {
    if (e instanceof RelayError) return refused(e.status, e.message, isRetryableStatus(e.status) || e.status === 400, e.code);
    throw e;
  }
}

// Usage with only the token counts known (an estimate, or an embedding's prompt).
function estimatedUsage(promptTokens: number, completionTokens: number): Usage {
  const u = emptyUsage();
  u.prompt_tokens = promptTokens;
  u.completion_tokens = completionTokens;
  return u;
}

function refused(status: number, message: string, retryable: boolean, code: string | null = null, type = "upstream_error"): ForwardOutcome {
  return {
    ok: false,
    status,
    usage: emptyUsage(),
    usageEstimated: false,
    firstByteSentToClient: false,
    frtMs: 0,
    upstreamError: { status, message, type, code },
    retryable,
  };
}

interface Call {
  res?: UpstreamResponse;
  failure?: ForwardOutcome;
  clear(): void;
  t0: number;
}

/**
 * The upstream call with the client's signal and a first-byte timeout. Failures, a non-2xx
 * answer included (read and parsed by the adapter), become outcomes.
 */
async function call(opts: ForwardOptions, adapter: ProviderAdapter, url: string, headers: Record<string, string>, body: string | Uint8Array): Promise<Call> {
  const t0 = performance.now();
  // One canceller for the upstream call, fired by the first-byte timer or by the client
  // going away (for the whole call, streams included); see lib/relay/cancel.ts.
  const upstream = new Canceller();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    upstream.abort();
  }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const clear = () => clearTimeout(timer);
  if (opts.signal?.aborted) upstream.abort();
  else opts.signal?.addEventListener("abort", () => upstream.abort(), { once: true });
  try {
    const res = await (opts.transport ?? undiciTransport)(url, { headers, body, signal: upstream });
    if (res.ok) return { res, clear, t0 };
    clear();
    // channel calls follow no redirect (docs/outbound.md): a 3xx is a failure of the channel,
    // never a status passed on to the client
    if (res.status >= 300 && res.status < 400) {
      void res.text().catch(() => {});
      return {
        failure: refused(502, `the upstream answered with a redirect (HTTP ${res.status}), which is not followed`, true, "upstream_redirect"),
        clear,
        t0,
      };
    }
    return { failure: await upstreamFailure(res, adapter, opts.channel), clear, t0 };
  } catch (e) {
    clear();
    if (opts.signal?.aborted) return { failure: refused(499, "the client closed the request", false, "client_gone"), clear, t0 };
    if (timedOut) return { failure: refused(504, "the upstream did not answer in time", true, "timeout"), clear, t0 };
    const err = e as { code?: string; message?: string; cause?: { code?: string } };
    // the outbound policy refused the address (lib/net/outbound.ts): its message says why
    if (err.code === "E_OUTBOUND_REFUSED") return { failure: refused(502, err.message ?? "", true, "outbound_refused"), clear, t0 };
    const cause = err.cause?.code ?? err.code;
    return { failure: refused(502, `the upstream could not be reached${cause ? ` (${cause})` : ""}`, true, "network"), clear, t0 };
  }
}

async function upstreamFailure(res: UpstreamResponse, adapter: ProviderAdapter, ch: ChannelView): Promise<ForwardOutcome> {
  let text = "";
  try {
    text = await res.text();
  } catch {
    // the body could not be read: the status still says enough
  }
  // the adapters redact the message; type and code are the upstream's words too
  const err = redactError(adapter.parseError(res.status, text, ch), ch);
  const outcome = refused(res.status, err.message, isRetryableStatus(res.status), err.code, err.type);
  outcome.upstreamError = err;
  return outcome;
}

// `sent`: the client has the headers (no other channel can answer it any more); `answered`:
// it has content too (only then is the broken call billed; keep-alive pings are no content).
function abortedOutcome(opts: ForwardOptions, e: unknown, sent: boolean, answered: boolean, frtMs: number, usage: Usage, estimated: boolean): ForwardOutcome {
  const gone = opts.signal?.aborted === true;
  const status = gone ? 499 : 502;
  return {
    ok: false,
    status,
    usage,
    usageEstimated: estimated,
    firstByteSentToClient: answered,
    frtMs,
    upstreamError: {
      status,
      message: gone ? "the client closed the request" : `the upstream stream broke: ${(e as Error)?.message ?? "error"}`,
      type: "upstream_error",
      code: gone ? "client_gone" : "stream_broken",
    },
    retryable: !sent && !gone,
  };
}

function addUsage(acc: Usage, u: Partial<Usage>): void {
  if (u.prompt_tokens !== undefined) acc.prompt_tokens = u.prompt_tokens;
  if (u.completion_tokens !== undefined) acc.completion_tokens = u.completion_tokens;
  if (u.cached_tokens !== undefined) acc.cached_tokens = u.cached_tokens;
  if (u.cache_creation_tokens !== undefined) acc.cache_creation_tokens = u.cache_creation_tokens;
  if (u.cache_creation_1h_tokens !== undefined) acc.cache_creation_1h_tokens = u.cache_creation_1h_tokens;
  if (u.reasoning_tokens !== undefined) acc.reasoning_tokens = u.reasoning_tokens;
}

function completionOf(r: ChatResponse): number {
  const c = new CompletionCounter();
  for (const ch of r.choices) {
    c.add(ch.text);
    if (ch.reasoning) c.add(ch.reasoning);
    if (ch.toolCalls) for (const t of ch.toolCalls) c.add(t.name + t.arguments);
    if (ch.images) c.addImages(ch.images.length);
  }
  return c.tokens;
}

/** The events a non-stream answer amounts to (an upstream that ignored stream: true). */
function responseEvents(r: ChatResponse, emit: (e: StreamEvent) => void): void {
  emit({ type: "start", id: r.id, model: r.model });
  for (const c of r.choices) {
    if (c.reasoning) emit({ type: "reasoning", index: c.index, text: c.reasoning });
    eachSegment(
      c,
      (text) => emit({ type: "text", index: c.index, text }),
      (img) => emit({ type: "image", index: c.index, mimeType: img.mimeType, data: img.data }),
    );
    c.toolCalls?.forEach((t, i) => {
      emit({ type: "tool_call_start", index: c.index, callIndex: i, id: t.id, name: t.name });
      emit({ type: "tool_call_args", index: c.index, callIndex: i, args: t.arguments });
    });
    emit({ type: "finish", index: c.index, reason: c.finishReason });
  }
  if (r.usage) emit({ type: "usage", usage: r.usage });
}

async function chat(opts: ForwardOptions, adapter: ProviderAdapter, req: ChatRequest): Promise<ForwardOutcome> {
  const ch = opts.channel;
  // a Responses client on a channel with the Responses API: its own body, only the model mapped
  if (req.responsesBody && adapter.nativeResponses?.(ch))
    return passthrough(opts, adapter, { endpoint: "responses", json: req.responsesBody, contentType: "application/json" });
  if (req.untranslatable) return refused(400, req.untranslatable, true, "unsupported_parameter", "invalid_request_error");
  if (req.n !== undefined && req.n > 1 && !adapter.supports.n) return refused(400, "this channel does not support n > 1", true, "unsupported");
  if (req.responseFormat && adapter.supports.structuredOutput === false)
    return refused(
      400,
      `This request cannot be served by this channel: text.format: ${req.responseFormat.type} output has no equivalent on this channel's API`,
      true,
      "unsupported_parameter",
      "invalid_request_error",
    );
  const format = formats[opts.ingress];
  let up: UpstreamRequest;
  if (opts.raw && adapter.rawChatPayload && adapter.ingress === opts.ingress) {
    // pass-through: the client's own body on its own wire, only the model replaced
    const p = await adapter.rawChatPayload(opts.raw, req, ch);
    up = { url: p.url, headers: p.headers, body: opts.offload ? await serializeOffThread(p.json, opts.offload) : JSON.stringify(p.json) };
  } else if (opts.offload) {
    const p = await adapter.chatPayload(req, ch);
    up = { url: p.url, headers: p.headers, body: await serializeOffThread(p.json, opts.offload) };
  } else {
    const built = adapter.chatRequest(req, ch);
    up = built instanceof Promise ? await built : built;
  }
  const c = await call(opts, adapter, up.url, up.headers, up.body);
  if (c.failure) return c.failure;
  const res = c.res!;
  const clientRes = opts.clientRes;
  const streamed = (res.header("content-type") ?? "").includes(adapter.stream?.contentType ?? "text/event-stream");

  if (!req.stream || !streamed) {
    // a whole answer: read it, convert, answer (or render it as a stream if one was asked for)
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      c.clear();
      return abortedOutcome(opts, e, false, false, 0, emptyUsage(), false);
    }
    c.clear();
    let parsed: ChatResponse;
    try {
      parsed = adapter.parseChat(JSON.parse(text));
    } catch (e) {
      return refused(502, e instanceof RelayError ? e.message : "the upstream answer is not valid JSON", true, "bad_response");
    }
    const usageEstimated = !parsed.usage;
    const usage = parsed.usage ?? estimatedUsage(estimatePromptTokens(req, opts.offload), completionOf(parsed));
    opts.onFirstByte?.();
    const frtMs = performance.now() - c.t0;
    if (req.stream) {
      const renderer = format.streamRenderer(req);
      let out = "";
      responseEvents(parsed, (e) => (out += renderer.event(e)));
      startSse(clientRes);
      clientRes.end(out + renderer.end(usage));
    } else {
      const body = format.renderResponse(parsed, req, usage);
      clientRes.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      clientRes.end(body);
    }
    const outcome: ForwardOutcome = { ok: true, status: 200, usage, usageEstimated, firstByteSentToClient: true, frtMs, retryable: false };
    if (opts.captureOutput) outcome.output = loggedText(parsed.choices[0]).slice(0, opts.captureOutput);
    if (tracing) {
      outcome.finishReasons = parsed.choices.map((c) => c.finishReason);
      outcome.responseModel = parsed.model;
    }
    return outcome;
  }

  return streamChat(opts, adapter, req, res, c, format.streamRenderer(req));
}

async function streamChat(
  opts: ForwardOptions,
  adapter: ProviderAdapter,
  req: ChatRequest,
  res: UpstreamResponse,
  c: Call,
  renderer: StreamRenderer,
): Promise<ForwardOutcome> {
  const clientRes = opts.clientRes;
  const parser = adapter.streamParser();
  const usage = emptyUsage();
  let gotUsage = false;
  const counter = new CompletionCounter();
  let streamError: UpstreamError | undefined;
  let out = "";
  let sent = false;
  let frtMs = 0;
  let firstChunk = true;
  const capture = opts.captureOutput ?? 0;
  let output = "";
  // tracing on (lib/tracing): the finish reasons and the upstream's model, for the call's span
  const traced = tracing !== null;
  let finishReasons: FinishReason[] | undefined;
  let responseModel: string | undefined;

  const emit = (e: StreamEvent) => {
    switch (e.type) {
      case "start":
        if (traced) responseModel = e.model;
        break;
      case "finish":
        if (traced) (finishReasons ??= []).push(e.reason);
        break;
      case "usage":
        addUsage(usage, e.usage);
        gotUsage = true;
        return;
      case "error":
        streamError = e.error;
        return;
      case "text":
      case "reasoning":
        if (!e.text) return; // an empty delta is no content: it must not commit the answer
        counter.add(e.text);
        if (capture && e.type === "text" && e.index === 0 && output.length < capture) output += e.text;
        break;
      case "image":
        // counted as an image, not as text; logged as a placeholder, never its data
        counter.addImages(1);
        if (capture && e.index === 0 && output.length < capture) output += IMAGE_LOGGED;
        break;
      case "tool_call_start":
        counter.add(e.name);
        break;
      case "tool_call_args":
        counter.add(e.args);
        break;
    }
    const s = renderer.event(e);
    if (s) out += s;
  };
  // the headers go out with the first content, or earlier with a keep-alive ping; the first
  // response time is that of the first content either way (a ping is no answer)
  const commitHeaders = () => {
    startSse(clientRes);
    sent = true;
  };
  let answered = false;
  const commit = () => {
    if (!answered) {
      answered = true;
      opts.onFirstByte?.();
      frtMs = performance.now() - c.t0;
    }
    if (!sent) commitHeaders();
  };
  const finalUsage = (): Usage => {
    if (gotUsage && (usage.prompt_tokens > 0 || usage.completion_tokens > 0)) return usage;
    const u = Object.assign(emptyUsage(), usage);
    u.prompt_tokens ||= estimatePromptTokens(req, opts.offload);
    u.completion_tokens ||= counter.tokens;
    return u;
  };

  // Keep-alive: after pingMs without a write to the client, an SSE comment goes out (and the
  // answer is committed if nothing was yet: from then on this attempt is the one the client
  // gets). Comments are no events: nothing of them reaches the usage, the billing or the log.
  const pinger = keepAlive(opts.pingMs, clientRes, PING, () => {
    if (!sent) commitHeaders();
  });
  try {
    await (adapter.stream?.read ?? readSse)(
      res.body,
      (msg) => {
        parser.parse(msg.data, msg.event, emit);
        if (streamError) return false;
        if (!out) return;
        if (!answered) commit();
        const chunk = out;
        out = "";
        if (pinger) pinger.refresh();
        return write(clientRes, chunk);
      },
      () => {
        if (firstChunk) {
          firstChunk = false;
          c.clear();
        }
      },
    );
  } catch (e) {
    c.clear();
    if (pinger) clearTimeout(pinger);
    const u = finalUsage();
    const estimated = !(gotUsage && (usage.prompt_tokens > 0 || usage.completion_tokens > 0));
    if (sent && !clientRes.destroyed) {
      clientRes.end(renderer.error({ status: 502, message: "the upstream stream broke", type: "upstream_error", code: "stream_broken" }));
    }
    return abortedOutcome(opts, e, sent, answered, frtMs, u, estimated);
  }
  c.clear();
  if (pinger) clearTimeout(pinger);
  const estimated = !(gotUsage && (usage.prompt_tokens > 0 || usage.completion_tokens > 0));
  const u = finalUsage();
  if (streamError) {
    const err = redactError(streamError, opts.channel);
    if (sent) clientRes.end(renderer.error(err));
    return {
      ok: false,
      status: err.status,
      usage: u,
      usageEstimated: estimated,
      // headers and pings alone are no answer: the reservation is refunded
      firstByteSentToClient: answered,
      frtMs,
      upstreamError: err,
      retryable: !sent && isRetryableStatus(err.status),
    };
  }
  if (!answered) commit();
  clientRes.end(out + renderer.end(u));
  const outcome: ForwardOutcome = { ok: true, status: 200, usage: u, usageEstimated: estimated, firstByteSentToClient: true, frtMs, retryable: false };
  if (capture) outcome.output = output.slice(0, capture);
  if (traced) {
    outcome.finishReasons = finishReasons;
    outcome.responseModel = responseModel;
  }
  return outcome;
}

// An image the model produced (Choice.images, the "image" stream event) stands in the content
// log (LogChatContentEnabled) as "[image]", never as its data (docs/relay-options.md).
const IMAGE_LOGGED = "[image]";
const loggedText = (c: Choice | undefined) => (c ? textWithImages(c, () => IMAGE_LOGGED) : "");

/** The keep-alive comment (general_setting.ping_interval_*): SSE clients ignore comment lines. */
const PING = ": ping\n\n";
/** The same comment written between forwarded lines, which may be inside an event (pass-through). */
const PING_LINE = ": ping\n";

/**
 * Writes `ping` after `ms` without a write to the client, again every `ms` (the caller
 * refreshes the timer on each write of its own); `beforeFirst` sends the headers if they are
 * not out yet. No timer when `ms` is 0 (pings off).
 */
function keepAlive(ms: number | undefined, clientRes: ServerResponse, ping: string, beforeFirst: () => void): NodeJS.Timeout | undefined {
  if (!ms) return undefined;
  const timer: NodeJS.Timeout = setTimeout(() => {
    if (clientRes.destroyed || clientRes.writableEnded) return;
    beforeFirst();
    clientRes.write(ping);
    timer.refresh();
  }, ms);
  return timer;
}

// ---- pass-through endpoints ----

const STREAMABLE = new Set<PassthroughEndpoint>(["completions", "responses"]);
// Speech to text: transcriptions, and translations into English.
const isTranscript = (e: PassthroughEndpoint) => e === "audio/transcriptions" || e === "audio/translations";
const MAX_COUNTED_TRANSCRIPT = 1 << 20; // characters counted at most: a bound on memory, far beyond any real transcript

/** Reads usage (and other meters) from a pass-through answer or stream event. */
function passthroughUsage(endpoint: PassthroughEndpoint, j: Record<string, unknown>, meter: Meter): Partial<Usage> | undefined {
  if (endpoint === "responses") {
    // non-stream: the response object; stream: the response.completed event carries it
    const r = (j.type === "response.completed" || j.type === "response.incomplete" ? j.response : j) as Record<string, unknown> | undefined;
    return r?.usage ? openaiUsage(r.usage) : undefined;
  }
  if (endpoint === "images/generations" && Array.isArray(j.data)) meter.images = j.data.length;
  if (isTranscript(endpoint) && typeof j.duration === "number") meter.seconds = j.duration;
  const u = j.usage as Record<string, unknown> | undefined;
  if (!u || typeof u !== "object") {
    return undefined;
  }
  if (u.type === "duration" && typeof u.seconds === "number") {
    meter.seconds = u.seconds;
    return undefined;
  }
  const x = openaiUsage(u)!;
  if (!x.prompt_tokens && typeof u.total_tokens === "number") x.prompt_tokens = Math.floor(u.total_tokens) - x.completion_tokens;
  return x;
}

async function passthrough(opts: ForwardOptions, adapter: ProviderAdapter, p: PassthroughRequest): Promise<ForwardOutcome> {
  const ch = opts.channel;
  if (p.endpoint === "embeddings" && adapter.embeddings && !adapter.supports.passthrough.includes("embeddings") && p.json)
    return convertedEmbeddings(opts, adapter, p.json);
  if (!adapter.passthroughRequest || !adapter.supports.passthrough.includes(p.endpoint))
    return refused(400, `this channel does not support /v1/${p.endpoint}`, true, "unsupported");
  const { url, headers } = await adapter.passthroughRequest(p.endpoint, ch, p.contentType);
  let body: string | Uint8Array;
  let stream = false;
  if (p.json) {
    const j: Record<string, unknown> = Object.assign({}, p.json);
    j.model = ch.upstreamModel;
    stream = j.stream === true && STREAMABLE.has(p.endpoint);
    if (stream && p.endpoint === "completions") j.stream_options = { include_usage: true, ...(j.stream_options as object | undefined) };
    body = opts.offload ? await serializeOffThread(j, opts.offload) : JSON.stringify(j);
  } else if (p.multipart) body = withMultipartModel(p.multipart.body, p.multipart.model, ch.upstreamModel);
  else return refused(400, "the request has no body", false, "invalid_request");

  const c = await call(opts, adapter, url, headers, body);
  if (c.failure) return c.failure;
  const res = c.res!;
  const clientRes = opts.clientRes;
  const meter: Meter = {};
  const usage = emptyUsage();
  let gotUsage = false;
  const take = (j: unknown) => {
    if (!j || typeof j !== "object") return;
    const u = adapter.passthroughUsage?.(p.endpoint, j as Record<string, unknown>) ?? passthroughUsage(p.endpoint, j as Record<string, unknown>, meter);
    if (u) {
      addUsage(usage, u);
      gotUsage = true;
    }
  };
  const contentType = res.header("content-type") ?? "application/octet-stream";
  let sent = false;
  let frtMs = 0;
  // a keep-alive ping sends the headers only; the first response time is that of the
  // upstream's first bytes (a ping is no answer)
  const commitHeaders = () => {
    if (contentType.includes("text/event-stream")) startSse(clientRes);
    else {
      clientRes.writeHead(200, { "content-type": contentType });
      clientRes.flushHeaders();
    }
    sent = true;
  };
  let answered = false;
  const commit = () => {
    if (!answered) {
      answered = true;
      opts.onFirstByte?.();
      frtMs = performance.now() - c.t0;
    }
    if (!sent) commitHeaders();
  };
  // /v1/responses is a chat route: its answer's text is captured for the content log
  // (LogChatContentEnabled), read from the answer or from the response.completed event that
  // is parsed for its usage anyway
  const capture = p.endpoint === "responses" ? (opts.captureOutput ?? 0) : 0;
  let output: string | undefined;
  const captureFrom = (j: unknown) => {
    if (!capture || !j || typeof j !== "object") return;
    const o = j as Record<string, unknown>;
    const r = o.type === "response.completed" || o.type === "response.incomplete" ? o.response : o.object === "response" ? o : undefined;
    if (r && typeof r === "object") output = responsesOutputText(r as Record<string, unknown>, capture);
  };
  const isJson = contentType.includes("application/json");
  // whisper-1 reports a duration, not tokens: its transcript is counted instead (as one-api does)
  let transcript = "";
  const countsTranscript = isTranscript(p.endpoint);
  try {
    if (isJson) {
      // usage is read from the upstream's own text; the client gets it redacted
      const upstreamText = await res.text();
      c.clear();
      try {
        const j = JSON.parse(upstreamText);
        take(j);
        captureFrom(j);
        if (countsTranscript && typeof j?.text === "string") transcript = j.text;
      } catch {
        // not JSON after all: forwarded as is, usage estimated
      }
      opts.onFirstByte?.();
      frtMs = performance.now() - c.t0;
      const text = redactPassthroughText(upstreamText, ch);
      clientRes.writeHead(200, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
      clientRes.end(text);
      sent = answered = true;
    } else if (contentType.includes("text/event-stream")) {
      // bytes go to the client as they come (whole lines, redacted); events are parsed beside them for usage only
      const scrub = new PassthroughRedactor(ch, true);
      // keep-alive comments as for chat streams. The redactor forwards whole lines only, so a
      // comment falls between two lines, but maybe inside an event: it is one comment line with
      // no blank line after it, which would end that event early. The first-byte timer stays
      // on until the upstream sends something: a ping is not the upstream's answer.
      const pinger = keepAlive(opts.pingMs, clientRes, PING_LINE, () => {
        if (!sent) commitHeaders();
      });
      try {
        await readSse(
          res.body,
          (msg) => {
            if (msg.data !== "[DONE]" && msg.data.includes("usage")) {
              try {
                const j: unknown = JSON.parse(msg.data);
                take(j);
                captureFrom(j);
              } catch {
                // a malformed event is the client's to see, not ours to fix
              }
            }
          },
          (chunk) => {
            if (!answered) {
              c.clear();
              commit();
            }
            const out = scrub.push(chunk);
            if (!out.length) return undefined;
            if (pinger) pinger.refresh();
            return write(clientRes, out);
          },
        );
      } finally {
        if (pinger) clearTimeout(pinger);
      }
      if (!answered) commit();
      clientRes.end(scrub.end());
    } else {
      // binary (audio/speech) or plain text (transcripts as text, srt, vtt): streamed through
      const textual = countsTranscript && contentType.startsWith("text/");
      const scrub = new PassthroughRedactor(ch, false);
      for await (const value of res.body) {
        if (!sent) {
          c.clear();
          commit();
        }
        if (textual && transcript.length < MAX_COUNTED_TRANSCRIPT) transcript += Buffer.from(value).toString("utf8");
        const out = scrub.push(value);
        const w = out.length ? write(clientRes, out) : undefined;
        if (w) await w;
      }
      if (!sent) commit();
      clientRes.end(scrub.end());
    }
  } catch (e) {
    c.clear();
    if (sent && !clientRes.destroyed) clientRes.destroy();
    return abortedOutcome(opts, e, sent, answered, frtMs, usage, !gotUsage);
  }
  c.clear(); // an empty body never reached the first-chunk clear
  if (p.endpoint === "audio/speech" && typeof p.json?.input === "string") meter.characters = p.json.input.length;
  let estimated = false;
  if (!gotUsage) {
    estimated = true;
    const input = p.json?.input ?? p.json?.prompt ?? p.json?.query ?? p.json?.documents;
    usage.prompt_tokens = input === undefined ? 0 : estimateInputTokens(p.endpoint === "rerank" ? [p.json?.query, p.json?.documents] : input, opts.offload);
    if (countsTranscript) usage.completion_tokens = estimateTextTokens(transcript);
  }
  const outcome: ForwardOutcome = {
    ok: true,
    status: 200,
    usage,
    usageEstimated: estimated,
    meter: Object.keys(meter).length ? meter : undefined,
    firstByteSentToClient: true,
    frtMs,
    retryable: false,
  };
  if (capture) outcome.output = output ?? "";
  return outcome;
}

/** The text of a Response object's message items (output_text parts), cut to `max` characters. */
function responsesOutputText(r: Record<string, unknown>, max: number): string {
  let text = "";
  if (!Array.isArray(r.output)) return text;
  for (const item of r.output as Record<string, unknown>[]) {
    if (!item || item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content as Record<string, unknown>[]) {
      if (part && part.type === "output_text" && typeof part.text === "string") text += part.text;
      if (text.length >= max) return text.slice(0, max);
    }
  }
  return text;
}

/** OpenAI /v1/embeddings served by a wire with its own embeddings shape (Gemini's batchEmbedContents). */
async function convertedEmbeddings(opts: ForwardOptions, adapter: ProviderAdapter, body: Record<string, unknown>): Promise<ForwardOutcome> {
  const input = body.input;
  const texts = typeof input === "string" ? [input] : Array.isArray(input) && input.every((x) => typeof x === "string") ? (input as string[]) : undefined;
  if (!texts || texts.length === 0 || texts.length > MAX_EMBED_INPUTS)
    return refused(400, `input must be a string or an array of 1 to ${MAX_EMBED_INPUTS} strings`, false, "invalid_request", "invalid_request_error");
  const dimensions = typeof body.dimensions === "number" && Number.isInteger(body.dimensions) && body.dimensions > 0 ? body.dimensions : undefined;
  const model = typeof body.model === "string" ? body.model : opts.channel.upstreamModel;
  const req: EmbeddingRequest = { kind: "embeddings", model, inputs: texts.map((text) => ({ parts: [text], dimensions })), single: false };
  return embeddings(opts, adapter, req, (vectors, promptTokens) =>
    JSON.stringify({
      object: "list",
      data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
      model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    }),
  );
}

/**
 * One embeddings call on the channel's own embeddings wire (adapter.embeddings), the answer
 * rendered in the client's format by `render`. Input tokens come from the upstream when it
 * counts them (OpenAI does, Gemini does not), else from our estimate of the input.
 */
async function embeddings(
  opts: ForwardOptions,
  adapter: ProviderAdapter,
  req: EmbeddingRequest,
  render: (vectors: number[][], promptTokens: number) => string,
): Promise<ForwardOutcome> {
  // Channel choice already skips channels without embeddings; a pinned one lands here.
  if (!adapter.embeddings)
    return refused(400, `channel type ${opts.channel.type} (${adapter.name}) does not serve embeddings`, true, "unsupported", "invalid_request_error");
  const up = await adapter.embeddings.request(req, opts.channel);
  const c = await call(opts, adapter, up.url, up.headers, up.body);
  if (c.failure) return c.failure;
  const res = c.res!;
  let parsed: { vectors: number[][]; promptTokens?: number };
  try {
    const text = await res.text();
    c.clear();
    parsed = adapter.embeddings.parse(JSON.parse(text), req);
  } catch (e) {
    c.clear();
    if (opts.signal?.aborted) return abortedOutcome(opts, e, false, false, 0, emptyUsage(), false);
    return refused(502, e instanceof RelayError ? e.message : "the upstream answer is not valid JSON", true, "bad_response");
  }
  if (parsed.vectors.length !== req.inputs.length)
    return refused(502, `the upstream answered ${parsed.vectors.length} embeddings for ${req.inputs.length} inputs`, true, "bad_response");
  const usageEstimated = parsed.promptTokens === undefined;
  const usage = estimatedUsage(parsed.promptTokens ?? estimateEmbeddingTokens(req, opts.offload), 0);
  const out = render(parsed.vectors, usage.prompt_tokens);
  opts.onFirstByte?.();
  const frtMs = performance.now() - c.t0;
  opts.clientRes.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
  opts.clientRes.end(out);
  return { ok: true, status: 200, usage, usageEstimated, firstByteSentToClient: true, frtMs, retryable: false };
}
