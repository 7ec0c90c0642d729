// GET /v1/dashboard/billing/subscription and /v1/dashboard/billing/usage: the OpenAI-style
// billing answers that API clients read to show a key's balance (as new-api answers them).
// DisplayTokenStatEnabled chooses whose figures: the calling token's (its remaining and used
// quota, its expiry) or, off, its owner's. DisplayInCurrencyEnabled turns units into dollars
// (QuotaPerUnit); usage is in cents, as OpenAI's. Read fresh from the database: the token
// cache's figures may be a moment old.
import "server-only";
import { db } from "@/lib/db/client";
import { getBool, getNumber } from "@/lib/options/store";
import type { TokenContext } from "@/lib/relay/token-cache";

// OpenAI's way of saying "no limit" in these answers.
const UNLIMITED = 100_000_000;

type Figures = { remain: number; used: number; expires: number; unlimited: boolean };

async function figures(ctx: TokenContext): Promise<Figures> {
  if (getBool("DisplayTokenStatEnabled")) {
    const t = await db().token.findUniqueOrThrow({
      where: { id: ctx.token.id },
      select: { remain_quota: true, used_quota: true, expired_time: true, unlimited_quota: true },
    });
    return { remain: Number(t.remain_quota), used: Number(t.used_quota), expires: Math.max(0, Number(t.expired_time)), unlimited: t.unlimited_quota };
  }
  const u = await db().user.findUniqueOrThrow({ where: { id: ctx.user.id }, select: { quota: true, used_quota: true } });
  return { remain: Number(u.quota), used: Number(u.used_quota), expires: 0, unlimited: false };
}

const amount = (units: number) => (getBool("DisplayInCurrencyEnabled") ? units / getNumber("QuotaPerUnit", 500000) : units);

export async function billingSubscription(ctx: TokenContext): Promise<string> {
  const f = await figures(ctx);
  const limit = f.unlimited ? UNLIMITED : amount(f.remain + f.used);
  return JSON.stringify({
    object: "billing_subscription",
    has_payment_method: true,
    soft_limit_usd: limit,
    hard_limit_usd: limit,
    system_hard_limit_usd: limit,
    access_until: f.expires,
  });
}

export async function billingUsage(ctx: TokenContext): Promise<string> {
  const f = await figures(ctx);
  return JSON.stringify({ object: "list", total_usage: amount(f.used) * 100 });
}
