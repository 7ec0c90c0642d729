// Pure helpers of the drawing and task log pages (docs/tasks.md, "The pages"): status names,
// colours, default ranges, elapsed time. The server checks everything again.
import type { BadgeColor } from "@/lib/client/badge-color";

// The statuses the spec names (docs/product-rules.md), and MODAL: a Midjourney task waiting for
// the client's modal (Inpaint, Custom Zoom), where the step that opened it rests
// (docs/tasks.md, "Modals"); anything else is shown as unknown, and the empty status is a task
// still being submitted.
export const TASK_STATUSES = ["SUCCESS", "NOT_START", "SUBMITTED", "IN_PROGRESS", "MODAL", "FAILURE", "QUEUED", "UNKNOWN"] as const;
export type TaskStatusKey = (typeof TASK_STATUSES)[number] | "SUBMITTING";

export function taskStatusKey(status: string | null | undefined): TaskStatusKey {
  if (!status) return "SUBMITTING";
  return (TASK_STATUSES as readonly string[]).includes(status) ? (status as TaskStatusKey) : "UNKNOWN";
}

export const TASK_STATUS_COLOR: Record<TaskStatusKey, BadgeColor> = {
  SUCCESS: "green",
  NOT_START: "gray",
  SUBMITTED: "yellow",
  IN_PROGRESS: "blue",
  MODAL: "purple",
  FAILURE: "red",
  QUEUED: "orange",
  UNKNOWN: "gray",
  SUBMITTING: "gray",
};

// Elapsed seconds of a task, green up to 60 s and red above.
export function elapsedSeconds(submit: number, finish: number): number | null {
  if (!submit || !finish || finish < submit) return null;
  return finish - submit;
}
export const elapsedColor = (s: number): BadgeColor => (s <= 60 ? "green" : "red");

// "45%" or 45 -> 45, bounded to 0..100; 0 for anything else.
export function progressPercent(p: string | number | null | undefined): number {
  const n = typeof p === "number" ? p : parseFloat(String(p ?? "").replace("%", ""));
  return Number.isFinite(n) ? Math.max(0, Math.min(100, n)) : 0;
}

// Task log: today 00:00, no end (unix seconds).
export function defaultTaskRange(nowMs: number): { start: number; end: number | null } {
  const d = new Date(nowMs);
  d.setHours(0, 0, 0, 0);
  return { start: Math.floor(d.getTime() / 1000), end: null };
}

// Drawing log: 30 days back to one hour ahead (unix seconds; the API takes milliseconds).
export function defaultDrawingRange(nowMs: number): { start: number; end: number } {
  const now = Math.floor(nowMs / 1000);
  return { start: now - 30 * 86400, end: now + 3600 };
}

// A channel's tag colour, stable per id.
const CHANNEL_COLORS: BadgeColor[] = ["blue", "green", "orange", "purple", "yellow", "red"];
export const channelColor = (id: number): BadgeColor => CHANNEL_COLORS[Math.abs(id) % CHANNEL_COLORS.length];

// Midjourney submit result codes (Midjourney-proxy): 1 submitted, 21 exists, 22 queued.
export const mjCodeColor = (code: number): BadgeColor => (code === 1 ? "green" : code === 21 || code === 22 ? "orange" : code === 0 ? "gray" : "red");
