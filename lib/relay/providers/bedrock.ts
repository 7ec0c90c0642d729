// AWS Bedrock (channel type 33): the Converse API for every model (docs/providers.md, "AWS
// Bedrock"): POST {host}/model/{modelId}/converse, and /converse-stream whose answer is AWS's
// binary event stream (lib/relay/providers/aws-eventstream.ts). Host:
// bedrock-runtime.{region}.amazonaws.com, or the channel's base URL.
// The key is `AccessKeyId|SecretAccessKey|Region` (requests signed with SigV4, service
// "bedrock", by AWS's own signer @smithy/signature-v4) or `BedrockApiKey|Region` (a Bedrock API
// key, sent as `Authorization: Bearer`).
import "server-only";
import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import type { ChannelView, ChatRequest, ChatResponse, ContentPart, FinishReason, ReasoningEffort, ToolCall, UpstreamError, Usage } from "@/lib/relay/types";
import { RelayError } from "@/lib/relay/types";
import { EVENT_STREAM_CONTENT_TYPE, readEventStream } from "./aws-eventstream";
import { fallbackError, redact, trimSlash, tryJson, typeForStatus } from "./common";
import type { ChannelAccess, LocalizedText, ProviderAdapter, StreamParser, UpstreamPayload } from "./types";
import { nowSeconds } from "@/lib/time";
import { dict } from "@/lib/own-keys";

type Json = Record<string, unknown>;
const SERVICE = "bedrock";
const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

export type BedrockKey = { kind: "sigv4"; accessKeyId: string; secretAccessKey: string; region: string } | { kind: "apikey"; apiKey: string; region: string };

// Why a key is not a Bedrock key, in every language (the console's refusal: docs/i18n.md)
const BEDROCK_KEY_SHAPE: LocalizedText = {
  en: "the key must be AccessKeyId|SecretAccessKey|Region, or BedrockApiKey|Region",
  zh: "密钥须为 AccessKeyId|SecretAccessKey|Region 或 BedrockApiKey|Region",
  "zh-TW": "金鑰須為 AccessKeyId|SecretAccessKey|Region 或 BedrockApiKey|Region",
  ja: "キーは AccessKeyId|SecretAccessKey|Region または BedrockApiKey|Region の形式にしてください",
  fr: "la clé doit être AccessKeyId|SecretAccessKey|Region ou BedrockApiKey|Region",
  ru: "ключ должен иметь вид AccessKeyId|SecretAccessKey|Region или BedrockApiKey|Region",
  vi: "khóa phải có dạng AccessKeyId|SecretAccessKey|Region hoặc BedrockApiKey|Region",
  es: "la clave debe ser AccessKeyId|SecretAccessKey|Region o BedrockApiKey|Region",
};
const BEDROCK_KEY_PART_EMPTY: LocalizedText = {
  en: "a part of the key is empty (AccessKeyId|SecretAccessKey|Region, or BedrockApiKey|Region)",
  zh: "密钥中有一段为空（AccessKeyId|SecretAccessKey|Region 或 BedrockApiKey|Region）",
  "zh-TW": "金鑰中有一段為空（AccessKeyId|SecretAccessKey|Region 或 BedrockApiKey|Region）",
  ja: "キーに空の部分があります（AccessKeyId|SecretAccessKey|Region または BedrockApiKey|Region）",
  fr: "une partie de la clé est vide (AccessKeyId|SecretAccessKey|Region ou BedrockApiKey|Region)",
  ru: "одна из частей ключа пуста (AccessKeyId|SecretAccessKey|Region или BedrockApiKey|Region)",
  vi: "một phần của khóa đang trống (AccessKeyId|SecretAccessKey|Region hoặc BedrockApiKey|Region)",
  es: "una parte de la clave está vacía (AccessKeyId|SecretAccessKey|Region o BedrockApiKey|Region)",
};
const BEDROCK_ACCESS_KEY_ID: LocalizedText = {
  en: "the access key id is not an AWS access key id (such as AKIA...)",
  zh: "AccessKeyId 不是 AWS 访问密钥 ID（如 AKIA...）",
  "zh-TW": "AccessKeyId 不是 AWS 存取金鑰 ID（如 AKIA...）",
  ja: "AccessKeyId が AWS のアクセスキー ID ではありません（例: AKIA...）",
  fr: "l'AccessKeyId n'est pas un ID de clé d'accès AWS (comme AKIA...)",
  ru: "AccessKeyId не является идентификатором ключа доступа AWS (например, AKIA...)",
  vi: "AccessKeyId không phải là ID khóa truy cập AWS (ví dụ AKIA...)",
  es: "el AccessKeyId no es un ID de clave de acceso de AWS (como AKIA...)",
};
const notARegion = (region: string): LocalizedText => ({
  en: `"${region}" is not an AWS region (such as us-east-1)`,
  zh: `“${region}”不是 AWS 区域（如 us-east-1）`,
  "zh-TW": `「${region}」不是 AWS 區域（如 us-east-1）`,
  ja: `「${region}」は AWS のリージョンではありません（例: us-east-1）`,
  fr: `« ${region} » n'est pas une région AWS (comme us-east-1)`,
  ru: `«${region}» — не регион AWS (например, us-east-1)`,
  vi: `"${region}" không phải là vùng AWS (ví dụ us-east-1)`,
  es: `«${region}» no es una región de AWS (como us-east-1)`,
});

