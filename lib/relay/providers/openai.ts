// The OpenAI wire: OpenAI itself and every host that speaks its chat completions API
// (OPENAI_HOSTS: one row each), and Azure OpenAI, which differs only in its URL (deployments, api-version) and header.
import "server-only";
import type { ChannelView, ChatRequest, ChatResponse, Choice, ContentPart, EmbeddingRequest, Message, ToolCall, Usage } from "@/lib/relay/types";
import { RelayError } from "@/lib/relay/types";
import { fallbackError, joinVersioned, numberVector, openaiFinish, redact, rerankMetaUsage, trimSlash, tryJson, typeForStatus } from "./common";
import { isResponseObject, parseResponseObject, responsesOutputBudget, responsesRequestBody, responsesStreamParser } from "./openai-responses";
import type {
  ChannelAccess,
  ConsoleHttp,
  LocalizedText,
  PassthroughEndpoint,
  ProviderAdapter,
  ProviderProfile,
  StreamParser,
  UpstreamPayload,
  UpstreamRequest,
} from "./types";
import { nowSeconds } from "@/lib/time";

type Json = Record<string, unknown>;

function partsJson(parts: ContentPart[]): string | unknown[] {
  if (parts.length === 1 && parts[0].type === "text") return parts[0].text;
  if (parts.every((p) => p.type === "text")) return parts.map((p) => (p as { text: string }).text).join("");
  return parts.map((p) =>
    p.type === "text"
      ? { type: "text", text: p.text }
      : { type: "image_url", image_url: { url: p.url ?? `data:${p.mimeType ?? "image/png"};base64,${p.data}` } },
  );
}

function messagesJson(req: ChatRequest): unknown[] {
  const out: unknown[] = [];
  if (req.system) out.push({ role: "system", content: req.system });
  for (const m of req.messages as Message[]) {
    if (m.role === "tool") {
      out.push({ role: "tool", tool_call_id: m.toolCallId ?? "", content: partsJson(m.content.filter((p) => p.type === "text")) });
    } else if (m.role === "assistant") {
      const msg: Json = { role: "assistant", content: m.content.length ? partsJson(m.content) : null };
      if (m.toolCalls?.length) msg.tool_calls = m.toolCalls.map((t) => ({ id: t.id, type: "function", function: { name: t.name, arguments: t.arguments } }));
      out.push(msg);
    } else out.push({ role: "user", content: partsJson(m.content) });
  }
  return out;
}

export function openaiChatBody(req: ChatRequest, model: string): Json {
  const body: Json = { model, messages: messagesJson(req) };
  if (req.tools?.length)
    body.tools = req.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters ?? { type: "object", properties: {} } },
    }));
  if (req.toolChoice) body.tool_choice = typeof req.toolChoice === "string" ? req.toolChoice : { type: "function", function: { name: req.toolChoice.name } };
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.stop) body.stop = req.stop;
  if (req.n !== undefined) body.n = req.n;
  const extra = req.extra?.wire === "openai" ? req.extra.fields : undefined;
  if (req.maxTokens !== undefined && !(extra && "max_completion_tokens" in extra)) body.max_tokens = req.maxTokens;
  if (req.reasoningEffort && !(extra && "reasoning_effort" in extra)) body.reasoning_effort = req.reasoningEffort;
  const rf = req.responseFormat;
  if (rf && !(extra && "response_format" in extra)) {
    if (rf.type === "json_object") body.response_format = { type: "json_object" };
    else {
      const js: Json = { name: rf.name };
      if (rf.description !== undefined) js.description = rf.description;
      if (rf.schema !== undefined) js.schema = rf.schema;
      if (rf.strict !== undefined) js.strict = rf.strict;
      body.response_format = { type: "json_schema", json_schema: js };
    }
  }
  if (extra) for (const k in extra) if (!(k in body)) body[k] = extra[k];
  if (req.stream) {
    body.stream = true;
    // always ask for usage: billing needs it even when the client did not
    body.stream_options = { include_usage: true };
  }
  return body;
}

export function openaiUsage(u: unknown): Usage | undefined {
  if (!u || typeof u !== "object") return undefined;
  const x = u as Json & { prompt_tokens_details?: Json; completion_tokens_details?: Json };
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
  return {
    prompt_tokens: num(x.prompt_tokens ?? x.input_tokens),
    completion_tokens: num(x.completion_tokens ?? x.output_tokens),
    cached_tokens: num(
      x.prompt_tokens_details?.cached_tokens ?? (x as { input_tokens_details?: Json }).input_tokens_details?.cached_tokens ?? x.prompt_cache_hit_tokens,
    ),
    cache_creation_tokens: 0,
    cache_creation_1h_tokens: 0,
    reasoning_tokens: num(x.completion_tokens_details?.reasoning_tokens ?? (x as { output_tokens_details?: Json }).output_tokens_details?.reasoning_tokens),
  };
}

function parseChat(body: unknown): ChatResponse {
  const b = body as Json;
  if (!b || !Array.isArray(b.choices)) throw new RelayError(502, "upstream answer has no choices", "upstream_error", "bad_response");
  const choices: Choice[] = (b.choices as Json[]).map((c, i) => {
    const msg = (c.message ?? {}) as Json;
    const choice: Choice = {
      index: typeof c.index === "number" ? c.index : i,
      text: typeof msg.content === "string" ? msg.content : "",
      finishReason: openaiFinish(c.finish_reason),
    };
    const reasoning = msg.reasoning_content ?? msg.reasoning;
    if (typeof reasoning === "string" && reasoning) choice.reasoning = reasoning;
    if (Array.isArray(msg.tool_calls) && msg.tool_calls.length)
      choice.toolCalls = (msg.tool_calls as Json[]).map((t): ToolCall => {
        const f = (t.function ?? {}) as Json;
        return {
          id: String(t.id ?? ""),
          name: String(f.name ?? ""),
          arguments: typeof f.arguments === "string" ? f.arguments : JSON.stringify(f.arguments ?? {}),
        };
      });
    return choice;
  });
  const res: ChatResponse = {
    id: String(b.id ?? ""),
    model: String(b.model ?? ""),
    created: typeof b.created === "number" ? b.created : nowSeconds(),
    choices,
  };
  const usage = openaiUsage(b.usage);
  if (usage) res.usage = usage;
  return res;
}

