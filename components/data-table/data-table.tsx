"use client";
// DataTable: the console's one table (docs/console-ui.md, "DataTable"), on @tanstack/react-table 8.
// Columns are tanstack column definitions (`id`, `header`, `cell`, `meta.label`); the table adds
// the selection column, remembers hidden columns per table id, shows sub-rows (groups) or a
// detail row under an expanded row, the loading / error / empty states, and the pager.
// Data comes from the server a page at a time: the table never sorts, filters or pages itself.
import {
  flexRender,
  getCoreRowModel,
  getExpandedRowModel,
  useReactTable,
  type ColumnDef,
  type ExpandedState,
  type Row,
  type RowSelectionState,
  type Updater,
} from "@tanstack/react-table";
import { Fragment, useMemo, useState, type HTMLAttributes, type ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { Pagination } from "@/components/ui/pagination";
import { ColumnMenu } from "./column-menu";
import { EmptyStateRow, ErrorMessage, ErrorStateRow, LoadingRow } from "./states";
import type { DataTablePaging, DataTableSelection } from "./types";
import { useColumnVisibility } from "./use-column-visibility";

export type DataTableProps<T> = {
  // Names the table in localStorage (`table-columns:<id>`): unique per table of the console.
  id: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of different value types, as tanstack's own examples type them
  columns: ColumnDef<T, any>[];
  // The rows of the current page; undefined while nothing has been loaded.
  rows: T[] | undefined;
  getRowId: (row: T) => string;
  // A load under way: with no rows yet the loading row shows; over rows already shown (a
  // refresh) they are dimmed and the body is marked aria-busy.
  loading?: boolean;
  // A failed load: shown with a retry button (onRetry) when there are no rows to show.
  error?: unknown;
  onRetry?: () => void;
  emptyText?: ReactNode;
  errorText?: ReactNode;
  loadingText?: ReactNode;
  // Controls shown above the table (filters, switches); the column menu sits at their end.
  toolbar?: ReactNode;
  // false: no column menu (every column always shown).
  columnMenu?: boolean;
  // Extra attributes of a body row (data-testid, className); depth > 0 for a sub-row.
  rowProps?: (row: T, depth: number) => HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | undefined };
  selection?: DataTableSelection<T>;
  // Groups: the rows shown under a row when it is expanded (channel tag mode).
  getSubRows?: (row: T) => T[] | undefined;
  // Details: a full-width row shown under an expanded row (usage logs).
  renderDetail?: (row: T) => ReactNode;
  paging?: DataTablePaging;
};

function selectionRecord(ids: string[]): RowSelectionState {
  return Object.fromEntries(ids.map((id) => [id, true]));
}

function Checkbox({ label, checked, indeterminate, onChange }: { label: string; checked: boolean; indeterminate?: boolean; onChange: () => void }) {
  return (
    <input
      type="checkbox"
      className="h-4 w-4 accent-blue-600"
      aria-label={label}
      checked={checked}
      ref={(el) => {
        if (el) el.indeterminate = !!indeterminate && !checked;
      }}
      onChange={onChange}
    />
  );
}

