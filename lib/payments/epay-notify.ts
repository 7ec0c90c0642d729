// GET|POST /api/user/epay/notify: the epay provider reports a payment. Credited only when
// everything holds: a key is configured and the signature verifies under it, the merchant
// id is ours, trade_status is TRADE_SUCCESS, the order exists, is an epay order paid with its
// own method (`type`: zfb -> alipay, wx -> wxpay), and the
// money equals the order's to the cent. Then the order completes once (complete-order.ts).
// The answer is the protocol's plain "success" (the order is paid, now or before) or
// "fail"; it never says why (docs/payments.md, "What a callback reveals").
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { epayConfig, toCents } from "@/lib/payments/config";
import { completeOrder } from "@/lib/payments/complete-order";
import { EPAY_TYPES, type EpayMethod, verifyEpaySignature } from "@/lib/payments/epay";

const MONEY = /^\d{1,12}(\.\d{1,2})?$/;

export async function handleEpayNotify({ ctx, input }: { ctx: Ctx; input: { params: Record<string, string> } }): Promise<"success" | "fail"> {
  const p = input.params;
  const cfg = epayConfig();
  if (!cfg.key || !verifyEpaySignature(p, cfg.key)) return "fail";
  if (!cfg.pid || p.pid !== cfg.pid) return "fail";
  if (p.trade_status !== "TRADE_SUCCESS") return "fail";
  const tradeNo = p.out_trade_no ?? "";
  if (!tradeNo || !MONEY.test(p.money ?? "")) return "fail";
  const order = await db().topUp.findUnique({ where: { trade_no: tradeNo } });
  if (!order || order.provider !== "epay") return "fail";
  // the method paid with must be the order's (zfb -> alipay, wx -> wxpay)
  const method = order.payment_method as EpayMethod;
  if (!(method in EPAY_TYPES) || p.type !== EPAY_TYPES[method]) return "fail";
  if (toCents(Number(p.money)) !== toCents(order.money)) return "fail";
  if (order.status === "success") return "success";
  if (order.status !== "pending") return "fail";
  const result = await completeOrder({ tradeNo, by: "notify", providerRef: String(p.trade_no ?? "").slice(0, 128), paidMoney: p.money, ip: ctx.ip });
  return result === "missing" ? "fail" : "success";
}
