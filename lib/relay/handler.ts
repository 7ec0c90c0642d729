// The relay front: one client request from arrival to settlement.
//   authenticate the key (memory) → rate limits (memory or Redis) → price (memory) →
//   reserve the estimate (conditional debits of token and user, ledger rows) →
//   choose a channel and forward; on a retryable failure before any byte reached the
//   client, try the next channel (tried ones excluded, walking down the priority tiers) →
//   settle the exact cost from the upstream's usage (or refund everything), log in batches.
// Errors answer in the ingress format's own error shape; no upstream key ever appears in one.
import "server-only";
import { logger } from "@/lib/logger";
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import type { User } from "@/generated/sqlite/client";
import { authenticate } from "@/lib/http/auth";
import { AppError, isAppError, describeError, relayErrorType, relayStatus } from "@/lib/errors";
import { env } from "@/lib/env";
import { CLIENT_IP_HEADER } from "@/lib/http/request-info";
import { requestLocale } from "@/lib/i18n/locale";
import { renderMessage } from "@/lib/i18n/server-messages";
import { canUseGroup } from "@/lib/billing/groups";
import { estimateQuota, quotaFor, redirectedPrice, REDIRECT_BILLING_OPTION, resolvePrice, type ResolvedPrice } from "@/lib/billing/pricing";
import { reserve } from "@/lib/billing/reserve";
import { PlanExhausted } from "@/lib/billing/store/types";
import { nowSeconds } from "@/lib/time";
import { boundUsage, capQuota, ChargeError, MAX_CALL_QUOTA } from "@/lib/billing/bounds";
import { refundOrLog, settleOrRefund } from "@/lib/billing/settle";
import { enqueueLog, LOG_TYPE } from "@/lib/logs/writer";
import { logOther } from "@/lib/logs/other";
import { getBool, getNumber, getOption } from "@/lib/options/store";
import { COUNT_FROM, depthWithin, JsonTokenCount, MAX_JSON_DEPTH } from "@/lib/relay/body-bound";
import { completionBound, imagesBound, promptBound } from "@/lib/relay/call-bounds";
import { Canceller } from "@/lib/relay/cancel";
import { estimateEmbeddingTokens, estimateInputTokens, estimatePromptTokens } from "@/lib/relay/estimate";
import { checkPassthroughParams, formats, parseGeminiEmbeddings, type IngressName } from "@/lib/relay/formats";
import { isKeyFailure, noteChannelFailure, noteChannelSuccess, noteKeyFailure } from "@/lib/relay/health";
import { countTokens } from "@/lib/relay/count-tokens";
import { describeModel, listModels } from "@/lib/relay/models";
import { billingSubscription, billingUsage } from "@/lib/relay/billing-dashboard";
import { OFFLOAD_FROM, parseOffThread, type LiftedStrings } from "@/lib/relay/json-worker";
import { locateMultipartModel } from "@/lib/relay/multipart";
import { forward, writeError, type ForwardOutcome, type PassthroughRequest } from "@/lib/relay/pipeline";
import { adapterFor, servesEmbeddings, servesRerank } from "@/lib/relay/providers/registry";
import { checkRateLimit, recordSuccess, type RateLimitSubject } from "@/lib/relay/rate-limit";
import { apiKeyOf, errorFormatOf, matchRoute, modelsFormat, type RelayRoute } from "@/lib/relay/routes";
import { anotherKey, pinnedChannel, selectChannel, type SelectedChannel } from "@/lib/relay/select";
import { authenticateToken, checkTokenModel, type TokenContext } from "@/lib/relay/token-cache";
import { actualModelsOf, planChain } from "@/lib/relay/virtual-models";
import { promptCheckApplies, promptHasSensitiveWord } from "@/lib/relay/sensitive";
import { chatContentOf, MAX_LOGGED_CONTENT } from "@/lib/relay/content-log";
import { isEmbeddingRequest, RelayError, type ChatRequest, type EmbeddingRequest, type UpstreamError } from "@/lib/relay/types";
import { metrics, OUTCOME, type OutcomeIndex } from "@/lib/metrics";
import { admit, callChecks, countsTokens, finish, limitArray, LimitExceeded, type LimitSubject } from "@/lib/limits/engine";
import { clientRequestId, newRequestId, REQUEST_ID_HEADER, withRequestId } from "@/lib/http/request-id";
import { tracing, type AttemptSpan, type RelaySpan } from "@/lib/tracing";

const log = logger("relay");

type CallRoute = Exclude<RelayRoute, { kind: "models" } | { kind: "billing" } | { kind: "model" } | { kind: "count_tokens" }>;

// The `route` label of GET /metrics' relay metrics: a fixed name per route (docs/operations.md).
function routeLabel(route: CallRoute): string {
  if (route.kind === "chat") return route.playground ? "playground" : route.ingress;
  return route.kind === "passthrough" ? route.endpoint : "gemini-embeddings";
}

// The caller as billing sees it: a token of a user, or the console user in the playground.
type Caller = {
  userId: number;
  username: string;
  group: string;
  setting: string;
  tokenId: number; // 0 in the playground
  tokenName: string;
  unlimitedToken: boolean;
  pinnedChannelId: number | null;
  rate: RateLimitSubject;
  limits: LimitSubject; // the usage limits of token and user (docs/usage-limits.md)
};

function appErrorToUpstream(err: AppError, req: IncomingMessage): UpstreamError {
  const locale = requestLocale(req.headers);
  return {
    status: relayStatus[err.code],
    message: renderMessage(locale, err.key, err.params),
    type: relayErrorType[err.code],
    code: err.key,
  };
}

