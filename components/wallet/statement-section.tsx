"use client";
// The statement (docs/statement.md): a user's quota ledger rows, newest first, with filters
// (time range, kind, reference) and CSV export. Without userId: the caller's own
// (/api/user/ledger/self, the wallet); with userId: an admin reading that user's
// (/api/user/{id}/ledger, the user editor).
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import useSWR from "swr";
import { DataTable, FilterButtons, useServerPaging } from "@/components/data-table";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Badge } from "@/components/ui/badge";
import { DateTimeField, UnixTimePicker } from "@/components/ui/date-time-picker";
import { Field, SelectField } from "@/components/ui/input";
import { useCsvExport } from "@/lib/client/download-csv";
import type { BadgeColor } from "@/lib/client/badge-color";
import { formatTimestamp, renderQuota, type QuotaDisplay } from "@/lib/client/format";
import { LEDGER_KINDS } from "@/lib/billing/ledger-kinds";

export type LedgerRow = {
  id: number;
  created_at: number;
  kind: string;
  delta: number;
  balance_after: number;
  ref: string;
  token_id: number;
  token_name: string;
};
type LedgerPage = { items: LedgerRow[]; page: number; page_size: number; total: number; total_capped: boolean };
type Filters = { kind: string; ref: string; start: number | null; end: number | null };
type T = ReturnType<typeof useTranslations<"statement">>;

const EMPTY: Filters = { kind: "", ref: "", start: null, end: null };

function filterQuery(f: Filters): URLSearchParams {
  const q = new URLSearchParams();
  if (f.kind) q.set("kind", f.kind);
  if (f.ref.trim()) q.set("ref", f.ref.trim());
  if (f.start !== null && f.start > 0) q.set("start_timestamp", String(f.start));
  if (f.end !== null && f.end > 0) q.set("end_timestamp", String(f.end));
  return q;
}

// A kind's label; a kind this console does not know yet shows as it is stored.
function kindLabel(t: T, kind: string): string {
  const key = `kinds.${kind}` as Parameters<T>[0];
  return t.has(key) ? t(key) : kind;
}

const KIND_COLOR: Record<string, BadgeColor> = {
  relay_reserve: "yellow",
  relay_settle: "blue",
  relay_refund: "green",
  admin_adjust: "purple",
};

// As the console formats quota (renderQuota), with six decimals in currency so that a call of
// a few units still shows, and the zeros past the cents dropped ($5.00, $0.000172).
function money(units: number, display: QuotaDisplay): string {
  const text = renderQuota(units, display, 6);
  return display.displayInCurrency ? text.replace(/(\.\d\d\d*?)0+$/, "$1") : text;
}

function signed(units: number, display: QuotaDisplay): string {
  const text = money(Math.abs(units), display);
  return units > 0 ? `+${text}` : units < 0 ? `-${text}` : text;
}

function columns(t: T, display: QuotaDisplay, onRef: (ref: string) => void): ColumnDef<LedgerRow>[] {
  return [
    {
      id: "time",
      header: t("columns.time"),
      meta: { label: t("columns.time") },
      cell: ({ row }) => <span className="whitespace-nowrap">{formatTimestamp(row.original.created_at)}</span>,
    },
    {
      id: "kind",
      header: t("columns.kind"),
      meta: { label: t("columns.kind") },
      cell: ({ row }) => <Badge color={KIND_COLOR[row.original.kind] ?? (row.original.delta >= 0 ? "green" : "gray")}>{kindLabel(t, row.original.kind)}</Badge>,
    },
    {
      id: "amount",
      header: t("columns.amount"),
      meta: { label: t("columns.amount"), className: "text-right tabular-nums", headerClassName: "text-right" },
      cell: ({ row }) => (
        <span
          title={t("units", { units: row.original.delta })}
          className={row.original.delta < 0 ? "text-red-600 dark:text-red-400" : "text-green-700 dark:text-green-400"}
        >
          {signed(row.original.delta, display)}
        </span>
      ),
    },
    {
      id: "balance",
      header: t("columns.balanceAfter"),
      meta: { label: t("columns.balanceAfter"), className: "text-right tabular-nums", headerClassName: "text-right" },
      cell: ({ row }) => <span title={t("units", { units: row.original.balance_after })}>{money(row.original.balance_after, display)}</span>,
    },
    {
      id: "ref",
      header: t("columns.reference"),
      meta: { label: t("columns.reference") },
      cell: ({ row }) =>
        row.original.ref ? (
          <button
            type="button"
            className="font-mono text-xs break-all text-blue-700 hover:underline dark:text-blue-400"
            title={t("filterByRef")}
            onClick={() => onRef(row.original.ref)}
          >
            {row.original.ref}
          </button>
        ) : null,
    },
    {
      id: "token",
      header: t("columns.token"),
      meta: { label: t("columns.token") },
      cell: ({ row }) => (row.original.token_id ? <Badge>{row.original.token_name || `#${row.original.token_id}`}</Badge> : null),
    },
  ];
}

