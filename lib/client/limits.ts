// Pure helpers of the limit screens (docs/console-ui.md, "Limits"): the seven limit fields
// of a token, a user and a group default, the rows of GET /api/usage/limits, and the exact
// conversion of a quota typed in the console's display unit to quota units.
import { parseQuotaInput as parseQuotaAmount, quotaToInput, type QuotaDisplay } from "@/lib/quota-display";
import { dict } from "@/lib/own-keys";
import { COUNT_LIMIT_MAX } from "@/lib/options/group-limits";

/** The limits a token, a user or a group may carry, in the order the console lists them. */
export const LIMIT_KINDS = ["rpm", "tpm", "concurrency", "quota_5h", "quota_day", "quota_week", "quota_month"] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];
/** What GET /api/usage/limits names a row: a limit kind, or a plan's period quota. */
export type LimitName = LimitKind | "plan";

/** The field of each limit in the token, user and GroupLimits bodies (0 = no limit). */
export const LIMIT_FIELDS = {
  rpm: "rpm_limit",
  tpm: "tpm_limit",
  concurrency: "concurrency_limit",
  quota_5h: "quota_5h",
  quota_day: "quota_day",
  quota_week: "quota_week",
  quota_month: "quota_month",
} as const satisfies Record<LimitKind, string>;
export type LimitField = (typeof LIMIT_FIELDS)[LimitKind];
export const LIMIT_FIELD_LIST: LimitField[] = LIMIT_KINDS.map((k) => LIMIT_FIELDS[k]);

/** The seven fields as a record (a token, a user, one group's defaults). */
export type LimitValues = Record<LimitField, number>;
/** The limit fields of a form before anything is typed (blank: no limit). */
export const blankLimitTexts = (): Record<LimitField, string> => Object.fromEntries(LIMIT_FIELD_LIST.map((f) => [f, ""])) as Record<LimitField, string>;
export const NO_LIMITS: LimitValues = { rpm_limit: 0, tpm_limit: 0, concurrency_limit: 0, quota_5h: 0, quota_day: 0, quota_week: 0, quota_month: 0 };

/** One row of GET /api/usage/limits. `reset_at`: unix seconds when it frees, 0/null when it does not reset. */
export type LimitUsage = {
  scope: "token" | "user" | "plan";
  limit: LimitName;
  max: number;
  used: number;
  reset_at?: number | null;
  /** rows of a token's limits name it (the caller's own answer lists each token's) */
  token_id?: number;
  token_name?: string;
};

/** Quota limits are counted in quota units (shown as the site shows quota); the others are counts. */
export const isQuotaLimit = (k: LimitName): boolean => k === "plan" || k.startsWith("quota_");

/**
 * The limit values read from a record that may lack them (an older server): missing is 0.
 * `none`: a user's record, whose -1 means "no limit whatever the group says" (kept as -1).
 */
export function limitValues(src: Partial<Record<string, unknown>> | null | undefined, none = false): LimitValues {
  const out = { ...NO_LIMITS };
  for (const f of LIMIT_FIELD_LIST) {
    const v = Number(src?.[f] ?? 0);
    out[f] = Number.isFinite(v) && v > 0 ? v : none && v === -1 ? -1 : 0;
  }
  return out;
}

/** The share of a limit used, 0..1 (a used count past the max shows full). */
export function usedShare(used: number, max: number): number {
  if (!(max > 0)) return 0;
  return Math.min(1, Math.max(0, used / max));
}

/** The meter's tone: past 90 % red, past 70 % amber. */
export function meterTone(used: number, max: number): "ok" | "warn" | "full" {
  const s = usedShare(used, max);
  return s >= 0.9 ? "full" : s >= 0.7 ? "warn" : "ok";
}

/** Does the console show quota as money (then quota fields are typed in its currency)? */
export const typesMoney = (display: QuotaDisplay) => display.displayInCurrency;

/**
 * A quota typed in the console's display unit → quota units by the console's one rule
 * (lib/quota-display.ts: the currency the site shows, rounded to the nearest unit), or null
 * when it is not a non-negative amount. Blank is 0 (no limit).
 */
