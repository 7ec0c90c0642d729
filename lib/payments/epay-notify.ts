// GET|POST /api/user/epay/notify: the epay provider reports a payment. Credited only when
// everything holds: a key is configured and the signature verifies under it, the merchant
// id is ours, trade_status is TRADE_SUCCESS, the order exists, is an epay order paid with its
// own method (`type`: zfb -> alipay, wx -> wxpay), and the
// money equals the order's to the cent. Then the order completes once (complete-order.ts).
// The answer is the protocol's plain "success" (the order is paid, now or before) or
// "fail"; it never says why (docs/payments.md, "What a callback reveals").
import "server-only";
import type { TopUp } from "@/generated/sqlite/client";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { epayConfig, toCents } from "@/lib/payments/config";
import { completeOrder } from "@/lib/payments/complete-order";
import { EPAY_TYPES, type EpayMethod, verifyEpaySignature } from "@/lib/payments/epay";

const MONEY = /^\d{1,12}(\.\d{1,2})?$/;

// The order a notify names, when everything the provider says checks out (signature,
// merchant, status, method, money to the cent); null otherwise. A top-up and a plan order
// (docs/plans.md) are checked alike; the caller tells them apart by the order's kind.
export async function verifiedEpayOrder(p: Record<string, string>): Promise<TopUp | null> {
  const cfg = epayConfig();
  if (!cfg.key || !verifyEpaySignature(p, cfg.key)) return null;
  if (!cfg.pid || p.pid !== cfg.pid) return null;
  if (p.trade_status !== "TRADE_SUCCESS") return null;
  const tradeNo = p.out_trade_no ?? "";
  if (!tradeNo || !MONEY.test(p.money ?? "")) return null;
  const order = await db().topUp.findUnique({ where: { trade_no: tradeNo } });
  if (!order || order.provider !== "epay") return null;
  // the method paid with must be the order's (zfb -> alipay, wx -> wxpay)
  const method = order.payment_method as EpayMethod;
  if (!(method in EPAY_TYPES) || p.type !== EPAY_TYPES[method]) return null;
  if (toCents(Number(p.money)) !== toCents(order.money)) return null;
  return order;
}

// A verified top-up order: credited once (complete-order.ts).
export async function completeEpayTopUp(ctx: Ctx, order: TopUp, p: Record<string, string>): Promise<"success" | "fail"> {
  if (order.kind !== "topup") return "fail";
  if (order.status === "success") return "success";
  if (order.status !== "pending") return "fail";
  const result = await completeOrder({
    tradeNo: order.trade_no,
    by: "notify",
    providerRef: String(p.trade_no ?? "").slice(0, 128),
    paidMoney: p.money,
    ip: ctx.ip,
  });
  return result === "missing" ? "fail" : "success";
}

export async function handleEpayNotify({ ctx, input }: { ctx: Ctx; input: { params: Record<string, string> } }): Promise<"success" | "fail"> {
  const order = await verifiedEpayOrder(input.params);
  return order ? completeEpayTopUp(ctx, order, input.params) : "fail";
}
