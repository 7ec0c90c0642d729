"use client";
// /app/inbox (docs/messages.md): the caller's messages, newest first; unread ones highlighted
// with a tag; the date as a time (24 h), a weekday (7 days) or a date; a preview without
// markup cut to 100 characters; for an admin, how many users each message was sent to; pages
// when there are more than a page; an empty state.
import { Mail, MailOpen } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
import Link from "next/link";
import useSWR from "swr";
import { useServerPaging } from "@/components/data-table";
import { useSessionUser } from "@/components/layout/providers";
import { ErrorMessage } from "@/components/data-table/states";
import { Badge } from "@/components/ui/badge";
import { PageTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Pagination } from "@/components/ui/pagination";
import { messageDate, messagePreview, type InboxMessage } from "@/lib/client/inbox";
import { isAdminRole } from "@/lib/client/navigation";

type InboxPage = { items: InboxMessage[]; total: number; page: number; page_size: number };

export function InboxPage() {
  const t = useTranslations("inbox");
  const locale = useLocale();
  const admin = isAdminRole(useSessionUser()?.role);
  const paging = useServerPaging(null);
  const path = paging.pageSize === null ? null : `/api/user/messages?p=${paging.page + 1}&page_size=${paging.pageSize}`;
  const { data, error, isLoading, mutate } = useSWR<InboxPage>(path);
  const items = data?.items ?? [];
  const total = data?.total ?? 0;

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6">
      <PageTitle>{t("title")}</PageTitle>
      <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        {error ? (
          <div className="p-8 text-center">
            <ErrorMessage text={t("loadFailed")} onRetry={() => void mutate()} />
          </div>
        ) : isLoading || !data ? (
          <p role="status" className="p-8 text-center text-sm text-zinc-500">
            {t("loading")}
          </p>
        ) : items.length === 0 ? (
          <div className="flex flex-col items-center gap-2 p-12 text-center text-sm text-zinc-500" data-testid="inbox-empty">
            <MailOpen aria-hidden className="h-10 w-10 text-zinc-300 dark:text-zinc-600" />
            {t("empty")}
          </div>
        ) : (
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" aria-label={t("title")}>
            {items.map((m) => (
              <li key={m.id}>
                <Link
                  prefetch={false}
                  href={`/app/inbox/${m.id}`}
                  data-testid={`inbox-item-${m.id}`}
                  data-unread={m.is_read ? undefined : "true"}
                  className={cn("flex gap-3 px-4 py-3 hover:bg-zinc-50 dark:hover:bg-zinc-800/60", !m.is_read && "bg-blue-50/70 dark:bg-blue-950/30")}
                >
                  {m.is_read ? (
                    <MailOpen aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-zinc-400" />
                  ) : (
                    <Mail aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-blue-600 dark:text-blue-400" />
                  )}
                  <div className="min-w-0 flex-1">
                    <div className="flex items-center gap-2">
                      <span
                        className={cn("truncate text-sm", m.is_read ? "text-zinc-700 dark:text-zinc-300" : "font-semibold text-zinc-900 dark:text-zinc-50")}
                      >
                        {m.title}
                      </span>
                      {!m.is_read && <Badge color="blue">{t("unread")}</Badge>}
                      {admin && (
                        <span className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400" data-testid={`inbox-recipients-${m.id}`}>
                          {t("recipients", { count: m.stats.total_recipients })}
                        </span>
                      )}
                      <time className="ml-auto shrink-0 text-xs text-zinc-500" dateTime={new Date(m.created_at * 1000).toISOString()}>
                        {messageDate(m.created_at, locale)}
                      </time>
                    </div>
                    <p className="mt-0.5 truncate text-xs text-zinc-500 dark:text-zinc-400">{messagePreview(m.content, m.format)}</p>
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
      {paging.pageSize !== null && total > paging.pageSize && (
        <Pagination page={paging.page} pageSize={paging.pageSize} total={total} onPage={paging.setPage} onPageSize={paging.setPageSize} />
      )}
    </div>
  );
}
