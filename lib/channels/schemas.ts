// Input shapes of the channel calls (new-api field names; the pure rules live in
// lib/channels/field-rules.ts, shared with the editor) and their normalisation into
// column values. Lists may come as "a,b" or ["a","b"]; JSON columns as text or objects.
import "server-only";
import { AppError } from "@/lib/errors";
import { refusalMessageKey, urlRefusal } from "@/lib/net/outbound";
import { jsonColumnRefusal, priorityRefusal, weightRefusal, type ChannelFields, type JsonColumn } from "@/lib/channels/field-rules";
import { splitList } from "@/lib/channels/split-list";

export { channelFields, createBody, updateBody, type ChannelFields } from "@/lib/channels/field-rules";

export function parsePriority(v: unknown): number {
  const refusal = priorityRefusal(v);
  if (refusal) throw new AppError("INVALID_INPUT", refusal);
  return Number(v);
}

// clampNegative: the inline editor's and the edit form's rule (a negative weight becomes 0).
export function parseWeight(v: unknown, clampNegative: boolean): number {
  const refusal = weightRefusal(v, clampNegative);
  if (refusal) throw new AppError("INVALID_INPUT", refusal);
  return Math.max(0, Number(v));
}

const joinList = (v: string | string[]) => splitList(Array.isArray(v) ? v.join(",") : v).join(",");

function jsonColumn(column: JsonColumn, v: string | Record<string, unknown>): string {
  const refusal = jsonColumnRefusal(column, v);
  if (refusal) throw new AppError("INVALID_INPUT", refusal);
  return (typeof v === "string" ? v : JSON.stringify(v)).trim();
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
  if (input.model_mapping != null) data.model_mapping = jsonColumn("model_mapping", input.model_mapping);
  if (input.status_code_mapping != null) data.status_code_mapping = jsonColumn("status_code_mapping", input.status_code_mapping);
  if (input.param_override != null) data.param_override = jsonColumn("param_override", input.param_override);
  if (input.header_override != null) data.header_override = jsonColumn("header_override", input.header_override);
  if (input.setting != null) data.setting = jsonColumn("setting", input.setting);
  return data;
}
