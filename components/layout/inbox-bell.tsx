"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import useSWR from "swr";
import { api } from "@/lib/client/api";
import { unreadBadge } from "@/lib/client/format";
import { INBOX_POLL_MS, UNREAD_PATH } from "@/lib/client/inbox";

// Polled quietly: a failing count must not toast every 30 seconds (a 401 still logs out).
const fetchUnread = (path: string) => api.get<{ unread_count: number }>(path, { quiet: true }).then((r) => r.data.unread_count);

export function InboxBell() {
  const t = useTranslations("shell");
  const { data } = useSWR(UNREAD_PATH, fetchUnread, { refreshInterval: INBOX_POLL_MS });
  const badge = unreadBadge(data ?? 0);
  return (
    <Link
      prefetch={false}
      href="/app/inbox"
      aria-label={badge ? t("inboxUnread", { count: badge }) : t("inbox")}
      className="relative inline-flex h-9 w-9 items-center justify-center rounded-md text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800"
    >
      <svg aria-hidden viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0" />
      </svg>
      {badge && (
        <span
          data-testid="unread-badge"
          className="absolute -top-0.5 -right-0.5 min-w-4 rounded-full bg-red-600 px-1 text-center text-[10px] leading-4 font-semibold text-white"
        >
          {badge}
        </span>
      )}
    </Link>
  );
}
