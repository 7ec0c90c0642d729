// Pure helpers of the date-time picker (components/ui/date-time-picker.tsx): the browser's time
// zone throughout, seconds precision (the API's timestamps are unix seconds).
const pad = (n: number) => String(n).padStart(2, "0");

// "YYYY-MM-DD HH:mm:ss" in the browser's zone.
export function formatDateTime(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

// The day picked in the calendar at the time of day of `time` (the value it replaces).
export function withDay(day: Date, time: Date): Date {
  return new Date(day.getFullYear(), day.getMonth(), day.getDate(), time.getHours(), time.getMinutes(), time.getSeconds());
}

// `base` with one of its hour / minute / second fields set, clamped to the field's range.
export function withTimePart(base: Date, part: "hour" | "minute" | "second", value: number): Date {
  const max = part === "hour" ? 23 : 59;
  const v = Number.isFinite(value) ? Math.min(max, Math.max(0, Math.trunc(value))) : 0;
  const d = new Date(base.getFullYear(), base.getMonth(), base.getDate(), base.getHours(), base.getMinutes(), base.getSeconds());
  if (part === "hour") d.setHours(v);
  else if (part === "minute") d.setMinutes(v);
  else d.setSeconds(v);
  return d;
}

export const fromUnixSeconds = (s: number | null): Date | null => (s === null ? null : new Date(s * 1000));
export const toUnixSeconds = (d: Date | null): number | null => (d === null ? null : Math.floor(d.getTime() / 1000));
