// Fetching a URL that a person typed: a user's (a webhook address) or the console's (the
// update check, OIDC discovery, preset sources). When the root set WorkerUrl, the request goes
// through that worker (a Cloudflare Worker or the like, docs/outbound.md "Worker"), so the
// gateway's own address is never exposed to an address someone chose and the gateway never
// connects to it; otherwise it is fetched directly under the outbound policy, in the user
// scope for a user's URL (never loopback or private, whatever fetch_setting.allow_private_ip
// says) and the admin scope for the console's. The worker protocol is new-api's: a POST to the
// worker of {url, key, method, headers, body}, answered with the fetched response as it came.
// follow_redirects is false: the worker hands back a redirect, and it is followed here, each
// hop through the worker again under the same URL check.
import "server-only";
import { MAX_REDIRECTS, OutboundRefusedError, outboundFetch, scopedFetch, urlRefusal, type OutboundInit, type OutboundScope } from "@/lib/net/outbound";
import { getOption } from "@/lib/options/store";

export const WORKER_URL_OPTION = "WorkerUrl";
export const WORKER_KEY_OPTION = "WorkerValidKey";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// maxRedirects 0: a redirect is answered as it came, never followed (a webhook, which carries
// the user's secret); otherwise MAX_REDIRECTS hops at most.
export type UserUrlInit = OutboundInit;

/** Whether typed URLs go through the worker now. */
export function workerEnabled(): boolean {
  return getOption(WORKER_URL_OPTION).trim() !== "";
}

/** A URL a user gave (a webhook address), fetched: through the worker when WorkerUrl is set, else never to a loopback or private address. */
export function fetchUserUrl(url: string, init: UserUrlInit = {}): Promise<Response> {
  return fetchTyped("user", url, init);
}

/** A URL typed into the console by the root or an admin (update check, OIDC discovery, preset source): as fetchUserUrl, but the admin scope. */
export function fetchConsoleUrl(url: string, init: UserUrlInit = {}): Promise<Response> {
  return fetchTyped("admin", url, init);
}

async function fetchTyped(scope: OutboundScope, url: string, init: UserUrlInit): Promise<Response> {
  const worker = getOption(WORKER_URL_OPTION).trim();
  if (!worker) return scopedFetch(scope, url, init);
  let target = url;
  let method = init.method ?? "GET";
  let body = init.body;
  for (let hop = 0; ; hop++) {
    // What the worker will fetch is judged by the same rule as a direct fetch could be from
    // the URL alone: http(s) only, no refused IP literal.
    const refusal = urlRefusal(target, scope);
    if (refusal) throw refusal;
    // the worker's own address was set by the root: the admin scope
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
    if (hop >= MAX_REDIRECTS) throw new OutboundRefusedError("too_many_redirects", scope);
    try {
      target = new URL(location, target).href;
    } catch {
      throw new OutboundRefusedError("bad_url", scope);
    }
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
    }
  }
}
