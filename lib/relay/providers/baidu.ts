// Baidu Qianfan's classic ERNIE wire (channel type 15; docs/providers.md, "Baidu (classic ERNIE
// API)"): the key is "APIKey|SecretKey"; an access token is minted from it at
// POST {base}/oauth/2.0/token (client credentials) and cached per key until shortly before it
// expires, one mint in flight per key; chat is POST
// {base}/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/{endpoint}?access_token=…, the endpoint
// named after the model. The token rides in the URL: no message of this adapter carries it.
import "server-only";
import { createHash } from "node:crypto";
import { outboundFetch } from "@/lib/net/outbound";
import { BodyTooLargeError, readCappedText } from "@/lib/net/read-capped";
import type { ChannelView, ChatRequest, ChatResponse, FinishReason, Message, UpstreamError, Usage } from "@/lib/relay/types";
import { RelayError } from "@/lib/relay/types";
import { redact, trimSlash, tryJson, typeForStatus, plainUsage } from "./common";
import type { LocalizedText, ProviderAdapter, StreamParser, UpstreamPayload, UpstreamRequest } from "./types";
import { nowSeconds } from "@/lib/time";

type Json = Record<string, unknown>;

export const BAIDU_DEFAULT_BASE = "https://aip.baidubce.com";
const CHAT_PATH = "/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/";

/**
 * Model name → the chat endpoint it is served at (the last segment of the URL). A model not
 * listed is sent to the endpoint of its own name (a custom deployment's endpoint, or a model
 * Baidu added since): name it so in the channel's model mapping. Looked up lower-cased.
 */
export const BAIDU_ENDPOINTS: Readonly<Record<string, string>> = {
  "ernie-4.0-8k": "completions_pro",
  "ernie-bot-4": "completions_pro",
  "ernie-4.0": "completions_pro",
  "ernie-3.5-8k": "completions",
  "ernie-bot": "completions",
  "ernie-bot-turbo": "eb-instant",
  "ernie-lite-8k-0922": "eb-instant",
  "ernie-bot-8k": "ernie_bot_8k",
  "ernie-speed": "ernie_speed",
  "ernie-speed-8k": "ernie_speed",
  "ernie-speed-128k": "ernie-speed-128k",
  "ernie-lite-8k": "ernie-lite-8k",
  "ernie-lite-8k-0308": "ernie-lite-8k",
  "ernie-tiny-8k": "ernie-tiny-8k",
  "ernie-4.0-turbo-8k": "ernie-4.0-turbo-8k",
  "ernie-3.5-128k": "ernie-3.5-128k",
  "ernie-char-8k": "ernie-char-8k",
};

export function baiduEndpoint(model: string): string {
  return BAIDU_ENDPOINTS[model.toLowerCase()] ?? model;
}

// Why a key is not "APIKey|SecretKey", in every language (the console's refusal: docs/i18n.md)
const BAIDU_KEY_SHAPE: LocalizedText = {
  en: "the Qianfan application's API Key and Secret Key, joined by |",
  zh: "千帆应用的 API Key 与 Secret Key，用 | 连接",
  "zh-TW": "千帆應用的 API Key 與 Secret Key，以 | 連接",
  ja: "Qianfan アプリケーションの API Key と Secret Key を | でつないだもの",
  fr: "l'API Key et la Secret Key de l'application Qianfan, séparées par |",
  ru: "API Key и Secret Key приложения Qianfan, соединённые через |",
  vi: "API Key và Secret Key của ứng dụng Qianfan, nối bằng dấu |",
  es: "la API Key y la Secret Key de la aplicación de Qianfan, unidas por |",
};

/** The key's two parts, or why it is not "APIKey|SecretKey". */
export function baiduKey(key: string): { apiKey: string; secretKey: string; error?: LocalizedText } {
  const parts = key.split("|").map((p) => p.trim());
  if (parts.length !== 2 || !parts[0] || !parts[1]) return { apiKey: "", secretKey: "", error: BAIDU_KEY_SHAPE };
  return { apiKey: parts[0], secretKey: parts[1] };
}