function streamParser(): StreamParser {
  let started = false;
  // per choice: which tool call indexes were announced
  const announced = new Map<number, Set<number>>();
  return {
    parse(data, _event, emit) {
      if (data === "[DONE]") return;
      const c = tryJson(data) as Json | undefined;
      if (!c) return;
      if (c.error) {
        const e = c.error as Json;
        const status = typeof e.code === "number" ? e.code : 500;
        emit({
          type: "error",
          error: {
            status,
            message: String(e.message ?? "upstream error"),
            type: String(e.type ?? typeForStatus(status)),
            code: e.code == null ? null : String(e.code),
          },
        });
        return;
      }
      if (!started) {
        started = true;
        emit({ type: "start", id: String(c.id ?? ""), model: String(c.model ?? "") });
      }
      const choices = c.choices as Json[] | undefined;
      if (choices)
        for (const ch of choices) {
          const index = typeof ch.index === "number" ? ch.index : 0;
          const d = ch.delta as Json | undefined;
          if (d) {
            const r = d.reasoning_content ?? d.reasoning;
            if (typeof r === "string" && r) emit({ type: "reasoning", index, text: r });
            if (typeof d.content === "string" && d.content) emit({ type: "text", index, text: d.content });
            if (Array.isArray(d.tool_calls))
              for (const t of d.tool_calls as Json[]) {
                const callIndex = typeof t.index === "number" ? t.index : 0;
                const f = (t.function ?? {}) as Json;
                let set = announced.get(index);
                if (!set) announced.set(index, (set = new Set()));
                if (!set.has(callIndex)) {
                  set.add(callIndex);
                  emit({ type: "tool_call_start", index, callIndex, id: String(t.id ?? `call_${callIndex}`), name: String(f.name ?? "") });
                }
                if (typeof f.arguments === "string" && f.arguments) emit({ type: "tool_call_args", index, callIndex, args: f.arguments });
              }
          }
          if (ch.finish_reason) emit({ type: "finish", index, reason: openaiFinish(ch.finish_reason) });
        }
      const u = openaiUsage(c.usage);
      if (u) emit({ type: "usage", usage: u });
    },
  };
}

// A channel flagged "Responses only" answers in the Responses shape (openai-responses.ts):
// the answer tells which shape it is, so the parsers need no channel.
const parseAnswer = (body: unknown): ChatResponse => (isResponseObject(body) ? parseResponseObject(body) : parseChat(body));

function answerStreamParser(): StreamParser {
  let inner: StreamParser | undefined;
  return {
    parse(data, event, emit) {
      if (!inner) {
        // Responses events carry "type": "response.…" (or "error"); chat chunks have no type
        const responses = (event !== undefined && (event.startsWith("response.") || event === "error")) || /^\{\s*"type"\s*:\s*"(response\.|error")/.test(data);
        inner = responses ? responsesStreamParser() : streamParser();
      }
      inner.parse(data, event, emit);
    },
  };
}

function parseError(status: number, body: string, ch: ChannelView) {
  const j = tryJson(body) as Json | undefined;
  const e = (j?.error ?? undefined) as Json | string | undefined;
  if (e && typeof e === "object" && typeof e.message === "string")
    return {
      status,
      message: redact(e.message, ch),
      type: typeof e.type === "string" ? e.type : typeForStatus(status),
      code: e.code == null ? null : String(e.code),
    };
  if (typeof e === "string") return { status, message: redact(e, ch), type: typeForStatus(status), code: null };
  return fallbackError(status, body, ch);
}

// Embeddings asked by a client of another format (Gemini), as a /v1/embeddings request. The
// parts of one input become one text, as they make one vector; Gemini's taskType and title
// have no OpenAI counterpart and are dropped. Floats are asked for: the answer is converted.
function embeddingsBody(req: EmbeddingRequest, model: string): Json {
  const dimensions = req.inputs[0].dimensions;
  if (req.inputs.some((i) => i.dimensions !== dimensions))
    throw new RelayError(400, "this channel cannot give one batch vectors of different lengths (outputDimensionality)", "invalid_request_error", "unsupported");
  const body: Json = { model, input: req.inputs.map((i) => i.parts.join("\n")), encoding_format: "float" };
  if (dimensions) body.dimensions = dimensions;
  return body;
}

function parseEmbeddings(body: unknown): { vectors: number[][]; promptTokens?: number } {
  const b = body as Json | undefined;
  if (!b || !Array.isArray(b.data)) throw new RelayError(502, "upstream answer has no data", "upstream_error", "bad_response");
  const data = b.data as Json[];
  const ordered = data.every((d) => typeof d.index === "number") ? [...data].sort((x, y) => (x.index as number) - (y.index as number)) : data;
  const u = (b.usage ?? {}) as Json;
  const counted = Math.floor(Number(u.prompt_tokens ?? u.total_tokens ?? 0));
  // some hosts send 0 (or nothing): then the caller estimates
  return { vectors: ordered.map((d) => numberVector(d.embedding)), promptTokens: counted > 0 ? counted : undefined };
}