export function parseQuotaInput(text: string, display: QuotaDisplay): number | null {
  if (text.trim() === "") return 0;
  const r = parseQuotaAmount(text, display);
  return r.ok ? Number(r.units) : null;
}

/** Quota units → the text of a quota field in the display unit (the one rule's prefill); 0 is "" (no limit). */
export function quotaInputText(units: number, display: QuotaDisplay): string {
  return units > 0 ? quotaToInput(units, display) : "";
}

/** A count limit typed in a form: a whole number from 0 to the server's bound; blank is 0. */
export function parseCountInput(text: string): number | null {
  const s = text.trim();
  if (s === "") return 0;
  if (!/^\d+$/.test(s)) return null;
  const n = Number(s);
  return n <= COUNT_LIMIT_MAX ? n : null;
}

/** A limit field as the form shows it: quota fields in the display unit, counts as typed; 0 is blank, a user's -1 "-1". */
export function limitInputText(kind: LimitKind, value: number, display: QuotaDisplay): string {
  if (value === -1) return "-1";
  if (isQuotaLimit(kind)) return quotaInputText(value, display);
  return value > 0 ? String(value) : "";
}

/** A limit field typed in a form → its value, or null when it is not valid. `none`: a user's field, where -1 is taken. */
export function parseLimitInput(kind: LimitKind, text: string, display: QuotaDisplay, none = false): number | null {
  if (none && text.trim() === "-1") return -1;
  return isQuotaLimit(kind) ? parseQuotaInput(text, display) : parseCountInput(text);
}

/** The form's seven texts of stored values. */
export function limitTexts(values: LimitValues, display: QuotaDisplay): Record<LimitField, string> {
  const out = {} as Record<LimitField, string>;
  for (const k of LIMIT_KINDS) out[LIMIT_FIELDS[k]] = limitInputText(k, values[LIMIT_FIELDS[k]], display);
  return out;
}

/** The form's seven texts → values, or the fields that are not valid. */
export function parseLimitTexts(texts: Record<LimitField, string>, display: QuotaDisplay, none = false): { values: LimitValues; invalid: LimitField[] } {
  const values = { ...NO_LIMITS };
  const invalid: LimitField[] = [];
  for (const k of LIMIT_KINDS) {
    const f = LIMIT_FIELDS[k];
    const v = parseLimitInput(k, texts[f] ?? "", display, none);
    if (v === null) invalid.push(f);
    else values[f] = v;
  }
  return { values, invalid };
}

/** The kind of a limit field. */
export const kindOfField = (f: LimitField): LimitKind => LIMIT_KINDS.find((k) => LIMIT_FIELDS[k] === f)!;

/**
 * The meters of a record's limits: one per limit set (max > 0), with what the usage rows of
 * `scope` say is used (0 when the server has not counted it yet).
 */
export function metersOf(values: LimitValues, usage: LimitUsage[] | undefined, scope: LimitUsage["scope"]): LimitUsage[] {
  const out: LimitUsage[] = [];
  for (const k of LIMIT_KINDS) {
    const max = values[LIMIT_FIELDS[k]];
    if (!(max > 0)) continue;
    const row = usage?.find((u) => u.scope === scope && u.limit === k);
    out.push({ scope, limit: k, max, used: row?.used ?? 0, reset_at: row?.reset_at ?? null });
  }
  return out;
}

/** GroupLimits (JSON: group → limit fields) parsed; null when it is not such an object. */
export function parseGroupLimits(text: string): Record<string, LimitValues> | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text.trim() === "" ? "{}" : text);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const out = dict<LimitValues>();
  for (const [g, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!v || typeof v !== "object" || Array.isArray(v)) return null;
    out[g] = limitValues(v as Record<string, unknown>);
  }
  return out;
}

/** GroupLimits as the option stores it: only the limits set, groups in the order given. */
export function groupLimitsJson(rows: { group: string; values: LimitValues }[]): string {
  const out = dict<Partial<LimitValues>>();
  for (const r of rows) {
    const set: Partial<LimitValues> = dict();
    for (const f of LIMIT_FIELD_LIST) if (r.values[f] > 0) set[f] = r.values[f];
    out[r.group] = set;
  }
  return JSON.stringify(out, null, 2);
}
