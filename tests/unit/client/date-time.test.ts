import { describe, expect, it } from "vitest";
import { formatDateTime, fromUnixSeconds, toUnixSeconds, withDay, withTimePart } from "@/lib/client/date-time";

describe("date-time picker helpers", () => {
  const base = new Date(2026, 10, 25, 9, 5, 7);
  it("formats in the browser's zone with seconds", () => {
    expect(formatDateTime(base)).toBe("2026-11-25 09:05:07");
    expect(formatDateTime(new Date(2027, 0, 1, 0, 0, 0))).toBe("2027-01-01 00:00:00");
  });
  it("keeps the time of day when another day is picked", () => {
    expect(formatDateTime(withDay(new Date(2026, 1, 28), base))).toBe("2026-02-28 09:05:07");
  });
  it("sets one time field, clamped to its range", () => {
    expect(formatDateTime(withTimePart(base, "hour", 23))).toBe("2026-11-25 23:05:07");
    expect(formatDateTime(withTimePart(base, "hour", 30))).toBe("2026-11-25 23:05:07");
    expect(formatDateTime(withTimePart(base, "minute", -4))).toBe("2026-11-25 09:00:07");
    expect(formatDateTime(withTimePart(base, "second", 59))).toBe("2026-11-25 09:05:59");
    expect(formatDateTime(withTimePart(base, "second", Number.NaN))).toBe("2026-11-25 09:05:00");
    expect(base.getHours()).toBe(9); // the value given is not changed
  });
  it("converts unix seconds both ways, null for no value", () => {
    expect(toUnixSeconds(fromUnixSeconds(1_764_000_000))).toBe(1_764_000_000);
    expect(toUnixSeconds(new Date(1_764_000_000_999))).toBe(1_764_000_000);
    expect(fromUnixSeconds(null)).toBeNull();
    expect(toUnixSeconds(null)).toBeNull();
  });
});
