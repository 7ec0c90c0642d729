"use client";
// Columns of the tokens table.
import type { ColumnDef } from "@tanstack/react-table";
import { Copy, Pencil, Power, PowerOff, Trash } from "lucide-react";
import { TokenLimitsCell } from "@/components/limits/token-limits-cell";
import type { LimitUsage } from "@/lib/client/limits";
import { Badge, type BadgeColor } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatTimestamp, renderQuota, type QuotaDisplay } from "@/lib/client/format";
import type { Token } from "./types";
import { TOKEN_STATUS } from "@/lib/statuses";

const TOKEN_STATUS_COLOR: Record<number, BadgeColor> = { 1: "green", 2: "red", 3: "yellow", 4: "gray" };

/** A token's status as a badge (the token list, and another user's tokens in the user editor). */
export function TokenStatusBadge({ status, t }: { status: number; t: T }) {
  return <Badge color={TOKEN_STATUS_COLOR[status] ?? "gray"}>{t(`status.${status in TOKEN_STATUS_COLOR ? status : 0}`)}</Badge>;
}

/** The key as shown: with its sk- prefix. */
export const shownKey = (key: string) => (key.startsWith("sk-") ? key : `sk-${key}`);
export const TOKEN_COLUMNS = ["name", "status", "key", "used", "remaining", "limits", "created", "expires", "actions"] as const;
type TokenColumn = (typeof TOKEN_COLUMNS)[number];
type T = (key: string, values?: Record<string, string | number>) => string;

export type TokenRowActions = {
  busy: boolean;
  copyKey: (tok: Token) => void;
  setStatus: (tok: Token, status: 1 | 2) => void;
  edit: (tok: Token) => void;
  remove: (tok: Token) => void;
};

export function tokenColumns({
  t,
  display,
  actions,
  usage,
}: {
  t: T;
  display: QuotaDisplay;
  actions: TokenRowActions;
  usage: Map<number, LimitUsage[]>; // what each token with limits uses now
}): ColumnDef<Token>[] {
  const cells: Record<TokenColumn, ColumnDef<Token>["cell"]> = {
    name: ({ row: { original: tok } }) => (
      <>
        <div className="font-medium">{tok.name}</div>
        {tok.group && <div className="text-xs text-zinc-500">{t("groupLabel", { group: tok.group })}</div>}
      </>
    ),
    status: ({ row: { original: tok } }) => <TokenStatusBadge status={tok.status} t={t} />,
    key: ({ row: { original: tok } }) => (
      <div className="flex items-center gap-1">
        <code className="font-mono text-xs whitespace-nowrap">{shownKey(tok.key)}</code>
        <Button size="sm" variant="ghost" onClick={() => actions.copyKey(tok)} aria-label={t("copyKeyOf", { name: tok.name })}>
          <Copy aria-hidden className="h-3.5 w-3.5" />
          {t("copy")}
        </Button>
      </div>
    ),
    used: ({ row: { original: tok } }) => renderQuota(tok.used_quota, display),
    remaining: ({ row: { original: tok } }) => (tok.unlimited_quota ? <Badge color="blue">{t("unlimited")}</Badge> : renderQuota(tok.remain_quota, display)),
    limits: ({ row: { original: tok } }) => <TokenLimitsCell token={tok} usage={usage.get(tok.id)} />,
    created: ({ row: { original: tok } }) => formatTimestamp(tok.created_time),
    expires: ({ row: { original: tok } }) => (tok.expired_time === -1 ? t("never") : formatTimestamp(tok.expired_time)),
    actions: ({ row: { original: tok } }) => (
      <div className="flex gap-1">
        {tok.status === TOKEN_STATUS.enabled ? (
          <Button
            size="sm"
            variant="secondary"
            disabled={actions.busy}
            onClick={() => actions.setStatus(tok, 2)}
            aria-label={t("disableOf", { name: tok.name })}
          >
            <PowerOff aria-hidden className="h-3.5 w-3.5" />
            {t("disable")}
          </Button>
        ) : (
          <Button
            size="sm"
            variant="secondary"
            disabled={actions.busy}
            onClick={() => actions.setStatus(tok, 1)}
            aria-label={t("enableOf", { name: tok.name })}
          >
            <Power aria-hidden className="h-3.5 w-3.5" />
            {t("enable")}
          </Button>
        )}
        <Button size="sm" variant="secondary" onClick={() => actions.edit(tok)} aria-label={t("editOf", { name: tok.name })}>
          <Pencil aria-hidden className="h-3.5 w-3.5" />
          {t("edit")}
        </Button>
        <Button size="sm" variant="danger" onClick={() => actions.remove(tok)} aria-label={t("deleteOf", { name: tok.name })}>
          <Trash aria-hidden className="h-3.5 w-3.5" />
          {t("delete")}
        </Button>
      </div>
    ),
  };
  const classes: Partial<Record<TokenColumn, string>> = {
    name: "whitespace-nowrap",
    used: "text-xs",
    remaining: "text-xs",
    created: "text-xs whitespace-nowrap",
    expires: "text-xs whitespace-nowrap",
  };
  return TOKEN_COLUMNS.map((id) => ({
    id,
    header: t(`col.${id}`),
    meta: { label: t(`col.${id}`), className: classes[id], hideable: id !== "name" && id !== "actions" },
    cell: cells[id],
  }));
}