// OpenAI's own endpoints besides chat; rerank is not one of them (docs/providers.md, "Rerank")
const OPENAI_PASSTHROUGH: readonly PassthroughEndpoint[] = [
  "completions",
  "embeddings",
  "responses",
  "images/generations",
  "audio/speech",
  "audio/transcriptions",
  "audio/translations",
  "moderations",
];
/** OpenAI's endpoints and /v1/rerank (Jina's and Cohere's shape), for the hosts that serve one */
export const WITH_RERANK: readonly PassthroughEndpoint[] = [...OPENAI_PASSTHROUGH, "rerank"];

interface WireConfig {
  name: string;
  url(ch: ChannelView, path: string): string;
  auth(ch: ChannelView): Record<string, string>;
  passthrough: readonly PassthroughEndpoint[];
  /** the host serves /v1/responses itself (a Responses client's body is passed through) */
  responses: boolean;
  profile: ProviderProfile;
  /** false: the host has no chat (embeddings and rerank only): a chat is refused, the channel test embeds */
  chat?: boolean;
  /** usage of a pass-through answer in the host's own shape (ProviderAdapter.passthroughUsage) */
  passthroughUsage?: ProviderAdapter["passthroughUsage"];
}

const noChat = (cfg: WireConfig): never => {
  throw new RelayError(400, `${cfg.name} has no chat: its channels serve embeddings and rerank only`, "invalid_request_error", "unsupported");
};

function headers(cfg: WireConfig, ch: ChannelView, contentType: string): Record<string, string> {
  const h: Record<string, string> = { "content-type": contentType, ...cfg.auth(ch) };
  if (ch.headers) for (const k in ch.headers) h[k.toLowerCase()] = ch.headers[k];
  return h;
}

export function makeAdapter(cfg: WireConfig): ProviderAdapter {
  const chats = cfg.chat !== false;
  return {
    name: cfg.name,
    profile: cfg.profile,
    supports: { stream: true, tools: true, images: true, n: true, passthrough: cfg.passthrough, ...(chats ? {} : { chat: false }) },
    // a Responses-only channel gets at least the Responses wire's minimum
    outputBudget: (req, ch) => (ch.responsesOnly ? responsesOutputBudget(req.maxTokens ?? 0) : (req.maxTokens ?? 0)),
    chatRequest(req, ch): UpstreamRequest {
      if (!chats) noChat(cfg);
      if (ch.responsesOnly)
        return {
          url: cfg.url(ch, "responses"),
          headers: headers(cfg, ch, "application/json"),
          body: JSON.stringify(responsesRequestBody(req, ch.upstreamModel)),
        };
      return {
        url: cfg.url(ch, "chat/completions"),
        headers: headers(cfg, ch, "application/json"),
        body: JSON.stringify(openaiChatBody(req, ch.upstreamModel)),
      };
    },
    chatPayload(req, ch): UpstreamPayload {
      if (!chats) noChat(cfg);
      if (ch.responsesOnly)
        return { url: cfg.url(ch, "responses"), headers: headers(cfg, ch, "application/json"), json: responsesRequestBody(req, ch.upstreamModel) };
      return { url: cfg.url(ch, "chat/completions"), headers: headers(cfg, ch, "application/json"), json: openaiChatBody(req, ch.upstreamModel) };
    },
    ingress: "openai-chat",
    rawChatPayload(json, req, ch): UpstreamPayload {
      if (!chats) noChat(cfg);
      // a Responses-only channel does not speak chat completions: its body is always rebuilt
      if (ch.responsesOnly)
        return { url: cfg.url(ch, "responses"), headers: headers(cfg, ch, "application/json"), json: responsesRequestBody(req, ch.upstreamModel) };
      const body = Object.assign({}, json);
      body.model = ch.upstreamModel;
      return { url: cfg.url(ch, "chat/completions"), headers: headers(cfg, ch, "application/json"), json: body };
    },
    parseChat: parseAnswer,
    streamParser: answerStreamParser,
    parseError,
    nativeResponses: (ch) => cfg.responses || ch.responsesOnly === true,
    passthroughRequest(endpoint, ch, contentType) {
      return { url: cfg.url(ch, endpoint), headers: headers(cfg, ch, contentType) };
    },
    passthroughUsage: cfg.passthroughUsage,
    embeddings: cfg.passthrough.includes("embeddings")
      ? {
          request: (req, ch) => ({
            url: cfg.url(ch, "embeddings"),
            headers: headers(cfg, ch, "application/json"),
            body: JSON.stringify(embeddingsBody(req, ch.upstreamModel)),
          }),
          parse: parseEmbeddings,
        }
      : undefined,
  };
}

/** GET {base}{prefix}/models with the key as a Bearer token: the OpenAI wire's model list. */
export async function openaiModels(url: string, key: string, http: ConsoleHttp): Promise<string[]> {
  const r = await http.getJson(url, key ? { authorization: `Bearer ${key}` } : {});
  return ((r.data ?? []) as Array<{ id?: unknown }>).map((m) => String(m.id ?? ""));
}

const num = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && v.trim() ? Number(v) : NaN);
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/**
 * One OpenAI-compatible host: its channel type, default base URL and version prefix, whether
 * it has the Responses API (otherwise a Responses client is served through chat completions),
 * the model a channel test uses, and its balance when it publishes one. A custom host is not
 * assumed to have the Responses API: most OpenAI-compatible servers (vLLM, one-api) have only
 * chat completions; one that does serves /v1/responses natively when the channel is flagged
 * "Responses only" (docs/relay.md, "The Responses API"). A new host is one row here.
 */
