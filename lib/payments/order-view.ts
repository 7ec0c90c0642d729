// What the order lists answer for one order (lib/payments/list-own-topups.ts,
// list-all-topups.ts): never a secret; the provider's reference and the amount the provider
// reported as paid (`paid_money`) only for the root. `top_up_code` is what the payer typed.
import "server-only";
import type { TopUp } from "@/generated/sqlite/client";

export type Paging = { page: number; size: number; keyword?: string };

export function orderView(o: TopUp) {
  return {
    id: o.id,
    user_id: o.user_id,
    amount: o.amount,
    money: o.money,
    currency: o.currency,
    trade_no: o.trade_no,
    payment_method: o.payment_method,
    provider: o.provider,
    status: o.status,
    create_time: o.create_time,
    complete_time: o.complete_time,
    completed_by: o.completed_by,
    top_up_code: o.top_up_code,
  };
}
