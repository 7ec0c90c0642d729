import { describe, expect, it } from "vitest";
import { localDay, rewardBounds } from "@/lib/checkin/day";

describe("check-in day and reward bounds", () => {
  it("formats the local calendar day", () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe("2026-01-05");
    expect(localDay(new Date(2026, 10, 30, 0, 0))).toBe("2026-11-30");
  });
  it("orders the bounds and never goes negative", () => {
    expect(rewardBounds(1000, 10000)).toEqual([1000, 10000]);
    expect(rewardBounds(10000, 1000)).toEqual([1000, 10000]);
    expect(rewardBounds(-5, 3.7)).toEqual([0, 3]);
    expect(rewardBounds(NaN, 10)).toEqual([0, 10]);
  });
});
