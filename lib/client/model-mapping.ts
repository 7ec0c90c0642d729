// The model mapping dialog's rules (docs/product-rules.md, "Options"; spec section 5 "Model
// mapping form"): a virtual model name maps to rows {model, priorities}. Pure and free of
// "server-only": the Models tab checks with it before PUT /api/model_mapping/, whose server
// checks again.
export type MappingRow = { model: string; priorities: number };
export type ModelMapping = Record<string, MappingRow[]>;

// Message keys under "modelMapping" in messages/*.json.
export type MappingError = "nameRequired" | "nameExists" | "modelRequired" | "modelRepeated" | "priorityInvalid" | "mapsToItself";

export type MappingDraft = { name: string; rows: Array<{ model: string; priorities: string }> };

/**
 * The entry a draft describes, or the first error. `original` is the virtual name being
 * edited (null when adding): an edit may rename, but not onto another mapping's name.
 */
export function checkMapping(
  draft: MappingDraft,
  mapping: ModelMapping,
  original: string | null,
): { ok: true; name: string; rows: MappingRow[] } | { ok: false; error: MappingError; row?: number } {
  const name = draft.name.trim();
  if (!name) return { ok: false, error: "nameRequired" };
  if (name !== original && Object.prototype.hasOwnProperty.call(mapping, name)) return { ok: false, error: "nameExists" };
  const rows: MappingRow[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < draft.rows.length; i++) {
    const model = draft.rows[i].model.trim();
    if (!model) continue; // an empty row is left out
    if (seen.has(model)) return { ok: false, error: "modelRepeated", row: i };
    // the server refuses it too: a virtual model served by itself would loop
    if (model === name) return { ok: false, error: "mapsToItself", row: i };
    seen.add(model);
    const text = draft.rows[i].priorities.trim();
    const p = text === "" ? 0 : Number(text);
    if (!Number.isInteger(p) || p < 0) return { ok: false, error: "priorityInvalid", row: i };
    rows.push({ model, priorities: p });
  }
  if (rows.length === 0) return { ok: false, error: "modelRequired" };
  return { ok: true, name, rows };
}

/** The mapping with one entry added, replaced or renamed (the others keep their order). */
export function putMapping(mapping: ModelMapping, original: string | null, name: string, rows: MappingRow[]): ModelMapping {
  const out: ModelMapping = {};
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

export function deleteMapping(mapping: ModelMapping, name: string): ModelMapping {
  const { [name]: _gone, ...rest } = mapping;
  return rest;
}

/** The rows of an entry, highest priority first (the order the relay tries them). */
export function byPriority(rows: MappingRow[]): MappingRow[] {
  return [...rows].sort((a, b) => b.priorities - a.priorities);
}

/** GET /api/models answers channel type → models: every model once, sorted, for the picker. */
export function pickerModels(byType: Record<string, string[]> | null | undefined): string[] {
  const set = new Set<string>();
  for (const list of Object.values(byType ?? {})) for (const m of list) set.add(m);
  return [...set].sort();
}
