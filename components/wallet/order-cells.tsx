"use client";
// Cells both order tables share (the wallet's history and /admin/topups).
import { Badge, type BadgeColor } from "@/components/ui/badge";
import type { TopUpOrder } from "./types";

const STATUS_COLOR: Record<string, BadgeColor> = { pending: "yellow", success: "green", failed: "red" };
type T = (key: string, values?: Record<string, string | number>) => string;

export function OrderStatus({ order, t }: { order: TopUpOrder; t: T }) {
  const known = order.status in STATUS_COLOR;
  return <Badge color={STATUS_COLOR[order.status] ?? "gray"}>{known ? t(`status.${order.status}`) : order.status}</Badge>;
}

export function orderMoney(order: TopUpOrder): string {
  const sign = order.currency === "USD" ? "$" : order.currency === "CNY" ? "¥" : `${order.currency} `;
  return `${sign}${order.money.toFixed(2)}`;
}

export function methodLabel(method: string, t: T): string {
  return method === "zfb" || method === "wx" || method === "stripe" ? t(`methods.${method}`) : method;
}
