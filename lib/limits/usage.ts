// GET /api/usage/limits (docs/usage-limits.md, docs/api-reference.md): the caller's own limits
// with what is used of each now, what is left and when it frees. A token caller sees its
// token's limits and its user's; a session (or system access token) sees the user's. The
// user's active subscription plans follow (scope "plan", docs/plans.md "Meters").
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { callChecks, readUsage, type LimitUsage } from "@/lib/limits/engine";
import { planLimitEntries } from "@/lib/plans/usage";

export type UsageEntry = {
  scope: "token" | "user" | "plan";
  limit: string;
  max: number;
  used: number;
  left: number;
  reset_at: number | null; // unix seconds; null: nothing to free (concurrency, or nothing used)
};

/** Who asks: a token (with its owner), or a signed-in user. Limits are the token cache's arrays (lib/limits/engine.ts limitArray). */
export type UsageCaller = {
  userId: number;
  group: string; // the user's own group (GroupLimits)
  userLimits: number[] | null;
  token: { id: number; limits: number[] | null } | null;
};

export async function listUsageLimits({ input }: { ctx: Ctx; input: { caller: UsageCaller } }): Promise<UsageEntry[]> {
  const c = input.caller;
  const counters = callChecks({ tokenId: c.token?.id ?? 0, token: c.token?.limits ?? null, userId: c.userId, user: c.userLimits, group: c.group });
  const own: LimitUsage[] = counters ? await readUsage(counters) : [];
  return [...own, ...(await planLimitEntries(c.userId))];
}
