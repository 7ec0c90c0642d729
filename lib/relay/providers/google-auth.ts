// Google service-account keys and their OAuth2 access tokens, for Vertex AI (docs/providers.md,
// "Vertex AI"): a JWT signed with the key's private key (RS256) is exchanged at the key's
// token_uri for an access token (grant urn:ietf:params:oauth:grant-type:jwt-bearer). Tokens are
// cached per key until shortly before they expire, and one mint per key is in flight at a time:
// the calls that arrive meanwhile wait for it rather than each minting its own.
import "server-only";
import { importPKCS8, SignJWT } from "jose";
import { outboundFetch, outboundRefusal } from "@/lib/net/outbound";
import { RelayError } from "@/lib/relay/types";
import type { LocalizedText } from "./types";

export const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";
export const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const MINT_TIMEOUT_MS = 15_000;

export interface ServiceAccount {
  client_email: string;
  private_key: string;
  project_id: string;
  token_uri: string;
  private_key_id?: string;
}

// Why a text is not a usable service-account key, in every language (the console's refusal: docs/i18n.md)
const NOT_JSON: LocalizedText = {
  en: "the key must be a Google service-account key: its JSON text (on one line)",
  zh: "密钥须为 Google 服务账号密钥：其 JSON 文本（写在一行内）",
  "zh-TW": "金鑰須為 Google 服務帳戶金鑰：其 JSON 文字（寫在同一行）",
  ja: "キーには Google のサービスアカウントキーの JSON テキストを（1 行で）入力してください",
  fr: "la clé doit être une clé de compte de service Google : son texte JSON (sur une ligne)",
  ru: "ключ должен быть ключом сервисного аккаунта Google: его текстом JSON (в одну строку)",
  vi: "khóa phải là khóa tài khoản dịch vụ Google: nội dung JSON của khóa (trên một dòng)",
  es: "la clave debe ser una clave de cuenta de servicio de Google: su texto JSON (en una sola línea)",
};
const NOT_OBJECT: LocalizedText = {
  en: "the key must be a Google service-account key: a JSON object",
  zh: "密钥须为 Google 服务账号密钥：一个 JSON 对象",
  "zh-TW": "金鑰須為 Google 服務帳戶金鑰：一個 JSON 物件",
  ja: "キーには Google のサービスアカウントキー（JSON オブジェクト）を入力してください",
  fr: "la clé doit être une clé de compte de service Google : un objet JSON",
  ru: "ключ должен быть ключом сервисного аккаунта Google: объектом JSON",
  vi: "khóa phải là khóa tài khoản dịch vụ Google: một đối tượng JSON",
  es: "la clave debe ser una clave de cuenta de servicio de Google: un objeto JSON",
};
const NOT_PEM: LocalizedText = {
  en: "the service-account key's private_key is not a PEM private key",
  zh: "服务账号密钥的 private_key 不是 PEM 格式的私钥",
  "zh-TW": "服務帳戶金鑰的 private_key 不是 PEM 格式的私密金鑰",
  ja: "サービスアカウントキーの private_key が PEM 形式の秘密鍵ではありません",
  fr: "la private_key de la clé de compte de service n'est pas une clé privée PEM",
  ru: "private_key в ключе сервисного аккаунта не является закрытым ключом PEM",
  vi: "private_key của khóa tài khoản dịch vụ không phải là khóa riêng PEM",
  es: "la private_key de la clave de cuenta de servicio no es una clave privada PEM",
};
const TOKEN_URI_NOT_URL: LocalizedText = {
  en: "the service-account key's token_uri is not a URL",
  zh: "服务账号密钥的 token_uri 不是 URL",
  "zh-TW": "服務帳戶金鑰的 token_uri 不是網址",
  ja: "サービスアカウントキーの token_uri が URL ではありません",
  fr: "le token_uri de la clé de compte de service n'est pas une URL",
  ru: "token_uri в ключе сервисного аккаунта не является URL",
  vi: "token_uri của khóa tài khoản dịch vụ không phải là URL",
  es: "el token_uri de la clave de cuenta de servicio no es una URL",
};
const TOKEN_URI_NOT_HTTP: LocalizedText = {
  en: "the service-account key's token_uri is not an http(s) URL",
  zh: "服务账号密钥的 token_uri 不是 http(s) URL",
  "zh-TW": "服務帳戶金鑰的 token_uri 不是 http(s) 網址",
  ja: "サービスアカウントキーの token_uri が http(s) の URL ではありません",
  fr: "le token_uri de la clé de compte de service n'est pas une URL http(s)",
  ru: "token_uri в ключе сервисного аккаунта не является URL http(s)",
  vi: "token_uri của khóa tài khoản dịch vụ không phải là URL http(s)",
  es: "el token_uri de la clave de cuenta de servicio no es una URL http(s)",
};
const missingField = (f: string): LocalizedText => ({
  en: `the service-account key has no ${f}`,
  zh: `服务账号密钥缺少 ${f}`,
  "zh-TW": `服務帳戶金鑰缺少 ${f}`,
  ja: `サービスアカウントキーに ${f} がありません`,
  fr: `la clé de compte de service n'a pas de ${f}`,
  ru: `в ключе сервисного аккаунта нет ${f}`,
  vi: `khóa tài khoản dịch vụ thiếu ${f}`,
  es: `la clave de cuenta de servicio no tiene ${f}`,
});