// An access token as Baidu writes them (24.<32 hex>.<ttl>.<time>.<n>-<app>): masked in any message.
const TOKENISH = /\b\d+\.[0-9a-f]{32}\.\d+\.\d+\.\d+-\d+\b/g;
const scrub = (m: string, ch?: Pick<ChannelView, "key">) => (ch ? redact(m, ch) : m).replace(TOKENISH, "***");

// ---- the access token ----

interface Cached {
  token: string;
  /** when to mint again (ms): shortly before the token expires */
  renewAt: number;
}
const tokens = new Map<string, Cached>();
const minting = new Map<string, Promise<string>>();
const MAX_CACHED = 1000;
const MINT_TIMEOUT_MS = 15_000;

/** Forgets every cached token (Baidu answered that one is invalid: the next call mints again). */
export function forgetBaiduTokens(): void {
  tokens.clear();
}

const cacheKey = (base: string, key: string) => createHash("sha256").update(base).update("\n").update(key).digest("hex");

async function mint(base: string, apiKey: string, secretKey: string, ch: Pick<ChannelView, "key">): Promise<Cached> {
  const url =
    `${base}/oauth/2.0/token?grant_type=client_credentials` + `&client_id=${encodeURIComponent(apiKey)}&client_secret=${encodeURIComponent(secretKey)}`;
  let text: string;
  let status: number;
  try {
    const res = await outboundFetch(url, {
      method: "POST",
      headers: { accept: "application/json" },
      maxRedirects: 0,
      signal: AbortSignal.timeout(MINT_TIMEOUT_MS),
    });
    status = res.status;
    text = await readCappedText(res, 64 * 1024);
  } catch (e) {
    const err = e as { code?: string; message?: string; name?: string; cause?: { code?: string } };
    if (err.code === "E_OUTBOUND_REFUSED") throw new RelayError(502, err.message ?? "outbound address refused", "upstream_error", "outbound_refused");
    if (e instanceof BodyTooLargeError) throw new RelayError(502, "Baidu's token answer is too large", "upstream_error", "bad_response");
    const cause = err.name === "TimeoutError" ? "timeout" : (err.cause?.code ?? err.code);
    // never err.message: it could carry the URL (and with it the secret key)
    throw new RelayError(502, `Baidu's token endpoint could not be reached${cause ? ` (${cause})` : ""}`, "upstream_error", "network");
  }
  const j = tryJson(text) as Json | undefined;
  if (j && typeof j.access_token === "string" && j.access_token) {
    const ttl = typeof j.expires_in === "number" && j.expires_in > 0 ? j.expires_in : 2_592_000;
    // renewed a tenth of its life early (at most an hour): a call never starts with a dying token
    const margin = Math.min(3600, ttl / 10);
    return { token: j.access_token, renewAt: Date.now() + (ttl - margin) * 1000 };
  }
  const why = j ? String(j.error_description ?? j.error_msg ?? j.error ?? "no access_token in the answer") : `HTTP ${status}`;
  // invalid_client: the key is wrong (401, so the channel's key is seen as failing)
  const refused = j?.error === "invalid_client" || status === 401;
  throw new RelayError(
    refused ? 401 : 502,
    scrub(`Baidu refused to issue an access token: ${why}`, ch),
    refused ? "authentication_error" : "upstream_error",
    "baidu_token",
  );
}

