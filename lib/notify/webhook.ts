// Webhook delivery (docs/notifications.md): a JSON POST to the user's https address, the
// secret as `Authorization: Bearer <secret>`, under the outbound policy (docs/outbound.md:
// through the worker when WorkerUrl is set, the address checked after DNS at connect time).
// No redirect is followed: the request carries the user's secret, and a redirected POST
// would lose its body anyway; a 3xx is a failed delivery. A short timeout per try, and
// bounded retries with backoff on a network failure, a timeout, 429 or 5xx.
import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { outboundRefusal, OutboundRefusedError } from "@/lib/net/outbound";
import { fetchUserUrl } from "@/lib/net/worker";

export type WebhookBody = {
  type: "quota_warning" | "test";
  title: string;
  content: string;
  values: Record<string, string | number>;
  timestamp: number;
};

export const WEBHOOK_TIMEOUT_MS = 5_000;
export const WEBHOOK_TRIES = 3;
// pauses before the second and the third try
export const WEBHOOK_BACKOFF_MS = [500, 1_500];

export type WebhookResult = { ok: true; status: number } | { ok: false; status?: number; refused?: OutboundRefusedError; error?: string };

/** Whether the address may be sent to at all: https, nothing else. */
export function isHttpsUrl(url: string): boolean {
  try {
    return new URL(url).protocol === "https:";
  } catch {
    return false;
  }
}

async function once(url: string, secret: string, body: string): Promise<WebhookResult> {
  if (!isHttpsUrl(url)) return { ok: false, error: "not_https" };
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "ai-gateway-webhook" };
  if (secret) headers.authorization = `Bearer ${secret}`;
  try {
    const res = await fetchUserUrl(url, { method: "POST", headers, body, signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS), maxRedirects: 0 });
    await res.body?.cancel().catch(() => {});
    return res.status >= 200 && res.status < 300 ? { ok: true, status: res.status } : { ok: false, status: res.status };
  } catch (e) {
    const refused = outboundRefusal(e);
    if (refused) return { ok: false, refused };
    const err = e as { name?: string; code?: string; cause?: { code?: string; message?: string }; message?: string };
    const reason =
      err.name === "TimeoutError" || err.name === "AbortError" ? "timeout" : (err.cause?.code ?? err.code ?? err.cause?.message ?? err.message ?? "network");
    return { ok: false, error: String(reason) };
  }
}

const retryable = (r: WebhookResult) => !r.ok && !r.refused && r.error !== "not_https" && (r.status === undefined || r.status === 429 || r.status >= 500);

/** POSTs the body, `tries` times at most. Never throws; the secret is in no result or log line. */
export async function sendWebhook(url: string, secret: string, payload: WebhookBody, tries = WEBHOOK_TRIES): Promise<WebhookResult> {
  const body = JSON.stringify(payload);
  let result: WebhookResult = { ok: false, error: "not_sent" };
  for (let attempt = 1; attempt <= tries; attempt++) {
    result = await once(url, secret, body);
    if (!retryable(result) || attempt === tries) break;
    await sleep(WEBHOOK_BACKOFF_MS[attempt - 1] ?? WEBHOOK_BACKOFF_MS[WEBHOOK_BACKOFF_MS.length - 1]);
  }
  return result;
}
