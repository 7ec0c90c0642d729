"use client";
// The rows a table shows instead of its items: loading, failed (with a retry), empty.
import { RotateCw } from "lucide-react";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";

function StateRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="border-t border-zinc-200 px-3 py-8 text-center text-sm text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
        {children}
      </td>
    </tr>
  );
}

export function LoadingRow({ colSpan, text }: { colSpan: number; text?: ReactNode }) {
  const t = useTranslations("dataTable");
  return (
    <StateRow colSpan={colSpan}>
      <span role="status" className="inline-flex items-center gap-2">
        <RotateCw aria-hidden className="h-4 w-4 animate-spin" />
        {text ?? t("loading")}
      </span>
    </StateRow>
  );
}

export function EmptyStateRow({ colSpan, text }: { colSpan: number; text?: ReactNode }) {
  const t = useTranslations("dataTable");
  return <StateRow colSpan={colSpan}>{text ?? t("empty")}</StateRow>;
}

// The failure as the API answered it was already toasted (lib/client/api.ts); the row says
// the list is missing and offers to fetch it again.
export function ErrorMessage({ text, onRetry }: { text?: ReactNode; onRetry?: () => void }) {
  const t = useTranslations("dataTable");
  return (
    <span role="alert" className="inline-flex flex-wrap items-center justify-center gap-3 text-sm text-red-700 dark:text-red-400">
      {text ?? t("loadFailed")}
      {onRetry && (
        <Button size="sm" variant="secondary" onClick={onRetry}>
          <RotateCw aria-hidden className="h-3.5 w-3.5" />
          {t("retry")}
        </Button>
      )}
    </span>
  );
}

export function ErrorStateRow({ colSpan, text, onRetry }: { colSpan: number; text?: ReactNode; onRetry?: () => void }) {
  return (
    <StateRow colSpan={colSpan}>
      <ErrorMessage text={text} onRetry={onRetry} />
    </StateRow>
  );
}
