// Input shapes of the channel calls (new-api field names) and their normalisation into
// column values. Lists may come as "a,b" or ["a","b"]; JSON columns as text or objects.
import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { refusalMessageKey, urlRefusal } from "@/lib/net/outbound";
import { parseObject } from "@/lib/channels/shared";
import { splitList } from "@/lib/channels/split-list";

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

export const createBody = channelFields.extend({
  mode: z.enum(["single", "batch", "multi_to_single"]).optional(),
  channel: channelFields.optional(),
});

export const updateBody = channelFields.extend({ id: z.coerce.number().int().positive() });

export function parsePriority(v: unknown): number {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || Math.abs(n) > 2_000_000_000) {
    throw new AppError("INVALID_INPUT", "priority_must_be_integer");
  }
  return n;
}

// clampNegative: the inline editor's rule (a negative weight becomes 0).
export function parseWeight(v: unknown, clampNegative: boolean): number {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n > 2_000_000_000) {
    throw new AppError("INVALID_INPUT", "weight_must_be_non_negative");
  }
  if (n < 0) {
    if (clampNegative) return 0;
    throw new AppError("INVALID_INPUT", "weight_must_be_non_negative");
  }
  return n;
}

const joinList = (v: string | string[]) => splitList(Array.isArray(v) ? v.join(",") : v).join(",");

function jsonColumn(v: string | Record<string, unknown>, invalid: "channel_model_mapping_invalid" | "channel_setting_invalid"): string {
  const text = typeof v === "string" ? v : JSON.stringify(v);
  if (parseObject(text) === null) throw new AppError("INVALID_INPUT", invalid);
  return text.trim();
}

// Column values for the fields present in the input (absent fields are left alone).
// The key is returned in clear; the caller seals it.
export function columns(input: ChannelFields, opts: { clampWeight: boolean }) {
  const data: Record<string, unknown> = {};
  if (input.type !== undefined) data.type = input.type;
  if (input.name !== undefined) data.name = input.name.trim();
  if (input.base_url !== undefined) {
    const base = (input.base_url ?? "").trim().replace(/\/+$/, "");
    // refused at once when the URL alone says so (docs/outbound.md); names at connect time
    const refusal = base ? urlRefusal(base) : null;
    if (refusal) throw new AppError("INVALID_INPUT", refusalMessageKey(refusal.reason));
    data.base_url = base;
  }
  if (input.other !== undefined) data.other = input.other ?? "";
  if (input.models !== undefined) data.models = joinList(input.models);
  if (input.groups !== undefined) data.group = joinList(input.groups);
  else if (input.group !== undefined) data.group = joinList(input.group);
  if (input.tag !== undefined) data.tag = input.tag?.trim() ? input.tag.trim() : null;
  if (input.priority !== undefined && input.priority !== null) data.priority = parsePriority(input.priority);
  if (input.weight !== undefined && input.weight !== null) data.weight = parseWeight(input.weight, opts.clampWeight);
  if (input.status !== undefined) data.status = input.status;
  if (input.auto_ban !== undefined) data.auto_ban = input.auto_ban;
  if (input.test_model !== undefined) data.test_model = input.test_model ?? "";
  if (input.remark !== undefined) data.remark = input.remark ?? "";
  if (input.model_mapping != null) data.model_mapping = jsonColumn(input.model_mapping, "channel_model_mapping_invalid");
  if (input.status_code_mapping != null) data.status_code_mapping = jsonColumn(input.status_code_mapping, "channel_setting_invalid");
  if (input.param_override != null) data.param_override = jsonColumn(input.param_override, "channel_setting_invalid");
  if (input.header_override != null) data.header_override = jsonColumn(input.header_override, "channel_setting_invalid");
  if (input.setting != null) data.setting = jsonColumn(input.setting, "channel_setting_invalid");
  return data;
}
