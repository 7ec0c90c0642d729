// The relay's route table: which path speaks which ingress format, and where its key is.
import "server-only";
import type { IngressName } from "@/lib/relay/formats";
import { parseGeminiPath } from "@/lib/relay/formats";
import type { PassthroughEndpoint } from "@/lib/relay/providers/types";

export type RelayRoute =
  | { kind: "chat"; ingress: IngressName; playground?: boolean; gemini?: { model: string; stream: boolean } }
  | { kind: "passthrough"; ingress: "openai-chat"; endpoint: PassthroughEndpoint }
  | { kind: "embeddings"; ingress: "gemini"; gemini: { model: string; single: boolean } }
  | { kind: "models"; ingress: IngressName }
  | { kind: "model"; ingress: IngressName; model: string }
  | { kind: "count_tokens"; ingress: "anthropic-messages" }
  | { kind: "billing"; ingress: "openai-chat"; what: "subscription" | "usage" };

const PASSTHROUGH: Record<string, PassthroughEndpoint> = {
  "/v1/completions": "completions",
  "/v1/embeddings": "embeddings",
  "/v1/images/generations": "images/generations",
  "/v1/audio/speech": "audio/speech",
  "/v1/audio/transcriptions": "audio/transcriptions",
  "/v1/audio/translations": "audio/translations",
  "/v1/moderations": "moderations",
  "/v1/rerank": "rerank",
};

export const isRelayPath = (path: string) => path.startsWith("/v1/") || path.startsWith("/v1beta/") || path.startsWith("/pg/");

// The format a path's errors are written in, even when the route itself is unknown.
export function errorFormatOf(path: string): IngressName {
  if (path.startsWith("/v1beta/")) return "gemini";
  if (path === "/v1/messages" || path.startsWith("/v1/messages/")) return "anthropic-messages";
  return "openai-chat";
}

export function matchRoute(method: string, path: string): RelayRoute | null {
  const p = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  if (method === "GET") {
    if (p === "/v1/models") return { kind: "models", ingress: "openai-chat" };
    if (p === "/v1beta/models") return { kind: "models", ingress: "gemini" };
    // one model: OpenAI's shape, or Anthropic's for a client that says so (see modelsFormat)
    const one = /^\/(v1|v1beta)\/models\/(.+)$/.exec(p);
    if (one && !one[2].includes(":")) {
      let model = one[2];
      try {
        model = decodeURIComponent(model);
      } catch {
        // a malformed escape: looked up as written, and not found
      }
      return { kind: "model", ingress: one[1] === "v1beta" ? "gemini" : "openai-chat", model };
    }
    if (p === "/v1/dashboard/billing/subscription") return { kind: "billing", ingress: "openai-chat", what: "subscription" };
    if (p === "/v1/dashboard/billing/usage") return { kind: "billing", ingress: "openai-chat", what: "usage" };
    return null;
  }
  if (method !== "POST") return null;
  if (p === "/v1/chat/completions") return { kind: "chat", ingress: "openai-chat" };
  if (p === "/pg/chat/completions") return { kind: "chat", ingress: "openai-chat", playground: true };
  if (p === "/v1/messages") return { kind: "chat", ingress: "anthropic-messages" };
  if (p === "/v1/messages/count_tokens") return { kind: "count_tokens", ingress: "anthropic-messages" };
  // any channel: passed through where the upstream has the Responses API, else translated
  if (p === "/v1/responses") return { kind: "chat", ingress: "openai-responses" };
  if (p.startsWith("/v1beta/models/")) {
    const g = parseGeminiPath(p);
    if (g && (g.action === "generateContent" || g.action === "streamGenerateContent")) {
      return { kind: "chat", ingress: "gemini", gemini: { model: g.model, stream: g.stream } };
    }
    if (g && (g.action === "embedContent" || g.action === "batchEmbedContents")) {
      return { kind: "embeddings", ingress: "gemini", gemini: { model: g.model, single: g.action === "embedContent" } };
    }
    return null;
  }
  const endpoint = PASSTHROUGH[p];
  return endpoint ? { kind: "passthrough", ingress: "openai-chat", endpoint } : null;
}

// The API key as each format's clients send it: OpenAI `Authorization: Bearer`; Anthropic
// `x-api-key` (or Bearer); Gemini `x-goog-api-key` or `?key=`.
export function apiKeyOf(headers: Record<string, string | string[] | undefined>, search: URLSearchParams): string | null {
  const h = (name: string) => {
    const v = headers[name];
    return (Array.isArray(v) ? v[0] : v)?.trim() || null;
  };
  const bearer = h("authorization")?.replace(/^Bearer\s+/i, "") || null;
  return h("x-api-key") ?? h("x-goog-api-key") ?? bearer ?? search.get("key");
}

// GET /v1/models and /v1/models/{model} are shared by OpenAI and Anthropic clients: the
// Anthropic SDKs always send `anthropic-version`, OpenAI's never do.
export function modelsFormat(ingress: IngressName, headers: Record<string, string | string[] | undefined>): IngressName {
  return ingress === "openai-chat" && headers["anthropic-version"] !== undefined ? "anthropic-messages" : ingress;
}