export interface OpenAIHost {
  type: number;
  name: string;
  /** "" when the channel must give its own base URL */
  base: string;
  /** the version path after the base URL; a function when it holds a channel field (Cloudflare's account id in `other`) */
  prefix: string | ((ch: { other: string }) => string);
  responses: boolean;
  testModel: string;
  /** the models the host is known to serve (ProviderProfile.knownModels) */
  knownModels?: readonly string[];
  /** the account's balance, from the host's billing endpoint (base URL without prefix) */
  balance?(base: string, key: string, http: ConsoleHttp): Promise<number>;
  /** a hint under the key field */
  keyHint?: LocalizedText;
  /** the endpoints besides chat it serves; default: OpenAI's (no rerank) */
  passthrough?: readonly PassthroughEndpoint[];
  /** false: no chat at all (Jina: embeddings and rerank) */
  chat?: false;
  /** usage of a pass-through answer in the host's shape (a Cohere-like rerank `meta`) */
  passthroughUsage?: ProviderAdapter["passthroughUsage"];
  /** the model list when it is not GET {prefix}/models in OpenAI's shape; null: the host has none */
  listModels?: ProviderProfile["listModels"] | null;
  /** what `other` means, and its check at save (ProviderProfile.other, checkOther) */
  other?: ProviderProfile["other"];
  checkOther?: ProviderProfile["checkOther"];
  /** the chat path after the prefix when it is not "chat/completions" (MiniMax's "text/chatcompletion_v2") */
  chatPath?: string;
  /** the Bearer token made of the channel's key when it is not the key itself (Spark's "APIKey:APISecret" of a composite key) */
  bearer?(key: string): string;
  /** the key's shape and its check at save time (ProviderProfile.keyFormat, checkKey), when it is not one plain key */
  keyFormat?: string;
  checkKey?: ProviderProfile["checkKey"];
  /** an error carried by a successful (HTTP 200) answer in the host's own shape (MiniMax's base_resp): its message */
  answerError?(body: unknown): string | undefined;
}

// A Cohere-shaped rerank answer's `meta` (SiliconFlow, Xinference): its tokens, for the pass-through billing
const rerankUsage: ProviderAdapter["passthroughUsage"] = (endpoint, json) => (endpoint === "rerank" ? rerankMetaUsage(json) : undefined);

// Cloudflare's account id: 32 hexadecimal characters (dash.cloudflare.com, Workers AI)
const CLOUDFLARE_ACCOUNT = /^[0-9a-f]{32}$/i;

// Why a key or an `other` is refused at save time, in every language (docs/i18n.md)
const CLOUDFLARE_ACCOUNT_SHAPE: LocalizedText = {
  en: "the Cloudflare account ID (other) must be 32 hexadecimal characters",
  zh: "Cloudflare 账户 ID（other）必须是 32 位十六进制字符",
  "zh-TW": "Cloudflare 帳戶 ID（other）必須是 32 個十六進位字元",
  ja: "Cloudflare のアカウント ID（other）は 16 進数 32 文字で指定してください",
  fr: "l'ID de compte Cloudflare (other) doit compter 32 caractères hexadécimaux",
  ru: "ID аккаунта Cloudflare (other) должен состоять из 32 шестнадцатеричных символов",
  vi: "ID tài khoản Cloudflare (other) phải gồm 32 ký tự thập lục phân",
  es: "el ID de cuenta de Cloudflare (other) debe tener 32 caracteres hexadecimales",
};
const SPARK_KEY_SHAPE: LocalizedText = {
  en: "three parts joined by |, as the app's page in the Spark console gives them",
  zh: "以 | 连接的三段，即星火控制台应用页给出的三项",
  "zh-TW": "以 | 連接的三段，即星火主控台應用頁面提供的三項",
  ja: "Spark コンソールのアプリページに表示される 3 つの値を | でつないだもの",
  fr: "trois parties séparées par |, telles que les donne la page de l'application dans la console Spark",
  ru: "три части через |, как их показывает страница приложения в консоли Spark",
  vi: "ba phần nối bằng dấu |, đúng như trang ứng dụng trong bảng điều khiển Spark cung cấp",
  es: "tres partes unidas por |, tal como las muestra la página de la aplicación en la consola de Spark",
};
const ZHIPU_KEY_SHAPE: LocalizedText = {
  en: "Zhipu's API key is two parts joined by a dot",
  zh: "智谱的 API Key 由两段以点号（.）连接而成",
  "zh-TW": "智譜的 API Key 由兩段以點號（.）連接而成",
  ja: "Zhipu の API キーは 2 つの部分をドット（.）でつないだものです",
  fr: "la clé d'API de Zhipu est faite de deux parties séparées par un point",
  ru: "API-ключ Zhipu состоит из двух частей, разделённых точкой",
  vi: "khóa API của Zhipu gồm hai phần nối với nhau bằng dấu chấm",
  es: "la clave de API de Zhipu son dos partes unidas por un punto",
};
const QIANFAN_KEY_SHAPE: LocalizedText = {
  en: "a Qianfan API key starts with bce-v3/ (an AK/SK pair is not one)",
  zh: "千帆 API Key 以 bce-v3/ 开头（AK/SK 密钥对不是 API Key）",
  "zh-TW": "千帆 API Key 以 bce-v3/ 開頭（AK/SK 金鑰對不是 API Key）",
  ja: "Qianfan の API キーは bce-v3/ で始まります（AK/SK のペアは API キーではありません）",
  fr: "une clé d'API Qianfan commence par bce-v3/ (une paire AK/SK n'en est pas une)",
  ru: "API-ключ Qianfan начинается с bce-v3/ (пара AK/SK им не является)",
  vi: "khóa API Qianfan bắt đầu bằng bce-v3/ (cặp AK/SK không phải là khóa API)",
  es: "una clave de API de Qianfan empieza por bce-v3/ (un par AK/SK no lo es)",
};

