"use client";
// /app/logs/tasks (docs/tasks.md, "The pages"): the creative task log. Filters: channel ID
// (admins), task ID, start (default today 00:00), end. Admins read GET /api/task/, everyone
// else /api/task/self. The server answers pages as arrays; the table pages them in the
// browser and asks for the next server page when the last loaded page is reached.
import { useTranslations } from "next-intl";
import type { ColumnDef } from "@tanstack/react-table";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { DataTable, FilterButtons, useClientPaging } from "@/components/data-table";
import { useSessionUser } from "@/components/layout/providers";
import { Badge } from "@/components/ui/badge";
import { PageTitle } from "@/components/ui/card";
import { DateTimeField, UnixTimePicker } from "@/components/ui/date-time-picker";
import { Field } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { formatTimestamp } from "@/lib/client/format";
import { can } from "@/lib/client/navigation";
import { defaultTaskRange, elapsedColor, elapsedSeconds } from "@/lib/client/tasks";
import { ChannelTag, JsonDialog, ProgressCircle, StatusBadge, TextCell, TextDialog } from "./task-cells";

export type CreativeTaskRow = {
  id: number;
  user_id: number;
  task_id: string;
  platform: string;
  channel_id: number;
  quota: number;
  action: string;
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  data: string;
};

type Filters = { channel_id: string; task_id: string; start: number | null; end: number | null };
const SERVER_PAGE = 100;

function initial(nowMs: number): Filters {
  const r = defaultTaskRange(nowMs);
  return { channel_id: "", task_id: "", start: r.start, end: r.end };
}

function queryOf(f: Filters, admin: boolean, p: number): string {
  const q = new URLSearchParams({ p: String(p), page_size: String(SERVER_PAGE), task_id: f.task_id.trim() });
  if (admin && f.channel_id.trim()) q.set("channel_id", f.channel_id.trim());
  if (f.start) q.set("start_timestamp", String(f.start));
  if (f.end) q.set("end_timestamp", String(f.end));
  return q.toString();
}

