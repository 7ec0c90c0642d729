// Google Vertex AI (channel type 41): a service-account key, an OAuth2 access token minted from
// it (lib/relay/providers/google-auth.ts), and two publishers' wires on one endpoint
// (docs/providers.md, "Vertex AI"):
// - Gemini models: POST {host}/v1/projects/{p}/locations/{r}/publishers/google/models/{m}:generateContent
//   or :streamGenerateContent?alt=sse, Gemini's body and answers (lib/relay/providers/gemini.ts);
// - Claude models (claude-*): .../publishers/anthropic/models/{m}:rawPredict or :streamRawPredict,
//   Anthropic's Messages body without `model` and with anthropic_version "vertex-2023-10-16",
//   Anthropic's answers and SSE events (lib/relay/providers/anthropic.ts).
// The host is {region}-aiplatform.googleapis.com (aiplatform.googleapis.com for "global"), or
// the channel's base URL when it has one.
import "server-only";
import { RelayError, type ChannelView, type ChatRequest, type UpstreamError } from "@/lib/relay/types";
import { anthropicBody, anthropicOutputBudget, anthropicStreamParser, claudeUpstreamModel, parseAnthropicChat, parseAnthropicError } from "./anthropic";
import { joinVersioned, tryJson, trimSlash } from "./common";
import { geminiBody, geminiStreamParser, geminiUpstreamModel, parseGeminiChat, parseGoogleError } from "./gemini";
import { accessToken, dropAccessToken, serviceAccount, serviceAccountRefusal } from "./google-auth";
import type { ChannelAccess, ConsoleHttp, ProviderAdapter, StreamParser, UpstreamPayload } from "./types";

type Json = Record<string, unknown>;
export const VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16";
export const DEFAULT_REGION = "us-central1";

export interface VertexPlace {
  project: string;
  region: string;
}

// `other`: a region ("us-east5"), or a JSON object {"region": ..., "project": ..., "<model>": "<region>"}
// ("default" is accepted for "region", as new-api writes it). Parsed once per text.
const placeCache = new Map<string, { region?: string; project?: string; models: Map<string, string> }>();
function parseOther(other: string): { region?: string; project?: string; models: Map<string, string> } {
  let p = placeCache.get(other);
  if (p) return p;
  p = { models: new Map() };
  const t = other.trim();
  if (t.startsWith("{")) {
    const j = tryJson(t);
    if (j && typeof j === "object" && !Array.isArray(j))
      for (const [k, v] of Object.entries(j as Json)) {
        if (typeof v !== "string" || !v.trim()) continue;
        if (k === "region" || k === "default") p.region = v.trim();
        else if (k === "project") p.project = v.trim();
        else p.models.set(k, v.trim());
      }
  } else if (t) p.region = t;
  if (placeCache.size >= 1000) placeCache.clear();
  placeCache.set(other, p);
  return p;
}

/** The project (the key's unless `other` names one) and the region (per model, else `other`'s, else us-central1). */
export function vertexPlace(ch: Pick<ChannelView, "key" | "other">, model: string): VertexPlace {
  const o = parseOther(ch.other ?? "");
  return { project: o.project ?? serviceAccount(ch.key).project_id, region: o.models.get(model) ?? o.region ?? DEFAULT_REGION };
}

/** The API host of a region: the regional endpoint, or the global one. */
export function vertexHost(region: string): string {
  return region === "global" ? "https://aiplatform.googleapis.com" : `https://${region}-aiplatform.googleapis.com`;
}

const isClaude = (model: string) => model.startsWith("claude");
// a model id in a path: encoded, but for the "@" of Claude's versions (claude-sonnet-4@20250514)
const pathModel = (model: string) => encodeURIComponent(model).replace(/%40/g, "@");

function modelUrl(ch: ChannelView, publisher: string, model: string, action: string): string {
  const place = vertexPlace(ch, model);
  const base = ch.base_url ? trimSlash(ch.base_url) : vertexHost(place.region);
  return joinVersioned(
    base,
    "/v1",
    `/projects/${encodeURIComponent(place.project)}/locations/${encodeURIComponent(place.region)}/publishers/${publisher}/models/${pathModel(model)}:${action}`,
  );
}

