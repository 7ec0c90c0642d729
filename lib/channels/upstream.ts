// Calls from the console to a channel's upstream: the balance (for providers that publish
// a billing endpoint) and the model list (the upstream's /v1/models). The key is sent to
// the upstream only; error messages carry the HTTP status, never the key or the body. The
// calls go out under the outbound policy (lib/net/outbound.ts, docs/outbound.md).
import "server-only";
import { db } from "@/lib/db/client";
import { open } from "@/lib/auth/secret-box";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { outboundFetch, outboundRefusal, refusalMessageKey } from "@/lib/net/outbound";
import { baseUrlOf } from "@/lib/channels/shared";
import { recordChannelFigures } from "@/lib/channels/record-channel-figures";

const TIMEOUT_MS = 15_000;

async function getJson(url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    // under the outbound policy; a channel call follows no redirect (it carries the key):
    // a 3xx is a failure, "HTTP 302"
    res = await outboundFetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS), maxRedirects: 0 });
  } catch (err) {
    const refusal = outboundRefusal(err);
    if (refusal) throw new AppError("UPSTREAM", refusalMessageKey(refusal.reason));
    const detail = (err as Error).name === "TimeoutError" ? "timeout" : "connection failed";
    throw new AppError("UPSTREAM", "upstream_request_failed", { detail });
  }
  if (!res.ok) throw new AppError("UPSTREAM", "upstream_request_failed", { detail: `HTTP ${res.status}` });
  try {
    return (await res.json()) as Record<string, unknown>;
  } catch {
    throw new AppError("UPSTREAM", "upstream_request_failed", { detail: "invalid JSON" });
  }
}

const num = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN);
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

// Balance in USD (or the provider's own currency for DeepSeek and SiliconFlow), per type.
async function queryBalance(type: number, base: string, key: string): Promise<number> {
  switch (type) {
    case 1: // OpenAI and the many OpenAI-style resellers: subscription limit minus usage
    case 8: {
      const sub = await getJson(`${base}/v1/dashboard/billing/subscription`, bearer(key));
      const limit = num(sub.hard_limit_usd);
      if (!Number.isFinite(limit)) throw new AppError("UPSTREAM", "upstream_request_failed", { detail: "no hard_limit_usd" });
      const now = new Date();
      const start = new Date(now.getTime() - 99 * 86400_000).toISOString().slice(0, 10);
      const end = new Date(now.getTime() + 86400_000).toISOString().slice(0, 10);
      const usage = await getJson(`${base}/v1/dashboard/billing/usage?start_date=${start}&end_date=${end}`, bearer(key));
      const used = num(usage.total_usage) / 100; // cents
      return Math.round((limit - (Number.isFinite(used) ? used : 0)) * 1e6) / 1e6;
    }
    case 20: {
      // OpenRouter: total credits minus total usage
      const r = await getJson(`${base}/v1/credits`, bearer(key));
      const d = (r.data ?? {}) as Record<string, unknown>;
      return num(d.total_credits) - num(d.total_usage);
    }
    case 40: {
      // SiliconFlow
      const r = await getJson(`${base}/v1/user/info`, bearer(key));
      return num(((r.data ?? {}) as Record<string, unknown>).totalBalance);
    }
    case 43: {
      // DeepSeek: first balance entry
      const r = await getJson(`${base}/user/balance`, bearer(key));
      const infos = (r.balance_infos ?? []) as Array<Record<string, unknown>>;
      return num(infos[0]?.total_balance);
    }
    default:
      throw new AppError("RULE", "balance_not_supported");
  }
}

export async function updateBalance({ input: id }: { ctx: UserCtx; input: number }): Promise<number> {
  const c = await db().channel.findUnique({ where: { id } });
  if (!c) throw new AppError("NOT_FOUND", "channel_not_found");
  const balance = await queryBalance(c.type, baseUrlOf(c), c.key ? open(c.key) : "");
  if (!Number.isFinite(balance)) throw new AppError("UPSTREAM", "upstream_request_failed", { detail: "no balance in the answer" });
  await recordChannelFigures(id, { balance });
  return balance;
}

// GET /api/channel/update_balance: every enabled channel whose type has a billing endpoint;
// failures are counted, not fatal.
export async function updateAllBalances({ ctx }: { ctx: UserCtx }): Promise<{ updated: number; failed: number; skipped: number }> {
  const rows = await db().channel.findMany({ where: { status: 1 }, select: { id: true, type: true } });
  let updated = 0,
    failed = 0,
    skipped = 0;
  for (const r of rows) {
    if (![1, 8, 20, 40, 43].includes(r.type)) {
      skipped++;
      continue;
    }
    try {
      await updateBalance({ ctx, input: r.id });
      updated++;
    } catch {
      failed++;
    }
  }
  return { updated, failed, skipped };
}

// The upstream's model ids: /v1/models (OpenAI style; Anthropic with its own headers);
// Gemini lists /v1beta/models; its key goes in the x-goog-api-key header (never in a URL,
// which could surface in an error message).
export async function fetchUpstreamModels({ input }: { ctx: UserCtx; input: { type: number; base_url: string; key: string } }): Promise<string[]> {
  const base = baseUrlOf(input);
  const key = input.key.split("\n")[0]?.trim() ?? "";
  let ids: string[];
  if (input.type === 24) {
    const r = await getJson(`${base}/v1beta/models?pageSize=1000`, { "x-goog-api-key": key });
    ids = ((r.models ?? []) as Array<{ name?: string }>).map((m) => String(m.name ?? "").replace(/^models\//, ""));
  } else {
    const headers = input.type === 14 ? { "x-api-key": key, "anthropic-version": "2023-06-01" } : bearer(key);
    const r = await getJson(`${base}/v1/models`, headers);
    ids = ((r.data ?? []) as Array<{ id?: string }>).map((m) => String(m.id ?? ""));
  }
  return [...new Set(ids.filter(Boolean))].sort();
}

export async function fetchModelsOfChannel({ ctx, input: id }: { ctx: UserCtx; input: number }): Promise<string[]> {
  const c = await db().channel.findUnique({ where: { id } });
  if (!c) throw new AppError("NOT_FOUND", "channel_not_found");
  return fetchUpstreamModels({ ctx, input: { type: c.type, base_url: c.base_url, key: c.key ? open(c.key) : "" } });
}
