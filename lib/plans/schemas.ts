// Request bodies of the plan calls (docs/plans.md, "API"). Prices are exact decimal strings
// (two decimals at most) in USD or CNY; quotas are quota units, whole numbers that may pass
// 2^53, so they are read from strings or safe integers and kept as bigint.
import { z } from "zod";
import { RESET_PERIODS } from "@/lib/plans/periods";

export const PLAN_CURRENCIES = ["USD", "CNY"] as const;
const MAX_QUOTA = 9_000_000_000_000_000_000n; // below 2^63, the 64-bit columns' bound

const price = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,9}(\.\d{1,2})?$/.test(v), "msg:invalid_parameter")
  .transform((v) => normalizePrice(v));

const quota = z
  .union([z.string().regex(/^\d{1,19}$/), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
  .transform((v) => BigInt(v))
  .refine((v) => v > 0n && v <= MAX_QUOTA, "msg:invalid_parameter");

const group = z.string().trim().max(64);
const models = z.union([z.array(z.string().trim().min(1).max(256)).max(500), z.string().max(20_000)]).transform((v) =>
  (Array.isArray(v) ? v : v.split(","))
    .map((m) => m.trim())
    .filter(Boolean)
    .filter((m, i, all) => all.indexOf(m) === i),
);

const planFields = {
  name: z.string().trim().min(1).max(64),
  description: z.string().trim().max(2000).default(""),
  price,
  currency: z
    .string()
    .trim()
    .transform((c) => c.toUpperCase())
    .pipe(z.enum(PLAN_CURRENCIES))
    .default("USD"),
  duration_days: z.coerce.number().int().min(1).max(3650),
  quota,
  reset_period: z.enum(RESET_PERIODS).default("none"),
  upgrade_group: group.default(""),
  expiry_group: group.default(""),
  models: models.default([]),
  max_per_user: z.coerce.number().int().min(0).max(1_000_000).default(0),
  wallet_purchasable: z.boolean().default(true),
  carry_over: z.boolean().default(false),
  stripe_price_id: z.string().trim().max(128).default(""),
  enabled: z.boolean().default(true),
};

export const createPlanBody = z.strictObject(planFields);
// PUT: the id and any subset of the fields (those absent keep their value)
export const updatePlanBody = z.strictObject({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  name: planFields.name.optional(),
  description: z.string().trim().max(2000).optional(),
  price: price.optional(),
  currency: z
    .string()
    .trim()
    .transform((c) => c.toUpperCase())
    .pipe(z.enum(PLAN_CURRENCIES))
    .optional(),
  duration_days: planFields.duration_days.optional(),
  quota: quota.optional(),
  reset_period: z.enum(RESET_PERIODS).optional(),
  upgrade_group: group.optional(),
  expiry_group: group.optional(),
  models: models.optional(),
  max_per_user: z.coerce.number().int().min(0).max(1_000_000).optional(),
  wallet_purchasable: z.boolean().optional(),
  carry_over: z.boolean().optional(),
  stripe_price_id: z.string().trim().max(128).optional(),
  enabled: z.boolean().optional(),
});

export const purchaseBody = z.strictObject({
  plan_id: z.coerce.number().int().positive().max(2_147_483_647),
  payment_method: z.enum(["balance", "zfb", "wx", "stripe"]),
});
export const preferenceBody = z.strictObject({
  billing_preference: z.enum(["plan_first", "wallet_first"]),
  wallet_fallback: z.boolean().optional(),
});
export const grantBody = z.strictObject({ plan_id: z.coerce.number().int().positive().max(2_147_483_647) });
export const subscriptionParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  subscription_id: z.coerce.number().int().positive().max(2_147_483_647),
});
export const subscribersQuery = z.object({
  status: z.enum(["active", "expired", "cancelled", "revoked", "all"]).optional().default("active"),
});

export type CreatePlanInput = z.infer<typeof createPlanBody>;
export type UpdatePlanInput = z.infer<typeof updatePlanBody>;
export type PurchaseInput = z.infer<typeof purchaseBody>;

/** "9.5" -> "9.50", "010" -> "10.00": one spelling per price. */
export function normalizePrice(v: string): string {
  const [whole, frac = ""] = v.split(".");
  return `${BigInt(whole)}.${frac.padEnd(2, "0")}`;
}

/** The price in cents, exactly. */
export function priceCents(price: string): bigint {
  const [whole, frac = ""] = price.split(".");
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0").slice(0, 2) || "0");
}
