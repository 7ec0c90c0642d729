"use client";
// The column-visibility menu of a DataTable: one checkbox per hideable column.
import * as P from "@radix-ui/react-popover";
import type { Table } from "@tanstack/react-table";
import { Columns3 } from "lucide-react";
import { useTranslations } from "next-intl";

export function ColumnMenu<T>({ table }: { table: Table<T> }) {
  const t = useTranslations("dataTable");
  const columns = table.getAllLeafColumns().filter((c) => c.getCanHide());
  if (columns.length === 0) return null;
  const hidden = columns.filter((c) => !c.getIsVisible()).length;
  return (
    <P.Root>
      <P.Trigger
        aria-label={t("columns")}
        className="inline-flex h-9 items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-3 text-sm whitespace-nowrap text-zinc-800 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
      >
        <Columns3 aria-hidden className="h-4 w-4 text-zinc-500" />
        {t("columns")}
        {hidden > 0 && (
          <span className="rounded bg-blue-100 px-1.5 text-xs text-blue-800 dark:bg-blue-900/60 dark:text-blue-200">{t("hidden", { n: hidden })}</span>
        )}
      </P.Trigger>
      <P.Portal>
        <P.Content
          align="end"
          sideOffset={4}
          className="z-50 max-h-80 min-w-48 overflow-y-auto rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          {columns.map((c) => (
            <label
              key={c.id}
              className="flex cursor-pointer items-center gap-2 rounded px-3 py-1.5 text-sm text-zinc-800 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800"
            >
              <input type="checkbox" className="h-4 w-4 accent-blue-600" checked={c.getIsVisible()} onChange={c.getToggleVisibilityHandler()} />
              {c.columnDef.meta?.label ?? c.id}
            </label>
          ))}
          <button
            type="button"
            className="mt-1 w-full rounded border-t border-zinc-200 px-3 py-1.5 text-left text-xs text-blue-700 hover:bg-zinc-100 dark:border-zinc-700 dark:text-blue-400 dark:hover:bg-zinc-800"
            onClick={() => table.resetColumnVisibility(true)}
          >
            {t("showAll")}
          </button>
        </P.Content>
      </P.Portal>
    </P.Root>
  );
}
