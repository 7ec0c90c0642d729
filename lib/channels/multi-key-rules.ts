// Multi-key channels (docs/channels-tokens-billing.md, "Multi-key channels"): the state kept
// in the channel's `channel_info` column (new-api's field names) and the pure rules over it,
// shared by the server and the channel editor. No key material is ever in this state: the
// keys themselves are sealed together in the channel's `key` column, one per line, and a key
// is known here only by its index (its line). Pure: no "server-only", no I/O.
import { z } from "zod";
import type { MessageKey } from "@/lib/i18n/server-messages";
import { dict } from "@/lib/own-keys";
import { KEY_STATUS } from "@/lib/statuses";

export const MULTI_KEY_MODES = ["random", "polling"] as const;
export type MultiKeyMode = (typeof MULTI_KEY_MODES)[number];

export type ChannelInfo = {
  is_multi_key: boolean;
  multi_key_size: number;
  multi_key_mode: MultiKeyMode;
  /** index -> status, for keys that are not enabled (an absent index is enabled) */
  multi_key_status_list: Record<string, number>;
  multi_key_disabled_reason: Record<string, string>;
  /** index -> unix seconds */
  multi_key_disabled_time: Record<string, number>;
};

export const singleKeyInfo = (): ChannelInfo => ({
  is_multi_key: false,
  multi_key_size: 0,
  multi_key_mode: "random",
  multi_key_status_list: {},
  multi_key_disabled_reason: {},
  multi_key_disabled_time: {},
});

export const newMultiKeyInfo = (size: number, mode: MultiKeyMode): ChannelInfo => ({
  ...singleKeyInfo(),
  is_multi_key: true,
  multi_key_size: size,
  multi_key_mode: mode,
});

const numberMap = (v: unknown): Record<string, number> => {
  const out = dict<number>();
  if (v && typeof v === "object" && !Array.isArray(v)) for (const [k, n] of Object.entries(v)) if (/^\d+$/.test(k) && typeof n === "number") out[k] = n;
  return out;
};
const stringMap = (v: unknown): Record<string, string> => {
  const out = dict<string>();
  if (v && typeof v === "object" && !Array.isArray(v)) for (const [k, s] of Object.entries(v)) if (/^\d+$/.test(k) && typeof s === "string") out[k] = s;
  return out;
};

/** The column's text read leniently: anything unreadable is a single-key channel. */
export function parseChannelInfo(text: string | null | undefined): ChannelInfo {
  if (!text || !text.trim()) return singleKeyInfo();
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return singleKeyInfo();
  }
  if (!v || typeof v !== "object" || v.is_multi_key !== true) return singleKeyInfo();
  return {
    is_multi_key: true,
    multi_key_size: typeof v.multi_key_size === "number" ? v.multi_key_size : 0,
    multi_key_mode: v.multi_key_mode === "polling" ? "polling" : "random",
    multi_key_status_list: numberMap(v.multi_key_status_list),
    multi_key_disabled_reason: stringMap(v.multi_key_disabled_reason),
    multi_key_disabled_time: numberMap(v.multi_key_disabled_time),
  };
}

export const keyStatus = (info: ChannelInfo, index: number): number => info.multi_key_status_list[String(index)] ?? KEY_STATUS.enabled;

export type KeyRow = { index: number; status: number; reason: string; time: number };

/** One row per key, for the editor: index, status, and why and when it was disabled. */
export function keyRows(info: ChannelInfo): KeyRow[] {
  const rows: KeyRow[] = [];
  for (let i = 0; i < info.multi_key_size; i++) {
    const k = String(i);
    rows.push({ index: i, status: keyStatus(info, i), reason: info.multi_key_disabled_reason[k] ?? "", time: info.multi_key_disabled_time[k] ?? 0 });
  }
  return rows;
}

export const enabledKeyCount = (info: ChannelInfo): number => keyRows(info).filter((r) => r.status === KEY_STATUS.enabled).length;

/** The state with key `index` set to `status` (an enabled key keeps no reason nor time). */
export function withKeyStatus(info: ChannelInfo, index: number, status: number, reason: string, time: number): ChannelInfo {
  const k = String(index);
  const next: ChannelInfo = {
    ...info,
    multi_key_status_list: { ...info.multi_key_status_list },
    multi_key_disabled_reason: { ...info.multi_key_disabled_reason },
    multi_key_disabled_time: { ...info.multi_key_disabled_time },
  };
  if (status === KEY_STATUS.enabled) {
    delete next.multi_key_status_list[k];
    delete next.multi_key_disabled_reason[k];
    delete next.multi_key_disabled_time[k];
  } else {
    next.multi_key_status_list[k] = status;
    next.multi_key_disabled_time[k] = time;
    if (reason) next.multi_key_disabled_reason[k] = reason;
    else delete next.multi_key_disabled_reason[k];
  }
  return next;
}

/** The state once the keys at `indexes` are removed: the later keys move up, with their status. */
export function withoutKeys(info: ChannelInfo, indexes: Set<number>): ChannelInfo {
  let next: ChannelInfo = { ...info, multi_key_size: 0, multi_key_status_list: {}, multi_key_disabled_reason: {}, multi_key_disabled_time: {} };
  for (const row of keyRows(info)) {
    if (indexes.has(row.index)) continue;
    const at = next.multi_key_size++;
    if (row.status !== KEY_STATUS.enabled) next = withKeyStatus(next, at, row.status, row.reason, row.time);
  }
  return next;
}

/**
 * The keys of a multi-key input: one per non-empty line, or a JSON array (of strings, or of
 * objects such as service-account keys, each stored as one line of compact JSON). Trimmed,
 * duplicates dropped. A key cannot span lines: the stored keys are one per line.
 */
export function splitKeys(text: string): string[] {
  const t = text.trim();
  let keys: string[];
  if (t.startsWith("[")) {
    try {
      const v = JSON.parse(t) as unknown;
      keys = Array.isArray(v) ? v.map((k) => (typeof k === "string" ? k : JSON.stringify(k))) : [t];
    } catch {
      keys = t.split("\n");
    }
  } else keys = t.split("\n");
  return [...new Set(keys.map((k) => k.trim()).filter(Boolean))];
}

/** The most keys one channel holds. */
export const MAX_KEYS = 1000;

export function multiKeyRefusal(keys: string[]): MessageKey | null {
  if (!keys.length) return "channel_key_required";
  if (keys.length > MAX_KEYS) return "channel_too_many_keys";
  if (keys.some((k) => k.includes("\n"))) return "channel_key_multiline";
  return null;
}

export const multiKeyMode = z.enum(MULTI_KEY_MODES);

/** POST /api/channel/multi_key/manage (new-api's actions on one key, or on all of them). */
export const manageKeysBody = z.object({
  channel_id: z.coerce.number().int().positive(),
  action: z.enum(["enable_key", "disable_key", "delete_key", "enable_all_keys", "delete_disabled_keys"]),
  key_index: z.coerce.number().int().min(0).max(MAX_KEYS).optional(),
});
export type ManageKeysInput = z.infer<typeof manageKeysBody>;