/** Why a key is not a Bedrock key (in every language), or undefined when it is one. */
export function bedrockKeyRefusal(key: string): LocalizedText | undefined {
  const parts = key.split("|").map((p) => p.trim());
  if (parts.length !== 2 && parts.length !== 3) return BEDROCK_KEY_SHAPE;
  if (parts.some((p) => !p)) return BEDROCK_KEY_PART_EMPTY;
  const region = parts[parts.length - 1];
  if (!REGION.test(region)) return notARegion(region.slice(0, 30));
  if (parts.length === 3 && !/^[A-Z0-9]{16,128}$/.test(parts[0])) return BEDROCK_ACCESS_KEY_ID;
  return undefined;
}

const keys = new Map<string, BedrockKey>();
/** The parts of a channel key; a RelayError (401) when it is not a Bedrock key. */
export function bedrockKey(key: string): BedrockKey {
  let k = keys.get(key);
  if (k) return k;
  const refusal = bedrockKeyRefusal(key);
  // a RelayError carries English, as the relay's other upstream failures do
  if (refusal) throw new RelayError(401, `AWS Bedrock: ${refusal.en}`, "authentication_error", "invalid_key");
  const p = key.split("|").map((s) => s.trim());
  k = p.length === 3 ? { kind: "sigv4", accessKeyId: p[0], secretAccessKey: p[1], region: p[2] } : { kind: "apikey", apiKey: p[0], region: p[1] };
  if (keys.size >= 1000) keys.clear();
  keys.set(key, k);
  return k;
}

// One signer per key (it caches its signing keys per day).
const signers = new Map<string, SignatureV4>();
function signerFor(k: Extract<BedrockKey, { kind: "sigv4" }>, service: string): SignatureV4 {
  const id = `${service}|${k.accessKeyId}|${k.secretAccessKey}|${k.region}`;
  let s = signers.get(id);
  if (!s) {
    s = new SignatureV4({ service, region: k.region, sha256: Sha256, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey } });
    if (signers.size >= 1000) signers.clear();
    signers.set(id, s);
  }
  return s;
}

// Headers that carry the signature or frame the body: never set from the channel's own headers.
const RESERVED = new Set(["authorization", "host", "content-length", "transfer-encoding", "x-amz-date", "x-amz-security-token", "x-amz-content-sha256"]);

/**
 * The headers of a request to Bedrock: a SigV4 signature of method, path, query, the listed
 * headers and the body (host included: the one of `url`, as the transport sends it), or the
 * API key as a Bearer token.
 */