// OpenAI and the resellers that copy its dashboard: subscription limit minus this period's usage (cents)
async function openaiBalance(base: string, key: string, http: ConsoleHttp): Promise<number> {
  const sub = await http.getJson(`${base}/v1/dashboard/billing/subscription`, bearer(key));
  const limit = num(sub.hard_limit_usd);
  // no limit in the answer: NaN, which the console refuses as an answer without a balance (lib/channel-admin/upstream.ts)
  if (!Number.isFinite(limit)) return NaN;
  const now = Date.now();
  const start = new Date(now - 99 * 86400_000).toISOString().slice(0, 10);
  const end = new Date(now + 86400_000).toISOString().slice(0, 10);
  const usage = await http.getJson(`${base}/v1/dashboard/billing/usage?start_date=${start}&end_date=${end}`, bearer(key));
  const used = num(usage.total_usage) / 100;
  return Math.round((limit - (Number.isFinite(used) ? used : 0)) * 1e6) / 1e6;
}

export const OPENAI_HOSTS: readonly OpenAIHost[] = [
  {
    type: 1,
    name: "openai",
    base: "https://api.openai.com",
    prefix: "/v1",
    responses: true,
    testModel: "gpt-4o-mini",
    balance: openaiBalance,
    knownModels: [
      "gpt-4o",
      "gpt-4o-mini",
      "gpt-4.1",
      "gpt-4.1-mini",
      "gpt-4.1-nano",
      "o3",
      "o3-mini",
      "o4-mini",
      "gpt-3.5-turbo",
      "text-embedding-3-small",
      "text-embedding-3-large",
      "dall-e-3",
      "tts-1",
      "whisper-1",
      "omni-moderation-latest",
    ],
  },
  { type: 4, name: "ollama", base: "http://localhost:11434", prefix: "/v1", responses: false, testModel: "llama3.2" },
  // a custom OpenAI-compatible server (vLLM, Infinity, another relay) may serve /v1/rerank: passed on
  { type: 8, name: "custom", base: "", prefix: "/v1", responses: false, testModel: "gpt-4o-mini", balance: openaiBalance, passthrough: WITH_RERANK },
  {
    type: 20,
    name: "openrouter",
    base: "https://openrouter.ai/api",
    prefix: "/v1",
    responses: true,
    testModel: "openai/gpt-4o-mini",
    knownModels: ["openai/gpt-4o-mini", "openai/gpt-4o", "anthropic/claude-3.5-sonnet", "google/gemini-2.0-flash-001", "deepseek/deepseek-chat"],
    async balance(base, key, http) {
      const d = ((await http.getJson(`${base}/v1/credits`, bearer(key))).data ?? {}) as Record<string, unknown>;
      return num(d.total_credits) - num(d.total_usage);
    },
  },
  {
    type: 25,
    name: "moonshot",
    base: "https://api.moonshot.cn",
    prefix: "/v1",
    responses: false,
    testModel: "moonshot-v1-8k",
    knownModels: ["moonshot-v1-8k", "moonshot-v1-32k", "moonshot-v1-128k", "kimi-latest"],
  },
  {
    type: 27,
    name: "perplexity",
    base: "https://api.perplexity.ai",
    prefix: "",
    responses: false,
    testModel: "sonar",
    knownModels: ["sonar", "sonar-pro", "sonar-reasoning", "sonar-reasoning-pro", "sonar-deep-research"],
  },
  {
    type: 40,
    name: "siliconflow",
    base: "https://api.siliconflow.cn",
    prefix: "/v1",
    responses: false,
    testModel: "Qwen/Qwen2.5-7B-Instruct",
    knownModels: ["Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-72B-Instruct", "deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-R1", "BAAI/bge-m3"],
    passthrough: WITH_RERANK,
    passthroughUsage: rerankUsage,
    async balance(base, key, http) {
      const d = ((await http.getJson(`${base}/v1/user/info`, bearer(key))).data ?? {}) as Record<string, unknown>;
      return num(d.totalBalance);
    },
  },
  {
    type: 42,
    name: "mistral",
    base: "https://api.mistral.ai",
    prefix: "/v1",
    responses: false,
    testModel: "mistral-small-latest",
    knownModels: ["mistral-small-latest", "mistral-medium-latest", "mistral-large-latest", "codestral-latest", "mistral-embed"],
  },
  {
    type: 43,
    name: "deepseek",
    base: "https://api.deepseek.com",
    prefix: "/v1",
    responses: false,
    testModel: "deepseek-chat",
    knownModels: ["deepseek-chat", "deepseek-reasoner"],
    async balance(base, key, http) {
      const infos = ((await http.getJson(`${base}/user/balance`, bearer(key))).balance_infos ?? []) as Array<Record<string, unknown>>;
      return num(infos[0]?.total_balance);
    },
  },
  {
    type: 48,
    name: "xai",
    base: "https://api.x.ai",
    prefix: "/v1",
    responses: true,
    testModel: "grok-3-mini",
    knownModels: ["grok-4", "grok-3", "grok-3-mini", "grok-2-image"],
  },
  // Jina: embeddings and rerank, no chat (docs/providers.md, "Jina")
  {
    type: 38,
    name: "jina",
    base: "https://api.jina.ai",
    prefix: "/v1",
    responses: false,
    chat: false,
    testModel: "jina-embeddings-v3",
    passthrough: ["embeddings", "rerank"],
    listModels: null,
    keyHint: {
      en: "An API key from jina.ai (jina_…)",
      zh: "jina.ai 的 API 密钥（jina_…）",
      "zh-TW": "jina.ai 的 API 金鑰（jina_…）",
      ja: "jina.ai の API キー（jina_…）",
      fr: "Une clé d'API de jina.ai (jina_…)",
      ru: "API-ключ с jina.ai (jina_…)",
      vi: "Khóa API từ jina.ai (jina_…)",
      es: "Una clave de API de jina.ai (jina_…)",
    },
  },
  // Cloudflare Workers AI's OpenAI-compatible endpoints, under the account (docs/providers.md, "Cloudflare Workers AI")
  {
    type: 39,
    name: "cloudflare",
    base: "https://api.cloudflare.com",
    prefix: (ch) => {
      const account = ch.other.trim();
      if (!account) throw new RelayError(500, "the channel has no Cloudflare account id (other)", "upstream_error", "channel_misconfigured");
      return `/client/v4/accounts/${encodeURIComponent(account)}/ai/v1`;
    },
    responses: false,
    testModel: "@cf/meta/llama-3.1-8b-instruct",
    passthrough: ["embeddings"],
    keyHint: {
      en: "An API token with the Workers AI permission",
      zh: "具有 Workers AI 权限的 API 令牌",
      "zh-TW": "具有 Workers AI 權限的 API 權杖",
      ja: "Workers AI の権限を持つ API トークン",
      fr: "Un jeton d'API disposant de l'autorisation Workers AI",
      ru: "API-токен с разрешением Workers AI",
      vi: "Token API có quyền Workers AI",
      es: "Un token de API con el permiso de Workers AI",
    },
    other: {
      label: {
        en: "Account ID",
        zh: "账户 ID",
        "zh-TW": "帳戶 ID",
        ja: "アカウント ID",
        fr: "ID de compte",
        ru: "ID аккаунта",
        vi: "ID tài khoản",
        es: "ID de cuenta",
      },
      placeholder: "0123456789abcdef0123456789abcdef",
      hint: {
        en: "The Cloudflare account ID (32 hex characters, on the dashboard's Workers AI page)",
        zh: "Cloudflare 账户 ID（32 位十六进制，见控制台 Workers AI 页面）",
        "zh-TW": "Cloudflare 帳戶 ID（32 個十六進位字元，見主控台 Workers AI 頁面）",
        ja: "Cloudflare のアカウント ID（16 進数 32 文字。ダッシュボードの Workers AI ページに表示）",
        fr: "L'ID de compte Cloudflare (32 caractères hexadécimaux, sur la page Workers AI du tableau de bord)",
        ru: "ID аккаунта Cloudflare (32 шестнадцатеричных символа, на странице Workers AI в панели управления)",
        vi: "ID tài khoản Cloudflare (32 ký tự thập lục phân, xem trang Workers AI trên bảng điều khiển)",
        es: "El ID de cuenta de Cloudflare (32 caracteres hexadecimales, en la página Workers AI del panel)",
      },
    },
    checkOther: (other) => (CLOUDFLARE_ACCOUNT.test(other.trim()) ? undefined : CLOUDFLARE_ACCOUNT_SHAPE),
    // the account's Workers AI text models (GET …/ai/models/search; the OpenAI-compatible path has no model list)
    async listModels(ch, http) {
      const base = trimSlash(ch.base_url || "https://api.cloudflare.com");
      const account = encodeURIComponent(ch.other.trim());
      const r = await http.getJson(`${base}/client/v4/accounts/${account}/ai/models/search?per_page=1000`, bearer(ch.key));
      return ((r.result ?? []) as Array<{ name?: unknown }>).map((m) => String(m.name ?? ""));
    },
  },
  // Xinference: self-hosted (no default address), OpenAI's endpoints and /v1/rerank (docs/providers.md, "Xinference")
  {
    type: 47,
    name: "xinference",
    base: "",
    prefix: "/v1",
    responses: false,
    testModel: "qwen2.5-instruct",
    passthrough: WITH_RERANK,
    passthroughUsage: rerankUsage,
    keyHint: {
      en: "The server's API key, when it was started with authentication",
      zh: "服务端启用认证时的 API 密钥",
      "zh-TW": "伺服器啟用驗證時的 API 金鑰",
      ja: "サーバーを認証付きで起動した場合の API キー",
      fr: "La clé d'API du serveur, s'il a été lancé avec l'authentification",
      ru: "API-ключ сервера, если он запущен с аутентификацией",
      vi: "Khóa API của máy chủ, nếu máy chủ được khởi động với xác thực",
      es: "La clave de API del servidor, si se inició con autenticación",
    },
  },
  // The Chinese hosts whose wire today is OpenAI's chat completions (docs/providers.md, a section each)
  {
    type: 17,
    name: "ali",
    // the documented OpenAI base (…/compatible-mode/v1) ends in a version: it is taken as is
    base: "https://dashscope.aliyuncs.com",
    prefix: "/compatible-mode/v1",
    responses: false,
    testModel: "qwen-turbo",
    knownModels: ["qwen-turbo", "qwen-plus", "qwen-max", "qwen-long", "text-embedding-v3"],
    passthrough: ["embeddings"],
    keyHint: {
      en: "A DashScope API key (sk-...), Model Studio console",
      zh: "百炼控制台的 DashScope API Key（sk-...）",
      "zh-TW": "百煉主控台的 DashScope API Key（sk-...）",
      ja: "Model Studio コンソールの DashScope API キー（sk-...）",
      fr: "Une clé d'API DashScope (sk-...), console Model Studio",
      ru: "API-ключ DashScope (sk-...) из консоли Model Studio",
      vi: "Khóa API DashScope (sk-...) từ bảng điều khiển Model Studio",
      es: "Una clave de API de DashScope (sk-...), de la consola de Model Studio",
    },
  },
  {
    type: 18,
    name: "xunfei",
    base: "https://spark-api-open.xf-yun.com",
    prefix: "/v1",
    responses: false,
    testModel: "lite",
    keyFormat: "APPID|APISecret|APIKey",
    checkKey: (key) => sparkKey(key).error,
    // Spark's HTTP API takes "APIKey:APISecret" as its Bearer token (the APPID is not sent)
    bearer: (key) => {
      const k = sparkKey(key);
      return k.error ? key : `${k.apiKey}:${k.apiSecret}`;
    },
    listModels: null,
    passthrough: [],
    keyHint: {
      en: "APPID|APISecret|APIKey from the Spark console's app page",
      zh: "星火控制台应用页的 APPID|APISecret|APIKey",
      "zh-TW": "星火主控台應用頁面的 APPID|APISecret|APIKey",
      ja: "Spark コンソールのアプリページにある APPID|APISecret|APIKey",
      fr: "APPID|APISecret|APIKey, sur la page de l'application dans la console Spark",
      ru: "APPID|APISecret|APIKey со страницы приложения в консоли Spark",
      vi: "APPID|APISecret|APIKey trên trang ứng dụng của bảng điều khiển Spark",
      es: "APPID|APISecret|APIKey de la página de la aplicación en la consola de Spark",
    },
  },
  {
    type: 26,
    name: "zhipu",
    base: "https://open.bigmodel.cn",
    prefix: "/api/paas/v4",
    responses: false,
    testModel: "glm-4-flash",
    knownModels: ["glm-4-flash", "glm-4-air", "glm-4-plus", "glm-4v-flash", "embedding-3"],
    keyFormat: "id.secret",
    checkKey: (key) => (/^[^.\s]+\.[^.\s]+$/.test(key) ? undefined : ZHIPU_KEY_SHAPE),
    listModels: null,
    passthrough: ["embeddings"],
    keyHint: {
      en: "The API key of open.bigmodel.cn (id.secret)",
      zh: "智谱开放平台的 API Key（id.secret）",
      "zh-TW": "智譜開放平台的 API Key（id.secret）",
      ja: "open.bigmodel.cn の API キー（id.secret）",
      fr: "La clé d'API d'open.bigmodel.cn (id.secret)",
      ru: "API-ключ open.bigmodel.cn (id.secret)",
      vi: "Khóa API của open.bigmodel.cn (id.secret)",
      es: "La clave de API de open.bigmodel.cn (id.secret)",
    },
  },
  {
    type: 35,
    name: "minimax",
    base: "https://api.minimaxi.com",
    prefix: "/v1",
    chatPath: "text/chatcompletion_v2",
    responses: false,
    testModel: "MiniMax-Text-01",
    listModels: null,
    passthrough: [],
    answerError: minimaxError,
    keyHint: {
      en: "The API key of the MiniMax platform",
      zh: "MiniMax 开放平台的 API Key",
      "zh-TW": "MiniMax 開放平台的 API Key",
      ja: "MiniMax プラットフォームの API キー",
      fr: "La clé d'API de la plateforme MiniMax",
      ru: "API-ключ платформы MiniMax",
      vi: "Khóa API của nền tảng MiniMax",
      es: "La clave de API de la plataforma MiniMax",
    },
  },
  {
    type: 45,
    name: "volcengine",
    base: "https://ark.cn-beijing.volces.com",
    prefix: "/api/v3",
    responses: false,
    testModel: "doubao-1-5-lite-32k-250115",
    listModels: null,
    passthrough: ["embeddings", "images/generations"],
    keyHint: {
      en: "An Ark API key (Volcano Engine Ark console, API Key management)",
      zh: "火山方舟控制台「API Key 管理」中的 API Key",
      "zh-TW": "火山方舟主控台「API Key 管理」中的 API Key",
      ja: "Ark の API キー（Volcano Engine Ark コンソールの API Key management）",
      fr: "Une clé d'API Ark (console Volcano Engine Ark, API Key management)",
      ru: "API-ключ Ark (консоль Volcano Engine Ark, раздел API Key management)",
      vi: "Khóa API Ark (bảng điều khiển Volcano Engine Ark, mục API Key management)",
      es: "Una clave de API de Ark (consola de Volcano Engine Ark, API Key management)",
    },
  },
  {
    type: 46,
    name: "baidu-v2",
    base: "https://qianfan.baidubce.com",
    prefix: "/v2",
    responses: false,
    testModel: "ernie-speed-128k",
    keyFormat: "bce-v3/ALTAK-…/…",
    checkKey: (key) => (key.startsWith("bce-v3/") ? undefined : QIANFAN_KEY_SHAPE),
    passthrough: ["embeddings", "images/generations"],
    keyHint: {
      en: "A Qianfan API key (bce-v3/ALTAK-...)",
      zh: "千帆 API Key（bce-v3/ALTAK-...）",
      "zh-TW": "千帆 API Key（bce-v3/ALTAK-...）",
      ja: "Qianfan の API キー（bce-v3/ALTAK-...）",
      fr: "Une clé d'API Qianfan (bce-v3/ALTAK-...)",
      ru: "API-ключ Qianfan (bce-v3/ALTAK-...)",
      vi: "Khóa API Qianfan (bce-v3/ALTAK-...)",
      es: "Una clave de API de Qianfan (bce-v3/ALTAK-...)",
    },
  },
];

