// The outbound policy: every request the server makes to another party (relay calls, channel
// tests, model lists, balances, webhooks, OIDC discovery, preset sources) goes through the
// agents and the fetches of this file. docs/outbound.md has the rules; in short:
// - the address is checked when the connection is made, after DNS resolution, every address
//   of the answer (a name that resolves to 127.0.0.1, or rebinds between two lookups, cannot
//   pass), and IP-literal hosts too (Node skips the lookup for them);
// - two scopes: "admin" (addresses the root or an admin set: channel base URLs, the console's
//   typed sources) may reach loopback and private addresses when the root turns on
//   fetch_setting.allow_private_ip; "user" (addresses a user gave: webhooks) never may,
//   whatever the option; link-local, metadata, unspecified, multicast, broadcast and
//   reserved addresses are refused in both;
// - relay calls follow no redirects; outboundFetch follows a few, each hop connecting
//   through the same check.
// The check costs nothing per call: kept-alive connections are reused without a new check,
// and a change of the option replaces the pools (lib/options/store.ts onOptionsApplied).
import "server-only";
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupAddress, LookupAllOptions, LookupOptions } from "node:dns";
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher } from "undici";
import { ALLOWABLE_CLASSES, classifyAddress, type AddressClass } from "@/lib/net/address";
import { renderMessage, type MessageKey } from "@/lib/i18n/server-messages";
import { getBool, onOptionsApplied } from "@/lib/options/store";
import { dict } from "@/lib/own-keys";

export const ALLOW_PRIVATE_IP_OPTION = "fetch_setting.allow_private_ip";

export type OutboundRefusalReason = Exclude<AddressClass, "public"> | "bad_url" | "too_many_redirects";

/** Who gave the address: "admin" follows fetch_setting.allow_private_ip, "user" never reaches loopback or private addresses. */
export type OutboundScope = "admin" | "user";

// A user-given address refused as loopback or private has its own text: the option would not allow it.
export const refusalMessageKey = (reason: OutboundRefusalReason, scope: OutboundScope = "admin"): MessageKey =>
  scope === "user" && (reason === "loopback" || reason === "private") ? `outbound_user_${reason}` : `outbound_${reason}`;

export class OutboundRefusedError extends Error {
  readonly code = "E_OUTBOUND_REFUSED";
  constructor(
    readonly reason: OutboundRefusalReason,
    readonly scope: OutboundScope = "admin",
  ) {
    // English for logs and the relay's error bodies; the console renders the message key
    // in the caller's language
    super(renderMessage("en", refusalMessageKey(reason, scope)));
    this.name = "OutboundRefusedError";
  }
}

/** The refusal carried by an error (itself, or the cause undici's fetch wraps it in), if any. */
export function outboundRefusal(e: unknown): OutboundRefusedError | null {
  for (let x = e as { code?: unknown; cause?: unknown } | null | undefined, i = 0; x && i < 3; x = x.cause as typeof x, i++) {
    if (x.code === "E_OUTBOUND_REFUSED") return x as unknown as OutboundRefusedError;
  }
  return null;
}

