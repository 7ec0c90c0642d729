// What the plan calls answer (docs/plans.md, "API"). Quotas and times are numbers (lib/http/json.ts).
import type { Plan, Subscription } from "@/generated/sqlite/client";
import { remainingOf } from "@/lib/plans/pot";

export const modelList = (models: string): string[] =>
  models
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);

export function presentPlan(p: Plan, forAdmin: boolean) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    price: p.price,
    currency: p.currency,
    duration_days: p.duration_days,
    quota: p.quota,
    reset_period: p.reset_period,
    upgrade_group: p.upgrade_group,
    expiry_group: p.expiry_group,
    models: modelList(p.models),
    max_per_user: p.max_per_user,
    wallet_purchasable: p.wallet_purchasable,
    carry_over: p.carry_over,
    stripe_purchasable: p.stripe_price_id !== "",
    ...(forAdmin ? { stripe_price_id: p.stripe_price_id } : {}),
    enabled: p.enabled,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

export function presentSubscription(s: Subscription) {
  const remaining = s.status === "active" ? remainingOf(s) : 0n;
  return {
    id: s.id,
    user_id: s.user_id,
    plan_id: s.plan_id,
    plan_name: s.plan_name,
    status: s.status,
    source: s.source,
    starts_at: s.starts_at,
    ends_at: s.ends_at,
    period_start: s.period_start,
    next_reset_at: s.next_reset_at,
    reset_period: s.reset_period,
    period_quota: s.period_quota,
    carried: s.carried,
    period_used: s.period_used,
    remaining: remaining < 0n ? 0n : remaining,
    models: modelList(s.models),
    upgrade_group: s.upgrade_group,
    expiry_group: s.expiry_group,
    carry_over: s.carry_over,
    auto_renew: s.stripe_subscription_id !== "" && s.status === "active" && !s.cancel_at_period_end,
    // a Stripe subscription whose renewal the user stopped: it ends at ends_at
    cancel_at_period_end: s.cancel_at_period_end,
  };
}