async function headersFor(ch: ChannelView): Promise<Record<string, string>> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (ch.headers) for (const k in ch.headers) headers[k.toLowerCase()] = ch.headers[k];
  headers.authorization = `Bearer ${await accessToken(ch.key)}`;
  return headers;
}

async function payload(req: ChatRequest, ch: ChannelView): Promise<UpstreamPayload> {
  const headers = await headersFor(ch);
  if (isClaude(ch.upstreamModel)) {
    // Anthropic's Messages API has neither several choices nor a response schema
    if (req.n !== undefined && req.n > 1)
      throw new RelayError(400, "this channel does not support n > 1 for Claude models", "invalid_request_error", "unsupported");
    if (req.responseFormat)
      throw new RelayError(
        400,
        `This request cannot be served by this channel: text.format: ${req.responseFormat.type} output has no equivalent on Claude's API`,
        "invalid_request_error",
        "unsupported_parameter",
      );
    const body = anthropicBody(req, ch.upstreamModel);
    delete body.model;
    body.anthropic_version = VERTEX_ANTHROPIC_VERSION;
    return { url: modelUrl(ch, "anthropic", claudeUpstreamModel(ch.upstreamModel), req.stream ? "streamRawPredict" : "rawPredict"), headers, json: body };
  }
  const model = geminiUpstreamModel(ch.upstreamModel);
  return {
    url: modelUrl(ch, "google", model, req.stream ? "streamGenerateContent?alt=sse" : "generateContent"),
    headers,
    json: geminiBody(req, ch.upstreamModel),
  };
}

// The parsers cannot know the model: an answer says which publisher wrote it (Gemini's has
// candidates or usageMetadata, Anthropic's a `type`), and a stream's first event decides.
function streamParser(): StreamParser {
  let inner: StreamParser | undefined;
  return {
    parse(data, event, emit) {
      if (!inner) {
        const j = tryJson(data) as Json | undefined;
        if (!j && !event) return;
        inner = (j && typeof j.type === "string") || (event && event !== "message") ? anthropicStreamParser() : geminiStreamParser();
      }
      inner.parse(data, event, emit);
    },
  };
}

function parseError(status: number, body: string, ch: ChannelView): UpstreamError {
  // a token Google no longer takes is minted again on the next call
  if (status === 401) dropAccessToken(ch.key);
  const j = tryJson(body) as Json | undefined;
  if (j && j.type === "error") return parseAnthropicError(status, body, ch);
  return parseGoogleError(status, body, ch);
}

