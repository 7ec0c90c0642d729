"use client";
// Columns of the plans table (/admin/plans, docs/console-ui.md "Plans").
import type { ColumnDef } from "@tanstack/react-table";
import { Pencil, Power, PowerOff, Trash, Users } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { renderQuota, type QuotaDisplay } from "@/lib/client/format";
import type { Plan } from "./types";

type T = (key: string, values?: Record<string, string | number>) => string;

// write: the viewer holds billing:write (docs/permissions.md); without it a row offers only
// its subscribers
export type PlanRowActions = {
  write: boolean;
  busy: boolean;
  setEnabled: (p: Plan, enabled: boolean) => void;
  edit: (p: Plan) => void;
  subscribers: (p: Plan) => void;
  remove: (p: Plan) => void;
};

/** A price (exact decimal text) with its currency: "$9.90", "¥30.00", else "12.00 EUR". */
export function formatPrice(price: string, currency: string): string {
  const symbol = currency === "USD" ? "$" : currency === "CNY" ? "¥" : "";
  return symbol ? `${symbol}${price}` : `${price} ${currency}`;
}

/** "30 days" / "30 天", with the day, week and month presets named. */
export function durationText(t: T, days: number): string {
  if (days === 1) return t("duration.day");
  if (days === 7) return t("duration.week");
  if (days === 30) return t("duration.month");
  return t("duration.days", { days });
}

export function planColumns({ t, display, actions }: { t: T; display: QuotaDisplay; actions: PlanRowActions }): ColumnDef<Plan>[] {
  const columns: ColumnDef<Plan>[] = [
    { id: "id", meta: { label: t("col.id") }, cell: ({ row: { original: p } }) => p.id },
    {
      id: "name",
      meta: { label: t("col.name"), hideable: false },
      cell: ({ row: { original: p } }) => (
        <div className="max-w-64">
          <div className="font-medium">{p.name}</div>
          {p.description && <div className="truncate text-xs text-zinc-500 dark:text-zinc-400">{p.description}</div>}
        </div>
      ),
    },
    {
      id: "status",
      meta: { label: t("col.status") },
      cell: ({ row: { original: p } }) => <Badge color={p.enabled ? "green" : "gray"}>{p.enabled ? t("enabled") : t("disabled")}</Badge>,
    },
    {
      id: "price",
      meta: { label: t("col.price"), className: "whitespace-nowrap" },
      cell: ({ row: { original: p } }) => (
        <>
          <div className="font-medium">{formatPrice(p.price, p.currency)}</div>
          <div className="text-xs text-zinc-500 dark:text-zinc-400">{durationText(t, p.duration_days)}</div>
        </>
      ),
    },
    {
      id: "quota",
      meta: { label: t("col.quota"), className: "whitespace-nowrap" },
      cell: ({ row: { original: p } }) => (
        <>
          <div>{renderQuota(Number(p.quota), display)}</div>
          <div className="text-xs text-zinc-500 dark:text-zinc-400">{t(`reset.${p.reset_period}`)}</div>
        </>
      ),
    },
    {
      id: "groups",
      meta: { label: t("col.groups"), className: "text-xs whitespace-nowrap" },
      cell: ({ row: { original: p } }) => (
        <>
          <div>{t("upgradeTo", { group: p.upgrade_group || t("noGroupChange") })}</div>
          <div className="text-zinc-500 dark:text-zinc-400">{t("expiryTo", { group: p.expiry_group || t("noGroupChange") })}</div>
        </>
      ),
    },
    {
      id: "models",
      meta: { label: t("col.models"), className: "text-xs" },
      cell: ({ row: { original: p } }) =>
        p.models.length === 0 ? (
          t("allModels")
        ) : (
          <span title={p.models.join(", ")} className="block max-w-48 truncate">
            {p.models.join(", ")}
          </span>
        ),
    },
    {
      id: "rules",
      meta: { label: t("col.rules") },
      cell: ({ row: { original: p } }) => (
        <div className="flex flex-wrap gap-1">
          {p.wallet_purchasable && <Badge color="blue">{t("walletPurchasable")}</Badge>}
          {p.carry_over && <Badge color="purple">{t("carryOver")}</Badge>}
          {p.stripe_price_id && <Badge color="orange">Stripe</Badge>}
          <Badge>{p.max_per_user > 0 ? t("maxPerUser", { n: p.max_per_user }) : t("noMaxPerUser")}</Badge>
        </div>
      ),
    },
    {
      id: "actions",
      meta: { label: t("col.actions"), hideable: false },
      cell: ({ row: { original: p } }) => (
        <div className="flex gap-1">
          {actions.write && (
            <Button
              size="sm"
              variant="secondary"
              disabled={actions.busy}
              onClick={() => actions.setEnabled(p, !p.enabled)}
              aria-label={t(p.enabled ? "disableOf" : "enableOf", { name: p.name })}
            >
              {p.enabled ? <PowerOff aria-hidden className="h-3.5 w-3.5" /> : <Power aria-hidden className="h-3.5 w-3.5" />}
              {p.enabled ? t("disable") : t("enable")}
            </Button>
          )}
          {actions.write && (
            <Button size="sm" variant="secondary" onClick={() => actions.edit(p)} aria-label={t("editOf", { name: p.name })}>
              <Pencil aria-hidden className="h-3.5 w-3.5" />
              {t("edit")}
            </Button>
          )}
          <Button size="sm" variant="secondary" onClick={() => actions.subscribers(p)} aria-label={t("subscribersOf", { name: p.name })}>
            <Users aria-hidden className="h-3.5 w-3.5" />
            {t("subscribers")}
          </Button>
          {actions.write && (
            <Button size="sm" variant="danger" disabled={actions.busy} onClick={() => actions.remove(p)} aria-label={t("deleteOf", { name: p.name })}>
              <Trash aria-hidden className="h-3.5 w-3.5" />
              {t("delete")}
            </Button>
          )}
        </div>
      ),
    },
  ];
  return columns.map((c) => Object.assign(c, { header: c.meta?.label ?? "" }) as ColumnDef<Plan>);
}
