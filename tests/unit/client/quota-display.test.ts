// The one quota display rule (lib/quota-display.ts, docs/console-ui.md "Quota display"):
// each display type, typed amounts to exact units and back, the rounding, and amounts above
// 2^53 that a float would garble.
import { describe, expect, it } from "vitest";
import { formatQuota, groupUnits, parseQuotaInput, quotaDisplayOf, quotaToInput, shortenUnits, type QuotaDisplay } from "@/lib/quota-display";

const status = {
  quota_per_unit: 500000,
  display_in_currency: true,
  quota_display_type: "USD",
  usd_exchange_rate: 7.3,
  custom_currency_symbol: "€",
  custom_currency_exchange_rate: 0.92,
};
const USD = quotaDisplayOf(status);
const CNY = quotaDisplayOf({ ...status, quota_display_type: "CNY" });
const CUSTOM = quotaDisplayOf({ ...status, quota_display_type: "CUSTOM" });
const TOKENS = quotaDisplayOf({ ...status, display_in_currency: false });

const units = (r: ReturnType<typeof parseQuotaInput>) => (r.ok ? r.units : r.error);

describe("formatQuota: the display types", () => {
  it("USD: dollars with 2 decimals, QuotaPerUnit units a dollar", () => {
    expect(formatQuota(500000, USD)).toBe("$1.00");
    expect(formatQuota(1_250_000, USD)).toBe("$2.50");
    expect(formatQuota(1234567, USD)).toBe("$2.47");
    expect(formatQuota(0, USD)).toBe("$0.00");
    expect(formatQuota(-1_250_000, USD)).toBe("-$2.50");
  });
  it("CNY: USDExchangeRate yuan a dollar, with ¥", () => {
    expect(formatQuota(500000, CNY)).toBe("¥7.30");
    expect(formatQuota(1_250_000, CNY)).toBe("¥18.25");
    expect(formatQuota(1, CNY, 7)).toBe("¥0.0000146");
  });
  it("CUSTOM: its symbol and rate", () => {
    expect(formatQuota(500000, CUSTOM)).toBe("€0.92");
    expect(formatQuota(1_000_000, CUSTOM)).toBe("€1.84");
    expect(quotaDisplayOf({ ...status, quota_display_type: "CUSTOM", custom_currency_symbol: "" }).symbol).toBe("¤");
  });
  it("tokens (DisplayInCurrencyEnabled off): shortened units, whatever the currency", () => {
    expect(formatQuota(9999, TOKENS)).toBe("9999");
    expect(formatQuota(10000, TOKENS)).toBe("10.0k");
    expect(formatQuota(1_250_000, TOKENS)).toBe("1.3M");
    expect(formatQuota(3_200_000_000, TOKENS)).toBe("3.2B");
    expect(formatQuota(1_250_000, { ...TOKENS, currency: "CNY", rate: 7.3, symbol: "¥" })).toBe("1.3M");
    expect(shortenUnits(-25_000)).toBe("-25.0k");
  });
  it("an unknown type is USD; a missing rate falls back to the defaults", () => {
    expect(quotaDisplayOf({ ...status, quota_display_type: "GBP" })).toMatchObject({ currency: "USD", rate: 1, symbol: "$" });
    expect(formatQuota(500000, { displayInCurrency: true, quotaPerUnit: 500000 })).toBe("$1.00");
  });
  it("rounds half away from zero, and shows a tiny amount's first two significant digits", () => {
    expect(formatQuota(2500, USD)).toBe("$0.01"); // $0.005 exactly
    expect(formatQuota(2499, USD)).toBe("$0.005"); // $0.004998 is not $0.00
    expect(formatQuota(33, USD)).toBe("$0.000066");
    expect(formatQuota(1, USD)).toBe("$0.000002");
    expect(formatQuota(-33, USD)).toBe("-$0.000066");
    expect(formatQuota(1, { displayInCurrency: true, quotaPerUnit: 1e9 }, 6)).toBe("$0.000000001");
  });
  it("uses a fractional QuotaPerUnit exactly (six decimals)", () => {
    const d: QuotaDisplay = { displayInCurrency: true, quotaPerUnit: 3.000001 };
    // 3000001 units = 1000000 dollars exactly; a float division gives 999999.99999...
    expect(formatQuota(3_000_001, d)).toBe("$1000000.00");
  });
});

