// The check-in day: the server's local calendar date (TZ of the process), YYYY-MM-DD.
import "server-only";

export function localDay(at: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}`;
}

// The check-in reward bounds from the options, ordered and never negative.
export function rewardBounds(quota: number, maxQuota: number): [number, number] {
  const a = Math.max(0, Math.trunc(Number.isFinite(quota) ? quota : 0));
  const b = Math.max(0, Math.trunc(Number.isFinite(maxQuota) ? maxQuota : 0));
  return a <= b ? [a, b] : [b, a];
}
