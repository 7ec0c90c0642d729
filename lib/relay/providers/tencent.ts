// Tencent Hunyuan's native API (channel type 23; docs/providers.md, "Tencent Hunyuan"): POST
// {base}/ with the action ChatCompletions, version 2023-09-01, signed with TC3-HMAC-SHA256
// from the key "AppId|SecretId|SecretKey" (the AppId is not sent: Tencent Cloud API 3.0 signs
// with the SecretId and SecretKey alone). Answers and errors come with HTTP 200, in Response.
import "server-only";
import { createHash, createHmac } from "node:crypto";
import type { ChannelView, ChatRequest, ChatResponse, FinishReason, Message, UpstreamError, Usage } from "@/lib/relay/types";
import { RelayError } from "@/lib/relay/types";
import { redact, trimSlash, tryJson, typeForStatus, plainUsage } from "./common";
import type { LocalizedText, ProviderAdapter, StreamParser, UpstreamPayload, UpstreamRequest } from "./types";
import { nowSeconds } from "@/lib/time";
import { dict } from "@/lib/own-keys";

type Json = Record<string, unknown>;

export const HUNYUAN_DEFAULT_BASE = "https://hunyuan.tencentcloudapi.com";
export const HUNYUAN_VERSION = "2023-09-01";
const SERVICE = "hunyuan";
const ACTION = "ChatCompletions";

// Why a key is not "AppId|SecretId|SecretKey", in every language (the console's refusal: docs/i18n.md)
const TENCENT_KEY_SHAPE: LocalizedText = {
  en: "three parts joined by |: the account's AppId, then an API key's SecretId and SecretKey",
  zh: "以 | 连接的三段：账号的 AppId，然后是 API 密钥的 SecretId 与 SecretKey",
  "zh-TW": "以 | 連接的三段：帳號的 AppId，接著是 API 金鑰的 SecretId 與 SecretKey",
  ja: "| でつないだ 3 つの値：アカウントの AppId、続いて API キーの SecretId と SecretKey",
  fr: "trois parties séparées par | : l'AppId du compte, puis le SecretId et la SecretKey d'une clé d'API",
  ru: "три части через |: AppId аккаунта, затем SecretId и SecretKey API-ключа",
  vi: "ba phần nối bằng dấu |: AppId của tài khoản, rồi SecretId và SecretKey của khóa API",
  es: "tres partes unidas por |: el AppId de la cuenta y, después, el SecretId y la SecretKey de una clave de API",
};

/** The key's parts, or why it is not "AppId|SecretId|SecretKey". */
export function tencentKey(key: string): { appId: string; secretId: string; secretKey: string; error?: LocalizedText } {
  const parts = key.split("|").map((p) => p.trim());
  if (parts.length !== 3 || parts.some((p) => !p)) return { appId: "", secretId: "", secretKey: "", error: TENCENT_KEY_SHAPE };
  return { appId: parts[0], secretId: parts[1], secretKey: parts[2] };
}

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
const hmac = (k: Buffer | string, s: string) => createHmac("sha256", k).update(s, "utf8").digest();

/**
 * The Authorization header of a Tencent Cloud API 3.0 call (TC3-HMAC-SHA256): POST to "/" with
 * no query, `signed` the headers signed (as sent: the canonical form lower-cases them), `timestamp` in
 * seconds; the credential's date is the timestamp's UTC day.
 */
