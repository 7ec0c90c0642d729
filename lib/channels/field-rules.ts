// The channel input rules shared by the server (lib/channels/schemas.ts and the verbs) and
// the channel editor (components/channels/channel-form.ts), so both refuse with the same
// message (docs/console-ui.md, "Forms"). Pure: no "server-only", no I/O.
import { z } from "zod";
import type { MessageKey } from "@/lib/i18n/server-messages";
import { multiKeyMode } from "@/lib/channels/multi-key-rules";

const list = z.union([z.string(), z.array(z.string())]);
const jsonText = z.union([z.string(), z.record(z.string(), z.unknown())]);

export const channelFields = z.object({
  type: z.coerce.number().int().min(0).optional(),
  name: z.string().max(200).optional(),
  key: z.string().max(100_000).optional(),
  base_url: z.string().max(2000).nullish(),
  other: z.string().max(10_000).nullish(),
  models: list.optional(),
  group: list.optional(),
  groups: z.array(z.string()).optional(),
  tag: z.string().max(200).nullish(),
  priority: z.unknown().optional(),
  weight: z.unknown().optional(),
  status: z.coerce.number().int().min(1).max(3).optional(),
  auto_ban: z.coerce.number().int().min(0).max(1).optional(),
  test_model: z.string().max(200).nullish(),
  remark: z.string().max(2000).nullish(),
  model_mapping: jsonText.nullish(),
  status_code_mapping: jsonText.nullish(),
  param_override: jsonText.nullish(),
  header_override: jsonText.nullish(),
  setting: jsonText.nullish(),
});
export type ChannelFields = z.infer<typeof channelFields>;

// mode "multi_to_single": one multi-key channel holding every key line (new-api's name),
// used at random or in turn ("polling") as multi_key_mode says.
export const createBody = channelFields.extend({
  mode: z.enum(["single", "batch", "multi_to_single"]).optional(),
  multi_key_mode: multiKeyMode.optional(),
  channel: channelFields.optional(),
});

// A multi-key channel's key lines replace its keys, or with key_mode "append" are added to them.
export const updateBody = channelFields.extend({
  id: z.coerce.number().int().positive(),
  key_mode: z.enum(["replace", "append"]).optional(),
  multi_key_mode: multiKeyMode.optional(),
});

const INT_MAX = 2_000_000_000;
const asNumber = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v);

/** A priority: an integer within ±2,000,000,000 (text or number). */
export function priorityRefusal(v: unknown): MessageKey | null {
  const n = asNumber(v);
  return typeof n === "number" && Number.isInteger(n) && Math.abs(n) <= INT_MAX ? null : "priority_must_be_integer";
}

/**
 * A weight: an integer up to 2,000,000,000, not negative. clampNegative: the edit rule
 * (a negative weight becomes 0 rather than being refused).
 */
export function weightRefusal(v: unknown, clampNegative: boolean): MessageKey | null {
  const n = asNumber(v);
  if (typeof n !== "number" || !Number.isInteger(n) || n > INT_MAX) return "weight_must_be_non_negative";
  return n < 0 && !clampNegative ? "weight_must_be_non_negative" : null;
}

/** A JSON object as text, or null when it is not one (empty text is the empty object). */
export function parseObject(text: string): Record<string, unknown> | null {
  if (!text.trim()) return {};
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export type JsonColumn = "model_mapping" | "status_code_mapping" | "param_override" | "header_override" | "setting";

// Each JSON column names itself in its refusal where the console has a field for it.
const JSON_REFUSAL: Record<JsonColumn, MessageKey> = {
  model_mapping: "channel_model_mapping_invalid",
  status_code_mapping: "channel_status_code_mapping_invalid",
  param_override: "channel_setting_invalid",
  header_override: "channel_setting_invalid",
  setting: "channel_setting_invalid",
};

export function jsonColumnRefusal(column: JsonColumn, v: string | Record<string, unknown>): MessageKey | null {
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return parseObject(text) === null ? JSON_REFUSAL[column] : null;
}

/** What a new channel needs beyond the column rules: a name, models and a key (trimmed). */
export function createRefusals(f: { name: string; models: string; key: string }): [keyof typeof f, MessageKey][] {
  const out: [keyof typeof f, MessageKey][] = [];
  if (!f.name.trim()) out.push(["name", "channel_name_required"]);
  if (!f.models.trim()) out.push(["models", "channel_models_required"]);
  if (!f.key.trim()) out.push(["key", "channel_key_required"]);
  return out;
}