// The whole request body, refused past the limit. Plain stream events: an async iterator
// costs a promise per chunk, on every relay call. A JSON body larger than COUNT_FROM has its
// values counted as it arrives and is refused past the bound before anything parses it
// (lib/relay/body-bound.ts), or refused with a 400 once it nests deeper than MAX_JSON_DEPTH;
// smaller bodies are not scanned.
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > limit) return Promise.reject(new AppError("PAYLOAD_TOO_LARGE", "body_too_large"));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let count: JsonTokenCount | null | undefined; // undefined: not looked at yet, null: not JSON
    // A body of declared length past OFFLOAD_FROM is copied into one buffer of that length as
    // it arrives, a chunk at a time: joining 30 MB at the end held the event loop for up to
    // 25 ms (docs/limits.md), and the buffer is handed to the JSON worker without a copy.
    let whole: Buffer | null = null;
    const onData = (chunk: Buffer) => {
      const at = size;
      size += chunk.length;
      let err: AppError | null = null;
      if (size > limit) err = new AppError("PAYLOAD_TOO_LARGE", "body_too_large");
      else {
        if (whole) chunk.copy(whole, at);
        else chunks.push(chunk);
        if (size > COUNT_FROM && count !== null) {
          const { RELAY_MAX_JSON_TOKENS: tokens, RELAY_MAX_JSON_KEYS: keys } = env();
          let within = true;
          if (count === undefined) {
            // an upload (multipart) is not JSON
            count = /^multipart\//i.test(String(req.headers["content-type"] ?? "")) ? null : new JsonTokenCount();
            for (let i = 0; count && i < chunks.length && within; i++) within = count.scan(chunks[i], tokens, keys);
          } else within = count.scan(chunk, tokens, keys);
          if (!within)
            err = count!.tooDeep
              ? new AppError("INVALID_INPUT", "relay_body_too_deep", { depth: MAX_JSON_DEPTH })
              : new AppError("PAYLOAD_TOO_LARGE", "relay_body_too_many_values", { tokens, keys });
          else if (!whole && size > OFFLOAD_FROM && declared >= size) {
            whole = Buffer.allocUnsafeSlow(declared);
            for (let i = 0, o = 0; i < chunks.length; o += chunks[i++].length) chunks[i].copy(whole, o);
            chunks.length = 0;
          }
        }
      }
      if (err) {
        req.off("data", onData);
        req.resume();
        reject(err);
      }
    };
    req.on("data", onData);
    req.once("end", () => {
      if (whole) resolve(size === whole.length ? whole : whole.subarray(0, size));
      else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
    req.once("error", reject);
  });
}

function parseJson(body: Buffer, upload: boolean): Record<string, unknown> {
  // bodies past COUNT_FROM had their values and depth bounded while they arrived (readBody),
  // except uploads, which are no JSON object
  if (upload) throw notAnObject();
  if (body.length <= COUNT_FROM && !depthWithin(body)) throw new AppError("INVALID_INPUT", "relay_body_too_deep", { depth: MAX_JSON_DEPTH });
  try {
    const v: unknown = JSON.parse(body.toString("utf8"));
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw notAnObject();
}

const notAnObject = () => new AppError("INVALID_INPUT", "invalid_parameter_detail", { detail: "body must be a JSON object" });

// A JSON body past OFFLOAD_FROM is parsed on a worker thread (lib/relay/json-worker.ts), and
// its upstream body serialised there too (forward's `offload`: the body's long strings).
async function parseLargeJson(body: Buffer): Promise<{ json: Record<string, unknown>; strings: LiftedStrings }> {
  let r: { value: unknown; strings: LiftedStrings };
  try {
    r = await parseOffThread(body);
  } catch {
    throw notAnObject();
  }
  const v = r.value;
  if (v && typeof v === "object" && !Array.isArray(v)) return { json: v as Record<string, unknown>, strings: r.strings };
  throw notAnObject();
}

function headersOf(req: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(", ") : v);
  return h;
}

function tokenCaller(t: TokenContext): Caller {
  return {
    userId: t.user.id,
    username: t.user.username,
    group: t.group,
    setting: t.user.setting,
    tokenId: t.token.id,
    tokenName: t.token.name,
    unlimitedToken: t.token.unlimited_quota,
    pinnedChannelId: t.pinnedChannelId,
    rate: { userId: t.user.id, group: t.group, token: t.token },
    limits: { tokenId: t.token.id, token: t.token.limits, userId: t.user.id, user: t.user.limits, group: t.user.group },
  };
}

// The playground (/pg) is the console user's own session: billed to the user, no token.
function playgroundCaller(user: User, requestedGroup: unknown): Caller {
  const group = typeof requestedGroup === "string" && requestedGroup ? requestedGroup : user.group;
  if (!canUseGroup(user.group, group)) throw new AppError("FORBIDDEN", "token_group_not_usable", { group });
  const noLimit = { id: 0, rate_limit_enabled: false, rate_limit_period: 0, rate_limit_count: 0, rate_limit_success: 0 };
  return {
    userId: user.id,
    username: user.username,
    group,
    setting: user.setting,
    tokenId: 0,
    tokenName: "playground",
    unlimitedToken: true,
    pinnedChannelId: null,
    rate: { userId: user.id, group, token: noLimit },
    limits: { tokenId: 0, token: null, userId: user.id, user: limitArray(user), group: user.group },
  };
}

