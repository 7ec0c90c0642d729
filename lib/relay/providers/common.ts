// Helpers shared by the adapters.
import "server-only";
import { RelayError, type ChannelView, type FinishReason, type UpstreamError } from "@/lib/relay/types";

export const trimSlash = (s: string) => (s.endsWith("/") ? s.replace(/\/+$/, "") : s);

/** OpenAI-style error type for an HTTP status. */
export function typeForStatus(status: number): string {
  if (status === 400 || status === 413 || status === 422) return "invalid_request_error";
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  return "upstream_error";
}

// Key-like strings that some upstreams echo back in their messages (OpenAI's "Incorrect API
// key provided: sk-...", Google's "API key not valid ... AIza..."): masked whatever the key.
const KEYISH = /\b(sk-[A-Za-z0-9_*-]{6,}|AIza[0-9A-Za-z_-]{10,}|sk-ant-[A-Za-z0-9_-]{6,})/g;

/** Removes the channel's key (and every part of a composite key) and key-like strings. */
export function redact(message: string, ch: Pick<ChannelView, "key">): string {
  let m = message;
  if (ch.key) {
    for (const part of ch.key.split(/[|,\s]+/)) if (part.length >= 4 && m.includes(part)) m = m.split(part).join("***");
  }
  return m.replace(KEYISH, "***");
}

/** An upstream body that is not the provider's error JSON: its status and a short, redacted text. */
export function fallbackError(status: number, body: string, ch: ChannelView): UpstreamError {
  const text = body.length > 300 ? body.slice(0, 300) + "..." : body;
  return { status, message: redact(text || `upstream answered HTTP ${status}`, ch), type: typeForStatus(status), code: null };
}

export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function openaiFinish(r: unknown): FinishReason {
  switch (r) {
    case "length":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "content_filter":
      return "content_filter";
    default:
      return "stop";
  }
}

/** Joins a base URL and a path; a base that already ends in a version (/v1, /api/v3) gets no prefix. */
export function joinVersioned(base: string, prefix: string, path: string): string {
  const b = trimSlash(base);
  return /\/v\d+[a-z0-9]*$/.test(b) ? b + path : b + prefix + path;
}

/** An embedding vector from an upstream answer, refused (502) unless it is all numbers. */
export function numberVector(v: unknown): number[] {
  if (Array.isArray(v) && v.every((x) => typeof x === "number")) return v as number[];
  throw new RelayError(502, "upstream answer has an embedding that is not a list of numbers", "upstream_error", "bad_response");
}
