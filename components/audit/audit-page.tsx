"use client";
// /admin/audit (root, or an admin with audit:read; docs/audit.md): the audit log, newest first, filtered by time, actor,
// action and target, a page at a time from the server, with the filtered rows' CSV export.
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import useSWR from "swr";
import { DataTable, FilterButtons, useServerPaging } from "@/components/data-table";
import { useSessionUser } from "@/components/layout/providers";
import { Alert, PageTitle } from "@/components/ui/card";
import { DateTimeField, UnixTimePicker } from "@/components/ui/date-time-picker";
import { Field, SelectField } from "@/components/ui/input";
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from "@/lib/audit/actions";
import { useCsvExport } from "@/lib/client/download-csv";
import { formatTimestamp } from "@/lib/client/format";
import { can } from "@/lib/client/navigation";
import { ActionBadge, actionLabel, detailText, targetLabel, type AuditT } from "./labels";
import type { AuditPage as Page, AuditRow } from "./types";

type Filters = { start: number | null; end: number | null; actor: string; action: string; target: string; targetId: string };
const EMPTY: Filters = { start: null, end: null, actor: "", action: "", target: "", targetId: "" };

export function filterQuery(f: Filters): URLSearchParams {
  const q = new URLSearchParams();
  if (f.start) q.set("start_timestamp", String(f.start));
  if (f.end) q.set("end_timestamp", String(f.end));
  if (f.actor.trim()) q.set("actor", f.actor.trim());
  if (f.action) q.set("action", f.action);
  if (f.target) q.set("target", f.targetId.trim() ? `${f.target}:${f.targetId.trim()}` : f.target);
  return q;
}

function columns(t: AuditT): ColumnDef<AuditRow>[] {
  return [
    {
      id: "time",
      header: t("columns.time"),
      meta: { label: t("columns.time") },
      cell: ({ row: { original: r } }) => <span className="whitespace-nowrap">{formatTimestamp(r.created_at)}</span>,
    },
    {
      id: "actor",
      header: t("columns.actor"),
      meta: { label: t("columns.actor") },
      cell: ({ row: { original: r } }) =>
        r.actor_id ? (
          <span className="whitespace-nowrap">
            {r.actor_name || "—"} <span className="text-xs text-zinc-500">#{r.actor_id}</span>
          </span>
        ) : (
          <span className="whitespace-nowrap text-zinc-500">{t("nobody")}</span>
        ),
    },
    {
      id: "action",
      header: t("columns.action"),
      meta: { label: t("columns.action") },
      cell: ({ row: { original: r } }) => <ActionBadge t={t} action={r.action} />,
    },
    {
      id: "target",
      header: t("columns.target"),
      meta: { label: t("columns.target") },
      cell: ({ row: { original: r } }) =>
        r.target_type ? (
          <span className="whitespace-nowrap">
            {targetLabel(t, r.target_type)} <code className="font-mono text-xs">{r.target_id}</code>
          </span>
        ) : (
          "—"
        ),
    },
    {
      id: "detail",
      header: t("columns.detail"),
      meta: { label: t("columns.detail") },
      cell: ({ row: { original: r } }) => (
        <span className="block max-w-md text-xs [overflow-wrap:anywhere] text-zinc-600 dark:text-zinc-400">{detailText(t, r) || "—"}</span>
      ),
    },
    {
      id: "ip",
      header: t("columns.ip"),
      meta: { label: t("columns.ip") },
      cell: ({ row: { original: r } }) => <code className="font-mono text-xs">{r.ip || "—"}</code>,
    },
    {
      id: "user_agent",
      header: t("columns.userAgent"),
      meta: { label: t("columns.userAgent") },
      cell: ({ row: { original: r } }) => (
        <span className="block max-w-56 truncate text-xs text-zinc-500" title={r.user_agent}>
          {r.user_agent || "—"}
        </span>
      ),
    },
    {
      id: "request_id",
      header: t("columns.requestId"),
      meta: { label: t("columns.requestId") },
      cell: ({ row: { original: r } }) => <code className="font-mono text-xs break-all">{r.request_id || "—"}</code>,
    },
  ];
}

export function AuditLogPage() {
  const t = useTranslations("audit");
  const user = useSessionUser();
  // the root, or an admin granted audit:read (docs/permissions.md)
  const root = can(user, "audit:read");
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const csv = useCsvExport("x-audit-rows-capped", { capped: "audit.exportCapped", done: "audit.exported" });
  const paging = useServerPaging(filters);
  const q = filterQuery(filters);
  const path = !root || paging.pageSize === null ? null : `/api/audit/?${q}${q.size ? "&" : ""}p=${paging.page + 1}&page_size=${paging.pageSize}`;
  const { data, error, isLoading, mutate } = useSWR<Page>(path);

  function search(e: FormEvent) {
    e.preventDefault();
    setFilters({ ...draft });
  }
  const exportCsv = () => csv.exportCsv(`/api/audit/?${q}${q.size ? "&" : ""}format=csv`, "audit.csv");

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle>{t("title")}</PageTitle>
      {!root ? (
        <Alert tone="warning">{t("rootOnly")}</Alert>
      ) : (
        <>
          <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">{t("help")}</p>
          <form onSubmit={search} role="search" aria-label={t("filters.label")} className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            <DateTimeField label={t("filters.start")}>
              {(id) => <UnixTimePicker id={id} label={t("filters.start")} value={draft.start} onChange={(start) => setDraft({ ...draft, start })} />}
            </DateTimeField>
            <DateTimeField label={t("filters.end")}>
              {(id) => <UnixTimePicker id={id} label={t("filters.end")} value={draft.end} onChange={(end) => setDraft({ ...draft, end })} />}
            </DateTimeField>
            <Field label={t("filters.actor")} value={draft.actor} maxLength={64} onChange={(e) => setDraft({ ...draft, actor: e.target.value })} />
            <SelectField label={t("filters.action")} value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })}>
              <option value="">{t("filters.allActions")}</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {actionLabel(t, a)}
                </option>
              ))}
            </SelectField>
            <SelectField label={t("filters.target")} value={draft.target} onChange={(e) => setDraft({ ...draft, target: e.target.value })}>
              <option value="">{t("filters.allTargets")}</option>
              {AUDIT_TARGET_TYPES.map((ty) => (
                <option key={ty} value={ty}>
                  {targetLabel(t, ty)}
                </option>
              ))}
            </SelectField>
            <Field
              label={t("filters.targetId")}
              value={draft.targetId}
              maxLength={128}
              disabled={!draft.target}
              onChange={(e) => setDraft({ ...draft, targetId: e.target.value })}
            />
            <FilterButtons
              className="sm:col-span-2 lg:col-span-3"
              labels={{ search: t("search"), reset: t("reset"), export: t("export") }}
              onReset={() => {
                setDraft(EMPTY);
                setFilters(EMPTY);
              }}
              onExport={() => void exportCsv()}
              exporting={csv.exporting}
            />
          </form>
          <DataTable<AuditRow>
            id="admin-audit"
            columns={columns(t)}
            rows={data?.items}
            getRowId={(r) => String(r.id)}
            loading={isLoading}
            error={error}
            onRetry={() => void mutate()}
            emptyText={t("empty")}
            errorText={t("failed")}
            rowProps={(r) => ({ "data-testid": `audit-row-${r.id}`, "data-action": r.action })}
            paging={
              paging.pageSize === null
                ? undefined
                : { page: paging.page, pageSize: paging.pageSize, total: data?.total ?? 0, onPage: paging.setPage, onPageSize: paging.setPageSize }
            }
          />
        </>
      )}
    </div>
  );
}
