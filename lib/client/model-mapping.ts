// The model mapping dialog (docs/relay.md, "Virtual models"): the draft it edits checked by
// the one set of rules the server applies (lib/model-mapping/schema.ts), so that the dialog
// and PUT /api/model_mapping/ refuse the same things with the same messages (message keys of
// lib/i18n/server-messages.ts), limits included. Pure and free of "server-only".
import type { MessageKey, MessageParams } from "@/lib/i18n/server-messages";
import { checkMapping, modelMappingSchema, type MappingEntry, type ModelMapping } from "@/lib/model-mapping/schema";
import { dict } from "@/lib/own-keys";

export type { MappingEntry, ModelMapping };

/** What the dialog holds: the virtual name and its rows as typed. */
export type MappingDraft = { name: string; rows: Array<{ model: string; priorities: string }> };

export type DraftCheck = { ok: true; mapping: ModelMapping } | { ok: false; key: MessageKey; params?: MessageParams; row?: number };

/** The mapping with one entry added, replaced or renamed (the others keep their order). */
export function putMapping(mapping: ModelMapping, original: string | null, name: string, rows: MappingEntry[]): ModelMapping {
  const out = dict<MappingEntry[]>();
  let placed = false;
  for (const [k, v] of Object.entries(mapping)) {
    if (k === original) {
      out[name] = rows;
      placed = true;
    } else if (k !== name) out[k] = v;
  }
  if (!placed) out[name] = rows;
  return out;
}

/**
 * The whole mapping the dialog would save, checked as the server checks it, or the first
 * refusal (with the draft row it concerns, to mark it). `original` is the virtual name
 * being edited (null when adding). Two conveniences of the form only: an empty row is left
 * out, and an empty priority reads 0.
 */
export function checkDraft(draft: MappingDraft, mapping: ModelMapping, original: string | null): DraftCheck {
  const name = draft.name.trim();
  if (!name) return { ok: false, key: "mapping_virtual_name_required" };
  // a rename onto another entry's name would replace it in the object: refused as the
  // server refuses a name given twice
  if (name !== original && Object.hasOwn(mapping, name)) return { ok: false, key: "mapping_virtual_name_exists", params: { name } };
  const kept: number[] = [];
  const rows: MappingEntry[] = [];
  draft.rows.forEach((r, i) => {
    if (r.model.trim() === "") return;
    kept.push(i);
    const p = r.priorities.trim();
    rows.push({ model: r.model.trim(), priorities: p === "" ? 0 : Number(p) });
  });
  const next = putMapping(mapping, original, name, rows);
  const check = checkMapping(next);
  if (check.ok) return check;
  const issue = modelMappingSchema.safeParse(next).error?.issues[0];
  const at = issue && issue.path[0] === name && typeof issue.path[1] === "number" ? kept[issue.path[1]] : undefined;
  return { ok: false, key: check.key as MessageKey, params: check.params, row: at };
}

export function deleteMapping(mapping: ModelMapping, name: string): ModelMapping {
  const { [name]: _gone, ...rest } = mapping;
  return rest;
}

/** GET /api/models answers channel type → models: every model once, sorted, for the picker. */
export function pickerModels(byType: Record<string, string[]> | null | undefined): string[] {
  const set = new Set<string>();
  for (const list of Object.values(byType ?? {})) for (const m of list) set.add(m);
  return [...set].sort();
}