describe("huge values (above 2^53)", () => {
  const huge = BigInt("123456789012345678901"); // ≈ 1.2e20 units
  it("formats them exactly", () => {
    expect(formatQuota(huge, USD)).toBe("$246913578024691.36");
    expect(formatQuota(huge, TOKENS)).toBe("123456789012.3B");
    expect(groupUnits(huge)).toBe("123,456,789,012,345,678,901");
    expect(formatQuota(BigInt("9007199254740993"), USD, 6)).toBe("$18014398509.481986");
  });
  it("parses them exactly when a bound allows, and refuses above the largest safe integer by default", () => {
    expect(units(parseQuotaInput("246913578024691.3578024691358", USD, { max: huge * 2n }))).toBe(huge);
    expect(units(parseQuotaInput("123456789012345678901", TOKENS, { max: huge }))).toBe(huge);
    expect(units(parseQuotaInput("123456789012345678901", TOKENS))).toBe("too_large");
    expect(units(parseQuotaInput("9007199254740991", TOKENS))).toBe(9007199254740991n);
    expect(units(parseQuotaInput("9007199254740992", TOKENS))).toBe("too_large");
  });
});

describe("parseQuotaInput", () => {
  it("takes the display unit: dollars, yuan, the custom currency, or whole units", () => {
    expect(units(parseQuotaInput("2.5", USD))).toBe(1_250_000n);
    expect(units(parseQuotaInput("$2.50", USD))).toBe(1_250_000n);
    expect(units(parseQuotaInput(" 1,000.5 ", USD))).toBe(500_250_000n);
    expect(units(parseQuotaInput(".5", USD))).toBe(250_000n);
    expect(units(parseQuotaInput("7.3", CNY))).toBe(500_000n);
    expect(units(parseQuotaInput("¥18.25", CNY))).toBe(1_250_000n);
    expect(units(parseQuotaInput("0.92", CUSTOM))).toBe(500_000n);
    expect(units(parseQuotaInput("1,250,000", TOKENS))).toBe(1_250_000n);
  });
  it("rounds to the nearest unit, halves away from zero", () => {
    expect(units(parseQuotaInput("0.000001", USD))).toBe(1n); // 0.5 unit
    expect(units(parseQuotaInput("0.0000009", USD))).toBe(0n); // 0.45 unit
    expect(units(parseQuotaInput("0.0000031", USD))).toBe(2n); // 1.55 units
    expect(units(parseQuotaInput("-0.000001", USD, { allowNegative: true }))).toBe(-1n);
    expect(units(parseQuotaInput("1", CNY))).toBe(68_493n); // 68493.15… units
  });
  it("refuses what is not an amount", () => {
    expect(units(parseQuotaInput("", USD))).toBe("empty");
    expect(units(parseQuotaInput("  ", TOKENS))).toBe("empty");
    expect(units(parseQuotaInput("abc", USD))).toBe("invalid");
    expect(units(parseQuotaInput("1.2.3", USD))).toBe("invalid");
    expect(units(parseQuotaInput("1e3", USD))).toBe("invalid");
    expect(units(parseQuotaInput("1.5", TOKENS))).toBe("invalid");
    expect(units(parseQuotaInput("-1", USD))).toBe("negative");
    expect(units(parseQuotaInput("-1", TOKENS))).toBe("negative");
    expect(units(parseQuotaInput("-1", TOKENS, { allowNegative: true }))).toBe(-1n);
    expect(units(parseQuotaInput("1", { ...USD, rate: 0 }))).toBe("invalid");
  });
});

describe("quotaToInput: the inverse that prefills an input", () => {
  it("writes the shortest amount that parses back to the same units", () => {
    expect(quotaToInput(1_250_000, USD)).toBe("2.5");
    expect(quotaToInput(500_000, USD)).toBe("1");
    expect(quotaToInput(0, USD)).toBe("0");
    expect(quotaToInput(1, USD)).toBe("0.000002");
    expect(quotaToInput(500_000, CNY)).toBe("7.3");
    expect(quotaToInput(1_250_000, TOKENS)).toBe("1250000");
  });
  it("round-trips every unit count in each display type", () => {
    const samples = [0n, 1n, 2n, 3n, 7n, 33n, 499_999n, 500_000n, 500_001n, 1_234_567n, 9_007_199_254_740_991n];
    for (let i = 0; i < 300; i += 1) samples.push(BigInt(Math.floor(Math.random() * 1e12)));
    const odd: QuotaDisplay = { displayInCurrency: true, quotaPerUnit: 3.000001, currency: "CUSTOM", rate: 0.123457, symbol: "¤" };
    for (const d of [USD, CNY, CUSTOM, TOKENS, odd]) {
      for (const u of samples) expect(units(parseQuotaInput(quotaToInput(u, d), d)), `${u} ${d.currency}`).toBe(u);
    }
  });
});
