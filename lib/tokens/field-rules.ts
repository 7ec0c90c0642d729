// The token input rules shared by the server (lib/tokens/schemas.ts, fields.ts) and the
// token drawer (components/tokens/token-form.ts), so both refuse with the same message
// (docs/console-ui.md, "Forms"). Pure: no "server-only", no I/O.
import { z } from "zod";
import type { MessageKey } from "@/lib/i18n/server-messages";
import { tokenLimitFields } from "@/lib/limits/fields";

export const TOKEN_NAME_MAX = 50;
export const TOKEN_BATCH_MAX = 100;

/** The name after trimming: required, at most 50 characters. */
export function tokenNameRefusal(name: string): MessageKey | null {
  const n = name.trim();
  if (!n) return "token_name_required";
  return n.length > TOKEN_NAME_MAX ? "token_name_too_long" : null;
}

/** Tokens created at once: 1 to 100. */
export function batchCountRefusal(count: number): MessageKey | null {
  return Number.isInteger(count) && count >= 1 && count <= TOKEN_BATCH_MAX ? null : "token_batch_count_invalid";
}

export function quotaRefusal(quota: bigint | number): MessageKey | null {
  return quota < 0 ? "token_quota_negative" : null;
}

/** A new expiry (Unix seconds, -1 never) must lie after now. */
export function expiryRefusal(expiredTime: number, now: number): MessageKey | null {
  return expiredTime !== -1 && expiredTime <= now ? "token_expiry_past" : null;
}

const list = z.union([z.string(), z.array(z.string())]).transform((v) =>
  (Array.isArray(v) ? v : v.split(","))
    .map((s) => s.trim())
    .filter(Boolean)
    .filter((s, i, a) => a.indexOf(s) === i)
    .join(","),
);
// Quotas and times are 64-bit columns, answered as JSON numbers: a value beyond the safe
// integers (2^53 − 1) could be neither stored (past 2^63) nor answered exactly, so it is
// refused with the field named (route() renders "Invalid parameter: <field>").
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const quota = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const s = String(v).trim();
  if (!/^-?\d+$/.test(s)) {
    ctx.addIssue({ code: "custom", message: "not an integer" });
    return z.NEVER;
  }
  const n = BigInt(s);
  if (n > SAFE || n < -SAFE) {
    ctx.addIssue({ code: "custom", message: "out of range" });
    return z.NEVER;
  }
  return n;
});
const expiry = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = Number(v);
  if (!Number.isInteger(n)) {
    ctx.addIssue({ code: "custom", message: "msg:token_expiry_invalid" });
    return z.NEVER;
  }
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({ code: "custom", message: "out of range" });
    return z.NEVER;
  }
  return n;
});

export const tokenFields = z.object({
  name: z.string().max(200).optional(),
  remain_quota: quota.optional(),
  unlimited_quota: z.boolean().optional(),
  expired_time: expiry.optional(),
  model_limits_enabled: z.boolean().optional(),
  model_limits: list.optional(),
  allow_ips: z.string().max(10_000).nullish(),
  group: z.string().max(100).nullish(),
  rate_limit_enabled: z.boolean().optional(),
  rate_limit_period: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400 * 31)
    .optional(),
  rate_limit_count: z.coerce.number().int().min(0).max(1_000_000_000).optional(),
  rate_limit_success: z.coerce.number().int().min(0).max(1_000_000_000).optional(),
  // usage limits (docs/usage-limits.md): 0 = no limit
  ...tokenLimitFields,
});

export const createTokenBody = tokenFields.extend({
  count: z.coerce.number().optional(),
});

export const updateTokenBody = tokenFields.extend({
  id: z.coerce.number().int().positive(),
  status: z.coerce.number().int().min(1).max(4).optional(),
});

export type TokenFields = z.infer<typeof tokenFields>;
