"use client";
// Columns of the usage logs table; the admin-only ones are left out for everyone else.
import type { ColumnDef } from "@tanstack/react-table";
import { ChevronDown, ChevronRight } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { formatTimestamp, renderQuota, type QuotaDisplay } from "@/lib/client/format";
import { frtColor, LOG_TYPE_COLOR, LOG_TYPES, parseOther, timeUsedColor } from "@/lib/client/logs";
import { logContentText } from "./log-content";
import { ADMIN_LOG_COLUMNS, LOG_COLUMNS, type Log, type LogColumn } from "./types";

type T = (key: string, values?: Record<string, string | number>) => string;

// The admin's retry path: other.admin_info.use_channel (channel ids tried in order).
function retryPath(log: Log): string {
  const info = parseOther(log.other).admin_info as { use_channel?: unknown } | undefined;
  return Array.isArray(info?.use_channel) && info.use_channel.length > 1 ? info.use_channel.join(" → ") : "";
}

const consumeLike = (log: Log) => log.type === 2 || log.type === 6;

// A badge whose text is cut to `width` with an ellipsis, the whole text in its tooltip.
function ClippedBadge({ color, width, text }: { color?: "blue"; width: string; text: string }) {
  return (
    <Badge color={color} className={width}>
      <span className="min-w-0 truncate" title={text}>
        {text}
      </span>
    </Badge>
  );
}

export function logColumns({ t, display, admin, onUser }: { t: T; display: QuotaDisplay; admin: boolean; onUser: (id: number) => void }): ColumnDef<Log>[] {
  const cells: Record<LogColumn, ColumnDef<Log>["cell"]> = {
    // date and hour on two lines when the table is short of room
    time: ({ row }) => {
      const [date, hour] = formatTimestamp(row.original.created_at).split(" ");
      return (
        <>
          <span className="whitespace-nowrap">{date}</span> <span className="whitespace-nowrap">{hour}</span>
        </>
      );
    },
    channel: ({ row: { original: log } }) =>
      log.channel ? <ClippedBadge color="blue" width="max-w-24" text={`${log.channel}${log.channel_name ? ` · ${log.channel_name}` : ""}`} /> : null,
    username: ({ row: { original: log } }) =>
      log.username ? (
        <button
          type="button"
          className="block max-w-24 truncate text-blue-700 hover:underline dark:text-blue-400"
          title={log.username}
          onClick={() => onUser(log.user_id)}
        >
          {log.username}
        </button>
      ) : null,
    token: ({ row: { original: log } }) => (log.token_name ? <ClippedBadge width="max-w-24" text={log.token_name} /> : null),
    group: ({ row }) => (
      <span className="block max-w-20 truncate" title={row.original.group}>
        {row.original.group}
      </span>
    ),
    type: ({ row: { original: log } }) => (
      <Badge color={LOG_TYPE_COLOR[log.type] ?? "gray"}>{t(`types.${LOG_TYPES.includes(log.type as 1) ? log.type : 0}`)}</Badge>
    ),
    // a long name wraps anywhere rather than widening the table
    model: ({ row }) => <div className="min-w-24 [overflow-wrap:anywhere]">{row.original.model_name}</div>,
    useTime: ({ row: { original: log } }) => {
      if (!consumeLike(log)) return null;
      const other = parseOther(log.other);
      const frt = typeof other.frt === "number" ? other.frt : null;
      return (
        <div className="flex min-w-20 flex-wrap items-center gap-1">
          <Badge color={timeUsedColor(log.use_time)}>{`${log.use_time}s`}</Badge>
          {log.is_stream && frt !== null && <Badge color={frtColor(frt)}>{`${(frt / 1000).toFixed(1)}s`}</Badge>}
          <Badge color={log.is_stream ? "blue" : "purple"}>{log.is_stream ? t("stream") : t("nonStream")}</Badge>
        </div>
      );
    },
    prompt: ({ row: { original: log } }) => (consumeLike(log) ? log.prompt_tokens : ""),
    completion: ({ row: { original: log } }) => (consumeLike(log) ? log.completion_tokens : ""),
    quota: ({ row: { original: log } }) => (log.quota ? renderQuota(log.quota, display, 6) : ""),
    retry: ({ row }) => retryPath(row.original),
    ip: ({ row }) => (
      <span className="block max-w-28 truncate" title={row.original.client_ip}>
        {row.original.client_ip}
      </span>
    ),
    // The toggle first, so that it lines up on every row; the content beside it (or under it
    // when the table is short of room) in at most two lines, the whole of it in the tooltip and
    // in the detail row.
    detail: ({ row }) => {
      const open = row.getIsExpanded();
      const content = logContentText(row.original, t, display);
      return (
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <Button size="sm" variant="ghost" className="h-7 shrink-0 px-2" aria-expanded={open} onClick={row.getToggleExpandedHandler()}>
            {open ? <ChevronDown aria-hidden className="h-4 w-4" /> : <ChevronRight aria-hidden className="h-4 w-4" />}
            {open ? t("hideDetail") : t("showDetail")}
          </Button>
          {content && (
            <span className="line-clamp-2 max-w-64 min-w-16 [overflow-wrap:anywhere]" title={content}>
              {content}
            </span>
          )}
        </div>
      );
    },
  };
  // Fourteen columns fit a 1366 px screen with the sidebar: tighter padding, long text cut
  // (badges, names) or wrapped (the time between date and hour, the model, the timing badges).
  const classes: Partial<Record<LogColumn, string>> = {
    time: "text-xs",
    model: "font-mono text-xs",
    quota: "text-xs whitespace-nowrap",
    type: "",
  };
  return LOG_COLUMNS.filter((c) => admin || !ADMIN_LOG_COLUMNS.includes(c)).map((id) => ({
    id,
    // the long header ("Time / first token") may wrap over its badges
    header: id === "useTime" ? () => <span className="whitespace-normal">{t(`col.${id}`)}</span> : t(`col.${id}`),
    meta: { label: t(`col.${id}`), className: cn("px-1.5", classes[id] ?? "text-xs"), headerClassName: "px-1.5" },
    cell: cells[id],
  }));
}
