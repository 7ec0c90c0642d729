// Types of the DataTable kit (docs/console-ui.md, "DataTable"). Generic: no domain imports here.
import type { RowData } from "@tanstack/react-table";

declare module "@tanstack/react-table" {
  // What a column definition may say beyond @tanstack/react-table's own fields.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- a declaration merge must repeat tanstack's type parameters
  interface ColumnMeta<TData extends RowData, TValue> {
    // The column's name in the header (when `header` is not given) and in the column menu.
    label?: string;
    // false: always shown and left out of the column menu (selection, actions). Default true.
    hideable?: boolean;
    // Classes of the body cells and of the header cell.
    className?: string;
    headerClassName?: string;
  }
}

// Paging: the page shown (0-based), its size and the total (counted by the server, or the
// length of a list paged in the browser: useClientPaging). Without onPageSize the size is fixed.
export type DataTablePaging = {
  page: number;
  pageSize: number;
  total: number;
  // false: the server stopped counting at `total` (a bounded count, docs/api-reference.md);
  // shown as "total+", and the pager offers the page after the last counted one.
  totalExact?: boolean;
  onPage: (page: number) => void;
  onPageSize?: (size: number) => void;
};

// Row selection: the selected row ids (getRowId's), kept by the page for its batch actions.
// A row with sub-rows (a group) is not selectable itself: its checkbox selects its children.
export type DataTableSelection<T> = {
  selected: string[];
  onChange: (ids: string[]) => void;
  // Accessible names of a row's checkbox and of the header's select-all checkbox.
  rowLabel: (row: T) => string;
  allLabel: string;
};