export async function bedrockAuthHeaders(
  key: BedrockKey,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string,
  service = SERVICE,
): Promise<Record<string, string>> {
  if (key.kind === "apikey") return Object.assign({ authorization: `Bearer ${key.apiKey}` }, headers);
  const u = new URL(url);
  const query = dict<string>();
  for (const [k, v] of u.searchParams) query[k] = v;
  const signed = await signerFor(key, service).sign({
    method,
    protocol: u.protocol,
    hostname: u.hostname,
    port: u.port ? Number(u.port) : undefined,
    path: u.pathname,
    query,
    headers: Object.assign({ host: u.host }, headers),
    body,
  });
  return signed.headers;
}

const runtimeBase = (ch: Pick<ChannelView, "base_url">, region: string) =>
  ch.base_url ? trimSlash(ch.base_url) : `https://bedrock-runtime.${region}.amazonaws.com`;

// ---- the Converse request ----

const IMAGE_FORMATS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpeg", "image/jpg": "jpeg", "image/gif": "gif", "image/webp": "webp" };

// Converse takes an image as its bytes (base64 in JSON) in one of four formats; a URL would
// have to be an S3 location of the same account, so an http(s) URL is refused.
function contentBlock(p: ContentPart): Json | undefined {
  if (p.type === "text") return p.text ? { text: p.text } : undefined;
  let data = p.data;
  let mime = p.mimeType;
  if (!data) {
    const m = /^data:([^;,]+);base64,(.*)$/s.exec(p.url ?? "");
    if (!m) throw new RelayError(400, "AWS Bedrock takes images as data (a data: URL or base64), not as a link", "invalid_request_error", "unsupported_image");
    mime = m[1];
    data = m[2];
  }
  const format = IMAGE_FORMATS[(mime ?? "image/png").toLowerCase()];
  if (!format) throw new RelayError(400, `AWS Bedrock takes PNG, JPEG, GIF or WebP images, not ${mime}`, "invalid_request_error", "unsupported_image");
  return { image: { format, source: { bytes: data } } };
}

const blocks = (parts: ContentPart[]): Json[] => parts.map(contentBlock).filter((b): b is Json => b !== undefined);

function parseArgs(text: string): unknown {
  const v = text ? tryJson(text) : undefined;
  return v && typeof v === "object" && !Array.isArray(v) ? v : {};
}

export function converseBody(req: ChatRequest, modelId = ""): Json {
  const messages: { role: string; content: Json[] }[] = [];
  const push = (role: string, content: Json[]) => {
    if (!content.length) return;
    const last = messages[messages.length - 1];
    // Converse alternates roles: tool results and the next user text share a turn
    if (last && last.role === role) last.content.push(...content);
    else messages.push({ role, content });
  };
  for (const m of req.messages) {
    if (m.role === "tool") {
      const content = blocks(m.content);
      const r: Json = { toolUseId: m.toolCallId ?? "", content: content.length ? content : [{ text: "" }] };
      if (m.isError) r.status = "error";
      push("user", [{ toolResult: r }]);
    } else if (m.role === "assistant") {
      const content = blocks(m.content);
      if (m.toolCalls) for (const t of m.toolCalls) content.push({ toolUse: { toolUseId: t.id, name: t.name, input: parseArgs(t.arguments) } });
      push("assistant", content);
    } else push("user", blocks(m.content));
  }
  const body: Json = { messages };
  if (req.system) body.system = [{ text: req.system }];
  const inference: Json = {};
  if (req.maxTokens !== undefined) inference.maxTokens = req.maxTokens;
  // Converse's temperature is 0..1 where OpenAI's is 0..2
  if (req.temperature !== undefined) inference.temperature = Math.min(1, req.temperature);
  if (req.topP !== undefined) inference.topP = req.topP;
  if (req.stop?.length) inference.stopSequences = req.stop;
  if (req.reasoningEffort && CLAUDE.test(modelId)) claudeThinking(req, inference, body);
  if (Object.keys(inference).length) body.inferenceConfig = inference;
  // tool_choice "none" has no Converse form: the tools are still declared (a conversation
  // that holds tool calls needs them) and the model chooses
  if (req.tools?.length) {
    const toolConfig: Json = {
      tools: req.tools.map((t) => ({
        toolSpec: {
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
          inputSchema: { json: t.parameters ?? { type: "object", properties: {} } },
        },
      })),
    };
    const c = req.toolChoice;
    if (c && c !== "none") toolConfig.toolChoice = typeof c === "object" ? { tool: { name: c.name } } : c === "required" ? { any: {} } : { auto: {} };
    body.toolConfig = toolConfig;
  }
  return body;
}

