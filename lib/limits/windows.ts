// Window arithmetic of the usage limits (docs/usage-limits.md, "Windows"). Pure: no I/O, no
// clock of its own (every function takes `now` in ms), so that the unit tests move time.
//  - sliding windows (RPM, TPM, the rolling quota) are counted in buckets: the window's length
//    cut into SLICES buckets, each leaving the window whole. A use made at t counts until its
//    bucket leaves: after the window's length less at most one bucket's width (a minute's
//    bucket is a second; the 5 h window's, 5 minutes);
//  - calendar windows (day, week from Monday, month) run from midnight to midnight in the site's
//    time zone (the one the console's dates use: TZ, else Asia/Shanghai).
import { dict } from "@/lib/own-keys";

export const SLICES = 60;

export type Sliding = { kind: "sliding"; lengthMs: number; widthMs: number; slices: number };

export function sliding(lengthMs: number): Sliding {
  const widthMs = Math.max(1, Math.ceil(lengthMs / SLICES));
  return { kind: "sliding", lengthMs, widthMs, slices: Math.ceil(lengthMs / widthMs) };
}

/** The bucket `now` falls in. */
export const bucketOf = (w: Sliding, now: number) => Math.floor(now / w.widthMs);
/** The oldest bucket still counted at `now`. */
export const firstCounted = (w: Sliding, now: number) => bucketOf(w, now) - w.slices + 1;
/** When bucket `b` stops counting (ms). */
export const bucketLeavesAt = (w: Sliding, b: number) => (b + w.slices) * w.widthMs;

/**
 * Sum of the buckets counted at `now`, and when enough of them will have left for `need` more
 * to fit under `max` (ms; `now` when it fits already, null when it never can: need > max).
 */
export function slidingState(w: Sliding, buckets: Map<number, number>, now: number, need: number, max: number): { used: number; freeAt: number | null } {
  const from = firstCounted(w, now);
  const live: [number, number][] = [];
  let used = 0;
  for (const [b, n] of buckets) {
    if (b >= from) {
      used += n;
      live.push([b, n]);
    }
  }
  if (used + need <= max) return { used, freeAt: now };
  if (need > max) return { used, freeAt: null };
  live.sort((a, b) => a[0] - b[0]);
  let left = used;
  for (const [b, n] of live) {
    left -= n;
    if (left + need <= max) return { used, freeAt: bucketLeavesAt(w, b) };
  }
  return { used, freeAt: now };
}

export type CalendarKind = "day" | "week" | "month";

// One formatter per zone: building one costs far more than using it.
const formats = new Map<string, Intl.DateTimeFormat>();
function format(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(tz, f);
  }
  return f;
}

/** The wall clock of `tz` at `ms`, as if it were UTC (ms). */
function wallClock(tz: string, ms: number): number {
  const p = dict<number>();
  for (const part of format(tz).formatToParts(new Date(ms))) if (part.type !== "literal") p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/** The instant (ms) at which the wall clock of `tz` reads `wall` (a UTC-encoded wall time). */
function instantOf(tz: string, wall: number): number {
  // offset at a guess, then again at the corrected instant (a DST change between the two)
  let t = wall - (wallClock(tz, wall) - wall);
  t = wall - (wallClock(tz, t) - t);
  return t;
}

type Period = { id: string; startMs: number; endMs: number };

// The last period worked out per kind and zone: a call inside it costs two comparisons instead
// of five formatToParts (the relay asks for up to three periods on every call with quotas).
const lastPeriods = new Map<string, Period>();

/** The calendar period containing `now` in `tz`: its id (stable across nodes) and its bounds (ms). */
export function calendarPeriod(kind: CalendarKind, tz: string, now: number): Period {
  const key = `${kind} ${tz}`;
  const last = lastPeriods.get(key);
  if (last && now >= last.startMs && now < last.endMs) return last;
  const period = workOutPeriod(kind, tz, now);
  lastPeriods.set(key, period);
  return period;
}

function workOutPeriod(kind: CalendarKind, tz: string, now: number): Period {
  const wall = new Date(wallClock(tz, now));
  const y = wall.getUTCFullYear();
  const m = wall.getUTCMonth();
  const d = wall.getUTCDate();
  let start: number;
  let end: number;
  if (kind === "day") {
    start = Date.UTC(y, m, d);
    end = Date.UTC(y, m, d + 1);
  } else if (kind === "week") {
    const back = (wall.getUTCDay() + 6) % 7; // days since Monday
    start = Date.UTC(y, m, d - back);
    end = Date.UTC(y, m, d - back + 7);
  } else {
    start = Date.UTC(y, m, 1);
    end = Date.UTC(y, m + 1, 1);
  }
  const id = `${kind[0]}${new Date(start).toISOString().slice(0, 10)}`;
  return { id, startMs: instantOf(tz, start), endMs: instantOf(tz, end) };
}

// The zone, checked once (building a formatter to check it costs more than the rest of a
// call's limits); TZ is the process's and does not change while it runs.
let zone: string | null = null;

/** The site's time zone (docs/usage-limits.md): TZ, else Asia/Shanghai, as the console's dates (lib/i18n/request.ts). */
export function siteTimeZone(): string {
  if (zone === null) {
    zone = process.env.TZ || "Asia/Shanghai";
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
    } catch {
      zone = "UTC";
    }
  }
  return zone;
}
