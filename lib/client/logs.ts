// Pure helpers of the usage log pages (docs/product-rules.md, "Relay console pages"): log types and
// colours, the default range, the `other` field.
import type { BadgeColor } from "@/lib/client/badge-color";

export const LOG_TYPES = [1, 2, 3, 4, 5, 6] as const;
export const LOG_TYPE_COLOR: Record<number, BadgeColor> = { 1: "blue", 2: "green", 3: "orange", 4: "purple", 5: "yellow", 6: "red" };

export function timeUsedColor(seconds: number): BadgeColor {
  if (seconds < 101) return "green";
  if (seconds < 300) return "orange";
  return "red";
}

// frt is in milliseconds in the log's other data.
export function frtColor(ms: number): BadgeColor {
  if (ms < 3000) return "green";
  if (ms < 10000) return "orange";
  return "red";
}

// Default range of the usage logs: today 00:00 to one hour ahead (unix seconds).
export function defaultLogRange(nowMs: number): { start: number; end: number } {
  const d = new Date(nowMs);
  d.setHours(0, 0, 0, 0);
  return { start: Math.floor(d.getTime() / 1000), end: Math.floor(nowMs / 1000) + 3600 };
}

export function parseOther(raw: string | null | undefined): Record<string, unknown> {
  try {
    const v = raw ? JSON.parse(raw) : {};
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
