import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "./cn";

export function Table({ children }: { children: ReactNode }) {
  return (
    // relative: an absolutely placed child (a screen-reader-only label) stays inside the scroll box
    <div className="relative overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
      <table className="w-full border-collapse text-sm">{children}</table>
    </div>
  );
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      className={cn("bg-zinc-50 px-3 py-2 text-left font-medium whitespace-nowrap text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400", className)}
      {...props}
    />
  );
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("border-t border-zinc-200 px-3 py-2 text-zinc-800 dark:border-zinc-800 dark:text-zinc-200", className)} {...props} />;
}

export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <Td colSpan={colSpan} className="py-8 text-center text-zinc-500 dark:text-zinc-400">
        {children}
      </Td>
    </tr>
  );
}

// The header checkbox that selects every row shown, or none when all are.
export function SelectAllHeader<Id extends string | number>({
  label,
  rowIds,
  selected,
  onSelect,
}: {
  label: string;
  rowIds: readonly Id[];
  selected: readonly Id[];
  onSelect: (ids: Id[]) => void;
}) {
  const all = rowIds.length > 0 && rowIds.every((id) => selected.includes(id));
  return (
    <Th className="w-8">
      <input type="checkbox" className="h-4 w-4 accent-blue-600" aria-label={label} checked={all} onChange={() => onSelect(all ? [] : [...rowIds])} />
    </Th>
  );
}
