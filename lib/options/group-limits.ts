// The usage limits' field names and the option GroupLimits (docs/usage-limits.md): a JSON
// object group -> { rpm_limit, tpm_limit, concurrency_limit, quota_5h, quota_day,
// quota_week, quota_month }, each a non-negative integer (0 or absent: no limit). Pure and
// free of "server-only": the settings form checks with it too.
import { dict } from "@/lib/own-keys";

export const LIMIT_FIELDS = ["rpm_limit", "tpm_limit", "concurrency_limit", "quota_5h", "quota_day", "quota_week", "quota_month"] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];

// RPM, TPM and concurrency are 32-bit columns; the quotas are 64-bit, answered as JSON numbers
export const COUNT_LIMIT_MAX = 2_000_000_000;
export const QUOTA_LIMIT_MAX = Number.MAX_SAFE_INTEGER;
export const isQuotaField = (f: LimitField) => f.startsWith("quota_");
export const limitFieldMax = (f: LimitField) => (isQuotaField(f) ? QUOTA_LIMIT_MAX : COUNT_LIMIT_MAX);

export type GroupLimitSet = Partial<Record<LimitField, number>>;

export type GroupLimitsCheck = { ok: true; value: string } | { ok: false; key: "option_group_limits_invalid"; params: { group: string; field: string } };

/** GroupLimits as typed: refused naming the group and field at fault, else stored normalized (zeros dropped). */
export function checkGroupLimits(text: string): GroupLimitsCheck {
  const bad = (group: string, field: string): GroupLimitsCheck => ({ ok: false, key: "option_group_limits_invalid", params: { group, field } });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return bad("-", "-");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return bad("-", "-");
  const out = dict<GroupLimitSet>();
  for (const [group, set] of Object.entries(parsed as Record<string, unknown>)) {
    if (!group.trim() || !set || typeof set !== "object" || Array.isArray(set)) return bad(group, "-");
    const clean = dict<number>() as GroupLimitSet;
    for (const [field, v] of Object.entries(set as Record<string, unknown>)) {
      const f = LIMIT_FIELDS.find((x) => x === field);
      if (!f) return bad(group, field);
      if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > limitFieldMax(f)) return bad(group, field);
      if (v > 0) clean[f] = v;
    }
    out[group] = clean;
  }
  return { ok: true, value: JSON.stringify(out) };
}
