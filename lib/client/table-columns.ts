// Column visibility of the console's tables (components/data-table/, docs/console-ui.md): a table
// remembers the columns a person hid, under localStorage `table-columns:<table id>`. Hidden
// columns are stored (not shown ones) so that a column added in a later release shows up.
import { readItem, tableColumnsKey, writeItem } from "./storage";
import { dict } from "@/lib/own-keys";

export type ColumnVisibility = Record<string, boolean>;

// The hidden column ids in a stored value: only known, hideable ids, each once; anything else
// (no value, bad JSON, another shape) hides nothing.
export function parseHiddenColumns(raw: string | null, hideable: readonly string[]): string[] {
  if (raw === null) return [];
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(v)) return [];
  return hideable.filter((id) => v.includes(id));
}

// The visibility state of a table (every hideable id: false when hidden).
export function visibilityOf(hidden: readonly string[], hideable: readonly string[]): ColumnVisibility {
  const out: ColumnVisibility = dict<ColumnVisibility[string]>();
  for (const id of hideable) out[id] = !hidden.includes(id);
  return out;
}

// The hidden ids of a visibility state, in the table's column order.
export function hiddenOf(visibility: ColumnVisibility, hideable: readonly string[]): string[] {
  return hideable.filter((id) => visibility[id] === false);
}

export function readHiddenColumns(tableId: string, hideable: readonly string[]): string[] {
  return parseHiddenColumns(readItem(tableColumnsKey(tableId)), hideable);
}

export function writeHiddenColumns(tableId: string, hidden: readonly string[]): void {
  writeItem(tableColumnsKey(tableId), JSON.stringify(hidden));
}
