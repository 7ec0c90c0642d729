import { describe, expect, it } from "vitest";
import { formatTimestamp, isNewYearsDay, renderQuota, shortenNumber, unreadBadge } from "@/lib/client/format";

describe("quota display", () => {
  const currency = { displayInCurrency: true, quotaPerUnit: 500000 };
  const units = { displayInCurrency: false, quotaPerUnit: 500000 };
  it("shows dollars with 2 decimals, 500000 units = $1", () => {
    expect(renderQuota(500000, currency)).toBe("$1.00");
    expect(renderQuota(1234567, currency)).toBe("$2.47");
    expect(renderQuota(0, currency)).toBe("$0.00");
  });
  it("shows a tiny non-zero amount with its significant digits instead of $0.00", () => {
    expect(renderQuota(33, currency)).toBe("$0.000066");
    expect(renderQuota(1, currency)).toBe("$0.000002");
    expect(renderQuota(2000, currency)).toBe("$0.004");
    expect(renderQuota(2450, currency)).toBe("$0.0049");
    expect(renderQuota(-33, currency)).toBe("-$0.000066");
    // what shows at the asked precision is unchanged: zero, rounded-up cents, six decimals
    expect(renderQuota(2500, currency)).toBe("$0.01");
    expect(renderQuota(5000, currency)).toBe("$0.01");
    expect(renderQuota(33, currency, 6)).toBe("$0.000066");
    expect(renderQuota(1_250_000, currency, 6)).toBe("$2.500000");
    expect(renderQuota(50_000, currency, 1)).toBe("$0.1");
    expect(renderQuota(1, currency, 6)).toBe("$0.000002");
    expect(renderQuota(1, { displayInCurrency: true, quotaPerUnit: 1e9 }, 6)).toBe("$0.000000001");
  });
  it("uses the site's quota_per_unit", () => {
    expect(renderQuota(1000, { displayInCurrency: true, quotaPerUnit: 1000 })).toBe("$1.00");
  });
  it("shortens units with k, M, B otherwise", () => {
    expect(renderQuota(9999, units)).toBe("9999");
    expect(renderQuota(10000, units)).toBe("10.0k");
    expect(renderQuota(2500000, units)).toBe("2.5M");
    expect(renderQuota(3_200_000_000, units)).toBe("3.2B");
    expect(shortenNumber(999999)).toBe("1000.0k");
  });
});

describe("timestamps", () => {
  it("formats unix seconds as YYYY-MM-DD HH:mm:ss in local time", () => {
    const seconds = Math.floor(new Date(2026, 0, 2, 3, 4, 5).getTime() / 1000);
    expect(formatTimestamp(seconds)).toBe("2026-01-02 03:04:05");
    expect(formatTimestamp(0)).toBe("");
  });
});

describe("badges and dates", () => {
  it("caps the unread badge at 99+", () => {
    expect(unreadBadge(0)).toBe("");
    expect(unreadBadge(7)).toBe("7");
    expect(unreadBadge(99)).toBe("99");
    expect(unreadBadge(100)).toBe("99+");
  });
  it("knows New Year's Day", () => {
    expect(isNewYearsDay(new Date(2027, 0, 1, 12))).toBe(true);
    expect(isNewYearsDay(new Date(2027, 0, 2))).toBe(false);
    expect(isNewYearsDay(new Date(2027, 1, 1))).toBe(false);
  });
});
