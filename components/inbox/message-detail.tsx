"use client";
// /app/inbox/{id} (docs/messages.md): title, the format tag when not Markdown, sent and read
// times, the body rendered safely. Opening an unread message marks it read (the read time
// is shown at once and the bell's count refreshed). An unknown id says the message does not
// exist and goes back to the list.
import { ArrowLeft } from "lucide-react";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { mutate as mutateGlobal } from "swr";
import { MessageBody } from "@/components/content/message-body";
import { Badge } from "@/components/ui/badge";
import { api } from "@/lib/client/api";
import { formatTimestamp } from "@/lib/client/format";
import { UNREAD_PATH, type InboxMessage } from "@/lib/client/inbox";
import { toast } from "@/lib/client/toast";

export function MessageDetail({ id }: { id: string }) {
  const t = useTranslations("inbox");
  const router = useRouter();
  const [message, setMessage] = useState<InboxMessage | null>(null);

  useEffect(() => {
    let live = true;
    const back = () => {
      if (live) router.replace("/app/inbox");
    };
    if (!/^[1-9]\d{0,9}$/.test(id)) {
      toast.error({ key: "inbox.notFound" });
      back();
      return;
    }
    (async () => {
      try {
        // the server's "message does not exist" is toasted by the API helper
        const { data } = await api.get<InboxMessage>(`/api/user/messages/${id}`);
        if (!live) return;
        setMessage(data);
        if (data.is_read) return;
      } catch {
        back();
        return;
      }
      try {
        const r = await api.put<{ read_at: number }>(`/api/user/messages/${id}/read`);
        if (live) setMessage((m) => m && { ...m, is_read: true, read_at: r.data.read_at });
        void mutateGlobal(UNREAD_PATH);
      } catch {
        // reported by the API helper; the message stays shown as unread
      }
    })();
    return () => {
      live = false;
    };
  }, [id, router]);

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6">
      <Link prefetch={false} href="/app/inbox" className="mb-4 inline-flex items-center gap-1 text-sm text-blue-600 hover:underline dark:text-blue-400">
        <ArrowLeft aria-hidden className="h-4 w-4" />
        {t("back")}
      </Link>
      {!message ? (
        <p role="status" className="text-sm text-zinc-500">
          {t("loading")}
        </p>
      ) : (
        <article className="rounded-lg border border-zinc-200 bg-white p-5 dark:border-zinc-800 dark:bg-zinc-900" data-testid="message-detail">
          <header className="mb-4 border-b border-zinc-200 pb-3 dark:border-zinc-800">
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{message.title}</h1>
              {message.format === "html" && <Badge color="purple">HTML</Badge>}
            </div>
            <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-xs text-zinc-500">
              <div className="flex gap-1">
                <dt>{t("sentAt")}</dt>
                <dd data-testid="sent-at">{formatTimestamp(message.created_at)}</dd>
              </div>
              <div className="flex gap-1">
                <dt>{t("readAt")}</dt>
                <dd data-testid="read-at">{message.read_at ? formatTimestamp(message.read_at) : t("unread")}</dd>
              </div>
            </dl>
          </header>
          <div data-testid="message-body">
            <MessageBody content={message.content} format={message.format} />
          </div>
        </article>
      )}
    </div>
  );
}