export function TaskLogsPage() {
  const t = useTranslations("tasks");
  // the admin view: every user's rows (logs:read, docs/permissions.md); else the own view
  const admin = can(useSessionUser(), "logs:read");
  const [draft, setDraft] = useState<Filters | null>(null);
  const [filters, setFilters] = useState<Filters | null>(null);
  const [rows, setRows] = useState<CreativeTaskRow[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  // pages loaded of the current search, whether the last one was short, the search's number
  // (an answer of an older search is dropped) and whether a page is on its way
  const loaded = useRef({ pages: 0, done: false, generation: 0, busy: false });
  const [json, setJson] = useState<CreativeTaskRow | null>(null);
  const [reason, setReason] = useState<string | null>(null);
  const { pageRows, paging, reset } = useClientPaging(rows);

  useEffect(() => {
    const f = initial(Date.now());
    setDraft(f);
    setFilters(f);
  }, []);

  const loadNext = useCallback(
    async (f: Filters, fresh: boolean) => {
      const state = loaded.current;
      if (fresh) {
        state.generation++;
        state.pages = 0;
        state.done = false;
      } else if (state.done || state.busy) return;
      state.busy = true;
      const generation = state.generation;
      setLoading(true);
      setError(null);
      try {
        const r = await api.get<CreativeTaskRow[]>(`${admin ? "/api/task/" : "/api/task/self"}?${queryOf(f, admin, state.pages + 1)}`, { quiet: true });
        if (generation !== state.generation) return;
        state.pages++;
        state.done = r.data.length < SERVER_PAGE;
        setRows((old) => (fresh || !old ? r.data : old.concat(r.data)));
      } catch (e) {
        if (generation === state.generation) setError(e);
      } finally {
        if (generation === state.generation) {
          state.busy = false;
          setLoading(false);
        }
      }
    },
    [admin],
  );

  useEffect(() => {
    if (!filters) return;
    reset();
    void loadNext(filters, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new search starts from the first page
  }, [filters, loadNext]);

  // reaching the last loaded page asks for the next server page
  const lastPage = Math.max(0, Math.ceil((rows?.length ?? 0) / paging.pageSize) - 1);
  useEffect(() => {
    if (filters && rows && paging.page >= lastPage && !loaded.current.done && !loading) void loadNext(filters, false);
  }, [paging.page, lastPage, rows, filters, loading, loadNext]);

  const columns: ColumnDef<CreativeTaskRow>[] = [
    {
      id: "submitTime",
      header: t("col.submitTime"),
      meta: { className: "text-xs whitespace-nowrap" },
      cell: ({ row }) => formatTimestamp(row.original.submit_time),
    },
    {
      id: "finishTime",
      header: t("col.finishTime"),
      meta: { className: "text-xs whitespace-nowrap" },
      cell: ({ row }) => formatTimestamp(row.original.finish_time),
    },
    { id: "progress", header: t("col.progress"), cell: ({ row }) => <ProgressCircle progress={row.original.progress} /> },
    {
      id: "elapsed",
      header: t("col.elapsed"),
      cell: ({ row }) => {
        const s = elapsedSeconds(row.original.submit_time, row.original.finish_time);
        return s === null ? null : <Badge color={elapsedColor(s)}>{t("seconds", { s })}</Badge>;
      },
    },
    ...(admin
      ? [{ id: "channel", header: t("col.channel"), cell: ({ row }) => <ChannelTag id={row.original.channel_id} /> } as ColumnDef<CreativeTaskRow>]
      : []),
    {
      id: "platform",
      header: t("col.platform"),
      cell: ({ row }) => (
        <Badge color="purple">{t.has(`platforms.${row.original.platform}`) ? t(`platforms.${row.original.platform}`) : row.original.platform}</Badge>
      ),
    },
    {
      id: "action",
      header: t("col.action"),
      cell: ({ row }) => <Badge color="blue">{t.has(`actions.${row.original.action}`) ? t(`actions.${row.original.action}`) : row.original.action}</Badge>,
    },
    {
      id: "taskId",
      header: t("col.taskId"),
      meta: { className: "font-mono text-xs" },
      cell: ({ row }) => (
        <button type="button" className="text-blue-700 hover:underline dark:text-blue-400" onClick={() => setJson(row.original)}>
          {row.original.task_id}
        </button>
      ),
    },
    { id: "status", header: t("col.status"), cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    { id: "failReason", header: t("col.failReason"), cell: ({ row }) => <TextCell text={row.original.fail_reason} onOpen={setReason} /> },
  ];

  function submit(e: FormEvent) {
    e.preventDefault();
    if (draft) setFilters({ ...draft });
  }

  return (
    <div className="mx-auto w-full max-w-[90rem] px-4 py-6">
      <PageTitle>{t("taskTitle")}</PageTitle>
      {draft && (
        <form onSubmit={submit} role="search" className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {admin && (
            <Field
              label={t("filters.channelId")}
              inputMode="numeric"
              value={draft.channel_id}
              onChange={(e) => setDraft({ ...draft, channel_id: e.target.value })}
            />
          )}
          <Field label={t("filters.taskId")} value={draft.task_id} onChange={(e) => setDraft({ ...draft, task_id: e.target.value })} />
          <DateTimeField label={t("filters.start")}>
            {(id) => <UnixTimePicker id={id} label={t("filters.start")} value={draft.start} onChange={(start) => setDraft({ ...draft, start })} />}
          </DateTimeField>
          <DateTimeField label={t("filters.end")}>
            {(id) => <UnixTimePicker id={id} label={t("filters.end")} value={draft.end} onChange={(end) => setDraft({ ...draft, end })} />}
          </DateTimeField>
          <FilterButtons
            className="sm:col-span-2 lg:col-span-4"
            labels={{ search: t("search"), reset: t("reset") }}
            onReset={() => {
              const f = initial(Date.now());
              setDraft(f);
              setFilters(f);
            }}
          />
        </form>
      )}
      <DataTable<CreativeTaskRow>
        id={admin ? "task-logs-admin" : "task-logs"}
        columns={columns}
        rows={pageRows}
        getRowId={(r) => String(r.id)}
        loading={loading && !rows}
        error={error}
        onRetry={() => filters && void loadNext(filters, true)}
        emptyText={t("empty")}
        errorText={t("loadFailed")}
        rowProps={(r) => ({ "data-testid": `task-row-${r.task_id}` })}
        paging={paging}
      />
      <JsonDialog title={t("recordTitle")} record={json} onClose={() => setJson(null)} />
      <TextDialog title={t("failReasonTitle")} text={reason} onClose={() => setReason(null)} />
    </div>
  );
}