// Quota of a finished attempt: per call (times the images made), or by tokens; TTS is
// billed by input characters when the upstream reports no tokens. The usage is bounded
// first (boundUsage) and the result never exceeds MAX_CALL_QUOTA; a ChargeError when it
// cannot be computed (lib/billing/bounds.ts).
function costOf(price: ResolvedPrice, o: ForwardOutcome): bigint {
  if (price.quotaType === 1) return capQuota(quotaFor(price, { promptTokens: 0, completionTokens: 0 }) * BigInt(Math.max(1, o.meter?.images ?? 1)));
  const u = o.usage;
  return quotaFor(price, {
    promptTokens: u.prompt_tokens || o.meter?.characters || 0,
    completionTokens: u.completion_tokens,
    cachedTokens: u.cached_tokens,
    cacheCreationTokens: u.cache_creation_tokens,
    cacheCreation1hTokens: u.cache_creation_1h_tokens,
  });
}

type AnyRequest = ChatRequest | PassthroughRequest | EmbeddingRequest;

// The prompt's tokens as estimated for the call (lib/relay/estimate.ts; `counted`: a large
// body's long strings, counted on the JSON worker), worked out at most once per call: every
// link of a chain and the TPM estimate read the same figure, and a price per call needs none.
function promptTokensOnce(request: AnyRequest, counted: LiftedStrings | undefined): () => number {
  let tokens: number | undefined;
  return () => {
    if (tokens !== undefined) return tokens;
    if (isEmbeddingRequest(request)) tokens = estimateEmbeddingTokens(request, counted);
    else if ("endpoint" in request) {
      const j = request.json ?? {};
      tokens = estimateInputTokens(j.input ?? j.prompt ?? j.messages ?? "", counted);
    } else tokens = estimatePromptTokens(request, counted);
    return tokens;
  };
}

function estimateOf(price: ResolvedPrice, request: AnyRequest, promptTokens: () => number): bigint {
  // an embedding has no output: its input is the whole cost
  if (isEmbeddingRequest(request)) return quotaFor(price, { promptTokens: promptTokens(), completionTokens: 0 });
  if ("endpoint" in request) {
    const j = request.json ?? {};
    const n = typeof j.n === "number" && j.n > 1 ? Math.min(128, Math.floor(j.n)) : 1;
    if (price.quotaType === 1) return capQuota(estimateQuota(price, { promptTokens: 0 }) * BigInt(n));
    const maxTokens = [j.max_tokens, j.max_output_tokens].find((v): v is number => typeof v === "number" && v > 0);
    return estimateQuota(price, { promptTokens: promptTokens(), maxTokens });
  }
  const n = request.n ?? 1;
  return estimateQuota(price, { promptTokens: promptTokens(), maxTokens: request.maxTokens ? request.maxTokens * n : undefined });
}

// The TPM estimate of a call (docs/usage-limits.md): its prompt as estimated for the reservation
// plus its completion budget (max_tokens, else PreConsumedQuota tokens). Made only for a call
// whose token or user has a TPM limit.
function tokensEstimateOf(request: AnyRequest, promptTokens: () => number): number {
  if (isEmbeddingRequest(request)) return promptTokens();
  const budget = (max: unknown) => (typeof max === "number" && max > 0 ? max : getNumber("PreConsumedQuota", 500));
  if ("endpoint" in request) {
    const j = request.json ?? {};
    if (request.endpoint === "embeddings") return promptTokens();
    return promptTokens() + budget(j.max_tokens ?? j.max_output_tokens);
  }
  return promptTokens() + budget(request.maxTokens ? request.maxTokens * (request.n ?? 1) : undefined);
}

// Which failures get another channel: the pipeline's verdict, narrowed to the configured
// status codes when global.auto_retry_enabled (e.g. "5xx,429").
function retryAllowed(o: ForwardOutcome): boolean {
  if (!o.retryable || o.firstByteSentToClient) return false;
  if (!getBool("global.auto_retry_enabled")) return true;
  const s = String(o.status);
  return getOption("global.auto_retry_status_codes")
    .split(",")
    .map((p) => p.trim().toLowerCase())
    .some((p) => p && (p === s || (p.length === 3 && p.endsWith("xx") && p[0] === s[0])));
}

// global.block_browser_extension_enabled: a call whose Origin is a browser extension's
// (chrome-extension://, moz-extension://, safari-web-extension://...) is refused.
const EXTENSION_ORIGIN = /^[a-z0-9.+-]*extension:\/\//i;
function fromBrowserExtension(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  return typeof origin === "string" && EXTENSION_ORIGIN.test(origin);
}

// general_setting.ping_interval_*: the keep-alive interval of streams in ms, 0 when off.
function pingInterval(): number {
  if (!getBool("general_setting.ping_interval_enabled")) return 0;
  return Math.max(1, Math.floor(getNumber("general_setting.ping_interval_seconds", 60))) * 1000;
}

function maxAttempts(): number {
  let retries = Math.max(0, Math.floor(getNumber("RetryTimes", 0)));
  if (getBool("global.auto_retry_enabled")) retries = Math.max(retries, Math.floor(getNumber("global.auto_retry_count", 3)));
  return 1 + Math.min(retries, 10);
}