/** The access token of this channel's key: cached, or minted (one mint in flight per key). */
export async function baiduAccessToken(ch: Pick<ChannelView, "base_url" | "key">): Promise<string> {
  const k = baiduKey(ch.key);
  // a RelayError carries English, as the relay's other upstream failures do
  if (k.error) throw new RelayError(401, k.error.en, "authentication_error", "channel_misconfigured");
  const base = trimSlash(ch.base_url || BAIDU_DEFAULT_BASE);
  const id = cacheKey(base, ch.key);
  const hit = tokens.get(id);
  if (hit && hit.renewAt > Date.now()) return hit.token;
  let p = minting.get(id);
  if (!p) {
    p = mint(base, k.apiKey, k.secretKey, ch)
      .then((c) => {
        if (tokens.size >= MAX_CACHED) tokens.clear();
        tokens.set(id, c);
        return c.token;
      })
      .finally(() => minting.delete(id));
    minting.set(id, p);
  }
  return p;
}

// ---- the chat ----

function textOf(m: Message): string {
  const out: string[] = [];
  for (const p of m.content) {
    if (p.type === "image") throw new RelayError(400, "this channel (Baidu's ERNIE API) does not take images", "invalid_request_error", "unsupported");
    out.push(p.text);
  }
  return out.join("");
}

// ERNIE wants user and assistant turns alternating, starting and ending with the user: turns of
// one role in a row are joined (a tool result is the user's turn on this wire, which has no tools).
function messagesJson(req: ChatRequest): Json[] {
  const out: { role: "user" | "assistant"; content: string }[] = [];
  for (const m of req.messages) {
    const role = m.role === "assistant" ? "assistant" : "user";
    const text = textOf(m);
    const last = out[out.length - 1];
    if (last && last.role === role) last.content += "\n" + text;
    else out.push({ role, content: text });
  }
  return out;
}

export function baiduChatBody(req: ChatRequest): Json {
  if (req.tools?.length) throw new RelayError(400, "this channel (Baidu's ERNIE API) does not support tools", "invalid_request_error", "unsupported");
  const body: Json = { messages: messagesJson(req) };
  if (req.system) body.system = req.system;
  if (req.stream) body.stream = true;
  // ERNIE's ranges: temperature (0, 1], top_p [0, 1]
  if (req.temperature !== undefined) body.temperature = Math.min(1, Math.max(0.01, req.temperature));
  if (req.topP !== undefined) body.top_p = Math.min(1, Math.max(0, req.topP));
  if (req.maxTokens !== undefined) body.max_output_tokens = req.maxTokens;
  if (req.stop?.length) body.stop = req.stop.slice(0, 4);
  return body;
}

async function payload(req: ChatRequest, ch: ChannelView): Promise<UpstreamPayload> {
  const body = baiduChatBody(req); // refusals first: no token is minted for a request that cannot be sent
  const token = await baiduAccessToken(ch);
  const base = trimSlash(ch.base_url || BAIDU_DEFAULT_BASE);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (ch.headers) for (const k in ch.headers) headers[k.toLowerCase()] = ch.headers[k];
  return { url: `${base}${CHAT_PATH}${encodeURIComponent(baiduEndpoint(ch.upstreamModel))}?access_token=${encodeURIComponent(token)}`, headers, json: body };
}

function finish(j: Json): FinishReason {
  if (j.need_clear_history === true) return "content_filter";
  switch (j.finish_reason) {
    case "length":
      return "length";
    case "content_filter":
      return "content_filter";
    default:
      return "stop";
  }
}

const usageOf = (u: unknown): Usage | undefined => plainUsage(u, "prompt_tokens", "completion_tokens");

// Baidu's errors: {error_code, error_msg}, with HTTP 200. 110/111: the access token is invalid
// or expired; 13/14/15/17/18/19: auth, quota and rate limits.
function statusOfCode(code: number): number {
  if (code === 110 || code === 111 || code === 13 || code === 14 || code === 15) return 401;
  if (code === 6 || code === 17 || code === 19) return 403;
  if (code === 4 || code === 18 || code === 336501 || code === 336502) return 429;
  if (code === 336003 || code === 336006 || code === 336007 || code === 336100) return 400;
  return 500;
}

