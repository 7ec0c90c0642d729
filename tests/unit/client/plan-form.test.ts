// The plan drawer's form (docs/console-ui.md, "Plans"): the quota typed in the display unit
// converts to exact quota units (no float, past 2^53) and back, and the form refuses what
// POST /api/plan/ refuses, with the same text (lib/plans/schemas.ts through route()).
import { describe, expect, it } from "vitest";
import { ruleResolver } from "@/components/forms/rule-form";
import { blankPlanForm, planBody, planFormSchema, planToForm, quotaTextFromUnits, quotaUnitsFromText, type PlanForm } from "@/components/plans/plan-form";
import type { Plan } from "@/components/plans/types";
import { renderMessage, serverCatalogues, type MessageKey } from "@/lib/i18n/server-messages";
import type { Locale } from "@/lib/i18n/locale";
import { createPlanBody } from "@/lib/plans/schemas";
import { quotaDisplayOf } from "@/lib/quota-display";

const USD = { displayInCurrency: true, quotaPerUnit: 500_000 };
const UNITS = { displayInCurrency: false, quotaPerUnit: 500_000 };
const CNY = quotaDisplayOf({ quota_per_unit: 500_000, display_in_currency: true, quota_display_type: "CNY", usd_exchange_rate: 7.3 });
const QUOTA_INVALID = "quota does not convert";

async function refusals(f: PlanForm, locale: Locale, display = USD): Promise<Record<string, string>> {
  const r = await ruleResolver(planFormSchema(serverCatalogues[locale], display, QUOTA_INVALID), serverCatalogues[locale])(f as never, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });
  return Object.fromEntries(Object.entries(r.errors).map(([k, e]) => [k, String((e as { message?: string }).message)]));
}

function routeRefusal(body: unknown, locale: Locale): string | null {
  const r = createPlanBody.safeParse(body);
  if (r.success) return null;
  const m = r.error.issues[0]?.message ?? "";
  return m.startsWith("msg:")
    ? renderMessage(locale, m.slice(4) as MessageKey)
    : renderMessage(locale, "invalid_parameter_detail", { detail: r.error.issues[0]?.path.join(".") ?? "" });
}

const filled = (over: Partial<PlanForm> = {}): PlanForm => ({ ...blankPlanForm(), name: "Pro", price: "9.9", quota: "2.5", ...over });

describe("plan quota in the display unit", () => {
  it("converts dollars to exact units, without float error", () => {
    expect(quotaUnitsFromText("1", USD)).toBe(500_000n);
    expect(quotaUnitsFromText("0.29", USD)).toBe(145_000n); // 0.29 * 500000 is 144999.99999999997 in floats
    expect(quotaUnitsFromText("1.29", USD)).toBe(645_000n);
    expect(quotaUnitsFromText(".5", USD)).toBe(250_000n);
    expect(quotaUnitsFromText("0.000002", USD)).toBe(1n);
    expect(quotaUnitsFromText("18000000000000", USD)).toBe(9_000_000_000_000_000_000n);
  });
  it("rounds to the nearest unit as every quota field does, and follows the site's currency", () => {
    expect(quotaUnitsFromText("0.000001", USD)).toBe(1n); // half a unit, away from zero
    expect(quotaUnitsFromText("¥7.3", CNY)).toBe(500_000n);
    expect(quotaTextFromUnits(500_000n, CNY)).toBe("7.3");
  });
  it("refuses what is negative or not a number", () => {
    for (const bad of ["-1", "1e3", "abc", "", ".", "1.2.3"]) expect(quotaUnitsFromText(bad, USD), bad).toBeNull();
    expect(quotaUnitsFromText("1.5", UNITS)).toBeNull();
    expect(quotaUnitsFromText("9007199254740993", UNITS)).toBe(9_007_199_254_740_993n);
  });
  it("shows stored units in the display unit and back, exactly", () => {
    for (const units of [0n, 1n, 145_000n, 500_000n, 1_234_567n, 9_007_199_254_740_993n]) {
      expect(quotaUnitsFromText(quotaTextFromUnits(units, USD), USD)).toBe(units);
      expect(quotaUnitsFromText(quotaTextFromUnits(units, UNITS), UNITS)).toBe(units);
    }
    expect(quotaTextFromUnits(645_000n, USD)).toBe("1.29");
    expect(quotaTextFromUnits(1n, USD)).toBe("0.000002");
  });
  it("sends the units as a string the server reads exactly", () => {
    const body = planBody(filled({ quota: "18000000000000" }), USD, null);
    expect(body.quota).toBe("9000000000000000000");
    const parsed = createPlanBody.parse(body);
    expect(parsed.quota).toBe(9_000_000_000_000_000_000n);
    expect(parsed.price).toBe("9.90");
  });
  it("loads a plan into the form and sends the same body back", () => {
    const plan: Plan = {
      id: 3,
      name: "Team",
      description: "d",
      price: "30.00",
      currency: "CNY",
      duration_days: 7,
      quota: "12345678",
      reset_period: "week",
      upgrade_group: "vip",
      expiry_group: "default",
      models: ["a", "b"],
      max_per_user: 2,
      wallet_purchasable: false,
      carry_over: true,
      stripe_purchasable: true,
      stripe_price_id: "price_1",
      enabled: false,
    };
    const body = planBody(planToForm(plan, USD), USD, plan);
    expect(body).toMatchObject({ id: 3, price: "30.00", quota: "12345678", duration_days: "7", max_per_user: "2", models: ["a", "b"], enabled: false });
  });
});

describe("the plan drawer refuses what the server refuses, with its text", () => {
  it.each(["zh", "en"] as const)("%s", async (locale) => {
    expect(await refusals(filled(), locale)).toEqual({});
    const cases: [Partial<PlanForm>, keyof PlanForm][] = [
      [{ name: "  " }, "name"],
      [{ name: "x".repeat(65) }, "name"],
      [{ price: "9.999" }, "price"],
      [{ price: "-1" }, "price"],
      [{ duration_days: "0" }, "duration_days"],
      [{ duration_days: "3651" }, "duration_days"],
      [{ quota: "0" }, "quota"],
      [{ max_per_user: "-1" }, "max_per_user"],
      [{ stripe_price_id: "p".repeat(129) }, "stripe_price_id"],
    ];
    for (const [over, field] of cases) {
      const f = filled(over);
      const got = await refusals(f, locale);
      expect(Object.keys(got), JSON.stringify(over)).toEqual([field]);
      expect(got[field]).toBe(routeRefusal(planBody(f, USD, null), locale));
    }
    // the conversion is the console's own check: its own words
    expect(await refusals(filled({ quota: "1e3" }), locale)).toEqual({ quota: QUOTA_INVALID });
  });
});
