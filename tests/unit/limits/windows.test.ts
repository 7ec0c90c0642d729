// Window arithmetic of the usage limits (lib/limits/windows.ts, docs/usage-limits.md): calendar
// periods in a time zone (DST included), and the sliding buckets of RPM/TPM and the rolling quota.
import { describe, expect, it } from "vitest";
import { bucketLeavesAt, bucketOf, calendarPeriod, firstCounted, sliding, slidingState } from "@/lib/limits/windows";

const at = (iso: string) => Date.parse(iso);

describe("calendar periods", () => {
  it("a day runs from midnight to midnight of the zone", () => {
    // 2026-03-10 23:30 in Shanghai is 15:30 UTC
    const p = calendarPeriod("day", "Asia/Shanghai", at("2026-03-10T15:30:00Z"));
    expect(p).toEqual({ id: "d2026-03-10", startMs: at("2026-03-09T16:00:00Z"), endMs: at("2026-03-10T16:00:00Z") });
    // half an hour later it is the next day there
    expect(calendarPeriod("day", "Asia/Shanghai", at("2026-03-10T16:00:00Z")).id).toBe("d2026-03-11");
    expect(calendarPeriod("day", "UTC", at("2026-03-10T15:30:00Z")).endMs).toBe(at("2026-03-11T00:00:00Z"));
  });

  it("a week starts on Monday", () => {
    // Sunday 2026-11-29 12:00 UTC: the week of Monday the 23rd
    const p = calendarPeriod("week", "UTC", at("2026-11-29T12:00:00Z"));
    expect(p).toEqual({ id: "w2026-11-23", startMs: at("2026-11-23T00:00:00Z"), endMs: at("2026-11-30T00:00:00Z") });
    // Monday 00:00 opens the next one
    expect(calendarPeriod("week", "UTC", at("2026-11-30T00:00:00Z")).id).toBe("w2026-11-30");
  });

  it("a month ends at the first of the next, across the year", () => {
    const p = calendarPeriod("month", "Asia/Shanghai", at("2026-12-31T17:00:00Z")); // Jan 1st 01:00 there
    expect(p.id).toBe("m2027-01-01");
    expect(p.startMs).toBe(at("2026-12-31T16:00:00Z"));
    expect(p.endMs).toBe(at("2027-01-31T16:00:00Z"));
  });

  it("days around a DST change last 23 and 25 hours", () => {
    const spring = calendarPeriod("day", "America/New_York", at("2026-03-08T12:00:00Z"));
    expect(spring.startMs).toBe(at("2026-03-08T05:00:00Z"));
    expect(spring.endMs).toBe(at("2026-03-09T04:00:00Z"));
    const autumn = calendarPeriod("day", "America/New_York", at("2026-11-01T12:00:00Z"));
    expect(autumn.endMs - autumn.startMs).toBe(25 * 3600_000);
  });
});

describe("sliding windows", () => {
  it("a minute is 60 buckets of a second; the rolling 5 h 60 buckets of 5 min", () => {
    expect(sliding(60_000)).toMatchObject({ widthMs: 1000, slices: 60 });
    expect(sliding(5 * 3600_000)).toMatchObject({ widthMs: 300_000, slices: 60 });
    expect(sliding(6_000)).toMatchObject({ widthMs: 100, slices: 60 });
  });

  it("counts the buckets of the window and says when enough have left", () => {
    const w = sliding(60_000);
    const now = 1_000_000_500; // bucket 1,000,000
    expect(bucketOf(w, now)).toBe(1_000_000);
    expect(firstCounted(w, now)).toBe(999_941);
    const buckets = new Map([
      [999_940, 10], // just out of the window
      [999_950, 3],
      [999_990, 2],
    ]);
    expect(slidingState(w, buckets, now, 1, 10)).toEqual({ used: 5, freeAt: now });
    // 5 used, 6 asked under a max of 10: the bucket of 3 must leave first
    expect(slidingState(w, buckets, now, 6, 10)).toEqual({ used: 5, freeAt: bucketLeavesAt(w, 999_950) });
    expect(bucketLeavesAt(w, 999_950)).toBe(1_000_010_000);
    // 9 asked: both must leave
    expect(slidingState(w, buckets, now, 9, 10)).toEqual({ used: 5, freeAt: bucketLeavesAt(w, 999_990) });
    // never fits
    expect(slidingState(w, buckets, now, 11, 10)).toEqual({ used: 5, freeAt: null });
  });

  it("the rolling window slides: a use counts for the window's length (at most one bucket less), then goes", () => {
    const w = sliding(5 * 3600_000);
    const t0 = at("2026-11-28T01:02:03Z");
    const buckets = new Map([[bucketOf(w, t0), 100]]);
    expect(slidingState(w, buckets, t0 + 5 * 3600_000 - 300_000, 0, 1000).used).toBe(100);
    expect(slidingState(w, buckets, t0 + 4 * 3600_000, 0, 1000).used).toBe(100);
    expect(slidingState(w, buckets, t0 + 5 * 3600_000 + 300_000, 0, 1000).used).toBe(0);
    const leaves = bucketLeavesAt(w, bucketOf(w, t0));
    expect(leaves).toBeGreaterThan(t0 + 5 * 3600_000 - 300_000);
    expect(leaves).toBeLessThanOrEqual(t0 + 5 * 3600_000);
  });
});