/** Why a text is not a usable service-account key (in every language), or undefined when it is one. */
export function serviceAccountRefusal(text: string): LocalizedText | undefined {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
  if (!j || typeof j !== "object" || Array.isArray(j)) return NOT_OBJECT;
  const o = j as Record<string, unknown>;
  for (const f of ["client_email", "private_key", "project_id"]) if (typeof o[f] !== "string" || !(o[f] as string).trim()) return missingField(f);
  if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(o.private_key as string)) return NOT_PEM;
  if (o.token_uri !== undefined) {
    if (typeof o.token_uri !== "string") return TOKEN_URI_NOT_URL;
    try {
      const u = new URL(o.token_uri);
      if (u.protocol !== "https:" && u.protocol !== "http:") return TOKEN_URI_NOT_HTTP;
    } catch {
      return TOKEN_URI_NOT_URL;
    }
  }
  return undefined;
}

// Parsed keys, by key text (a channel's key is the same text on every call).
const accounts = new Map<string, ServiceAccount>();

/** The service account of a key text; a RelayError (401) when the text is not one. */
export function serviceAccount(text: string): ServiceAccount {
  let sa = accounts.get(text);
  if (sa) return sa;
  const refusal = serviceAccountRefusal(text);
  // a RelayError carries English, as the relay's other upstream failures do
  if (refusal) throw new RelayError(401, `Vertex AI: ${refusal.en}`, "authentication_error", "invalid_service_account");
  const o = JSON.parse(text) as Record<string, string>;
  sa = {
    client_email: o.client_email,
    private_key: o.private_key,
    project_id: o.project_id,
    token_uri: o.token_uri || GOOGLE_TOKEN_URI,
    private_key_id: typeof o.private_key_id === "string" ? o.private_key_id : undefined,
  };
  if (accounts.size >= 1000) accounts.clear();
  accounts.set(text, sa);
  return sa;
}

interface Cached<T> {
  value: T;
  /** ms since the epoch after which the value must not be used any more */
  refreshAt: number;
}

/**
 * Values that expire (access tokens), cached per id until their refresh time, with one mint
 * per id in flight: concurrent callers share its promise. A failed mint is not cached (the
 * next call mints again). `now` is the clock (tests move it).
 */
export class ExpiringCache<T> {
  private readonly values = new Map<string, Cached<T>>();
  private readonly inflight = new Map<string, Promise<T>>();
  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 1000,
  ) {}

  /** `mint` returns the value and its lifetime in ms; the value is used until `margin` before its end. */
  get(id: string, mint: () => Promise<{ value: T; lifetimeMs: number }>): Promise<T> {
    const hit = this.values.get(id);
    if (hit && this.now() < hit.refreshAt) return Promise.resolve(hit.value);
    const pending = this.inflight.get(id);
    if (pending) return pending;
    const p = mint().then(
      ({ value, lifetimeMs }) => {
        this.inflight.delete(id);
        // refreshed five minutes before its end, or halfway through a short lifetime
        const margin = Math.min(5 * 60_000, lifetimeMs / 2);
        if (this.values.size >= this.maxEntries) this.values.clear();
        this.values.set(id, { value, refreshAt: this.now() + lifetimeMs - margin });
        return value;
      },
      (e: unknown) => {
        this.inflight.delete(id);
        throw e;
      },
    );
    this.inflight.set(id, p);
    return p;
  }

  /** Forgets an id's value (the upstream refused it). */
  drop(id: string): void {
    this.values.delete(id);
  }
}

