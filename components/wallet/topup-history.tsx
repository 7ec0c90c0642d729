"use client";
// The caller's top-up orders (GET /api/user/topup/self), newest first, on the console's
// DataTable with server paging (docs/payments.md).
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import useSWR from "swr";
import { DataTable, useServerPaging } from "@/components/data-table";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Card } from "@/components/ui/card";
import { formatTimestamp, renderQuota } from "@/lib/client/format";
import { methodLabel, OrderStatus, orderMoney } from "./order-cells";
import type { TopUpOrder, TopUpPage } from "./types";

export function TopUpHistory() {
  const t = useTranslations("payments");
  const display = useQuotaDisplay();
  const paging = useServerPaging(null);
  const path = paging.pageSize === null ? null : `/api/user/topup/self?p=${paging.page + 1}&page_size=${paging.pageSize}`;
  const { data, error, isLoading, mutate } = useSWR<TopUpPage>(path);
  const columns: ColumnDef<TopUpOrder>[] = [
    { id: "trade_no", header: t("col.trade_no"), cell: ({ row: { original: o } }) => <code className="font-mono text-xs">{o.trade_no}</code> },
    { id: "method", header: t("col.method"), cell: ({ row: { original: o } }) => methodLabel(o.payment_method, t) },
    { id: "amount", header: t("col.amount"), cell: ({ row: { original: o } }) => renderQuota(o.amount, display) },
    { id: "money", header: t("col.money"), cell: ({ row: { original: o } }) => orderMoney(o) },
    { id: "status", header: t("col.status"), cell: ({ row: { original: o } }) => <OrderStatus order={o} t={t} /> },
    { id: "created", header: t("col.created"), cell: ({ row: { original: o } }) => formatTimestamp(o.create_time) },
    { id: "completed", header: t("col.completed"), cell: ({ row: { original: o } }) => (o.complete_time ? formatTimestamp(o.complete_time) : "—") },
  ];
  return (
    <Card title={t("history")}>
      <DataTable<TopUpOrder>
        id="topup-history"
        columns={columns}
        rows={data?.items}
        getRowId={(o) => String(o.id)}
        loading={isLoading}
        error={error}
        onRetry={() => void mutate()}
        emptyText={t("historyEmpty")}
        errorText={t("historyFailed")}
        rowProps={(o) => ({ "data-testid": `topup-row-${o.trade_no}` })}
        paging={
          paging.pageSize === null
            ? undefined
            : { page: paging.page, pageSize: paging.pageSize, total: data?.total ?? 0, onPage: paging.setPage, onPageSize: paging.setPageSize }
        }
      />
    </Card>
  );
}
