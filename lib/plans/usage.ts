// The caller's plan entries of GET /api/usage/limits (docs/plans.md, "Meters"): one per active
// subscription, {scope: "plan", limit: "plan", max, used, reset_at}: max the period's quota
// (with what was carried into it), used what the period has spent, reset_at (unix seconds)
// when the quota comes back (the next period, or the end of the term when it never resets).
import "server-only";
import { db } from "@/lib/db/client";

// An entry of GET /api/usage/limits (lib/limits/usage.ts, UsageEntry).
export type PlanLimitEntry = { scope: "plan"; limit: "plan"; max: number; used: number; left: number; reset_at: number };

export async function planLimitEntries(userId: number): Promise<PlanLimitEntry[]> {
  const subs = await db().subscription.findMany({ where: { user_id: userId, status: "active" }, orderBy: { ends_at: "asc" } });
  return subs.map((s): PlanLimitEntry => {
    const next = Number(s.next_reset_at);
    const ends = Number(s.ends_at);
    const max = Number(s.period_quota + s.carried);
    const used = Number(s.period_used);
    return {
      scope: "plan",
      limit: "plan",
      max,
      used,
      left: Math.max(0, max - used),
      reset_at: next > 0 && next < ends ? next : ends,
    };
  });
}