// Whether an untried channel of the group could still serve the call: for the first model
// one not in `exclude` (the channels this call tried), for the later links of a virtual
// model's chain any (docs/relay.md, "Saturated group"). Asked only of a call that failed.
async function anyChannelLeft(group: string, models: string[], exclude: Set<number>, serves: ((type: number) => boolean) | undefined): Promise<boolean> {
  for (let i = 0; i < models.length; i++) {
    if (await selectChannel({ group, model: models[i], exclude: i === 0 ? exclude : undefined, serves })) return true;
  }
  return false;
}

// Every error answer of the relay carries the call's request id in its message, as new-api's
// do (docs/operations.md, "Request ids").
function answerError(format: IngressName, res: ServerResponse, err: UpstreamError, requestId: string): void {
  writeError(format, res, { status: err.status, message: withRequestId(err.message, requestId), type: err.type, code: err.code });
}

// The GenAI operation of a call (docs/tracing.md): the semantic conventions' names where one
// fits, else the pass-through endpoint's own.
function operationOf(route: CallRoute): string {
  if (route.kind === "chat") return route.ingress === "gemini" ? "generate_content" : "chat";
  if (route.kind === "embeddings") return "embeddings";
  return route.endpoint === "completions" ? "text_completion" : route.endpoint;
}

// What a span says of a failure: the error's code or class, never its message.
function errorTypeOf(err: unknown): string {
  if (isAppError(err)) return err.key;
  if (err instanceof RelayError) return err.code ?? err.type;
  return err instanceof Error ? err.name : "error";
}

const numberOr = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export async function handleRelay(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const startedAt = Date.now();
  // The request id (lib/http/request-id.ts), in the header of every answer: setHeader here is
  // merged into whatever writeHead sends later, success, error or stream.
  const givenId = clientRequestId(req.headers[REQUEST_ID_HEADER]);
  const requestId = givenId ?? newRequestId();
  res.setHeader(REQUEST_ID_HEADER, requestId);
  // tracing (docs/tracing.md): off, `span` is null and a few `if (span)` tests are all a call pays
  const t = tracing;
  if (!t) return relayRequest(req, res, startedAt, givenId, requestId, null);
  const span = t.relay(req, requestId);
  try {
    await relayRequest(req, res, startedAt, givenId, requestId, span);
  } catch (err) {
    // server.ts answers it with a 500
    span.error(errorTypeOf(err));
    span.end(500);
    throw err;
  }
  // a client that went away before any answer: 499, as the usage log says
  span.end(res.headersSent ? res.statusCode : 499);
}