/** Spark's composite key APPID|APISecret|APIKey, or why it is not one. */
function sparkKey(key: string): { appId: string; apiSecret: string; apiKey: string; error?: LocalizedText } {
  const parts = key.split("|").map((p) => p.trim());
  if (parts.length !== 3 || parts.some((p) => !p)) return { appId: "", apiSecret: "", apiKey: "", error: SPARK_KEY_SHAPE };
  return { appId: parts[0], apiSecret: parts[1], apiKey: parts[2] };
}

// MiniMax answers a refused call with HTTP 200 and base_resp.status_code other than 0 (1004: auth, 1008: balance...)
function minimaxError(body: unknown): string | undefined {
  const r = (body as { base_resp?: { status_code?: unknown; status_msg?: unknown } } | undefined)?.base_resp;
  if (!r || r.status_code === 0 || r.status_code === undefined) return undefined;
  return `${String(r.status_msg ?? "error")} (${String(r.status_code)})`;
}

export function openaiCompatible(host: OpenAIHost): ProviderAdapter {
  const baseOf = (ch: { base_url: string }) => trimSlash(ch.base_url || host.base);
  const prefixOf = (ch: { other: string }) => (typeof host.prefix === "string" ? host.prefix : host.prefix(ch));
  const balance = host.balance;
  const token = (key: string) => (key && host.bearer ? host.bearer(key) : key);
  const profile: ProviderProfile = {
    defaultBaseUrl: host.base,
    responsesOnlyOption: host.chat !== false,
    testModel: host.testModel,
    knownModels: host.knownModels,
    keyHint: host.keyHint,
    listModels:
      host.listModels === null
        ? undefined
        : (host.listModels ??
          ((ch: ChannelAccess, http: ConsoleHttp) => openaiModels(joinVersioned(baseOf(ch), prefixOf(ch), "/models"), token(ch.key), http))),
    balance: balance && ((ch, http) => balance(baseOf(ch), ch.key, http)),
  };
  if (host.other) profile.other = host.other;
  if (host.checkOther) profile.checkOther = host.checkOther;
  if (host.keyFormat) profile.keyFormat = host.keyFormat;
  if (host.checkKey) profile.checkKey = host.checkKey;
  const adapter = makeAdapter({
    name: host.name,
    url(ch, path) {
      const base = ch.base_url || host.base;
      if (!base) throw new RelayError(500, "the channel has no base URL", "upstream_error", "channel_misconfigured");
      return joinVersioned(base, prefixOf(ch), "/" + (path === "chat/completions" && host.chatPath ? host.chatPath : path));
    },
    auth: (ch): Record<string, string> => (ch.key ? { authorization: `Bearer ${token(ch.key)}` } : {}),
    passthrough: host.passthrough ?? OPENAI_PASSTHROUGH,
    responses: host.responses,
    chat: host.chat,
    passthroughUsage: host.passthroughUsage,
    profile,
  });
  const answerError = host.answerError;
  if (!answerError) return adapter;
  const parse = adapter.parseChat;
  return Object.assign({}, adapter, {
    parseChat(body: unknown) {
      const message = answerError(body);
      if (message !== undefined) throw new RelayError(502, `the upstream refused the request: ${message}`, "upstream_error", "bad_response");
      return parse(body);
    },
  });
}