const tokens = new ExpiringCache<string>();
// the imported private keys, by key text (importing PEM costs more than signing)
const signingKeys = new Map<string, Promise<CryptoKey>>();

function signingKey(sa: ServiceAccount): Promise<CryptoKey> {
  let k = signingKeys.get(sa.private_key);
  if (!k) {
    k = importPKCS8(sa.private_key, "RS256").catch(() => {
      signingKeys.delete(sa.private_key);
      throw new RelayError(401, "Vertex AI: the service-account key's private_key cannot be read", "authentication_error", "invalid_service_account");
    });
    if (signingKeys.size >= 1000) signingKeys.clear();
    signingKeys.set(sa.private_key, k);
  }
  return k;
}

/** The JWT assertion of a token request: iss the account, aud the token URI, one hour. */
export async function signAssertion(sa: ServiceAccount, nowMs = Date.now()): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const header: { alg: string; typ: string; kid?: string } = { alg: "RS256", typ: "JWT" };
  if (sa.private_key_id) header.kid = sa.private_key_id;
  return new SignJWT({ scope: CLOUD_PLATFORM_SCOPE })
    .setProtectedHeader(header)
    .setIssuer(sa.client_email)
    .setAudience(sa.token_uri)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(await signingKey(sa));
}

// The token endpoint's answer as a RelayError: its status (a refused key is the channel's
// authentication failure) and its OAuth error words, never the assertion.
async function mint(sa: ServiceAccount): Promise<{ value: string; lifetimeMs: number }> {
  const assertion = await signAssertion(sa);
  let res: Response;
  try {
    res = await outboundFetch(sa.token_uri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(),
      signal: AbortSignal.timeout(MINT_TIMEOUT_MS),
      maxRedirects: 0,
    });
  } catch (e) {
    const refusal = outboundRefusal(e);
    if (refusal) throw new RelayError(502, `Vertex AI: the token endpoint was refused: ${refusal.message}`, "upstream_error", "outbound_refused");
    const timeout = (e as Error)?.name === "TimeoutError";
    throw new RelayError(502, `Vertex AI: the token endpoint could not be reached${timeout ? " (timeout)" : ""}`, "upstream_error", "token_unreachable");
  }
  const text = await res.text().catch(() => "");
  let j: Record<string, unknown> = {};
  try {
    j = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: the status says enough
  }
  if (!res.ok || typeof j.access_token !== "string" || !j.access_token) {
    const words = [j.error, j.error_description]
      .filter((w) => typeof w === "string" && w)
      .join(": ")
      .slice(0, 200);
    // 400 invalid_grant (a revoked or wrong key, a clock far off) and 401 are the key's fault
    const status = res.status === 400 || res.status === 401 || res.status === 403 ? 401 : 502;
    throw new RelayError(
      status,
      `Vertex AI: the service account's access token was refused (HTTP ${res.status}${words ? `, ${words}` : ""})`,
      status === 401 ? "authentication_error" : "upstream_error",
      "token_refused",
    );
  }
  const expiresIn = typeof j.expires_in === "number" && j.expires_in > 0 ? j.expires_in : 3600;
  return { value: j.access_token, lifetimeMs: expiresIn * 1000 };
}

/** An access token for the key text's service account (cached; minted when missing or about to expire). */
export function accessToken(keyText: string): Promise<string> {
  const sa = serviceAccount(keyText);
  return tokens.get(keyText, () => mint(sa));
}

/** Forgets the key's token (the upstream answered 401 to it). */
export function dropAccessToken(keyText: string): void {
  tokens.drop(keyText);
}
