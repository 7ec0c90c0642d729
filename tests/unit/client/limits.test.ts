// The limit screens' pure helpers (docs/console-ui.md, "Limits"): the exact conversion of a
// quota typed in the display unit, the form texts, the meters and GroupLimits.
import { describe, expect, it } from "vitest";
import {
  groupLimitsJson,
  limitTexts,
  limitValues,
  metersOf,
  meterTone,
  NO_LIMITS,
  parseCountInput,
  parseGroupLimits,
  parseLimitTexts,
  parseQuotaInput,
  quotaInputText,
  usedShare,
} from "@/lib/client/limits";

const USD = { displayInCurrency: true, quotaPerUnit: 500000 };
const UNITS = { displayInCurrency: false, quotaPerUnit: 500000 };

describe("quota typed in the display unit", () => {
  it("converts dollars to units exactly (no float error)", () => {
    expect(parseQuotaInput("0.1", USD)).toBe(50000);
    expect(parseQuotaInput("1", USD)).toBe(500000);
    expect(parseQuotaInput("$2.5", USD)).toBe(1250000);
    expect(parseQuotaInput(".3", USD)).toBe(150000);
    expect(parseQuotaInput("0.000001", USD)).toBe(1); // 0.5 unit rounds half up
    expect(parseQuotaInput("0.0000009", USD)).toBe(0);
    expect(parseQuotaInput("123456789.123456", USD)).toBe(61728394561728);
    // a fractional QuotaPerUnit (six decimals at most)
    expect(parseQuotaInput("3", { displayInCurrency: true, quotaPerUnit: 7.333333 })).toBe(22);
    expect(parseQuotaInput("1000000", { displayInCurrency: true, quotaPerUnit: 7.333333 })).toBe(7333333);
  });
  it("refuses what is not a non-negative amount; blank is no limit", () => {
    for (const bad of ["-1", "abc", "1e3", "1.2.3", "."]) expect(parseQuotaInput(bad, USD)).toBeNull();
    // the console's one rule (lib/quota-display.ts) takes commas as digit grouping
    expect(parseQuotaInput("1,500", USD)).toBe(750_000_000);
    expect(parseQuotaInput("  ", USD)).toBe(0);
    expect(parseQuotaInput("99999999999999999999", USD)).toBeNull();
  });
  it("types a quota in the currency the site shows (CNY at 7.3 yuan a dollar)", () => {
    const CNY = { ...USD, currency: "CNY" as const, rate: 7.3, symbol: "¥" };
    expect(parseQuotaInput("7.3", CNY)).toBe(500_000);
    expect(parseQuotaInput("¥14.6", CNY)).toBe(1_000_000);
    expect(quotaInputText(500_000, CNY)).toBe("7.3");
  });
  it("takes whole units when the site shows units", () => {
    expect(parseQuotaInput("1500", UNITS)).toBe(1500);
    expect(parseQuotaInput("1.5", UNITS)).toBeNull();
    expect(quotaInputText(1500, UNITS)).toBe("1500");
  });
  it("shows units as the shortest amount that converts back to them", () => {
    expect(quotaInputText(500000, USD)).toBe("1");
    expect(quotaInputText(50000, USD)).toBe("0.1");
    expect(quotaInputText(1, USD)).toBe("0.000002");
    expect(quotaInputText(0, USD)).toBe("");
    const odd = { displayInCurrency: true, quotaPerUnit: 7.333333 };
    for (const u of [1, 2, 22, 100, 7333333, 123456789]) expect(parseQuotaInput(quotaInputText(u, odd), odd)).toBe(u);
    for (const u of [1, 3, 7, 499999, 500001, 987654321]) expect(parseQuotaInput(quotaInputText(u, USD), USD)).toBe(u);
  });
});

describe("limit form texts", () => {
  it("round-trips a record's limits, counts whole, quotas in the display unit", () => {
    const values = { ...NO_LIMITS, rpm_limit: 50, concurrency_limit: 5, quota_day: 500000, quota_5h: 1 };
    const texts = limitTexts(values, USD);
    expect(texts).toMatchObject({ rpm_limit: "50", tpm_limit: "", quota_day: "1", quota_5h: "0.000002" });
    expect(parseLimitTexts(texts, USD)).toEqual({ values, invalid: [] });
  });
  it("names the fields that are not valid", () => {
    const texts = { ...limitTexts(NO_LIMITS, USD), rpm_limit: "1.5", tpm_limit: "-3", quota_week: "x" };
    expect(parseLimitTexts(texts, USD).invalid).toEqual(["rpm_limit", "tpm_limit", "quota_week"]);
    expect(parseCountInput("007")).toBe(7);
    expect(parseCountInput("")).toBe(0);
  });
  it("reads missing or negative fields of an older record as no limit", () => {
    expect(limitValues({ rpm_limit: 3, tpm_limit: -1 })).toEqual({ ...NO_LIMITS, rpm_limit: 3 });
    expect(limitValues(undefined)).toEqual(NO_LIMITS);
  });
});

describe("meters", () => {
  it("lists one meter per limit set, with the usage of its scope", () => {
    const values = { ...NO_LIMITS, rpm_limit: 50, quota_day: 1000 };
    const usage = [
      { scope: "token" as const, limit: "rpm" as const, max: 50, used: 3, reset_at: 100 },
      { scope: "user" as const, limit: "rpm" as const, max: 80, used: 9, reset_at: 100 },
    ];
    expect(metersOf(values, usage, "token")).toEqual([
      { scope: "token", limit: "rpm", max: 50, used: 3, reset_at: 100 },
      { scope: "token", limit: "quota_day", max: 1000, used: 0, reset_at: null },
    ]);
  });
  it("fills the bar by the share used, toned from 70 % and 90 %", () => {
    expect(usedShare(5, 10)).toBe(0.5);
    expect(usedShare(15, 10)).toBe(1);
    expect(usedShare(1, 0)).toBe(0);
    expect([meterTone(6, 10), meterTone(7, 10), meterTone(9, 10)]).toEqual(["ok", "warn", "full"]);
  });
});

describe("GroupLimits", () => {
  it("parses the option and writes only the limits set", () => {
    expect(parseGroupLimits('{"vip":{"rpm_limit":100,"quota_day":0}}')).toEqual({ vip: { ...NO_LIMITS, rpm_limit: 100 } });
    expect(parseGroupLimits("")).toEqual({});
    expect(parseGroupLimits("[1]")).toBeNull();
    expect(parseGroupLimits('{"vip":3}')).toBeNull();
    expect(JSON.parse(groupLimitsJson([{ group: "vip", values: { ...NO_LIMITS, tpm_limit: 9 } }]))).toEqual({ vip: { tpm_limit: 9 } });
  });
});
