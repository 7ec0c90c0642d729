"use client";
// /app/logs/drawing (docs/tasks.md, "The pages"): the image (Midjourney) task log. Filters:
// channel ID (admins), task ID, time range (default 30 days back to one hour ahead). Admins
// read GET /api/mj/, everyone else /api/mj/self/; image-task times are milliseconds. Images
// are previewed (a click opens them large); admins see a notice while callbacks are off.
import { useTranslations } from "next-intl";
import type { ColumnDef } from "@tanstack/react-table";
import { useEffect, useState, type FormEvent } from "react";
import useSWR from "swr";
import { DataTable, FilterButtons, useServerPaging } from "@/components/data-table";
import { useSessionUser, useStatus } from "@/components/layout/providers";
import { Badge } from "@/components/ui/badge";
import { PageTitle } from "@/components/ui/card";
import { DateTimeField, UnixTimePicker } from "@/components/ui/date-time-picker";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/input";
import { formatTimestamp } from "@/lib/client/format";
import { can } from "@/lib/client/navigation";
import { defaultDrawingRange, elapsedColor, elapsedSeconds, mjCodeColor } from "@/lib/client/tasks";
import { ChannelTag, ProgressCircle, StatusBadge, TextCell, TextDialog } from "./task-cells";

export type ImageTaskRow = {
  id: number;
  code: number;
  action: string;
  mj_id: string;
  prompt: string;
  prompt_en: string;
  description: string;
  submit_time: number; // ms
  finish_time: number; // ms
  image_url: string;
  status: string;
  progress: string;
  fail_reason: string;
  channel_id: number;
};
type MjPage = { items: ImageTaskRow[]; total: number; page: number; page_size: number };
type Filters = { channel_id: string; mj_id: string; start: number | null; end: number | null };

function initial(nowMs: number): Filters {
  const r = defaultDrawingRange(nowMs);
  return { channel_id: "", mj_id: "", start: r.start, end: r.end };
}

function queryOf(f: Filters, admin: boolean): string {
  const q = new URLSearchParams({ mj_id: f.mj_id.trim() });
  if (admin && f.channel_id.trim()) q.set("channel_id", f.channel_id.trim());
  if (f.start) q.set("start_timestamp", String(f.start * 1000));
  if (f.end) q.set("end_timestamp", String(f.end * 1000));
  return q.toString();
}

const msToSec = (ms: number) => (ms ? Math.floor(ms / 1000) : 0);

