"use client";
// Columns of the redemption codes table.
import type { ColumnDef } from "@tanstack/react-table";
import { Pencil, Power, PowerOff, Trash } from "lucide-react";
import { Badge, type BadgeColor } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatTimestamp, renderQuota, type QuotaDisplay } from "@/lib/client/format";
import type { Redemption } from "./types";
import { REDEMPTION_STATUS } from "@/lib/statuses";

const STATUS_COLOR: Record<number, BadgeColor> = { 1: "green", 2: "red", 3: "gray" };
type T = (key: string, values?: Record<string, string | number>) => string;

// write: the viewer holds billing:write (docs/permissions.md); without it the table has no
// actions column
export type RedemptionRowActions = {
  write: boolean;
  busy: boolean;
  setStatus: (c: Redemption, status: 1 | 2) => void;
  edit: (c: Redemption) => void;
  remove: (c: Redemption) => void;
};

export function redemptionColumns({ t, display, actions }: { t: T; display: QuotaDisplay; actions: RedemptionRowActions }): ColumnDef<Redemption>[] {
  const columns: ColumnDef<Redemption>[] = [
    { id: "id", meta: { label: t("col.id") }, cell: ({ row: { original: c } }) => c.id },
    {
      id: "name",
      meta: { label: t("col.name"), hideable: false },
      cell: ({ row: { original: c } }) => (
        <>
          <div className="font-medium">{c.name}</div>
          <code className="font-mono text-xs text-zinc-500">{c.key_hint}</code>
        </>
      ),
    },
    {
      id: "status",
      meta: { label: t("col.status") },
      cell: ({ row: { original: c } }) => (
        <div className="flex flex-wrap gap-1">
          <Badge color={STATUS_COLOR[c.status] ?? "gray"}>{t(`status.${c.status in STATUS_COLOR ? c.status : 0}`)}</Badge>
          {c.is_gift && (
            <Badge color="purple">
              {c.max_uses === -1 ? t("giftUsesUnlimited", { used: c.used_count }) : t("giftUses", { used: c.used_count, max: c.max_uses })}
            </Badge>
          )}
        </div>
      ),
    },
    { id: "quota", meta: { label: t("col.quota") }, cell: ({ row: { original: c } }) => renderQuota(c.quota, display) },
    {
      id: "created",
      meta: { label: t("col.created"), className: "text-xs whitespace-nowrap" },
      cell: ({ row: { original: c } }) => formatTimestamp(c.created_time),
    },
    {
      id: "valid",
      meta: { label: t("col.valid") },
      cell: ({ row: { original: c } }) =>
        c.valid_from || c.valid_until ? (
          <div className="text-xs whitespace-nowrap">
            <div>{c.valid_from ? t("from", { time: formatTimestamp(c.valid_from) }) : t("fromAny")}</div>
            <div>{c.valid_until ? t("until", { time: formatTimestamp(c.valid_until) }) : t("untilAny")}</div>
          </div>
        ) : (
          t("always")
        ),
    },
    {
      id: "redeemed",
      meta: { label: t("col.redeemed") },
      cell: ({ row: { original: c } }) => (c.used_user_id ? t("redeemedBy", { id: c.used_user_id, time: formatTimestamp(c.redeemed_time) }) : "—"),
    },
    {
      id: "actions",
      meta: { label: t("col.actions"), hideable: false },
      cell: ({ row: { original: c } }) => (
        <div className="flex gap-1">
          {c.status === REDEMPTION_STATUS.unused ? (
            <Button
              size="sm"
              variant="secondary"
              disabled={actions.busy}
              onClick={() => actions.setStatus(c, 2)}
              aria-label={t("disableOf", { name: c.name, id: c.id })}
            >
              <PowerOff aria-hidden className="h-3.5 w-3.5" />
              {t("disable")}
            </Button>
          ) : (
            <Button
              size="sm"
              variant="secondary"
              disabled={actions.busy || c.status === REDEMPTION_STATUS.used}
              onClick={() => actions.setStatus(c, 1)}
              aria-label={t("enableOf", { name: c.name, id: c.id })}
            >
              <Power aria-hidden className="h-3.5 w-3.5" />
              {t("enable")}
            </Button>
          )}
          <Button
            size="sm"
            variant="secondary"
            disabled={c.status !== REDEMPTION_STATUS.unused}
            onClick={() => actions.edit(c)}
            aria-label={t("editOf", { name: c.name, id: c.id })}
          >
            <Pencil aria-hidden className="h-3.5 w-3.5" />
            {t("edit")}
          </Button>
          <Button size="sm" variant="danger" onClick={() => actions.remove(c)} aria-label={t("deleteOf", { name: c.name, id: c.id })}>
            <Trash aria-hidden className="h-3.5 w-3.5" />
            {t("delete")}
          </Button>
        </div>
      ),
    },
  ];
  // The header is the column's label.
  return columns.filter((c) => actions.write || c.id !== "actions").map((c) => Object.assign(c, { header: c.meta?.label ?? "" }) as ColumnDef<Redemption>);
}
