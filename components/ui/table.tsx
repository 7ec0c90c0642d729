import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "./cn";

export function Table({ children }: { children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
      <table className="w-full border-collapse text-sm">{children}</table>
    </div>
  );
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      className={cn(
        "bg-zinc-50 px-3 py-2 text-left font-medium whitespace-nowrap text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400",
        className,
      )}
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

// The row a list shows instead of its items: loading, failed to load, or empty. Labels
// come from the caller (ui primitives know no messages).
export function ListStatusRow({
  colSpan,
  loading,
  failed,
  empty,
  labels,
}: {
  colSpan: number;
  loading: boolean;
  failed: boolean;
  empty: boolean;
  labels: { loading: ReactNode; failed: ReactNode; empty: ReactNode };
}) {
  const text = loading ? labels.loading : failed ? labels.failed : empty ? labels.empty : null;
  return text === null ? null : <EmptyRow colSpan={colSpan}>{text}</EmptyRow>;
}