function codeError(j: Json, ch?: Pick<ChannelView, "key">): UpstreamError {
  const code = Number(j.error_code);
  if (code === 110 || code === 111) forgetBaiduTokens();
  const status = statusOfCode(code);
  return { status, message: scrub(String(j.error_msg ?? "Baidu error"), ch), type: typeForStatus(status), code: String(j.error_code) };
}

function parseChat(body: unknown): ChatResponse {
  const b = body as Json | undefined;
  if (!b || typeof b !== "object") throw new RelayError(502, "upstream answer is not an object", "upstream_error", "bad_response");
  if (b.error_code !== undefined) {
    const e = codeError(b);
    throw new RelayError(e.status === 500 ? 502 : e.status, `Baidu: ${e.message} (${e.code})`, e.type, e.code);
  }
  if (typeof b.result !== "string") throw new RelayError(502, "upstream answer has no result", "upstream_error", "bad_response");
  const res: ChatResponse = {
    id: String(b.id ?? ""),
    model: "",
    created: typeof b.created === "number" ? b.created : nowSeconds(),
    choices: [{ index: 0, text: b.result, finishReason: finish(b) }],
  };
  const u = usageOf(b.usage);
  if (u) res.usage = u;
  return res;
}

function streamParser(): StreamParser {
  let started = false;
  return {
    parse(data, _event, emit) {
      const c = tryJson(data) as Json | undefined;
      if (!c) return;
      if (c.error_code !== undefined) {
        emit({ type: "error", error: codeError(c) });
        return;
      }
      if (!started) {
        started = true;
        emit({ type: "start", id: String(c.id ?? ""), model: "" });
      }
      if (typeof c.result === "string" && c.result) emit({ type: "text", index: 0, text: c.result });
      const u = usageOf(c.usage);
      if (u) emit({ type: "usage", usage: u });
      if (c.is_end === true) emit({ type: "finish", index: 0, reason: finish(c) });
    },
  };
}

function parseError(status: number, body: string, ch: ChannelView): UpstreamError {
  const j = tryJson(body) as Json | undefined;
  if (j && j.error_code !== undefined) return codeError(j, ch);
  const text = body.length > 300 ? body.slice(0, 300) + "..." : body;
  return { status, message: scrub(text || `upstream answered HTTP ${status}`, ch), type: typeForStatus(status), code: null };
}

export const baidu: ProviderAdapter = {
  name: "baidu",
  profile: {
    defaultBaseUrl: BAIDU_DEFAULT_BASE,
    keyFormat: "APIKey|SecretKey",
    checkKey: (key) => baiduKey(key).error,
    keyHint: {
      en: "The API Key and Secret Key of a Qianfan application (the classic ERNIE API), as APIKey|SecretKey",
      zh: "千帆应用的 API Key 与 Secret Key（经典 ERNIE 接口），写作 APIKey|SecretKey",
      "zh-TW": "千帆應用的 API Key 與 Secret Key（經典 ERNIE 介面），格式為 APIKey|SecretKey",
      ja: "Qianfan アプリケーションの API Key と Secret Key（従来の ERNIE API）。APIKey|SecretKey の形式で入力します",
      fr: "L'API Key et la Secret Key d'une application Qianfan (l'API ERNIE classique), au format APIKey|SecretKey",
      ru: "API Key и Secret Key приложения Qianfan (классический API ERNIE) в формате APIKey|SecretKey",
      vi: "API Key và Secret Key của ứng dụng Qianfan (API ERNIE cổ điển), theo dạng APIKey|SecretKey",
      es: "La API Key y la Secret Key de una aplicación de Qianfan (la API clásica de ERNIE), con el formato APIKey|SecretKey",
    },
    testModel: "ernie-speed-128k",
  },
  supports: { stream: true, tools: false, images: false, n: false, passthrough: [], structuredOutput: false },
  async chatRequest(req, ch): Promise<UpstreamRequest> {
    const p = await payload(req, ch);
    return { url: p.url, headers: p.headers, body: JSON.stringify(p.json) };
  },
  chatPayload: payload,
  parseChat,
  streamParser,
  parseError,
};
