// Calls to a task upstream (Midjourney-proxy, Suno API, OpenAI videos) under the outbound
// policy (lib/net/outbound.ts), never following a redirect (the call carries the channel's
// key), bounded in time. Error texts are cleaned of the channel's key before anyone sees them.
import "server-only";
import { outboundFetch } from "@/lib/net/outbound";

export const UPSTREAM_TIMEOUT_MS = 60_000;
// A poll is a quick status read: a slow upstream must not hold the poller's round (and lease).
export const POLL_TIMEOUT_MS = 15_000;

export type UpstreamAnswer = { status: number; json: unknown; text: string };

export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, "") + path;
}

// body: a JSON value, or `raw` bytes with their content type (a multipart upload).
export async function callUpstream(
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: unknown; raw?: { bytes: Buffer; contentType: string }; timeoutMs?: number },
): Promise<UpstreamAnswer> {
  const headers: Record<string, string> = Object.assign({ accept: "application/json" }, init.headers);
  if (init.raw) headers["content-type"] = init.raw.contentType;
  else if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await outboundFetch(url, {
    method: init.method,
    headers,
    // outboundFetch hands the body to undici's fetch, which takes bytes as well as text
    body: init.raw ? (init.raw.bytes as unknown as string) : init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(init.timeoutMs ?? UPSTREAM_TIMEOUT_MS),
    maxRedirects: 0,
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, json, text };
}

// The upstream's words with the channel's key (and each part of a composite key) removed.
export function scrub(text: string, key: string): string {
  let out = text;
  for (const part of [key, ...key.split(/[|,\n]/)]) if (part.trim().length >= 4) out = out.split(part.trim()).join("***");
  return out.slice(0, 1000);
}

export const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
export const asString = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
export const asNumber = (v: unknown): number =>
  typeof v === "number" && Number.isFinite(v) ? v : typeof v === "string" && v.trim() && Number.isFinite(Number(v)) ? Number(v) : 0;
