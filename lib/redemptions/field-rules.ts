// The redemption code input rules shared by the server (lib/redemptions/schemas.ts and the
// verbs) and the code drawer (components/redemptions/redemption-form.ts), so both refuse with the same
// message (docs/redemptions.md). Pure: no "server-only", no I/O.
import { z } from "zod";
import { renderQuota, type QuotaDisplay } from "@/lib/client/format";
import type { MessageKey } from "@/lib/i18n/server-messages";

export const REDEMPTION_NAME_MAX = 20;
export const REDEMPTION_BATCH_MAX = 100;
export const DEFAULT_REDEMPTION_QUOTA = 100000;
export const UNLIMITED_USES = -1;
// A code chosen by the admin: 8 to 64 letters, digits, "-" or "_".
export const CUSTOM_KEY = /^[A-Za-z0-9_-]{8,64}$/;
export const MAX_TIMESTAMP = 253_402_300_799; // 9999-12-31T23:59:59Z
const SAFE = Number.MAX_SAFE_INTEGER;

/** An empty name on create becomes the quota as the console shows it ("$0.20", or "100.0k"). */
export function defaultRedemptionName(quota: number, display: QuotaDisplay): string {
  return renderQuota(quota, display);
}

/** The name after trimming: 1 to 20 characters. */
export function redemptionNameRefusal(name: string): MessageKey | null {
  const n = [...name.trim()].length;
  return n >= 1 && n <= REDEMPTION_NAME_MAX ? null : "redemption_name_length";
}

/** Codes created at once: 1 to 100. */
export function redemptionCountRefusal(count: number): MessageKey | null {
  return Number.isInteger(count) && count >= 1 && count <= REDEMPTION_BATCH_MAX ? null : "redemption_count_invalid";
}

/** The quota of a code: a whole number of units, at least 1. */
export function redemptionQuotaRefusal(quota: number | string): MessageKey | null {
  const s = String(quota).trim();
  if (!/^\d+$/.test(s)) return "redemption_quota_invalid";
  const n = Number(s);
  return n >= 1 && n <= SAFE ? null : "redemption_quota_invalid";
}

/** Validity window (unix seconds, 0 = none): when both are set, from must be earlier. */
export function validRangeRefusal(validFrom: number, validUntil: number): MessageKey | null {
  if (![validFrom, validUntil].every((t) => Number.isInteger(t) && t >= 0 && t <= MAX_TIMESTAMP)) return "redemption_time_invalid";
  return validFrom > 0 && validUntil > 0 && validFrom >= validUntil ? "redemption_valid_range" : null;
}

/** A gift code's uses: -1 (unlimited) or at least 1, and never below the uses already made. */
export function maxUsesRefusal(maxUses: number, usedCount = 0): MessageKey | null {
  if (!Number.isInteger(maxUses) || (maxUses !== UNLIMITED_USES && (maxUses < 1 || maxUses > 2_147_483_647))) return "redemption_max_uses_invalid";
  return maxUses !== UNLIMITED_USES && maxUses < usedCount ? "redemption_max_uses_below_used" : null;
}

/** A code typed by the admin on create: only with a count of 1. */
export function customKeyRefusal(key: string, count: number): MessageKey | null {
  if (!CUSTOM_KEY.test(key)) return "redemption_key_invalid";
  return count !== 1 ? "redemption_key_single" : null;
}

/** The code typed into the redeem dialog: required. */
export function redeemCodeRefusal(key: string | undefined): MessageKey | null {
  return key?.trim() ? null : "redeem_code_required";
}

const int = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const s = String(v).trim();
  if (!/^-?\d+$/.test(s) || !Number.isSafeInteger(Number(s))) {
    ctx.addIssue({ code: "custom", message: "not an integer" });
    return z.NEVER;
  }
  return Number(s);
});
const quota = z.union([z.number(), z.string()]).transform((v, ctx) => {
  if (redemptionQuotaRefusal(v)) {
    ctx.addIssue({ code: "custom", message: "msg:redemption_quota_invalid" });
    return z.NEVER;
  }
  return Number(String(v).trim());
});

const fields = {
  name: z.string().max(200).optional(),
  quota: quota.optional(),
  is_gift: z.boolean().optional(),
  max_uses: int.optional(),
  valid_from: int.optional(),
  valid_until: int.optional(),
};

export const createRedemptionBody = z.object({
  ...fields,
  count: int.optional(),
  key: z.string().max(200).optional(),
});

export const updateRedemptionBody = z.object({
  ...fields,
  id: z.coerce.number().int().positive().max(2_147_483_647),
  status: z.coerce.number().int().optional(),
});

export const batchIdsBody = z.object({ ids: z.array(z.coerce.number().int().positive().max(2_147_483_647)).max(10_000) });

export const redeemBody = z.object({ key: z.string().max(200).optional() });

export type CreateRedemptionInput = z.infer<typeof createRedemptionBody>;
export type UpdateRedemptionInput = z.infer<typeof updateRedemptionBody>;