// Publisher models of the Model Garden (v1beta1 publishers.models.list), Google's and
// Anthropic's, as the ids the generate endpoints take.
async function listModels(ch: ChannelAccess, http: ConsoleHttp): Promise<string[]> {
  const place = vertexPlace(ch, "");
  const base = ch.base_url ? trimSlash(ch.base_url) : vertexHost(place.region);
  const headers = { authorization: `Bearer ${await accessToken(ch.key)}` };
  const ids: string[] = [];
  for (const publisher of ["google", "anthropic"]) {
    let pageToken = "";
    for (let page = 0; page < 20; page++) {
      const q = new URLSearchParams({ pageSize: "1000", listAllVersions: "true" });
      if (pageToken) q.set("pageToken", pageToken);
      const r = await http.getJson(`${base}/v1beta1/publishers/${publisher}/models?${q}`, headers);
      for (const m of (r.publisherModels ?? []) as Array<{ name?: unknown; versionId?: unknown }>) {
        const id = String(m.name ?? "").replace(/^publishers\/[^/]+\/models\//, "");
        if (!id) continue;
        // Claude's versions are called as model@version
        ids.push(publisher === "anthropic" && typeof m.versionId === "string" && m.versionId && !id.includes("@") ? `${id}@${m.versionId}` : id);
      }
      pageToken = typeof r.nextPageToken === "string" ? r.nextPageToken : "";
      if (!pageToken) break;
    }
  }
  return ids;
}

export const vertex: ProviderAdapter = {
  name: "vertex",
  profile: {
    // the address depends on the region (`other`): {region}-aiplatform.googleapis.com
    defaultBaseUrl: "",
    keyFormat: "Google service-account key (JSON)",
    checkKey: serviceAccountRefusal,
    keyHint: {
      en: "The JSON key of a service account with the Vertex AI User role (IAM > Service accounts > Keys), pasted on one line.",
      zh: "服务账号（需 Vertex AI User 角色）的 JSON 密钥（IAM > 服务账号 > 密钥），粘贴为一行。",
      "zh-TW": "服務帳戶（需具備 Vertex AI User 角色）的 JSON 金鑰（IAM > 服務帳戶 > 金鑰），請貼成一行。",
      ja: "Vertex AI User ロールを持つサービス アカウントの JSON キー（IAM > サービス アカウント > キー）。1 行にして貼り付けます。",
      fr: "La clé JSON d'un compte de service doté du rôle Vertex AI User (IAM > Comptes de service > Clés), collée sur une seule ligne.",
      ru: "JSON-ключ сервисного аккаунта с ролью Vertex AI User (IAM > Сервисные аккаунты > Ключи), вставленный одной строкой.",
      vi: "Khóa JSON của tài khoản dịch vụ có vai trò Vertex AI User (IAM > Tài khoản dịch vụ > Khóa), dán trên một dòng.",
      es: "La clave JSON de una cuenta de servicio con el rol Vertex AI User (IAM > Cuentas de servicio > Claves), pegada en una sola línea.",
    },
    other: {
      label: {
        en: "Region",
        zh: "区域",
        "zh-TW": "區域",
        ja: "リージョン",
        fr: "Région",
        ru: "Регион",
        vi: "Khu vực",
        es: "Región",
      },
      placeholder: 'us-central1  or  {"region":"us-east5","project":"my-project","gemini-2.5-pro":"global"}',
      hint: {
        en: 'The Vertex AI region (default us-central1; "global" uses aiplatform.googleapis.com). As JSON: "region", "project" (default: the key\'s project_id), and a region per model.',
        zh: "Vertex AI 区域（默认 us-central1；global 使用 aiplatform.googleapis.com）。也可写 JSON：region、project（默认取密钥中的 project_id），以及按模型指定的区域。",
        "zh-TW":
          "Vertex AI 區域（預設 us-central1；global 使用 aiplatform.googleapis.com）。也可填寫 JSON：region、project（預設取金鑰中的 project_id），以及依模型指定的區域。",
        ja: "Vertex AI のリージョン（既定は us-central1。global は aiplatform.googleapis.com を使用）。JSON でも指定できます：region、project（既定はキーの project_id）、モデルごとのリージョン。",
        fr: 'La région Vertex AI (par défaut us-central1 ; "global" utilise aiplatform.googleapis.com). En JSON : "region", "project" (par défaut, le project_id de la clé) et une région par modèle.',
        ru: 'Регион Vertex AI (по умолчанию us-central1; "global" использует aiplatform.googleapis.com). В виде JSON: "region", "project" (по умолчанию project_id из ключа) и регион для каждой модели.',
        vi: 'Khu vực Vertex AI (mặc định us-central1; "global" dùng aiplatform.googleapis.com). Dạng JSON: "region", "project" (mặc định là project_id trong khóa) và khu vực cho từng mô hình.',
        es: 'La región de Vertex AI (por defecto us-central1; "global" usa aiplatform.googleapis.com). En JSON: "region", "project" (por defecto, el project_id de la clave) y una región por modelo.',
      },
    },
    testModel: "gemini-2.5-flash",
    listModels,
  },
  // n > 1 and structured output: Gemini models only (a Claude model refuses them in payload())
  supports: { stream: true, tools: true, images: true, n: true, passthrough: [], structuredOutput: true },
  async chatRequest(req, ch) {
    const p = await payload(req, ch);
    return { url: p.url, headers: p.headers, body: JSON.stringify(p.json) };
  },
  chatPayload: payload,
  // Claude models take Anthropic's body, thinking adapter included
  outputBudget: (req, ch) => (isClaude(ch.upstreamModel) ? anthropicOutputBudget(req, ch.upstreamModel) : (req.maxTokens ?? 0)),
  parseChat(body) {
    const b = body as Json | null;
    if (b && typeof b === "object" && (Array.isArray(b.content) || b.type === "message")) return parseAnthropicChat(b);
    return parseGeminiChat(b);
  },
  streamParser,
  parseError,
};
