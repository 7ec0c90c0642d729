"use client";
// The edit drawer of /admin/messages: id, creation time, recipient and read counts, the
// editable title, format and content, and the recipients with read status and time (10 per
// page).
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import useSWR from "swr";
import { DataTable } from "@/components/data-table";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";
import { formatTimestamp } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import type { MessageFormat } from "@/lib/messages/field-rules";
import { MessageFields } from "./message-fields";
import { draftBody, draftRefusal, type MessageDraft } from "./message-form";
import type { AdminMessage, Recipient, RecipientPage } from "./types";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";

export const RECIPIENTS_PAGE_SIZE = 10;

export function EditDrawer({ messageId, onClose, onSaved }: { messageId: number | null; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("messages.form");
  const tc = useTranslations("messages");
  const catalogue = useServerCatalogue();
  const [draft, setDraft] = useState<MessageDraft | null>(null);
  const [page, setPage] = useState(0);
  const [busy, setBusy] = useState(false);
  const { data: message } = useSWR<AdminMessage>(messageId ? `/api/admin/messages/${messageId}` : null, { revalidateOnMount: true, dedupingInterval: 0 });
  const recipientsPath = messageId ? `/api/admin/messages/${messageId}/recipients?p=${page + 1}&page_size=${RECIPIENTS_PAGE_SIZE}` : null;
  const { data: recipients, error, isLoading, mutate } = useSWR<RecipientPage>(recipientsPath, { dedupingInterval: 0 });
  useEffect(() => {
    setPage(0);
    setDraft(null);
  }, [messageId]);
  useEffect(() => {
    if (message && message.id === messageId) setDraft({ title: message.title, content: message.content, format: message.format as MessageFormat });
  }, [message, messageId]);

  const columns = useMemo<ColumnDef<Recipient>[]>(
    () => [
      { id: "user_id", header: tc("recipients.userId"), meta: { label: tc("recipients.userId") }, cell: ({ row: { original: r } }) => r.user_id },
      {
        id: "username",
        header: tc("recipients.username"),
        meta: { label: tc("recipients.username"), hideable: false },
        cell: ({ row: { original: r } }) => r.username,
      },
      {
        id: "display_name",
        header: tc("recipients.displayName"),
        meta: { label: tc("recipients.displayName") },
        cell: ({ row: { original: r } }) => r.display_name,
      },
      {
        id: "status",
        header: tc("recipients.status"),
        meta: { label: tc("recipients.status") },
        cell: ({ row: { original: r } }) =>
          r.read_at ? <Badge color="green">{tc("recipients.read")}</Badge> : <Badge color="gray">{tc("recipients.unread")}</Badge>,
      },
      {
        id: "read_at",
        header: tc("recipients.readAt"),
        meta: { label: tc("recipients.readAt"), className: "text-xs whitespace-nowrap" },
        cell: ({ row: { original: r } }) => (r.read_at ? formatTimestamp(r.read_at) : "—"),
      },
    ],
    [tc],
  );

  async function save() {
    if (!draft || !messageId) return;
    const refusal = draftRefusal(draft, null, catalogue);
    if (refusal) {
      toast.error({ text: refusal });
      return;
    }
    setBusy(true);
    try {
      await api.put(`/api/admin/messages/${messageId}`, draftBody(draft));
      toast.success({ key: "messages.form.saved" });
      onSaved();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const shown = message && message.id === messageId ? message : null;
  return (
    <Drawer
      open={messageId !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t("editTitle")}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {tc("cancel")}
          </Button>
          <Button disabled={busy || !draft} onClick={() => void save()}>
            {t("save")}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4" data-testid="message-edit-form">
        {shown && (
          <dl className="grid grid-cols-2 gap-2 rounded-md border border-zinc-200 p-3 text-sm sm:grid-cols-4 dark:border-zinc-800">
            <div>
              <dt className="text-xs text-zinc-500">{tc("col.id")}</dt>
              <dd>{shown.id}</dd>
            </div>
            <div>
              <dt className="text-xs text-zinc-500">{tc("col.created")}</dt>
              <dd className="text-xs">{formatTimestamp(shown.created_at)}</dd>
            </div>
            <div>
              <dt className="text-xs text-zinc-500">{tc("col.recipients")}</dt>
              <dd data-testid="total-recipients">{shown.stats.total_recipients}</dd>
            </div>
            <div>
              <dt className="text-xs text-zinc-500">{tc("readCount")}</dt>
              <dd data-testid="read-count">{shown.stats.read_count ?? 0}</dd>
            </div>
          </dl>
        )}
        {draft && <MessageFields draft={draft} onChange={setDraft} />}
        <div className="flex flex-col gap-2">
          <span className="text-sm font-medium text-zinc-700 dark:text-zinc-300">{tc("recipients.title")}</span>
          <DataTable<Recipient>
            id="message-recipients"
            columns={columns}
            rows={recipients?.items}
            getRowId={(r) => String(r.user_id)}
            loading={isLoading}
            error={error}
            onRetry={() => void mutate()}
            rowProps={(r) => ({ "data-testid": `recipient-${r.username}`, "data-read": r.read_at ? "true" : "false" })}
            paging={{ page, pageSize: RECIPIENTS_PAGE_SIZE, total: recipients?.total ?? 0, onPage: setPage }}
          />
        </div>
      </div>
    </Drawer>
  );
}