// The checkbox column: a group's box selects its children; the header's selects (or clears)
// every row of the page, keeping what is selected on other pages (a list paged in the browser).
function selectColumn<T>(s: DataTableSelection<T>): ColumnDef<T> {
  return {
    id: "__select",
    enableHiding: false,
    meta: { hideable: false, className: "w-8", headerClassName: "w-8" },
    header: ({ table }) => {
      const rows = table.getCoreRowModel().flatRows.filter((r) => r.getCanSelect());
      const chosen = rows.filter((r) => r.getIsSelected()).length;
      const all = rows.length > 0 && chosen === rows.length;
      return (
        <Checkbox
          label={s.allLabel}
          checked={all}
          indeterminate={chosen > 0}
          onChange={() =>
            table.setRowSelection((current) => {
              const next = Object.assign({}, current);
              for (const r of rows) {
                if (all) delete next[r.id];
                else next[r.id] = true;
              }
              return next;
            })
          }
        />
      );
    },
    cell: ({ row }) => {
      if (row.subRows.length > 0) {
        const all = row.getIsAllSubRowsSelected();
        return <Checkbox label={s.rowLabel(row.original)} checked={all} indeterminate={row.getIsSomeSelected()} onChange={() => row.toggleSelected(!all)} />;
      }
      return <Checkbox label={s.rowLabel(row.original)} checked={row.getIsSelected()} onChange={() => row.toggleSelected()} />;
    },
  };
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { id, rows, selection, getSubRows, renderDetail, paging, rowProps } = props;
  const columns = useMemo(() => (selection ? [selectColumn(selection), ...props.columns] : props.columns), [selection, props.columns]);
  const hideable = useMemo(
    () => props.columns.filter((c) => c.id && c.meta?.hideable !== false && c.enableHiding !== false).map((c) => c.id as string),
    [props.columns],
  );
  const [columnVisibility, setColumnVisibility] = useColumnVisibility(id, hideable);
  const [expanded, setExpanded] = useState<ExpandedState>({});
  const rowSelection = useMemo(() => selectionRecord(selection?.selected ?? []), [selection?.selected]);

  // eslint-disable-next-line react-hooks/incompatible-library -- the console is not built with the React Compiler (eslint.config.mjs)
  const table = useReactTable<T>({
    data: rows ?? [],
    columns,
    getRowId: props.getRowId,
    getCoreRowModel: getCoreRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    getSubRows,
    getRowCanExpand: renderDetail ? () => true : (row) => row.subRows.length > 0,
    manualPagination: true,
    state: { columnVisibility, rowSelection, expanded },
    onColumnVisibilityChange: (u) => setColumnVisibility(typeof u === "function" ? u(columnVisibility) : u),
    enableRowSelection: (row) => !!selection && row.subRows.length === 0,
    enableSubRowSelection: true,
    onRowSelectionChange: (u: Updater<RowSelectionState>) => {
      const next = typeof u === "function" ? u(rowSelection) : u;
      selection?.onChange(Object.keys(next).filter((k) => next[k]));
    },
    onExpandedChange: setExpanded,
  });

  const leaves = table.getVisibleLeafColumns();
  const colSpan = Math.max(1, leaves.length);
  const bodyRows = table.getRowModel().rows;
  let state: ReactNode = null;
  if (!rows || rows.length === 0) {
    if (rows) state = <EmptyStateRow colSpan={colSpan} text={props.emptyText} />;
    else if (props.error) state = <ErrorStateRow colSpan={colSpan} text={props.errorText} onRetry={props.onRetry} />;
    else state = <LoadingRow colSpan={colSpan} text={props.loadingText} />;
  }

  const renderRow = (row: Row<T>) => {
    const extra = rowProps?.(row.original, row.depth) ?? {};
    return (
      <Fragment key={row.id}>
        <tr {...extra} className={cn(row.depth > 0 && "bg-zinc-50/60 dark:bg-zinc-900/60", extra.className)}>
          {row.getVisibleCells().map((cell) => (
            <td
              key={cell.id}
              className={cn(
                "border-t border-zinc-200 px-3 py-2 align-middle text-zinc-800 dark:border-zinc-800 dark:text-zinc-200",
                cell.column.columnDef.meta?.className,
              )}
            >
              {flexRender(cell.column.columnDef.cell, cell.getContext())}
            </td>
          ))}
        </tr>
        {renderDetail && row.getIsExpanded() && (
          <tr>
            <td colSpan={colSpan} className="border-t border-zinc-200 bg-zinc-50 px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900">
              {/* as wide as the card and kept in its view when a wide table is scrolled sideways */}
              <div className="sticky left-3 w-[calc(100cqw-1.5rem)]">{renderDetail(row.original)}</div>
            </td>
          </tr>
        )}
      </Fragment>
    );
  };

  const showMenu = props.columnMenu !== false && hideable.length > 0;
  return (
    <div className="flex min-w-0 flex-col gap-3">
      {(props.toolbar || showMenu) && (
        <div className="flex flex-wrap items-center gap-2">
          {props.toolbar}
          {showMenu && (
            <div className="ml-auto">
              <ColumnMenu table={table} />
            </div>
          )}
        </div>
      )}
      {/* The card scrolls sideways on a narrow screen instead of widening the page. */}
      {/* With detail rows it is their size container (100cqw: the card's visible width). */}
      <div
        className={cn(
          "max-w-full overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-950",
          renderDetail && "@container",
        )}
      >
        <table className="w-full border-collapse text-sm">
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((h) => (
                  <th
                    key={h.id}
                    className={cn(
                      "bg-zinc-50 px-3 py-2 text-left font-medium whitespace-nowrap text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400",
                      h.column.columnDef.meta?.headerClassName,
                    )}
                  >
                    {h.isPlaceholder
                      ? null
                      : h.column.columnDef.header
                        ? flexRender(h.column.columnDef.header, h.getContext())
                        : h.column.columnDef.meta?.label}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody aria-busy={props.loading || undefined} className={cn(props.loading && rows && rows.length > 0 && "opacity-60 transition-opacity")}>
            {state}
            {rows && rows.length > 0 && bodyRows.map(renderRow)}
          </tbody>
        </table>
      </div>
      {/* A failed refresh while older rows are still shown. */}
      {rows && rows.length > 0 && props.error ? <ErrorMessage text={props.errorText} onRetry={props.onRetry} /> : null}
      {paging && (
        <Pagination
          page={paging.page}
          pageSize={paging.pageSize}
          total={paging.total}
          totalExact={paging.totalExact}
          onPage={paging.onPage}
          onPageSize={paging.onPageSize}
        />
      )}
    </div>
  );
}