export function DrawingLogsPage() {
  const t = useTranslations("tasks");
  // the admin view: every user's rows (logs:read, docs/permissions.md); else the own view
  const admin = can(useSessionUser(), "logs:read");
  const status = useStatus() as { mj_notify_enabled?: boolean };
  const [draft, setDraft] = useState<Filters | null>(null);
  const [filters, setFilters] = useState<Filters | null>(null);
  const paging = useServerPaging(filters);
  const [text, setText] = useState<{ title: string; text: string } | null>(null);
  const [image, setImage] = useState<string | null>(null);

  useEffect(() => {
    const f = initial(Date.now());
    setDraft(f);
    setFilters(f);
  }, []);

  const base = admin ? "/api/mj/" : "/api/mj/self/";
  const path = filters && paging.pageSize !== null ? `${base}?${queryOf(filters, admin)}&p=${paging.page + 1}&page_size=${paging.pageSize}` : null;
  const { data, error, isLoading, mutate } = useSWR<MjPage>(path);
  const open = (title: string) => (s: string) => setText({ title, text: s });

  const columns: ColumnDef<ImageTaskRow>[] = [
    {
      id: "submitTime",
      header: t("col.submitTime"),
      meta: { className: "text-xs whitespace-nowrap" },
      cell: ({ row }) => formatTimestamp(msToSec(row.original.submit_time)),
    },
    {
      id: "finishTime",
      header: t("col.finishTime"),
      meta: { className: "text-xs whitespace-nowrap" },
      cell: ({ row }) => formatTimestamp(msToSec(row.original.finish_time)),
    },
    {
      id: "elapsed",
      header: t("col.elapsed"),
      cell: ({ row }) => {
        const s = elapsedSeconds(msToSec(row.original.submit_time), msToSec(row.original.finish_time));
        return s === null ? null : <Badge color={elapsedColor(s)}>{t("seconds", { s })}</Badge>;
      },
    },
    ...(admin ? [{ id: "channel", header: t("col.channel"), cell: ({ row }) => <ChannelTag id={row.original.channel_id} /> } as ColumnDef<ImageTaskRow>] : []),
    {
      id: "action",
      header: t("col.type"),
      cell: ({ row }) => <Badge color="blue">{t.has(`mjActions.${row.original.action}`) ? t(`mjActions.${row.original.action}`) : row.original.action}</Badge>,
    },
    { id: "mjId", header: t("col.taskId"), meta: { className: "font-mono text-xs" }, cell: ({ row }) => row.original.mj_id },
    {
      id: "code",
      header: t("col.submitResult"),
      cell: ({ row }) => (
        <Badge color={mjCodeColor(row.original.code)}>
          {t.has(`codes.${row.original.code}`) ? t(`codes.${row.original.code}`) : String(row.original.code)}
        </Badge>
      ),
    },
    { id: "status", header: t("col.status"), cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    { id: "progress", header: t("col.progress"), cell: ({ row }) => <ProgressCircle progress={row.original.progress} /> },
    {
      id: "image",
      header: t("col.image"),
      cell: ({ row }) =>
        row.original.image_url ? (
          <button type="button" onClick={() => setImage(row.original.image_url)} title={t("viewImage")}>
            {/* eslint-disable-next-line @next/next/no-img-element -- an upstream's image of any origin and size */}
            <img src={row.original.image_url} alt={t("imageOf", { id: row.original.mj_id })} className="h-12 w-12 rounded object-cover" loading="lazy" />
          </button>
        ) : (
          <span className="text-zinc-400">{t("none")}</span>
        ),
    },
    { id: "prompt", header: t("col.prompt"), cell: ({ row }) => <TextCell text={row.original.prompt} onOpen={open(t("col.prompt"))} /> },
    { id: "promptEn", header: t("col.promptEn"), cell: ({ row }) => <TextCell text={row.original.prompt_en} onOpen={open(t("col.promptEn"))} /> },
    { id: "failReason", header: t("col.failReason"), cell: ({ row }) => <TextCell text={row.original.fail_reason} onOpen={open(t("failReasonTitle"))} /> },
  ];

  function submit(e: FormEvent) {
    e.preventDefault();
    if (draft) setFilters({ ...draft });
  }

  return (
    <div className="mx-auto w-full max-w-[90rem] px-4 py-6">
      <PageTitle>{t("drawingTitle")}</PageTitle>
      {admin && !status.mj_notify_enabled && (
        <p
          role="note"
          className="mb-4 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
        >
          {t("notifyOff")}
        </p>
      )}
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
          <Field label={t("filters.taskId")} value={draft.mj_id} onChange={(e) => setDraft({ ...draft, mj_id: e.target.value })} />
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
      <DataTable<ImageTaskRow>
        id={admin ? "drawing-logs-admin" : "drawing-logs"}
        columns={columns}
        rows={data?.items}
        getRowId={(r) => String(r.id)}
        loading={isLoading}
        error={error}
        onRetry={() => void mutate()}
        emptyText={t("empty")}
        errorText={t("loadFailed")}
        rowProps={(r) => ({ "data-testid": `drawing-row-${r.mj_id}` })}
        paging={
          paging.pageSize === null
            ? undefined
            : { page: paging.page, pageSize: paging.pageSize, total: data?.total ?? 0, onPage: paging.setPage, onPageSize: paging.setPageSize }
        }
      />
      <TextDialog title={text?.title ?? ""} text={text?.text ?? null} onClose={() => setText(null)} />
      <Dialog open={image !== null} onOpenChange={(o) => !o && setImage(null)} title={t("imageTitle")} className="w-[min(64rem,94vw)]">
        {/* eslint-disable-next-line @next/next/no-img-element -- an upstream's image of any origin and size */}
        {image && <img src={image} alt={t("imageTitle")} className="max-h-[70vh] w-full object-contain" />}
      </Dialog>
    </div>
  );
}
