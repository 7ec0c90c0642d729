// Model mapping (docs/relay.md, "Virtual models"): a virtual model name maps to a list of
// actual models with priorities. This file holds the one set of rules for it, pure and
// without "server-only" (hence its own folder, outside lib/options) so that the console's
// dialog can validate with the same schema:
//   - modelMappingShape: the JSON shape (names are strings, priorities integers >= 0, at
//     least one actual model per virtual name), what route() parses the body with;
//   - mappingProblem: the rules across entries (a virtual name given twice once trimmed,
//     an actual model repeated within a mapping, a virtual name that maps to itself),
//     with the message key and its parameters, which the verb and the option check throw;
//   - modelMappingSchema: both together, with the path of the refused entry (the console's
//     dialog marks the row with it);
//   - orderActualModels / orderEntries: the order the relay tries the actual models in.
// Message keys are those of lib/i18n/server-messages.ts ("msg:<key>" in a zod message).
import { z } from "zod";

export type MappingEntry = { model: string; priorities: number };
export type ModelMapping = Record<string, MappingEntry[]>;

// Bounds: names as long as a channel's model names may reasonably be, and a mapping small
// enough to be held in one option row and compiled on every change (docs/relay.md).
export const MAPPING_LIMITS = {
  nameLength: 200,
  virtualModels: 1000,
  actualModels: 50,
  maxPriority: 2_147_483_647,
} as const;

const entryShape = z.object({
  model: z.string({ error: "msg:mapping_actual_model_required" }).trim().min(1, "msg:mapping_actual_model_required").max(MAPPING_LIMITS.nameLength),
  priorities: z
    .number({ error: "msg:mapping_priorities_invalid" })
    .int("msg:mapping_priorities_invalid")
    .min(0, "msg:mapping_priorities_invalid")
    .max(MAPPING_LIMITS.maxPriority, "msg:mapping_priorities_invalid"),
});

export const modelMappingShape = z
  .record(
    z.string().max(MAPPING_LIMITS.nameLength),
    z.array(entryShape, { error: "msg:mapping_actual_models_required" }).min(1, "msg:mapping_actual_models_required").max(MAPPING_LIMITS.actualModels),
  )
  .refine((m) => Object.keys(m).length <= MAPPING_LIMITS.virtualModels, "msg:mapping_too_many");

export type MappingProblem = {
  key: "mapping_virtual_name_required" | "mapping_virtual_name_exists" | "mapping_actual_model_repeated" | "mapping_maps_to_itself";
  params: Record<string, string>;
  path: (string | number)[];
};

// The rules across entries, on a mapping whose shape is valid. Virtual names are compared
// trimmed: " smart" and "smart" would be the same name to a client, so the second is
// refused as existing (the dialog's rename onto an existing name sends the same object).
export function mappingProblem(mapping: ModelMapping): MappingProblem | null {
  const seen = new Set<string>();
  for (const [rawName, entries] of Object.entries(mapping)) {
    const name = rawName.trim();
    if (!name) return { key: "mapping_virtual_name_required", params: {}, path: [rawName] };
    if (seen.has(name)) return { key: "mapping_virtual_name_exists", params: { name }, path: [rawName] };
    seen.add(name);
    const models = new Set<string>();
    for (let i = 0; i < entries.length; i++) {
      const model = entries[i].model.trim();
      if (model === name) return { key: "mapping_maps_to_itself", params: { name }, path: [rawName, i, "model"] };
      if (models.has(model)) return { key: "mapping_actual_model_repeated", params: { name, model }, path: [rawName, i, "model"] };
      models.add(model);
    }
  }
  return null;
}

export const modelMappingSchema = modelMappingShape.superRefine((m, ctx) => {
  const p = mappingProblem(m);
  if (p) ctx.addIssue({ code: "custom", message: `msg:${p.key}`, params: p.params, path: p.path });
});

// The stored form: names trimmed, entries in the order given (ties of priority keep it).
// Object.fromEntries defines own properties, so a name such as "__proto__" stays an entry.
export function normalizeMapping(mapping: ModelMapping): ModelMapping {
  return Object.fromEntries(
    Object.entries(mapping).map(([name, entries]) => [name.trim(), entries.map((e) => ({ model: e.model.trim(), priorities: e.priorities }))]),
  );
}

// Highest priority first; equal priorities keep the order of the list (a stable sort). The
// console's table shows the entries in this order too.
export function orderEntries<E extends MappingEntry>(entries: readonly E[]): E[] {
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => b.e.priorities - a.e.priorities || a.i - b.i)
    .map((x) => x.e);
}

export function orderActualModels(entries: readonly MappingEntry[]): string[] {
  return orderEntries(entries).map((e) => e.model);
}

export type MappingCheck = { ok: true; mapping: ModelMapping } | { ok: false; key: string; params?: Record<string, string> };

// A mapping as a value (PUT /api/model_mapping/'s body field, or the option's JSON text),
// checked by every rule: the first refusal's message key (and parameters), or the mapping
// normalized for storage.
export function checkMapping(value: unknown): MappingCheck {
  // zod builds a record's output with assignments, which leave a "__proto__" key out (it would
  // replace the prototype): refused here rather than dropped without a word (docs/conventions.md,
  // "Own keys"; a console body never gets here with one: lib/http/route.ts). "constructor" and
  // "toString" are names like others.
  if (value && typeof value === "object" && Object.hasOwn(value, "__proto__")) return { ok: false, key: "mapping_virtual_name_reserved" };
  const shape = modelMappingShape.safeParse(value);
  if (!shape.success) {
    const message = shape.error.issues[0]?.message ?? "";
    return { ok: false, key: message.startsWith("msg:") ? message.slice(4) : "invalid_parameter" };
  }
  const problem = mappingProblem(shape.data);
  if (problem) return { ok: false, key: problem.key, params: problem.params };
  return { ok: true, mapping: normalizeMapping(shape.data) };
}
