"use client";
// Columns of the usage logs table; the admin-only ones are left out for everyone else.
import type { ColumnDef } from "@tanstack/react-table";
import { ChevronDown, ChevronRight } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatTimestamp, renderQuota, type QuotaDisplay } from "@/lib/client/format";
import { frtColor, LOG_TYPE_COLOR, LOG_TYPES, parseOther, timeUsedColor } from "@/lib/client/relay";
import { ADMIN_LOG_COLUMNS, LOG_COLUMNS, type Log, type LogColumn } from "./types";

type T = (key: string, values?: Record<string, string | number>) => string;

// The admin's retry path: other.admin_info.use_channel (channel ids tried in order).
function retryPath(log: Log): string {
  const info = parseOther(log.other).admin_info as { use_channel?: unknown } | undefined;
  return Array.isArray(info?.use_channel) && info.use_channel.length > 1 ? info.use_channel.join(" → ") : "";
}

const consumeLike = (log: Log) => log.type === 2 || log.type === 6;

export function logColumns({ t, display, admin, onUser }: { t: T; display: QuotaDisplay; admin: boolean; onUser: (id: number) => void }): ColumnDef<Log>[] {
  const cells: Record<LogColumn, ColumnDef<Log>["cell"]> = {
    time: ({ row }) => formatTimestamp(row.original.created_at),
    channel: ({ row: { original: log } }) =>
      log.channel ? (
        <Badge color="blue">
          {log.channel}
          {log.channel_name ? ` · ${log.channel_name}` : ""}
        </Badge>
      ) : null,
    username: ({ row: { original: log } }) =>
      log.username ? (
        <button type="button" className="text-blue-700 hover:underline dark:text-blue-400" onClick={() => onUser(log.user_id)}>
          {log.username}
        </button>
      ) : null,
    token: ({ row: { original: log } }) => (log.token_name ? <Badge>{log.token_name}</Badge> : null),
    group: ({ row }) => row.original.group,
    type: ({ row: { original: log } }) => (
      <Badge color={LOG_TYPE_COLOR[log.type] ?? "gray"}>{t(`types.${LOG_TYPES.includes(log.type as 1) ? log.type : 0}`)}</Badge>
    ),
    model: ({ row }) => row.original.model_name,
    useTime: ({ row: { original: log } }) => {
      if (!consumeLike(log)) return null;
      const other = parseOther(log.other);
      const frt = typeof other.frt === "number" ? other.frt : null;
      return (
        <div className="flex items-center gap-1">
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
    ip: ({ row }) => row.original.client_ip,
    detail: ({ row }) => {
      const open = row.getIsExpanded();
      return (
        <div className="flex items-center gap-2">
          <span className="max-w-64 truncate" title={row.original.content}>
            {row.original.content}
          </span>
          <Button size="sm" variant="ghost" aria-expanded={open} onClick={row.getToggleExpandedHandler()}>
            {open ? <ChevronDown aria-hidden className="h-4 w-4" /> : <ChevronRight aria-hidden className="h-4 w-4" />}
            {open ? t("hideDetail") : t("showDetail")}
          </Button>
        </div>
      );
    },
  };
  const classes: Partial<Record<LogColumn, string>> = {
    time: "text-xs whitespace-nowrap",
    model: "font-mono text-xs whitespace-nowrap",
    useTime: "text-xs whitespace-nowrap",
    quota: "text-xs whitespace-nowrap",
    type: "",
  };
  return LOG_COLUMNS.filter((c) => admin || !ADMIN_LOG_COLUMNS.includes(c)).map((id) => ({
    id,
    header: t(`col.${id}`),
    meta: { label: t(`col.${id}`), className: classes[id] ?? "text-xs" },
    cell: cells[id],
  }));
}