// A reasoning effort on a Claude model: extended thinking through the model's own fields
// (additionalModelRequestFields.thinking), as on Anthropic's API (lib/relay/providers/anthropic.ts):
// the budget counts within maxTokens (added to a default when the client gave none), at least
// 1024, and thinking takes neither a temperature nor a top_p of the client's. Other models'
// reasoning fields differ per model: no effort is sent to them.
const CLAUDE = /(^|[.:/])anthropic\.claude/;
const THINKING_BUDGET: Record<ReasoningEffort, number> = { none: 0, minimal: 1024, low: 2048, medium: 8192, high: 24576, xhigh: 32000 };
const DEFAULT_MAX_TOKENS = 8192;
function claudeThinking(req: ChatRequest, inference: Json, body: Json): void {
  let budget = THINKING_BUDGET[req.reasoningEffort!];
  if (budget === 0) return;
  if (req.toolChoice === "required" || typeof req.toolChoice === "object") return; // refused with a forced tool
  if (req.maxTokens === undefined) inference.maxTokens = DEFAULT_MAX_TOKENS + budget;
  else budget = Math.min(budget, req.maxTokens - 1);
  if (budget < 1024) return;
  delete inference.temperature;
  delete inference.topP;
  body.additionalModelRequestFields = { thinking: { type: "enabled", budget_tokens: budget } };
}

// ---- the answers ----

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** Converse's inputTokens excludes cache reads and writes; canonical prompt_tokens includes them.
 *  cacheDetails ([{ttl: "5m" | "1h", inputTokens}]) splits the writes by lifetime, priced apart
 *  (docs/pricing.md, "Prompt-cache writes"). */
function usageOf(u: Json): Usage {
  const read = num(u.cacheReadInputTokens);
  const write = num(u.cacheWriteInputTokens);
  let hour = 0;
  if (Array.isArray(u.cacheDetails)) for (const d of u.cacheDetails as Json[]) if (d && d.ttl === "1h") hour += num(d.inputTokens);
  return {
    prompt_tokens: num(u.inputTokens) + read + write,
    completion_tokens: num(u.outputTokens),
    cached_tokens: read,
    cache_creation_tokens: write,
    cache_creation_1h_tokens: hour < write ? hour : write,
    reasoning_tokens: 0,
  };
}

function finish(r: unknown): FinishReason {
  if (r === "max_tokens" || r === "model_context_window_exceeded") return "length";
  if (r === "tool_use") return "tool_calls";
  if (r === "guardrail_intervened" || r === "content_filtered") return "content_filter";
  return "stop";
}

function parseChat(body: unknown): ChatResponse {
  const b = body as Json | null;
  const msg = (b?.output as Json | undefined)?.message as Json | undefined;
  if (!msg || !Array.isArray(msg.content)) throw new RelayError(502, "upstream answer has no output message", "upstream_error", "bad_response");
  let text = "";
  let reasoning = "";
  const calls: ToolCall[] = [];
  for (const c of msg.content as Json[]) {
    if (typeof c.text === "string") text += c.text;
    else if (c.toolUse && typeof c.toolUse === "object") {
      const t = c.toolUse as Json;
      calls.push({ id: String(t.toolUseId ?? ""), name: String(t.name ?? ""), arguments: JSON.stringify(t.input ?? {}) });
    } else if (c.reasoningContent && typeof c.reasoningContent === "object") {
      const r = (c.reasoningContent as Json).reasoningText as Json | undefined;
      if (typeof r?.text === "string") reasoning += r.text;
    }
  }
  const res: ChatResponse = {
    id: "",
    model: "",
    created: nowSeconds(),
    choices: [{ index: 0, text, finishReason: finish(b?.stopReason), ...(reasoning ? { reasoning } : {}), ...(calls.length ? { toolCalls: calls } : {}) }],
  };
  if (b?.usage && typeof b.usage === "object") res.usage = usageOf(b.usage as Json);
  return res;
}