/** Why this address may not be connected to now, or null when it may. */
export function refusalFor(ip: string, scope: OutboundScope = "admin"): OutboundRefusedError | null {
  const cls = classifyAddress(ip);
  if (cls === null || cls === "public") return null;
  if (scope === "admin" && ALLOWABLE_CLASSES.has(cls) && getBool(ALLOW_PRIVATE_IP_OPTION)) return null;
  return new OutboundRefusedError(cls, scope);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * dns.lookup with every address of the answer checked: the `lookup` of each socket the
 * agents open. A name with one forbidden address among good ones is refused as a whole.
 */
const lookupFor =
  (scope: OutboundScope): Lookup =>
  (hostname, options, callback) => {
    const all: LookupAllOptions = Object.assign({}, options, { all: true as const });
    dns.lookup(hostname, all, (err, addresses) => {
      if (err) return callback(err, []);
      for (const a of addresses) {
        const refusal = refusalFor(a.address, scope);
        if (refusal) return callback(refusal as unknown as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };

/** The checked lookup of addresses an admin set (the SMTP server, the agents of the admin scope). */
export const guardedLookup: Lookup = lookupFor("admin");
const lookups: Record<OutboundScope, Lookup> = { admin: guardedLookup, user: lookupFor("user") };

// undici's connector with the lookup above; IP-literal hosts (never looked up) are checked
// before the socket is made.
function guardedConnector(scope: OutboundScope): buildConnector.connector {
  const connect = buildConnector({ lookup: lookups[scope] } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const refusal = refusalFor(opts.hostname, scope);
    if (refusal) {
      queueMicrotask(() => callback(refusal, null));
      return;
    }
    return connect(opts, callback);
  };
}

type Holder<T> = { current: T; make: () => T; retire: (old: T) => void };
const holders: Array<Holder<unknown>> = [];

function hold<T>(make: () => T, retire: (old: T) => void): { readonly current: T } {
  const h: Holder<T> = { current: make(), make, retire };
  holders.push(h as Holder<unknown>);
  return h;
}

/**
 * An undici Agent under the policy, replaced (the old one closed once its calls are done)
 * when the option changes, so that no kept-alive connection outlives the rule it was opened
 * under. Read `.current` at each call.
 */
export function guardedAgent(options: Omit<Agent.Options, "connect">, scope: OutboundScope = "admin"): { readonly current: Agent } {
  return hold(
    () => new Agent(Object.assign({}, options, { connect: guardedConnector(scope) })),
    (old) => void old.close().catch(() => {}),
  );
}

// node:http agents (the relay's alternative transport) with the same lookup; literal hosts
// are checked when the socket is created.
type ConnectArgs = Parameters<http.Agent["createConnection"]>;
type Connected = ReturnType<http.Agent["createConnection"]>;
function literalRefused(options: ConnectArgs[0], callback: ConnectArgs[1]): boolean {
  const refusal = refusalFor(String(options.host ?? ""));
  if (!refusal) return false;
  // http's Agent.createSocket takes an error through the callback (the request fails with it)
  (callback as unknown as (err: Error) => void)?.(refusal);
  return true;
}
class GuardedHttpAgent extends http.Agent {
  createConnection(options: ConnectArgs[0], callback?: ConnectArgs[1]): Connected {
    return literalRefused(options, callback) ? undefined : super.createConnection(options, callback);
  }
}
class GuardedHttpsAgent extends https.Agent {
  createConnection(options: ConnectArgs[0], callback?: ConnectArgs[1]): Connected {
    return literalRefused(options, callback) ? undefined : super.createConnection(options, callback);
  }
}

export function guardedHttpAgents(options: http.AgentOptions): { readonly current: { http: http.Agent; https: https.Agent } } {
  const opts = Object.assign({}, options, { lookup: guardedLookup as unknown as http.AgentOptions["lookup"] });
  return hold(
    () => ({ http: new GuardedHttpAgent(opts), https: new GuardedHttpsAgent(opts) }),
    (old) => {
      old.http.destroy();
      old.https.destroy();
    },
  );
}

let lastAllow = getBool(ALLOW_PRIVATE_IP_OPTION);
onOptionsApplied(() => {
  const allow = getBool(ALLOW_PRIVATE_IP_OPTION);
  if (allow === lastAllow) return;
  lastAllow = allow;
  for (const h of holders) {
    const old = h.current;
    h.current = h.make();
    h.retire(old);
  }
});

// --- fetch for the console's calls (model lists, balances), webhooks and typed sources ------

const fetchAgents: Record<OutboundScope, { readonly current: Agent }> = {
  admin: guardedAgent({ keepAliveTimeout: 10_000 }),
  user: guardedAgent({ keepAliveTimeout: 10_000 }, "user"),
};

export const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Credentials are not carried to another origin by a redirect.
const CREDENTIAL_HEADERS = ["authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie", "proxy-authorization"];

export type OutboundInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** redirects followed, each hop under the same check (default MAX_REDIRECTS); 0: a redirect is
   * answered as it came, never followed (calls that carry a channel key) */
  maxRedirects?: number;
};

/**
 * What can be refused from the URL alone: a scheme other than http and https, or an
 * IP-literal host (in any form the URL parser normalises) the policy refuses now. Names are
 * judged when connecting. Used to refuse a channel's base URL when it is saved.
 */
export function urlRefusal(text: string, scope: OutboundScope = "admin"): OutboundRefusedError | null {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return new OutboundRefusedError("bad_url", scope);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return new OutboundRefusedError("bad_url", scope);
  return refusalFor(u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname, scope);
}

function httpUrl(text: string, scope: OutboundScope): URL {
  const refusal = urlRefusal(text, scope);
  if (refusal) throw refusal;
  return new URL(text);
}

/**
 * fetch() under the outbound policy, of an address an admin set (the admin scope; a user's
 * address goes through fetchUserUrl, lib/net/worker.ts). Throws OutboundRefusedError when an
 * address (of the URL or of a redirect's target) is refused or the redirects run out; other
 * failures are undici's fetch errors.
 */
export function outboundFetch(url: string, init: OutboundInit = {}): Promise<Response> {
  return scopedFetch("admin", url, init);
}

/** outboundFetch in the given scope: "user" never connects to a loopback or private address. */
export async function scopedFetch(scope: OutboundScope, url: string, init: OutboundInit = {}): Promise<Response> {
  let target = httpUrl(url, scope);
  let method = init.method ?? "GET";
  let body = init.body;
  const headers = dict<string>();
  for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
  const max = init.maxRedirects ?? MAX_REDIRECTS;
  for (let hop = 0; ; hop++) {
    let res: Response;
    try {
      res = (await undiciFetch(target, {
        method,
        headers,
        body,
        signal: init.signal,
        redirect: "manual",
        dispatcher: fetchAgents[scope].current as Dispatcher,
      })) as unknown as Response;
    } catch (e) {
      throw outboundRefusal(e) ?? e;
    }
    const location = res.headers.get("location");
    if (!REDIRECTS.has(res.status) || location === null || max === 0) return res;
    await res.body?.cancel().catch(() => {});
    if (hop >= max) throw new OutboundRefusedError("too_many_redirects", scope);
    let nextText: string;
    try {
      nextText = new URL(location, target).href;
    } catch {
      throw new OutboundRefusedError("bad_url", scope);
    }
    const next = httpUrl(nextText, scope);
    if (next.origin !== target.origin) for (const h of CREDENTIAL_HEADERS) delete headers[h];
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
    }
    target = next;
  }
}