export function StatementSection({ userId }: { userId?: number }) {
  const t = useTranslations("statement");
  const display = useQuotaDisplay();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const csv = useCsvExport("x-statement-rows-capped", { capped: "statement.exportCapped", done: "statement.exported" });
  const paging = useServerPaging(filters);
  const base = userId === undefined ? "/api/user/ledger/self" : `/api/user/${userId}/ledger`;
  const q = filterQuery(filters);
  const listPath = paging.pageSize !== null ? `${base}?${q}${q.size ? "&" : ""}p=${paging.page + 1}&page_size=${paging.pageSize}` : null;
  const { data, error, isLoading, mutate } = useSWR<LedgerPage>(listPath);

  function search(e: FormEvent) {
    e.preventDefault();
    // the section may sit in a dialog opened from another form (the user editor)
    e.stopPropagation();
    setFilters({ ...draft });
  }
  function byRef(ref: string) {
    const next = { ...EMPTY, ref };
    setDraft(next);
    setFilters(next);
  }
  const exportCsv = () => csv.exportCsv(`${base}/export?${q}`, "statement.csv");

  return (
    <section aria-label={t("title")} data-testid="statement-section">
      <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">{t("hint")}</p>
      <form onSubmit={search} role="search" aria-label={t("filters.label")} className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <DateTimeField label={t("filters.start")}>
          {(id) => <UnixTimePicker id={id} label={t("filters.start")} value={draft.start} onChange={(start) => setDraft({ ...draft, start })} />}
        </DateTimeField>
        <DateTimeField label={t("filters.end")}>
          {(id) => <UnixTimePicker id={id} label={t("filters.end")} value={draft.end} onChange={(end) => setDraft({ ...draft, end })} />}
        </DateTimeField>
        <SelectField label={t("filters.kind")} value={draft.kind} onChange={(e) => setDraft({ ...draft, kind: e.target.value })}>
          <option value="">{t("filters.allKinds")}</option>
          {LEDGER_KINDS.map((k) => (
            <option key={k} value={k}>
              {kindLabel(t, k)}
            </option>
          ))}
        </SelectField>
        <Field label={t("filters.ref")} value={draft.ref} maxLength={200} onChange={(e) => setDraft({ ...draft, ref: e.target.value })} />
        <FilterButtons
          className="sm:col-span-2 lg:col-span-4"
          labels={{ search: t("search"), reset: t("reset"), export: t("export") }}
          onReset={() => {
            setDraft(EMPTY);
            setFilters(EMPTY);
          }}
          onExport={() => void exportCsv()}
          exporting={csv.exporting}
        />
      </form>
      {data?.total_capped && (
        <p role="status" className="mb-2 text-sm text-amber-700 dark:text-amber-400">
          {t("capped", { rows: data.total })}
        </p>
      )}
      <DataTable<LedgerRow>
        id={userId === undefined ? "statement" : "statement-admin"}
        columns={columns(t, display, byRef)}
        rows={data?.items}
        getRowId={(r) => String(r.id)}
        loading={isLoading}
        error={error}
        onRetry={() => void mutate()}
        emptyText={t("empty")}
        errorText={t("loadFailed")}
        rowProps={(r) => ({ "data-testid": `ledger-row-${r.id}` })}
        paging={
          paging.pageSize === null
            ? undefined
            : { page: paging.page, pageSize: paging.pageSize, total: data?.total ?? 0, onPage: paging.setPage, onPageSize: paging.setPageSize }
        }
      />
    </section>
  );
}