async function relayRequest(
  req: IncomingMessage,
  res: ServerResponse,
  startedAt: number,
  givenId: string | undefined,
  requestId: string,
  span: RelaySpan | null,
): Promise<void> {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const search = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
  const route = matchRoute(req.method ?? "GET", path);
  const errorFormat: IngressName = route
    ? route.kind === "models" || route.kind === "model"
      ? modelsFormat(route.ingress, req.headers)
      : route.ingress
    : errorFormatOf(path);
  if (!route) {
    answerError(
      errorFormat,
      res,
      { status: 404, message: `Unknown relay route: ${req.method} ${path}`, type: "invalid_request_error", code: "not_found" },
      requestId,
    );
    return;
  }
  // The client going away aborts the upstream call (and the reservation is refunded).
  const abort = new Canceller();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  try {
    if (getBool("global.block_browser_extension_enabled") && fromBrowserExtension(req)) throw new AppError("FORBIDDEN", "relay_browser_extension_refused");
    if (route.kind === "model" || route.kind === "count_tokens") return await modelInfoOrCount(req, res, route, search, abort, errorFormat, requestId);
    if (route.kind === "models" || route.kind === "billing") {
      const ctx = await authenticateToken(apiKeyOf(req.headers, search), { ip: String(req.headers[CLIENT_IP_HEADER] ?? "") });
      const body =
        route.kind === "models" ? await listModels(errorFormat, ctx) : route.what === "subscription" ? await billingSubscription(ctx) : await billingUsage(ctx);
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    // the reservation's ledger ref: the generated request id, or a new one when the client
    // chose it (a client's id need not be unique; the ledger's refs are, docs/statement.md)
    await relayCall(req, res, route, search, abort, startedAt, requestId, givenId ? randomUUID() : requestId, span);
  } catch (err) {
    if (span) span.error(errorTypeOf(err));
    // a call refused or failed before its outcome was counted (relayCall counts the others)
    if (route.kind === "chat" || route.kind === "passthrough" || route.kind === "embeddings") {
      const outcome = isAppError(err) || err instanceof RelayError ? OUTCOME.rejected : OUTCOME.error;
      metrics().route(routeLabel(route)).request("", 0, outcome).inc();
    }
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    if (err instanceof LimitExceeded) res.setHeader("retry-after", String(err.retryAfter));
    if (err instanceof PlanExhausted) res.setHeader("retry-after", String(err.retryAfterSeconds(nowSeconds())));
    if (isAppError(err)) return answerError(errorFormat, res, appErrorToUpstream(err, req), requestId);
    if (err instanceof RelayError) return answerError(errorFormat, res, err.toUpstreamError(), requestId);
    log.error({ requestId, error: describeError(err) }, "unexpected error");
    answerError(errorFormat, res, { status: 500, message: "internal error", type: "server_error", code: "internal_error" }, requestId);
  }
}

async function relayCall(
  req: IncomingMessage,
  res: ServerResponse,
  route: CallRoute,
  search: URLSearchParams,
  cancel: Canceller,
  startedAt: number,
  requestId: string,
  ledgerRef: string,
  span: RelaySpan | null,
): Promise<void> {
  // GET /metrics: timings in ms from performance.now(), observed once the outcome is known
  const t0 = performance.now();
  let attemptAt = 0;
  let upstreamMs = 0;
  const ip = String(req.headers[CLIENT_IP_HEADER] ?? "");
  // 1. who calls: the key (or, in the playground, the console session) before the body
  const token = route.kind === "chat" && route.playground ? null : await authenticateToken(apiKeyOf(req.headers, search), { ip });
  const sessionUser = token ? null : await authenticate(headersOf(req));
  const raw = await readBody(req, env().RELAY_MAX_BODY_BYTES);
  // An upload (multipart) past COUNT_FROM was not scanned while it arrived: it is never parsed
  // as JSON. A large JSON body is parsed off the event loop, here at once.
  const upload = raw.length > COUNT_FROM && /^multipart\//i.test(String(req.headers["content-type"] ?? ""));
  const large = raw.length > OFFLOAD_FROM && !upload ? await parseLargeJson(raw) : null;

  // 2. the request, in canonical form, and the model it names
  let request: ChatRequest | PassthroughRequest | EmbeddingRequest;
  let json: Record<string, unknown> | undefined;
  let model: string;
  if (route.kind === "chat") {
    json = large ? large.json : parseJson(raw, upload);
    request = formats[route.ingress].parse(json, route.gemini);
    model = request.model;
  } else if (route.kind === "embeddings") {
    json = large ? large.json : parseJson(raw, upload);
    request = parseGeminiEmbeddings(json, route.gemini);
    model = request.model;
  } else {
    const contentType = String(req.headers["content-type"] ?? "application/json");
    if (/^multipart\//i.test(contentType)) {
      // the model is found once here (a malformed form is a 400 before anything is
      // reserved) and replaced by each attempt's upstream model in the pipeline
      const at = locateMultipartModel(raw, contentType);
      request = { endpoint: route.endpoint, multipart: { body: raw, model: at }, contentType };
      model = at.model;
    } else {
      json = large ? large.json : parseJson(raw, upload);
      checkPassthroughParams(json);
      request = { endpoint: route.endpoint, json, contentType: "application/json" };
      model = typeof json.model === "string" ? json.model : "";
    }
  }
  if (!model) throw new AppError("INVALID_INPUT", "invalid_parameter_detail", { detail: "model is required" });

  // 3. may they call this model, within their limits, and how much to hold
  if (token) checkTokenModel(token.token, model);
  const caller = token ? tokenCaller(token) : playgroundCaller(sessionUser!, json?.group);
  if (span) {
    // the request's parameters as the client sent them (a pass-through's from its JSON body)
    const chat = route.kind === "chat" ? (request as ChatRequest) : null;
    span.request(
      operationOf(route),
      model,
      chat ? chat.maxTokens : numberOr(json?.max_tokens ?? json?.max_output_tokens),
      chat ? chat.temperature : numberOr(json?.temperature),
      "stream" in request ? request.stream === true : json?.stream === true,
    );
    span.user(caller.userId);
  }
  // the word filter, before anything is counted or reserved (lib/relay/sensitive.ts)
  if (promptCheckApplies(caller.group) && promptHasSensitiveWord(request)) throw new AppError("INVALID_INPUT", "relay_sensitive_refused");
  await checkRateLimit(caller.rate);
  // A virtual model (docs/relay.md, "Virtual models") is served by its actual models in turn,
  // each link with the price it is billed at; for any other model this is one Map lookup.
  const actual = actualModelsOf(model);
  const chain = actual
    ? await planChain({ virtual: model, actual, group: caller.group, userSetting: caller.setting, pinnedChannelId: caller.pinnedChannelId })
    : null;
  let link = 0;
  // the model being served (the request's, or the current link's) and its price
  let served = chain ? chain[0].model : model;
  let servedPrice = chain ? chain[0].price : resolvePrice({ model, group: caller.group, userSetting: caller.setting });
  // the price the current attempt is billed at, reservation and settlement alike: servedPrice,
  // or with redirect billing the price of the model the channel's own model_mapping sends
  // upstream (docs/pricing.md, "Redirect billing"). The option is read at most once per call,
  // and only when a channel maps the model.
  let price = servedPrice;
  let redirectBilling: boolean | undefined;

  // 4. the first channel, then the reservation. The first attempt starts as soon as the
  // reservation's debits are decided, so that their commit overlaps with the upstream's work
  // (lib/billing/store/sqlite.ts); should the commit fail, the call is stopped before its
  // answer reaches the client. On a retryable failure the next attempt takes another
  // channel (tried ones excluded, walking down the priority tiers). An embeddings call never
  // goes to a channel whose wire has none (Anthropic): it could only refuse.
  const wantsEmbeddings = route.kind === "embeddings" || (route.kind === "passthrough" && route.endpoint === "embeddings");
  // likewise a rerank call goes only to a wire that has one (Cohere, Jina, SiliconFlow, Xinference; not OpenAI)
  const wantsRerank = route.kind === "passthrough" && route.endpoint === "rerank";
  const serves = wantsEmbeddings ? servesEmbeddings : wantsRerank ? servesRerank : undefined;
  const tried: number[] = [];
  // channels tried for the model being served: a channel that failed one actual model may
  // still serve the next one
  let exclude = new Set<number>();
  // The next channel of a virtual model's chain: an untried channel of the current actual
  // model, else the first channel of the next actual model that has one. Every attempt,
  // whichever model it is on, counts against the same maxAttempts() (docs/relay.md).
  // (made for a virtual model only: a plain model's call allocates nothing more)
  const nextInChain = chain
    ? async (links: NonNullable<typeof chain>): Promise<SelectedChannel | null> => {
        for (let i = link, ex = exclude; i < links.length; i++, ex = new Set<number>()) {
          const ch = await selectChannel({ group: caller.group, model: links[i].model, exclude: ex, serves });
          if (!ch) continue;
          if (i !== link) {
            link = i;
            exclude = ex;
            served = links[i].model;
            servedPrice = price = links[i].price;
          }
          return ch;
        }
        return null;
      }
    : null;
  const channelFor = (attempt: number): Promise<SelectedChannel | null> =>
    caller.pinnedChannelId !== null
      ? attempt === 0
        ? pinnedChannel(caller.pinnedChannelId, served, caller.group)
        : Promise.resolve(null)
      : chain && nextInChain
        ? nextInChain(chain)
        : selectChannel({ group: caller.group, model, exclude, serves });
  const first = await channelFor(0);
  if (!first) throw new AppError("NO_CHANNEL", wantsEmbeddings ? "no_embedding_channel" : "no_channel_available", { group: caller.group, model });
  let channel: SelectedChannel = first;
  if (first.upstreamModel !== served) {
    price = redirectedPrice(servedPrice, served, first.upstreamModel, caller.group, (redirectBilling ??= getBool(REDIRECT_BILLING_OPTION)));
  }
  // relay options read once per call (docs/relay-options.md)
  const clientBody = route.kind === "chat" && !route.playground && getBool("global.pass_through_request_enabled") ? json : undefined;
  const pingMs = pingInterval();
  const logContent = route.kind === "chat" && getBool("LogChatContentEnabled");
  const attemptOn = (ch: SelectedChannel): Promise<ForwardOutcome> => {
    attemptAt = performance.now();
    tried.push(ch.id);
    exclude.add(ch.id);
    const traced = span ? span.attempt(ch.id, adapterFor(ch.type)?.name, ch.upstreamModel) : null;
    const attempt = forward({
      ingress: route.ingress,
      request,
      channel: ch,
      clientRes: res,
      signal: cancel,
      offload: large?.strings,
      raw: clientBody,
      pingMs,
      captureOutput: logContent ? MAX_LOGGED_CONTENT : 0,
    });
    return traced ? endAttempt(traced, attempt) : attempt;
  };
  let started: Promise<ForwardOutcome> | undefined;
  const promptTokens = promptTokensOnce(request, large?.strings);
  let amount = estimateOf(price, request, promptTokens);
  // A chain holds the dearest estimate of its links, so that a fallback to a dearer model is
  // covered as a direct call to it would be; the settlement bills the served link's price.
  if (chain) {
    for (let i = 1; i < chain.length; i++) {
      if (chain[i].price === chain[i - 1].price) continue;
      const a = estimateOf(chain[i].price, request, promptTokens);
      if (a > amount) amount = a;
    }
  }
  // 4b. the usage limits (lib/limits/engine.ts): counted here, before the reservation, and
  // corrected once the call ends; nothing at all for a call without limits. Counted in memory
  // the admission is there at once: awaited only when it went to Redis.
  const counters = callChecks(caller.limits);
  const admitting = counters ? admit(counters, { tokens: countsTokens(counters) ? tokensEstimateOf(request, promptTokens) : 0, quota: Number(amount) }) : null;
  const admission = admitting instanceof Promise ? await admitting : admitting;
  try {
    const isStream = "stream" in request ? request.stream === true : json?.stream === true;
    const m = metrics();
    const routeMetrics = m.route(routeLabel(route));
    if (isStream) m.streamsOpen.inc();
    const reservation = await reserve(
      {
        userId: caller.userId,
        tokenId: caller.tokenId,
        unlimitedToken: caller.unlimitedToken,
        amount,
        ref: ledgerRef,
        requestId: ledgerRef === requestId ? null : requestId,
        model,
      },
      () => (started = attemptOn(first)),
    ).catch(async (err: unknown) => {
      if (isStream) m.streamsOpen.dec();
      if (started) {
        cancel.abort();
        await started;
      }
      throw err;
    });

    let outcome: ForwardOutcome;
    // made on a failure only: the keys of multi-key channels this call tried, and the channels
    // whose failure was counted
    let triedKeys: Map<number, Set<number>> | undefined;
    let failedChannels: Set<number> | undefined;
    // whether every attempt so far was turned away by a rate limit (docs/relay.md, "Saturated group")
    let allRateLimited = true;
    try {
      for (let attempt = 0, max = maxAttempts(); ;) {
        outcome = await (started ?? attemptOn(channel));
        started = undefined;
        const took = performance.now() - attemptAt;
        upstreamMs += took;
        routeMetrics.upstream.observe(took / 1000);
        if (outcome.ok) {
          noteChannelSuccess(channel.id);
          break;
        }
        const failure = outcome.upstreamError;
        if (!failure || failure.status !== 429 || isKeyFailure(failure)) allRateLimited = false;
        if (failure && channel.keyIndex !== undefined && isKeyFailure(failure)) {
          // A multi-key channel's key was refused (authentication or quota): that key alone
          // may be disabled, and the call goes on at once with another key of the same
          // channel, each key at most once per call, without counting as a retry
          // (docs/channels-tokens-billing.md, "Multi-key channels").
          noteKeyFailure(channel, failure);
          const keysTried = (triedKeys ??= new Map<number, Set<number>>()).get(channel.id) ?? new Set<number>();
          triedKeys.set(channel.id, keysTried.add(channel.keyIndex));
          const again = outcome.firstByteSentToClient ? null : await anotherKey(channel, keysTried);
          if (again) {
            channel = again;
            continue;
          }
        } else if (failure && !(failedChannels ??= new Set<number>()).has(channel.id)) {
          // one failure per call and channel toward ChannelDisableFailureCount, however often
          // the call retried it (the channel's first failure is the one that counts)
          failedChannels.add(channel.id);
          noteChannelFailure(channel, failure);
        }
        if (!retryAllowed(outcome) || ++attempt >= max) break;
        // with global.auto_retry_force_channel_switch off, a retry goes to the same channel
        // again when no other is left; on, it never does. A 429 is never retried at once on
        // the channel that sent it: it asked to be left alone.
        const next = (await channelFor(attempt)) ?? (outcome.status === 429 || getBool("global.auto_retry_force_channel_switch") ? null : channel);
        if (!next) break;
        channel = next;
        price =
          next.upstreamModel === served
            ? servedPrice
            : redirectedPrice(servedPrice, served, next.upstreamModel, caller.group, (redirectBilling ??= getBool(REDIRECT_BILLING_OPTION)));
      }
    } catch (err) {
      if (reservation.state === "open") await refundOrLog(reservation, { channel_id: channel.id, model_name: served, request_id: requestId });
      throw err;
    } finally {
      if (isStream) m.streamsOpen.dec();
    }
    // the gateway's own share of the call, up to its final outcome, and the client's first byte
    routeMetrics.added.observe(Math.max(0, performance.now() - t0 - upstreamMs) / 1000);
    if (outcome.firstByteSentToClient && outcome.frtMs > 0) routeMetrics.ttfb.observe((attemptAt - t0 + outcome.frtMs) / 1000);
    if (tried.length > 1) m.retries.inc(tried.length - 1);
    // Counted as soon as the outcome is final, before the settlement: a client that reads
    // /metrics right after its answer sees its call. Nothing below throws (the settlement and
    // the refund never do; the rate limit's success count is caught), so handleRelay's catch
    // never counts the call a second time.
    const finalOutcome: OutcomeIndex = outcome.ok
      ? OUTCOME.success
      : outcome.status === 499
        ? OUTCOME.client_closed
        : outcome.firstByteSentToClient
          ? OUTCOME.interrupted
          : OUTCOME.upstream_error;
    routeMetrics.request(served, channel.id, finalOutcome).inc();

    // The upstream's figures, bounded by what the call could have used before anything prices
    // or logs them (lib/relay/call-bounds.ts, lib/billing/bounds.ts). A Responses call may name
    // a prompt stored upstream (previous_response_id, hosted tools...), which no size of its body bounds.
    const storedPrompt = route.kind === "chat" && (request as ChatRequest).promptKeptUpstream === true;
    let usageBounded = boundUsage(
      outcome.usage,
      outcome.meter,
      promptBound(request, raw.length, outcome.usage.prompt_tokens, storedPrompt),
      completionBound(request, outcome.usage.completion_tokens, adapterFor(channel.type), channel),
      imagesBound(request),
      raw.length,
    );

    if (span) {
      const u = outcome.usage;
      const failure = outcome.ok
        ? undefined
        : outcome.status === 499
          ? "client_closed"
          : (outcome.upstreamError?.code ?? outcome.upstreamError?.type ?? "upstream_error");
      span.outcome(
        served,
        channel.id,
        adapterFor(channel.type)?.name,
        u.prompt_tokens,
        u.completion_tokens,
        u.cached_tokens,
        outcome.finishReasons,
        outcome.responseModel,
        failure,
      );
    }

    // 5. settle or refund, log, and answer a failure in the client's format
    const base = {
      username: caller.username,
      token_name: caller.tokenName,
      token_id: caller.tokenId,
      model_name: served,
      use_time: Math.round((Date.now() - startedAt) / 1000),
      // the answering attempt's time in ms, the base of the performance buckets (docs/performance.md)
      latency_ms: Math.max(1, Math.round(performance.now() - attemptAt)),
      is_stream: isStream,
      channel_id: channel.id,
      channel_name: channel.name,
      group: caller.group,
      ip: showIp(caller.setting) ? ip : "",
      request_id: requestId,
    };
    const content = logContent ? chatContentOf(request as ChatRequest) : undefined;
    const other = (failure?: UpstreamError) => {
      const o = logOther({
        usageBounded,
        price,
        requestModel: served,
        upstreamModel: channel.upstreamModel,
        virtualModel: chain ? model : undefined,
        virtualPriced: chain ? price.model === model : undefined,
        billedModel: price.model,
        frtMs: outcome.frtMs ? Math.round(outcome.frtMs) : undefined,
        channelIds: tried,
        cacheTokens: outcome.usage.cached_tokens || undefined,
        cacheCreationTokens: outcome.usage.cache_creation_tokens || undefined,
        cacheCreation1hTokens: outcome.usage.cache_creation_1h_tokens || undefined,
        statusCode: outcome.status,
        retryCount: tried.length - 1,
        audioSeconds: outcome.meter?.seconds,
        usageEstimated: outcome.usageEstimated,
        errorType: failure?.type,
        errorCode: failure?.code ?? undefined,
        systemPrompt: content?.systemPrompt,
        context: content?.context,
        inputContent: content?.inputContent,
        outputContent: outcome.output,
      });
      // the client chose the request id: the ledger rows of the call carry another ref
      if (ledgerRef !== requestId) o.ledger_ref = ledgerRef;
      return o;
    };
    // Log entries are built as Object.assign(literal, base), never as { ...base, more }: on
    // Node 20 that spread makes a new hidden class on every call (docs/relay.md).
    if (outcome.ok || outcome.firstByteSentToClient) {
      // The client received an answer (whole, or a stream that broke midway): it pays for
      // what the upstream produced, measured by the upstream's usage or our estimate.
      // A failed settlement is retried, then refunded and logged (settleOrRefund): the client
      // already has its answer, so nothing is thrown past this point.
      let cost: bigint | Error;
      try {
        cost = costOf(price, outcome);
      } catch (e) {
        // a ChargeError (lib/billing/bounds.ts) or any other failure: the call cannot be charged
        cost = e instanceof Error ? e : new ChargeError(String(e));
      }
      if (cost === MAX_CALL_QUOTA) usageBounded = true;
      // the limits' correction (and the concurrency hold's release) goes out before the
      // settlement: the client already has its answer and may call again at once
      if (admission) {
        const tokens = outcome.usage.prompt_tokens + outcome.usage.completion_tokens;
        void finish(admission, { tokens, quota: typeof cost === "bigint" ? Number(cost) : 0 });
      }
      const entry = { prompt_tokens: outcome.usage.prompt_tokens, completion_tokens: outcome.usage.completion_tokens, other: other() };
      const settled = await settleOrRefund(reservation, cost, Object.assign(entry, base));
      if (settled && typeof cost === "bigint") {
        m.promptTokens.inc(outcome.usage.prompt_tokens);
        m.completionTokens.inc(outcome.usage.completion_tokens);
        m.quotaCharged.inc(Number(cost));
      }
      if (outcome.ok) {
        try {
          await recordSuccess(caller.rate);
        } catch (err) {
          // the client has its answer; a success the rate limit could not count (Redis down) is only logged
          log.error({ requestId, error: describeError(err) }, "counting a success for the rate limit failed");
        }
      }
      return;
    }
    await refundOrLog(reservation, base);
    const saturated =
      allRateLimited &&
      outcome.status === 429 &&
      caller.pinnedChannelId === null &&
      !(await anyChannelLeft(caller.group, chain ? chain.slice(link).map((l) => l.model) : [model], exclude, serves));
    const err = saturated
      ? appErrorToUpstream(new AppError("RATE_LIMITED", "group_saturated"), req)
      : (outcome.upstreamError ?? { status: 502, message: "upstream failed", type: "upstream_error", code: null });
    if (getBool("LogErrorEnabled") && outcome.status !== 499) {
      enqueueLog(Object.assign({ user_id: caller.userId, type: LOG_TYPE.error, content: err.message, other: other(err) }, base));
    }
    // a stream that had sent only its headers and pings was ended with its error event
    if (outcome.status === 499 || res.destroyed || res.writableEnded) return;
    const shown =
      getBool("global.hide_upstream_error_enabled") && !saturated
        ? { status: err.status, type: err.type, message: "upstream error", code: "upstream_error" }
        : err;
    answerError(route.ingress, res, shown, requestId);
  } finally {
    // nothing was used (refunded, failed, or thrown): the estimate goes, and the hold
    const finishing = finish(admission, { tokens: 0, quota: 0 });
    if (finishing) await finishing;
  }
}

// GET /v1/models/{model}, /v1beta/models/{model} (lib/relay/models.ts) and POST
// /v1/messages/count_tokens (lib/relay/count-tokens.ts): answered by the relay itself, nothing billed.
async function modelInfoOrCount(
  req: IncomingMessage,
  res: ServerResponse,
  route: Extract<RelayRoute, { kind: "model" } | { kind: "count_tokens" }>,
  search: URLSearchParams,
  cancel: Canceller,
  format: IngressName,
  requestId: string,
): Promise<void> {
  const ctx = await authenticateToken(apiKeyOf(req.headers, search), { ip: String(req.headers[CLIENT_IP_HEADER] ?? "") });
  let body: string | null;
  if (route.kind === "model") body = await describeModel(format, ctx, route.model);
  else {
    const raw = await readBody(req, env().RELAY_MAX_BODY_BYTES);
    body = await countTokens(raw.length > OFFLOAD_FROM ? (await parseLargeJson(raw)).json : parseJson(raw, false), ctx, cancel);
  }
  if (body === null) {
    const message = `The model '${(route as { model: string }).model}' does not exist or this token may not use it`;
    return answerError(format, res, { status: 404, message, type: "invalid_request_error", code: "model_not_found" }, requestId);
  }
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

// An upstream attempt's CLIENT span, ended with the attempt's outcome (tracing on only).
function endAttempt(traced: AttemptSpan, attempt: Promise<ForwardOutcome>): Promise<ForwardOutcome> {
  return attempt.then(
    (o) => {
      traced.end(o.status, o.ok ? undefined : (o.upstreamError?.code ?? o.upstreamError?.type ?? "upstream_error"));
      return o;
    },
    (err: unknown) => {
      traced.end(0, errorTypeOf(err));
      throw err;
    },
  );
}

function showIp(setting: string): boolean {
  if (!setting || !setting.includes("show_ip_in_logs")) return false;
  try {
    return (JSON.parse(setting) as { show_ip_in_logs?: unknown }).show_ip_in_logs === true;
  } catch {
    return false;
  }
}
