"use client";
// /admin/topups (root, or an admin with billing:topups; docs/payments.md): every top-up order, searched by trade number, user id
// or username, with a confirmed "complete" action for a pending order (credited once: a
// repeated completion credits nothing).
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { CheckCheck, Search } from "lucide-react";
import { useState, type FormEvent } from "react";
import useSWR from "swr";
import { DataTable, useServerPaging } from "@/components/data-table";
import { useConfirm } from "@/components/forms";
import { useQuotaDisplay, useSessionUser } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { Alert, PageTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { methodLabel, OrderStatus, orderMoney } from "@/components/wallet/order-cells";
import type { TopUpOrder, TopUpPage } from "@/components/wallet/types";
import { api } from "@/lib/client/api";
import { formatTimestamp, renderQuota } from "@/lib/client/format";
import { can } from "@/lib/client/navigation";
import { toast } from "@/lib/client/toast";

export function TopUpsPage() {
  const t = useTranslations("payments");
  const display = useQuotaDisplay();
  const user = useSessionUser();
  // the root, or an admin granted billing:topups (docs/permissions.md)
  const root = can(user, "billing:topups");
  const [draft, setDraft] = useState("");
  const [keyword, setKeyword] = useState("");
  const paging = useServerPaging(keyword);
  const [target, setTarget] = useState<TopUpOrder | null>(null);
  const [busy, setBusy] = useState(false);
  const path =
    !root || paging.pageSize === null
      ? null
      : `/api/user/topup?${new URLSearchParams({ p: String(paging.page + 1), page_size: String(paging.pageSize), keyword: keyword.trim() })}`;
  const { data, error, isLoading, mutate } = useSWR<TopUpPage>(path);
  const { ask, dialog } = useConfirm({
    title: t("completeTitle"),
    description: target
      ? t("completeText", { quota: renderQuota(target.amount, display), user: target.username || `#${target.user_id}`, trade_no: target.trade_no })
      : "",
    action: t("complete"),
  });

  async function complete(order: TopUpOrder) {
    setTarget(order);
    if (!(await ask())) return;
    setBusy(true);
    try {
      const r = await api.post<{ completed: boolean }>("/api/user/topup/complete", { trade_no: order.trade_no });
      if (r.data.completed) toast.success({ text: r.message });
      else toast.info({ text: r.message });
      void mutate();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  function search(e: FormEvent) {
    e.preventDefault();
    setKeyword(draft);
  }

  const columns: ColumnDef<TopUpOrder>[] = [
    { id: "id", header: "ID", cell: ({ row: { original: o } }) => o.id },
    {
      id: "user",
      header: t("col.user"),
      cell: ({ row: { original: o } }) => (
        <span>
          {o.username || "—"} <span className="text-xs text-zinc-500">#{o.user_id}</span>
        </span>
      ),
    },
    { id: "trade_no", header: t("col.trade_no"), cell: ({ row: { original: o } }) => <code className="font-mono text-xs">{o.trade_no}</code> },
    { id: "method", header: t("col.method"), cell: ({ row: { original: o } }) => methodLabel(o.payment_method, t) },
    { id: "amount", header: t("col.amount"), cell: ({ row: { original: o } }) => renderQuota(o.amount, display) },
    {
      id: "money",
      header: t("col.money"),
      cell: ({ row: { original: o } }) => (
        <>
          <div>{orderMoney(o)}</div>
          {o.paid_money && <div className="text-xs text-zinc-500">{t("paidMoney", { money: o.paid_money })}</div>}
        </>
      ),
    },
    {
      id: "code",
      header: t("col.code"),
      cell: ({ row: { original: o } }) => (o.top_up_code ? <code className="font-mono text-xs">{o.top_up_code}</code> : "—"),
    },
    { id: "status", header: t("col.status"), cell: ({ row: { original: o } }) => <OrderStatus order={o} t={t} /> },
    { id: "created", header: t("col.created"), cell: ({ row: { original: o } }) => formatTimestamp(o.create_time) },
    {
      id: "completed",
      header: t("col.completed"),
      cell: ({ row: { original: o } }) =>
        o.complete_time ? (
          <>
            <div>{formatTimestamp(o.complete_time)}</div>
            {o.completed_by && <div className="text-xs text-zinc-500">{t(`by.${o.completed_by}`)}</div>}
          </>
        ) : (
          "—"
        ),
    },
    {
      id: "actions",
      header: t("col.actions"),
      cell: ({ row: { original: o } }) =>
        o.status === "pending" ? (
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => void complete(o)} aria-label={t("completeOf", { trade_no: o.trade_no })}>
            <CheckCheck aria-hidden className="h-3.5 w-3.5" />
            {t("complete")}
          </Button>
        ) : null,
    },
  ];

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle>{t("adminTitle")}</PageTitle>
      {!root ? (
        <Alert tone="warning">{t("rootOnly")}</Alert>
      ) : (
        <DataTable<TopUpOrder>
          id="admin-topups"
          toolbar={
            <form onSubmit={search} role="search" className="flex flex-wrap gap-2">
              <Input
                aria-label={t("adminSearch")}
                placeholder={t("adminSearch")}
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                className="w-full sm:w-72"
              />
              <Button type="submit">
                <Search aria-hidden className="h-4 w-4" />
                {t("search")}
              </Button>
            </form>
          }
          columns={columns}
          rows={data?.items}
          getRowId={(o) => String(o.id)}
          loading={isLoading}
          error={error}
          onRetry={() => void mutate()}
          emptyText={t("historyEmpty")}
          errorText={t("historyFailed")}
          rowProps={(o) => ({ "data-testid": `order-row-${o.trade_no}`, className: o.status === "failed" ? "opacity-50" : undefined })}
          paging={
            paging.pageSize === null
              ? undefined
              : { page: paging.page, pageSize: paging.pageSize, total: data?.total ?? 0, onPage: paging.setPage, onPageSize: paging.setPageSize }
          }
        />
      )}
      {dialog}
    </div>
  );
}
