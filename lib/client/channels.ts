// Pure helpers of the channel pages (docs/product-rules.md, "Relay console pages"): status colours, the
// status reason, the inline priority and weight edits. The server checks everything again.
import type { BadgeColor } from "@/lib/client/badge-color";
import { CHANNEL_STATUS } from "@/lib/statuses";

// Channel types and their names: lib/channels/channel-types.ts (shared with the server); what
// each type's key, address and `other` look like: its adapter's profile, served by
// GET /api/channel/types (docs/providers.md).

export const CHANNEL_STATUS_COLOR: Record<number, BadgeColor> = { 1: "green", 2: "red", 3: "orange" };

export type ChannelOtherInfo = { status_reason?: string; status_time?: number };
export function parseOtherInfo(raw: string | null | undefined): ChannelOtherInfo {
  try {
    const v = raw ? JSON.parse(raw) : {};
    return v && typeof v === "object" ? (v as ChannelOtherInfo) : {};
  } catch {
    return {};
  }
}

// A tag row's reason to show: that of its most recently auto-disabled channel.
export function latestDisabledInfo(children: ReadonlyArray<{ status: number; other_info: string }>): string | undefined {
  let latest: { info: string; time: number } | undefined;
  for (const c of children) {
    if (c.status !== CHANNEL_STATUS.autoDisabled) continue;
    const time = Number(parseOtherInfo(c.other_info).status_time ?? 0);
    if (!latest || time > latest.time) latest = { info: c.other_info, time };
  }
  return latest?.info;
}

// A JSON object field of the editor (model_mapping, status_code_mapping): empty is fine.
export function isJsonObjectText(text: string): boolean {
  if (!text.trim()) return true;
  try {
    const v = JSON.parse(text);
    return !!v && typeof v === "object" && !Array.isArray(v);
  } catch {
    return false;
  }
}

// Inline priority/weight edits: what to send, or the validation key that refuses it.
export function inlinePriority(text: string): { value: number } | { error: "priorityInteger" } {
  const n = Number(text.trim());
  return text.trim() !== "" && Number.isInteger(n) ? { value: n } : { error: "priorityInteger" };
}
export function inlineWeight(text: string): { value: number } | { error: "weightNonNegative" } {
  const n = Number(text.trim());
  if (text.trim() === "" || !Number.isInteger(n)) return { error: "weightNonNegative" };
  return { value: Math.max(0, n) }; // a negative weight is clamped to 0
}

// Response time colours of the channel list (ms).
export function responseTimeColor(ms: number): BadgeColor {
  if (!ms) return "gray";
  if (ms <= 1000) return "green";
  if (ms <= 3000) return "blue";
  if (ms <= 5000) return "yellow";
  return "red";
}
