// The channel editor's form: its values (text as typed), the schema that checks them with
// the server's rules (lib/channels/field-rules.ts) and messages, and the request body
// (docs/console-ui.md, "Forms").
import { z } from "zod";
import { splitList } from "@/lib/channels/split-list";
import { isResponsesOnly, withResponsesOnly } from "@/lib/channels/responses-only";
import { createBody, createRefusals, jsonColumnRefusal, priorityRefusal, updateBody, weightRefusal } from "@/lib/channels/field-rules";
import { say, type MessageKey, type ServerCatalogue } from "@/lib/i18n/render";
import type { Channel } from "./types";

export type ChannelForm = {
  type: string;
  name: string;
  base_url: string;
  key: string;
  other: string;
  models: string[];
  model_mapping: string;
  groups: string[];
  tag: string;
  priority: string;
  weight: string;
  auto_ban: boolean;
  test_model: string;
  status_code_mapping: string;
  remark: string;
  batch: boolean;
  /** create: one multi-key channel holding every key line (docs/channels-tokens-billing.md, "Multi-key channels") */
  multi_key: boolean;
  /** a multi-key channel: how the relay picks a key */
  multi_key_mode: "random" | "polling";
  /** edit of a multi-key channel: the key lines are added to the stored keys, or replace them */
  key_mode: "append" | "replace";
  /** the setting `responses_only` (lib/channels/responses-only.ts); `setting` keeps the other keys as loaded */
  responses_only: boolean;
  setting: string;
};

export const blankChannelForm = (): ChannelForm => ({
  type: "1",
  name: "",
  base_url: "",
  key: "",
  other: "",
  models: [],
  model_mapping: "",
  groups: ["default"],
  tag: "",
  priority: "0",
  weight: "0",
  auto_ban: true,
  test_model: "",
  status_code_mapping: "",
  remark: "",
  batch: false,
  multi_key: false,
  multi_key_mode: "random",
  key_mode: "append",
  responses_only: false,
  setting: "",
});

export function channelToForm(c: Channel): ChannelForm {
  return {
    type: String(c.type),
    name: c.name,
    base_url: c.base_url,
    key: "",
    other: c.other,
    models: splitList(c.models),
    model_mapping: c.model_mapping,
    groups: splitList(c.group),
    tag: c.tag ?? "",
    priority: String(c.priority),
    weight: String(c.weight),
    auto_ban: c.auto_ban === 1,
    test_model: c.test_model,
    status_code_mapping: c.status_code_mapping,
    remark: c.remark,
    batch: false,
    multi_key: c.channel_info?.is_multi_key === true,
    multi_key_mode: c.channel_info?.multi_key_mode === "polling" ? "polling" : "random",
    key_mode: "append",
    responses_only: isResponsesOnly(c.setting),
    setting: c.setting,
  };
}

/**
 * The body POST /api/channel/ (id null) or PUT /api/channel/ gets; on edit a blank key keeps the
 * stored one. `responsesOnlyOption`: the type has the "Responses only" setting (GET /api/channel/types).
 */
export function channelBody(f: ChannelForm, id: number | null, responsesOnlyOption = false) {
  const body = {
    type: Number(f.type),
    name: f.name,
    base_url: f.base_url,
    other: f.other,
    models: f.models.join(","),
    model_mapping: f.model_mapping,
    groups: f.groups,
    tag: f.tag,
    priority: f.priority,
    weight: f.weight,
    auto_ban: f.auto_ban ? 1 : 0,
    test_model: f.test_model,
    status_code_mapping: f.status_code_mapping,
    remark: f.remark,
    setting: withResponsesOnly(f.setting, f.responses_only && responsesOnlyOption),
  };
  if (id === null) {
    return f.multi_key
      ? { ...body, key: f.key, mode: "multi_to_single", multi_key_mode: f.multi_key_mode }
      : { ...body, key: f.key, mode: f.batch ? "batch" : "single" };
  }
  const multi = f.multi_key ? { multi_key_mode: f.multi_key_mode, ...(f.key.trim() ? { key_mode: f.key_mode } : {}) } : {};
  return { ...body, id, ...(f.key.trim() ? { key: f.key } : {}), ...multi };
}

const FORM_FIELDS = new Set<string>(Object.keys(blankChannelForm()));

/**
 * The editor's schema, built for a catalogue: the route's schema on the body the form would send
 * (its refusal worded as route() words it), then the verbs' rules on the fields, each under
 * its own field. id null: a new channel (name, models and key required; a negative weight
 * refused), else an edit (a negative weight becomes 0, as the server does).
 */
export function channelFormSchema(catalogue: ServerCatalogue, id: number | null) {
  return z.custom<ChannelForm>().superRefine((f, ctx) => {
    const refuse = (path: string, key: MessageKey) => ctx.addIssue({ code: "custom", path: [path], message: say(catalogue, key) });
    const body = channelBody(f, id);
    const parsed = (id === null ? createBody : updateBody).safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? "");
        const path = field === "mode" ? "batch" : FORM_FIELDS.has(field) ? field : "name";
        ctx.addIssue({ code: "custom", path: [path], message: say(catalogue, "invalid_parameter_detail", { detail: issue.path.join(".") }) });
      }
      return;
    }
    const p = priorityRefusal(f.priority);
    if (p) refuse("priority", p);
    const w = weightRefusal(f.weight, id !== null);
    if (w) refuse("weight", w);
    for (const column of ["model_mapping", "status_code_mapping"] as const) {
      const j = jsonColumnRefusal(column, f[column]);
      if (j) refuse(column, j);
    }
    if (id === null) {
      for (const [field, key] of createRefusals({ name: f.name.trim(), models: f.models.join(","), key: f.key })) refuse(field, key);
    } else if (!f.name.trim()) refuse("name", "channel_name_required");
  });
}
