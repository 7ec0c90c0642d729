// Calls from the console to a channel's upstream: the balance (for providers that publish
// a billing endpoint) and the model list, each as the channel type's adapter says
// (its profile: lib/relay/providers/types.ts). The key is sent to
// the upstream only; error messages carry the HTTP status, never the key or the body, and are
// catalogue messages the route renders in the caller's language (docs/i18n.md). The
// calls go out under the outbound policy (lib/net/outbound.ts, docs/outbound.md).
import "server-only";
import { db } from "@/lib/db/client";
import { open } from "@/lib/auth/secret-box";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { outboundFetch, outboundRefusal, refusalMessageKey } from "@/lib/net/outbound";
import { adapterFor } from "@/lib/relay/providers/registry";
import type { ChannelAccess, ConsoleHttp } from "@/lib/relay/providers/types";
import { recordChannelFigures } from "@/lib/channels/record-channel-figures";
import { CHANNEL_STATUS } from "@/lib/statuses";

const TIMEOUT_MS = 15_000;

// A channel may hold several keys, one per line: the console's calls use the first.
const firstKey = (key: string) => key.split("\n")[0]?.trim() ?? "";

async function requestJson(url: string, init: { method?: string; headers: Record<string, string>; body?: string }): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    // under the outbound policy; a channel call follows no redirect (it carries the key):
    // a 3xx is a failure, "HTTP 302"
    res = await outboundFetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), maxRedirects: 0 });
  } catch (err) {
    const refusal = outboundRefusal(err);
    if (refusal) throw new AppError("UPSTREAM", refusalMessageKey(refusal.reason));
    throw new AppError("UPSTREAM", (err as Error).name === "TimeoutError" ? "upstream_timeout" : "upstream_unreachable");
  }
  if (!res.ok) throw new AppError("UPSTREAM", "upstream_request_failed", { detail: `HTTP ${res.status}` });
  try {
    return (await res.json()) as Record<string, unknown>;
  } catch {
    throw new AppError("UPSTREAM", "upstream_invalid_json");
  }
}

// What an adapter's profile uses to reach its provider from the console (lib/relay/providers/types.ts).
const http: ConsoleHttp = {
  getJson: (url, headers) => requestJson(url, { headers }),
  postJson: (url, headers, body) =>
    requestJson(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }),
};

// Runs one of the profile's calls; whatever it throws becomes the console's "upstream failed"
// with a detail that names no key (an AppError from getJson is passed on as it is).
async function viaProfile<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError("UPSTREAM", "upstream_request_failed", { detail: e instanceof Error ? e.message.slice(0, 200) : "failed" });
  }
}

/** The channel's balance, in USD or the provider's own currency (the adapter's profile says how). */
async function queryBalance(c: ChannelAccess): Promise<number> {
  const balance = adapterFor(c.type)?.profile.balance;
  if (!balance) throw new AppError("RULE", "balance_not_supported");
  return viaProfile(() => balance(c, http));
}

export async function updateBalance({ input: id }: { ctx?: UserCtx; input: number }): Promise<number> {
  const c = await db().channel.findUnique({ where: { id } });
  if (!c) throw new AppError("NOT_FOUND", "channel_not_found");
  const balance = await queryBalance({ type: c.type, base_url: c.base_url, key: firstKey(c.key ? open(c.key) : ""), other: c.other });
  if (!Number.isFinite(balance)) throw new AppError("UPSTREAM", "upstream_no_balance");
  await recordChannelFigures(id, { balance });
  return balance;
}

// GET /api/channel/update_balance: every enabled channel whose type has a billing endpoint;
// failures are counted, not fatal. Also the periodic refresh (CHANNEL_UPDATE_FREQUENCY,
// lib/channel-admin/periodic-jobs.ts), without a caller's context and with `keepGoing`, asked
// before each channel (its lease, and the shutdown): false ends the round there.
export async function updateAllBalances({
  ctx,
  keepGoing,
}: {
  ctx?: UserCtx;
  keepGoing?: () => Promise<boolean>;
}): Promise<{ updated: number; failed: number; skipped: number }> {
  const rows = await db().channel.findMany({ where: { status: CHANNEL_STATUS.enabled }, select: { id: true, type: true } });
  let updated = 0,
    failed = 0,
    skipped = 0;
  for (const r of rows) {
    if (!adapterFor(r.type)?.profile.balance) {
      skipped++;
      continue;
    }
    if (keepGoing && !(await keepGoing())) break;
    try {
      await updateBalance({ ctx, input: r.id });
      updated++;
    } catch {
      failed++;
    }
  }
  return { updated, failed, skipped };
}

// The upstream's model ids, as the channel type's adapter lists them (its own address when
// the base URL is empty: docs/providers.md).
export async function fetchUpstreamModels({
  input,
}: {
  ctx: UserCtx;
  input: { type: number; base_url: string; key: string; other?: string };
}): Promise<string[]> {
  const list = adapterFor(input.type)?.profile.listModels;
  if (!list) throw new AppError("RULE", "models_fetch_not_supported");
  const ids = await viaProfile(() => list({ type: input.type, base_url: input.base_url, key: firstKey(input.key), other: input.other ?? "" }, http));
  return [...new Set(ids.filter(Boolean))].sort();
}

export async function fetchModelsOfChannel({ ctx, input: id }: { ctx: UserCtx; input: number }): Promise<string[]> {
  const c = await db().channel.findUnique({ where: { id } });
  if (!c) throw new AppError("NOT_FOUND", "channel_not_found");
  return fetchUpstreamModels({ ctx, input: { type: c.type, base_url: c.base_url, key: c.key ? open(c.key) : "", other: c.other } });
}