export const AZURE_DEFAULT_API_VERSION = "2024-10-21";

// Azure deployment names cannot contain dots: gpt-3.5-turbo is deployed as gpt-35-turbo
const deployment = (model: string) => model.replace(/\./g, "");

export const azure: ProviderAdapter = makeAdapter({
  name: "azure",
  url(ch, path) {
    if (!ch.base_url) throw new RelayError(500, "the channel has no base URL", "upstream_error", "channel_misconfigured");
    const version = encodeURIComponent(ch.other.trim() || AZURE_DEFAULT_API_VERSION);
    const base = trimSlash(ch.base_url);
    if (path === "responses") return `${base}/openai/responses?api-version=${version}`;
    return `${base}/openai/deployments/${encodeURIComponent(deployment(ch.upstreamModel))}/${path}?api-version=${version}`;
  },
  auth: (ch) => ({ "api-key": ch.key }),
  responses: true,
  profile: {
    defaultBaseUrl: "",
    responsesOnlyOption: true,
    testModel: "gpt-4o-mini",
    // deployments are usually named after their model
    knownModels: ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "o3-mini", "o4-mini", "text-embedding-3-small", "text-embedding-3-large"],
    other: {
      label: {
        en: "API version",
        zh: "API 版本",
        "zh-TW": "API 版本",
        ja: "API バージョン",
        fr: "Version de l'API",
        ru: "Версия API",
        vi: "Phiên bản API",
        es: "Versión de la API",
      },
      placeholder: AZURE_DEFAULT_API_VERSION,
      hint: {
        en: `Empty: ${AZURE_DEFAULT_API_VERSION}`,
        zh: `留空为 ${AZURE_DEFAULT_API_VERSION}`,
        "zh-TW": `留空為 ${AZURE_DEFAULT_API_VERSION}`,
        ja: `空欄の場合は ${AZURE_DEFAULT_API_VERSION}`,
        fr: `Si vide : ${AZURE_DEFAULT_API_VERSION}`,
        ru: `Если пусто: ${AZURE_DEFAULT_API_VERSION}`,
        vi: `Để trống sẽ dùng ${AZURE_DEFAULT_API_VERSION}`,
        es: `Si está vacío: ${AZURE_DEFAULT_API_VERSION}`,
      },
    },
    keyHint: {
      en: "The resource's key (Keys and Endpoint)",
      zh: "资源的密钥（密钥和终结点）",
      "zh-TW": "資源的金鑰（金鑰和端點）",
      ja: "リソースのキー（キーとエンドポイント）",
      fr: "La clé de la ressource (Clés et point de terminaison)",
      ru: "Ключ ресурса (Ключи и конечная точка)",
      vi: "Khóa của tài nguyên (Keys and Endpoint)",
      es: "La clave del recurso (Claves y punto de conexión)",
    },
    // the resource's deployments under their model names
    listModels: async (ch, http) =>
      (
        ((
          await http.getJson(`${trimSlash(ch.base_url)}/openai/models?api-version=${encodeURIComponent(ch.other.trim() || AZURE_DEFAULT_API_VERSION)}`, {
            "api-key": ch.key,
          })
        ).data as Array<{ id?: unknown }> | undefined) ?? []
      ).map((m) => String(m.id ?? "")),
  },
  passthrough: ["completions", "embeddings", "responses", "images/generations", "audio/speech", "audio/transcriptions", "audio/translations"],
});