// Bedrock's exceptions (in an error body's type or an exception message of the stream) and
// the HTTP status each stands for.
const EXCEPTION_STATUS: Record<string, number> = {
  validationException: 400,
  accessDeniedException: 403,
  unrecognizedClientException: 403,
  resourceNotFoundException: 404,
  modelTimeoutException: 408,
  throttlingException: 429,
  serviceQuotaExceededException: 429,
  modelErrorException: 424,
  modelStreamErrorException: 424,
  internalServerException: 500,
  serviceUnavailableException: 503,
  modelNotReadyException: 503,
};
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function streamParser(): StreamParser {
  let started = false;
  // content block index → tool call index
  const callOfBlock = new Map<number, number>();
  let calls = 0;
  return {
    parse(data, event, emit) {
      if (event && (event.startsWith("exception:") || event.startsWith("error:"))) {
        const type = lowerFirst(event.slice(event.indexOf(":") + 1));
        const j = tryJson(data) as Json | undefined;
        const status = EXCEPTION_STATUS[type] ?? 500;
        emit({
          type: "error",
          error: { status, message: String(j?.message ?? j?.Message ?? "upstream stream error"), type: typeForStatus(status), code: type || null },
        });
        return;
      }
      const e = tryJson(data) as Json | undefined;
      if (!e) return;
      if (!started) {
        started = true;
        emit({ type: "start", id: "", model: "" });
      }
      switch (event) {
        case "contentBlockStart": {
          const t = (e.start as Json | undefined)?.toolUse as Json | undefined;
          if (t) {
            const callIndex = calls++;
            callOfBlock.set(num(e.contentBlockIndex), callIndex);
            emit({ type: "tool_call_start", index: 0, callIndex, id: String(t.toolUseId ?? ""), name: String(t.name ?? "") });
          }
          return;
        }
        case "contentBlockDelta": {
          const d = (e.delta ?? {}) as Json;
          if (typeof d.text === "string") emit({ type: "text", index: 0, text: d.text });
          else if (d.toolUse && typeof d.toolUse === "object") {
            const callIndex = callOfBlock.get(num(e.contentBlockIndex));
            const input = (d.toolUse as Json).input;
            if (callIndex !== undefined && typeof input === "string" && input) emit({ type: "tool_call_args", index: 0, callIndex, args: input });
          } else if (d.reasoningContent && typeof d.reasoningContent === "object") {
            const r = d.reasoningContent as Json;
            if (typeof r.text === "string") emit({ type: "reasoning", index: 0, text: r.text });
          }
          return;
        }
        case "messageStop":
          emit({ type: "finish", index: 0, reason: finish(e.stopReason) });
          return;
        case "metadata":
          if (e.usage && typeof e.usage === "object") emit({ type: "usage", usage: usageOf(e.usage as Json) });
          return;
        default:
          return; // messageStart, contentBlockStop
      }
    },
  };
}

