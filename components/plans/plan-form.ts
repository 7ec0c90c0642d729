// The plan drawer's form (docs/console-ui.md, "Plans"): its values (strings as typed), the
// conversion of the quota typed in the console's display unit to exact quota units, the schema
// that checks the body the drawer would send, and that body.
import { z } from "zod";
import { parseQuotaInput, quotaToInput, type QuotaDisplay } from "@/lib/quota-display";
import { say, type ServerCatalogue } from "@/lib/i18n/render";
import { createPlanBody } from "@/lib/plans/schemas";
import type { Plan, ResetPeriod } from "./types";

export type PlanForm = {
  name: string;
  description: string;
  price: string;
  currency: string;
  duration_days: string;
  quota: string; // in the display unit: dollars when the site shows currency, else units
  reset_period: ResetPeriod;
  upgrade_group: string;
  expiry_group: string;
  models: string[];
  max_per_user: string;
  wallet_purchasable: boolean;
  carry_over: boolean;
  stripe_price_id: string;
  enabled: boolean;
};

export { PLAN_CURRENCIES } from "@/lib/plans/schemas";
// The duration presets of the issue (a day, a week, a month) in days; any other number may be typed.
export const DURATION_PRESETS = [
  { key: "day", days: 1 },
  { key: "week", days: 7 },
  { key: "month", days: 30 },
] as const;

// A plan's quota may pass 2^53 units (a bigint in the body): the bound is the column's.
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Quota typed in the display unit (lib/quota-display.ts: the site's currency and rate, or
 * whole units) as exact integer units, rounded to the nearest unit; null when it is not a
 * non-negative amount.
 */
export function quotaUnitsFromText(text: string, display: QuotaDisplay): bigint | null {
  const parsed = parseQuotaInput(text, display, { max: INT64_MAX });
  return parsed.ok ? parsed.units : null;
}

/** Integer units as the text the quota field shows: the shortest amount that reads back as exactly these units. */
export function quotaTextFromUnits(units: number | bigint, display: QuotaDisplay): string {
  return quotaToInput(units, display);
}

export const blankPlanForm = (): PlanForm => ({
  name: "",
  description: "",
  price: "",
  currency: "USD",
  duration_days: "30",
  quota: "",
  reset_period: "none",
  upgrade_group: "",
  expiry_group: "",
  models: [],
  max_per_user: "0",
  wallet_purchasable: true,
  carry_over: false,
  stripe_price_id: "",
  enabled: true,
});

export function planToForm(p: Plan, display: QuotaDisplay): PlanForm {
  return {
    name: p.name,
    description: p.description,
    price: p.price,
    currency: p.currency,
    duration_days: String(p.duration_days),
    quota: quotaTextFromUnits(BigInt(p.quota), display),
    reset_period: p.reset_period,
    upgrade_group: p.upgrade_group,
    expiry_group: p.expiry_group,
    models: p.models,
    max_per_user: String(p.max_per_user),
    wallet_purchasable: p.wallet_purchasable,
    carry_over: p.carry_over,
    stripe_price_id: p.stripe_price_id ?? "",
    enabled: p.enabled,
  };
}

/** The POST/PUT body of form values: the price as typed, the quota as a string of units (exact past 2^53). */
export function planBody(f: PlanForm, display: QuotaDisplay, editing: Plan | null) {
  const units = quotaUnitsFromText(f.quota, display);
  const body = {
    name: f.name.trim(),
    description: f.description.trim(),
    price: f.price.trim(),
    currency: f.currency,
    duration_days: f.duration_days.trim(),
    quota: units === null ? "" : units.toString(),
    reset_period: f.reset_period,
    upgrade_group: f.upgrade_group,
    expiry_group: f.expiry_group,
    models: f.models,
    max_per_user: f.max_per_user.trim(),
    wallet_purchasable: f.wallet_purchasable,
    carry_over: f.carry_over,
    stripe_price_id: f.stripe_price_id.trim(),
    enabled: f.enabled,
  };
  return editing ? { id: editing.id, ...body } : body;
}

/**
 * The drawer's schema: the body the form would send checked by the server's own rules
 * (lib/plans/schemas.ts), each refusal under its field worded as route() words it, and the
 * quota's conversion from the display unit (`quotaInvalid`: the console's words for it).
 */
export function planFormSchema(catalogue: ServerCatalogue, display: QuotaDisplay, quotaInvalid: string) {
  return z.custom<PlanForm>().superRefine((f, ctx) => {
    const refuse = (path: keyof PlanForm, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const converts = quotaUnitsFromText(f.quota, display) !== null;
    if (!converts) refuse("quota", quotaInvalid);
    const r = createPlanBody.safeParse(planBody(f, display, null));
    if (r.success) return;
    const seen = new Set<string>();
    for (const issue of r.error.issues) {
      const field = String(issue.path[0]) as keyof PlanForm;
      if (seen.has(field) || (field === "quota" && !converts)) continue;
      seen.add(field);
      // as route() answers: a rule's own message, else zod's refusal naming the field
      refuse(field, issue.message.startsWith("msg:") ? issue.message : say(catalogue, "invalid_parameter_detail", { detail: field }));
    }
  });
}
