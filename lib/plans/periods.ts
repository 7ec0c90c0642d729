// Lengths of a plan's term and of its periods (docs/plans.md, "Periods"): fixed numbers of
// seconds counted from the subscription's start (a "month" is 30 days), not calendar units,
// so that every node computes the same instants without a time zone.
export const RESET_PERIODS = ["none", "5h", "day", "week", "month"] as const;
export type ResetPeriod = (typeof RESET_PERIODS)[number];

const PERIOD_SECONDS: Record<Exclude<ResetPeriod, "none">, number> = {
  "5h": 5 * 3600,
  day: 86_400,
  week: 7 * 86_400,
  month: 30 * 86_400,
};

export const DAY_SECONDS = 86_400;

/** Seconds of one period, or 0 when the quota never resets. */
export function periodSeconds(p: string): number {
  return p in PERIOD_SECONDS ? PERIOD_SECONDS[p as keyof typeof PERIOD_SECONDS] : 0;
}

/** When the period that began at `periodStart` ends: its next reset, 0 for none. */
export function nextResetAt(periodStart: number, p: string): number {
  const s = periodSeconds(p);
  return s ? periodStart + s : 0;
}

/** The start of the period that holds `now`, counted in whole periods from `periodStart`. */
export function currentPeriodStart(periodStart: number, p: string, now: number): number {
  const s = periodSeconds(p);
  if (!s || now < periodStart + s) return periodStart;
  return periodStart + Math.floor((now - periodStart) / s) * s;
}