export function tc3Authorization(p: {
  secretId: string;
  secretKey: string;
  service: string;
  timestamp: number;
  signed: Record<string, string>;
  payload: string;
}): string {
  const names = Object.keys(p.signed)
    .map((n) => n.toLowerCase())
    .sort();
  const values = dict<string>();
  // names and values lower-cased, as Tencent's canonical request wants them
  for (const [k, v] of Object.entries(p.signed)) values[k.toLowerCase()] = v.trim().toLowerCase();
  const signedHeaders = names.join(";");
  const canonicalHeaders = names.map((n) => `${n}:${values[n]}\n`).join("");
  const canonicalRequest = ["POST", "/", "", canonicalHeaders, signedHeaders, sha256(p.payload)].join("\n");
  const date = new Date(p.timestamp * 1000).toISOString().slice(0, 10);
  const scope = `${date}/${p.service}/tc3_request`;
  const stringToSign = ["TC3-HMAC-SHA256", String(p.timestamp), scope, sha256(canonicalRequest)].join("\n");
  const kDate = hmac("TC3" + p.secretKey, date);
  const kService = hmac(kDate, p.service);
  const kSigning = hmac(kService, "tc3_request");
  const signature = createHmac("sha256", kSigning).update(stringToSign, "utf8").digest("hex");
  return `TC3-HMAC-SHA256 Credential=${p.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

// ---- the request ----

function textOf(m: Message): string {
  const out: string[] = [];
  for (const p of m.content) {
    if (p.type === "image") throw new RelayError(400, "this channel (Tencent Hunyuan) does not take images", "invalid_request_error", "unsupported");
    out.push(p.text);
  }
  return out.join("");
}

// Hunyuan wants user and assistant turns alternating after an optional system message, the last
// one the user's: turns of one role in a row are joined (a tool result is the user's turn here).
export function hunyuanBody(req: ChatRequest, model: string): Json {
  if (req.tools?.length) throw new RelayError(400, "this channel (Tencent Hunyuan) does not support tools", "invalid_request_error", "unsupported");
  const messages: { Role: string; Content: string }[] = [];
  if (req.system) messages.push({ Role: "system", Content: req.system });
  for (const m of req.messages) {
    const role = m.role === "assistant" ? "assistant" : "user";
    const text = textOf(m);
    const last = messages[messages.length - 1];
    if (last && last.Role === role) last.Content += "\n" + text;
    else messages.push({ Role: role, Content: text });
  }
  const body: Json = { Model: model, Messages: messages, Stream: req.stream };
  // Hunyuan's ranges: Temperature [0, 2], TopP [0, 1]
  if (req.temperature !== undefined) body.Temperature = Math.min(2, Math.max(0, req.temperature));
  if (req.topP !== undefined) body.TopP = Math.min(1, Math.max(0, req.topP));
  return body;
}

function payload(req: ChatRequest, ch: ChannelView): UpstreamPayload {
  const body = hunyuanBody(req, ch.upstreamModel);
  const k = tencentKey(ch.key);
  // a RelayError carries English, as the relay's other upstream failures do
  if (k.error) throw new RelayError(401, k.error.en, "authentication_error", "channel_misconfigured");
  const base = trimSlash(ch.base_url || HUNYUAN_DEFAULT_BASE);
  let host: string;
  try {
    host = new URL(base).host;
  } catch {
    throw new RelayError(500, "the channel's base URL is not a URL", "upstream_error", "channel_misconfigured");
  }
  const json = JSON.stringify(body);
  const timestamp = nowSeconds();
  const signed = { "content-type": "application/json", host, "x-tc-action": ACTION };
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-tc-action": ACTION,
    "x-tc-version": HUNYUAN_VERSION,
    "x-tc-timestamp": String(timestamp),
    authorization: tc3Authorization({ secretId: k.secretId, secretKey: k.secretKey, service: SERVICE, timestamp, signed, payload: json }),
  };
  const region = ch.other.trim();
  if (region) headers["x-tc-region"] = region;
  if (ch.headers) for (const h in ch.headers) if (!(h.toLowerCase() in headers)) headers[h.toLowerCase()] = ch.headers[h];
  // the body is signed: it goes as serialised here (a payload whose JSON is re-serialised
  // elsewhere would give the same text: JSON.stringify is deterministic for one object)
  return { url: `${base}/`, headers, json: body };
}

// ---- the answer ----

function finish(r: unknown): FinishReason {
  if (r === "length") return "length";
  if (r === "sensitive") return "content_filter";
  if (r === "tool_calls") return "tool_calls";
  return "stop";
}

const usageOf = (u: unknown): Usage | undefined => plainUsage(u, "PromptTokens", "CompletionTokens");

function statusOfCode(code: string): number {
  if (code.startsWith("AuthFailure")) return 401;
  if (code.startsWith("UnauthorizedOperation")) return 403;
  if (code.startsWith("LimitExceeded") || code.startsWith("RequestLimitExceeded")) return 429;
  if (code.startsWith("InvalidParameter") || code.startsWith("MissingParameter") || code.startsWith("UnknownParameter")) return 400;
  if (code.startsWith("ResourceUnavailable") || code.startsWith("ResourceInsufficient")) return 403;
  return 500;
}

function apiError(e: Json, ch?: Pick<ChannelView, "key">): UpstreamError {
  const code = String(e.Code ?? "InternalError");
  const status = statusOfCode(code);
  const message = String(e.Message ?? "Tencent Cloud error");
  return { status, message: ch ? redact(message, ch) : message, type: typeForStatus(status), code };
}

function parseChat(body: unknown): ChatResponse {
  const r = (body as { Response?: Json } | undefined)?.Response;
  if (!r || typeof r !== "object") throw new RelayError(502, "upstream answer has no Response", "upstream_error", "bad_response");
  if (r.Error && typeof r.Error === "object") {
    const e = apiError(r.Error as Json);
    throw new RelayError(e.status === 500 ? 502 : e.status, `Tencent: ${e.message} (${e.code})`, e.type, e.code);
  }
  if (!Array.isArray(r.Choices)) throw new RelayError(502, "upstream answer has no Choices", "upstream_error", "bad_response");
  const res: ChatResponse = {
    id: String(r.Id ?? r.RequestId ?? ""),
    model: "",
    created: typeof r.Created === "number" ? r.Created : nowSeconds(),
    choices: (r.Choices as Json[]).map((c, i) => {
      const m = (c.Message ?? {}) as Json;
      return { index: i, text: typeof m.Content === "string" ? m.Content : "", finishReason: finish(c.FinishReason) };
    }),
  };
  const u = usageOf(r.Usage);
  if (u) res.usage = u;
  return res;
}

function streamParser(): StreamParser {
  let started = false;
  return {
    parse(data, _event, emit) {
      const c = tryJson(data) as Json | undefined;
      if (!c) return;
      const err = (c.ErrorMsg ?? (c.Response as Json | undefined)?.Error) as Json | undefined;
      if (err && typeof err === "object") {
        emit({ type: "error", error: apiError(err) });
        return;
      }
      if (!started) {
        started = true;
        emit({ type: "start", id: String(c.Id ?? ""), model: "" });
      }
      if (Array.isArray(c.Choices))
        (c.Choices as Json[]).forEach((ch, i) => {
          const d = (ch.Delta ?? {}) as Json;
          if (typeof d.Content === "string" && d.Content) emit({ type: "text", index: i, text: d.Content });
          if (typeof ch.FinishReason === "string" && ch.FinishReason) emit({ type: "finish", index: i, reason: finish(ch.FinishReason) });
        });
      const u = usageOf(c.Usage);
      if (u) emit({ type: "usage", usage: u });
    },
  };
}

function parseError(status: number, body: string, ch: ChannelView): UpstreamError {
  const j = tryJson(body) as { Response?: { Error?: Json } } | undefined;
  const e = j?.Response?.Error;
  if (e && typeof e === "object") return apiError(e, ch);
  const text = body.length > 300 ? body.slice(0, 300) + "..." : body;
  return { status, message: redact(text || `upstream answered HTTP ${status}`, ch), type: typeForStatus(status), code: null };
}

export const tencent: ProviderAdapter = {
  name: "tencent",
  profile: {
    defaultBaseUrl: HUNYUAN_DEFAULT_BASE,
    keyFormat: "AppId|SecretId|SecretKey",
    checkKey: (key) => tencentKey(key).error,
    keyHint: {
      en: "The account's AppId and an API key's SecretId and SecretKey (CAM console, API keys), as AppId|SecretId|SecretKey",
      zh: "账号的 AppId 与 API 密钥的 SecretId、SecretKey（访问管理控制台），写作 AppId|SecretId|SecretKey",
      "zh-TW": "帳號的 AppId 與 API 金鑰的 SecretId、SecretKey（存取管理主控台），格式為 AppId|SecretId|SecretKey",
      ja: "アカウントの AppId と、API キーの SecretId・SecretKey（CAM コンソールの API キー）。AppId|SecretId|SecretKey の形式で入力します",
      fr: "L'AppId du compte, ainsi que le SecretId et la SecretKey d'une clé d'API (console CAM, clés d'API), au format AppId|SecretId|SecretKey",
      ru: "AppId аккаунта, а также SecretId и SecretKey API-ключа (консоль CAM, API-ключи) в формате AppId|SecretId|SecretKey",
      vi: "AppId của tài khoản cùng SecretId và SecretKey của khóa API (bảng điều khiển CAM, mục khóa API), theo dạng AppId|SecretId|SecretKey",
      es: "El AppId de la cuenta y el SecretId y la SecretKey de una clave de API (consola de CAM, claves de API), con el formato AppId|SecretId|SecretKey",
    },
    other: {
      label: {
        en: "Region",
        zh: "地域",
        "zh-TW": "地域",
        ja: "リージョン",
        fr: "Région",
        ru: "Регион",
        vi: "Khu vực",
        es: "Región",
      },
      placeholder: "ap-guangzhou",
      hint: {
        en: "Sent as X-TC-Region; empty: none (ChatCompletions needs none)",
        zh: "作为 X-TC-Region 发送；留空则不发送（ChatCompletions 不需要）",
        "zh-TW": "以 X-TC-Region 傳送；留空則不傳送（ChatCompletions 不需要）",
        ja: "X-TC-Region として送信します。空欄なら送信しません（ChatCompletions では不要）",
        fr: "Envoyée dans X-TC-Region ; vide : non envoyée (inutile pour ChatCompletions)",
        ru: "Передаётся в X-TC-Region; если пусто, не передаётся (для ChatCompletions не нужен)",
        vi: "Gửi qua X-TC-Region; để trống thì không gửi (ChatCompletions không cần)",
        es: "Se envía como X-TC-Region; si está vacío, no se envía (ChatCompletions no lo necesita)",
      },
    },
    testModel: "hunyuan-lite",
  },
  supports: { stream: true, tools: false, images: false, n: false, passthrough: [], structuredOutput: false },
  chatRequest(req, ch): UpstreamRequest {
    const p = payload(req, ch);
    return { url: p.url, headers: p.headers, body: JSON.stringify(p.json) };
  },
  chatPayload: payload,
  parseChat,
  streamParser,
  parseError,
};
