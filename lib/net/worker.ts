// Fetching a URL that a user typed (an image URL in a request, a webhook address, ...): when
// the root set WorkerUrl, the request goes through that worker (a Cloudflare Worker or the
// like, docs/outbound.md "Worker"), so the gateway's own address is never exposed to an
// address a user chose and the gateway never connects to it; otherwise it is fetched
// directly under the outbound policy. The worker protocol is new-api's: a POST to the worker
// of {url, key, method, headers, body}, answered with the fetched response as it came.
// follow_redirects is false: the worker hands back a redirect, and it is followed here, each
// hop through the worker again under the same URL check.
import "server-only";
import { MAX_REDIRECTS, OutboundRefusedError, outboundFetch, urlRefusal, type OutboundInit } from "@/lib/net/outbound";
import { getOption } from "@/lib/options/store";

export const WORKER_URL_OPTION = "WorkerUrl";
export const WORKER_KEY_OPTION = "WorkerValidKey";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// maxRedirects 0: a redirect is answered as it came, never followed (a webhook, which carries
// the user's secret); otherwise MAX_REDIRECTS hops at most.
export type UserUrlInit = OutboundInit;

/** Whether user-typed URLs go through the worker now. */
export function workerEnabled(): boolean {
  return getOption(WORKER_URL_OPTION).trim() !== "";
}

// A user-typed URL fetched: through the worker when WorkerUrl is set, else by outboundFetch.
export async function fetchUserUrl(url: string, init: UserUrlInit = {}): Promise<Response> {
  const worker = getOption(WORKER_URL_OPTION).trim();
  if (!worker) return outboundFetch(url, init);
  let target = url;
  let method = init.method ?? "GET";
  let body = init.body;
  for (let hop = 0; ; hop++) {
    // What the worker will fetch is judged by the same rule as a direct fetch could be from
    // the URL alone: http(s) only, no refused IP literal.
    const refusal = urlRefusal(target);
    if (refusal) throw refusal;
    const res = await outboundFetch(worker.endsWith("/") ? worker : worker + "/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: target, key: getOption(WORKER_KEY_OPTION), method, headers: init.headers ?? {}, body, follow_redirects: false }),
      signal: init.signal,
      maxRedirects: 0,
    });
    const location = res.headers.get("location");
    if (!REDIRECTS.has(res.status) || location === null || init.maxRedirects === 0) return res;
    await res.body?.cancel().catch(() => {});
    if (hop >= MAX_REDIRECTS) throw new OutboundRefusedError("too_many_redirects");
    try {
      target = new URL(location, target).href;
    } catch {
      throw new OutboundRefusedError("bad_url");
    }
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
    }
  }
}