// An error answer: a JSON {"message": ...} (the exception's name is in the x-amzn-ErrorType
// header, which this contract does not pass on: the status tells the kind); a body that
// names its type ("__type") has it as the code.
function parseError(status: number, body: string, ch: ChannelView): UpstreamError {
  const j = tryJson(body) as Json | undefined;
  const message = j?.message ?? j?.Message;
  if (typeof message === "string") {
    const t = typeof j?.__type === "string" ? lowerFirst(j.__type.split(/[#:]/).filter(Boolean).pop() ?? "") : "";
    return { status, message: redact(message, ch), type: typeForStatus(status), code: t || null };
  }
  return fallbackError(status, body, ch);
}

async function payload(req: ChatRequest, ch: ChannelView): Promise<UpstreamPayload> {
  const key = bedrockKey(ch.key);
  const url = `${runtimeBase(ch, key.region)}/model/${encodeURIComponent(ch.upstreamModel)}/${req.stream ? "converse-stream" : "converse"}`;
  return { url, headers: {}, json: converseBody(req, ch.upstreamModel) };
}

// The headers are signed over the serialised body, so the body is serialised here.
async function signedRequest(url: string, ch: ChannelView, body: string) {
  const headers = dict<string>();
  if (ch.headers) for (const k of Object.keys(ch.headers)) if (!RESERVED.has(k.toLowerCase())) headers[k.toLowerCase()] = ch.headers[k];
  headers["content-type"] = "application/json";
  headers.accept = "application/json";
  return { url, headers: await bedrockAuthHeaders(bedrockKey(ch.key), "POST", url, headers, body), body };
}

async function listModels(ch: ChannelAccess, http: { getJson(url: string, headers: Record<string, string>): Promise<Json> }): Promise<string[]> {
  const key = bedrockKey(ch.key);
  // the control plane: bedrock.{region}.amazonaws.com (the channel's base URL when it has one)
  const url = `${ch.base_url ? trimSlash(ch.base_url) : `https://bedrock.${key.region}.amazonaws.com`}/foundation-models`;
  const headers = await bedrockAuthHeaders(key, "GET", url, { accept: "application/json" }, "");
  // the transport sets the host itself
  delete headers.host;
  const r = await http.getJson(url, headers);
  return ((r.modelSummaries ?? []) as Array<{ modelId?: unknown; outputModalities?: unknown }>)
    .filter((m) => !Array.isArray(m.outputModalities) || m.outputModalities.includes("TEXT"))
    .map((m) => String(m.modelId ?? ""));
}

export const bedrock: ProviderAdapter = {
  name: "bedrock",
  profile: {
    // the address depends on the key's region: bedrock-runtime.{region}.amazonaws.com
    defaultBaseUrl: "",
    keyFormat: "Ak|Sk|Region",
    checkKey: bedrockKeyRefusal,
    keyHint: {
      en: "AccessKeyId|SecretAccessKey|Region (an IAM user's access key with Bedrock access), or BedrockApiKey|Region (a Bedrock API key).",
      zh: "AccessKeyId|SecretAccessKey|Region（具有 Bedrock 权限的 IAM 访问密钥），或 BedrockApiKey|Region（Bedrock API 密钥）。",
      "zh-TW": "AccessKeyId|SecretAccessKey|Region（具有 Bedrock 權限的 IAM 存取金鑰），或 BedrockApiKey|Region（Bedrock API 金鑰）。",
      ja: "AccessKeyId|SecretAccessKey|Region（Bedrock へのアクセス権を持つ IAM ユーザーのアクセスキー）、または BedrockApiKey|Region（Bedrock API キー）。",
      fr: "AccessKeyId|SecretAccessKey|Region (clé d'accès d'un utilisateur IAM autorisé sur Bedrock), ou BedrockApiKey|Region (clé d'API Bedrock).",
      ru: "AccessKeyId|SecretAccessKey|Region (ключ доступа пользователя IAM с доступом к Bedrock) или BedrockApiKey|Region (API-ключ Bedrock).",
      vi: "AccessKeyId|SecretAccessKey|Region (khóa truy cập của người dùng IAM có quyền dùng Bedrock), hoặc BedrockApiKey|Region (khóa API Bedrock).",
      es: "AccessKeyId|SecretAccessKey|Region (clave de acceso de un usuario de IAM con acceso a Bedrock) o BedrockApiKey|Region (clave de API de Bedrock).",
    },
    testModel: "amazon.nova-micro-v1:0",
    listModels,
  },
  stream: { contentType: EVENT_STREAM_CONTENT_TYPE, read: readEventStream },
  supports: { stream: true, tools: true, images: true, n: false, passthrough: [], structuredOutput: false },
  async chatRequest(req, ch) {
    const p = await payload(req, ch);
    return signedRequest(p.url, ch, JSON.stringify(p.json));
  },
  // a payload is serialised elsewhere (a large body, on a worker) and cannot be signed before
  // it is: it carries the API key form's Bearer header, or none, and chatRequest signs
  async chatPayload(req, ch) {
    const p = await payload(req, ch);
    const { headers } = await signedRequest(p.url, ch, JSON.stringify(p.json));
    return { url: p.url, headers, json: p.json };
  },
  parseChat,
  streamParser,
  parseError,
};
