"use client";
// /admin/messages (docs/messages.md): search by keyword (title or content) and creation date
// range; the table (id, title, format, recipients, created, edit, delete with the
// irreversible confirmation); page sizes 10/20/50/100 remembered under message-page-size;
// the create and edit drawers.
import { useSessionUser } from "@/components/layout/providers";
import { can } from "@/lib/client/navigation";
import type { ColumnDef } from "@tanstack/react-table";
import { Pencil, Plus, Search, Trash } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import useSWR from "swr";
import { DataTable, useServerPaging } from "@/components/data-table";
import { useConfirm } from "@/components/forms";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PageTitle } from "@/components/ui/card";
import { DateTimeField, UnixTimePicker } from "@/components/ui/date-time-picker";
import { Input } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { formatTimestamp } from "@/lib/client/format";
import { STORAGE_KEYS } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { CreateDrawer } from "./create-drawer";
import { EditDrawer } from "./edit-drawer";
import type { AdminMessage, MessagePage } from "./types";

// The creation-time bounds are picked with the console's one picker (unix seconds, the
// browser's time; docs/console-ui.md "Dates") and sent as ISO instants, both inclusive.
type Filters = { keyword: string; start: number | null; end: number | null };

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

function listPath(f: Filters, page: number, size: number): string {
  if (!f.keyword && !f.start && !f.end) return `/api/admin/messages?p=${page + 1}&page_size=${size}`;
  const q = new URLSearchParams({ p: String(page + 1), page_size: String(size) });
  if (f.keyword) q.set("keyword", f.keyword);
  if (f.start) q.set("start_date", isoOf(f.start));
  if (f.end) q.set("end_date", isoOf(f.end));
  return `/api/admin/messages/search?${q}`;
}

export function MessagesPage() {
  // sending, editing and deleting are writes (messages:write, docs/permissions.md)
  const write = can(useSessionUser(), "messages:write");
  const t = useTranslations("messages");
  const [draft, setDraft] = useState<Filters>({ keyword: "", start: null, end: null });
  const [filters, setFilters] = useState<Filters>(draft);
  const paging = useServerPaging(filters, STORAGE_KEYS.messagePageSize);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [pending, setPending] = useState<AdminMessage | null>(null);
  const path = paging.pageSize === null ? null : listPath(filters, paging.page, paging.pageSize);
  const { data, error, isLoading, isValidating, mutate } = useSWR<MessagePage>(path);
  const confirm = useConfirm({
    title: t("deleteTitle"),
    description: pending ? t("deleteConfirm", { title: pending.title, id: pending.id }) : "",
    action: t("confirmDelete"),
    danger: true,
  });

  function search(e: FormEvent) {
    e.preventDefault();
    setFilters({ keyword: draft.keyword.trim(), start: draft.start, end: draft.end });
  }

  async function remove(m: AdminMessage) {
    setPending(m);
    if (!(await confirm.ask())) return;
    try {
      await api.del(`/api/admin/messages/${m.id}`);
      toast.success({ key: "messages.deleted" });
      void mutate();
    } catch {
      // reported by the API helper
    }
  }

  const columns = (() => {
    const cols: ColumnDef<AdminMessage>[] = [
      { id: "id", meta: { label: t("col.id") }, cell: ({ row: { original: m } }) => m.id },
      { id: "title", meta: { label: t("col.title"), hideable: false }, cell: ({ row: { original: m } }) => <span className="font-medium">{m.title}</span> },
      {
        id: "format",
        meta: { label: t("col.format") },
        cell: ({ row: { original: m } }) => <Badge color={m.format === "html" ? "purple" : "blue"}>{m.format === "html" ? "HTML" : "Markdown"}</Badge>,
      },
      { id: "recipients", meta: { label: t("col.recipients") }, cell: ({ row: { original: m } }) => m.stats.total_recipients },
      {
        id: "created",
        meta: { label: t("col.created"), className: "text-xs whitespace-nowrap" },
        cell: ({ row: { original: m } }) => formatTimestamp(m.created_at),
      },
      {
        id: "actions",
        meta: { label: t("col.actions"), hideable: false },
        cell: ({ row: { original: m } }) =>
          write && (
            <div className="flex gap-1">
              <Button size="sm" variant="secondary" onClick={() => setEditing(m.id)} aria-label={t("editOf", { title: m.title, id: m.id })}>
                <Pencil aria-hidden className="h-3.5 w-3.5" />
                {t("edit")}
              </Button>
              <Button size="sm" variant="danger" onClick={() => void remove(m)} aria-label={t("deleteOf", { title: m.title, id: m.id })}>
                <Trash aria-hidden className="h-3.5 w-3.5" />
                {t("delete")}
              </Button>
            </div>
          ),
      },
    ];
    return cols.map((c) => Object.assign(c, { header: c.meta?.label ?? "" }) as ColumnDef<AdminMessage>);
  })();

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle
        actions={
          write && (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden className="h-4 w-4" />
              {t("add")}
            </Button>
          )
        }
      >
        {t("title")}
      </PageTitle>
      <DataTable<AdminMessage>
        id="messages"
        toolbar={
          <form onSubmit={search} role="search" className="flex flex-wrap items-end gap-2">
            <Input
              aria-label={t("keyword")}
              placeholder={t("keyword")}
              value={draft.keyword}
              onChange={(e) => setDraft({ ...draft, keyword: e.target.value })}
              className="w-full sm:w-64"
            />
            <DateTimeField label={t("from")}>
              {(id) => <UnixTimePicker id={id} label={t("startDate")} value={draft.start} onChange={(start) => setDraft({ ...draft, start })} />}
            </DateTimeField>
            <DateTimeField label={t("to")}>
              {(id) => <UnixTimePicker id={id} label={t("endDate")} value={draft.end} onChange={(end) => setDraft({ ...draft, end })} />}
            </DateTimeField>
            <Button type="submit">
              <Search aria-hidden className="h-4 w-4" />
              {t("search")}
            </Button>
          </form>
        }
        columns={columns}
        rows={data?.items}
        getRowId={(m) => String(m.id)}
        loading={isLoading || isValidating}
        error={error}
        onRetry={() => void mutate()}
        emptyText={t("empty")}
        errorText={t("loadFailed")}
        rowProps={(m) => ({ "data-testid": `message-row-${m.id}` })}
        paging={
          paging.pageSize === null
            ? undefined
            : { page: paging.page, pageSize: paging.pageSize, total: data?.total ?? 0, onPage: paging.setPage, onPageSize: paging.setPageSize }
        }
      />
      <CreateDrawer
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          void mutate();
        }}
      />
      <EditDrawer
        messageId={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void mutate();
        }}
      />
      {confirm.dialog}
    </div>
  );
}
