// Shapes of the plan API (docs/plans.md): plans, a user's subscriptions with their meters,
// and the admin's subscriber list. Quota amounts are integer quota units.
import type { ResetPeriod } from "@/lib/plans/periods";

export { RESET_PERIODS, type ResetPeriod } from "@/lib/plans/periods";

export type Plan = {
  id: number;
  name: string;
  description: string;
  price: string; // exact decimal text, two decimals (lib/plans/schemas.ts)
  currency: string;
  duration_days: number;
  quota: number | string; // units; a string past 2^53
  reset_period: ResetPeriod;
  upgrade_group: string;
  expiry_group: string;
  models: string[];
  max_per_user: number; // 0: no limit
  wallet_purchasable: boolean;
  carry_over: boolean;
  stripe_purchasable: boolean; // a Stripe price is set
  stripe_price_id?: string; // the admin's list only
  enabled: boolean;
};

// lib/plans/present.ts presentSubscription (+ username in a plan's subscriber list)
export type Subscription = {
  id: number;
  user_id: number;
  username?: string;
  plan_id: number;
  plan_name: string;
  status: string; // active, expired, cancelled, revoked
  source: string; // balance, epay, stripe, admin
  starts_at: number; // unix seconds
  ends_at: number;
  period_start: number;
  next_reset_at: number; // 0: the period never resets
  reset_period: ResetPeriod;
  period_quota: number; // what a period grants
  carried: number; // carried over into this period
  period_used: number;
  remaining: number; // period_quota + carried - period_used while active, else 0
  models: string[];
  auto_renew: boolean; // a Stripe subscription that renews itself
  cancel_at_period_end: boolean; // a Stripe subscription whose renewal the user stopped
};

export type BillingPreference = "plan_first" | "wallet_first";
export type UserPlans = { subscriptions: Subscription[]; billing_preference: BillingPreference; wallet_fallback: boolean };
