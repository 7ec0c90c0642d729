// POST /api/user/amount and /api/user/stripe/amount: what `amount` dollars of quota cost the
// caller, at the price of the caller's group (TopupGroupRatio), with the minimum applied.
// Refused like payment when the provider is off. With a StripePriceId, Stripe's Price sets
// what is charged (the order's money is the session's total): the quote then names no
// figure and says so (`priced_by_stripe`), docs/payments.md, "Stripe".
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { epayConfig, epayMoney, stripeConfig, stripeMoney } from "@/lib/payments/config";
import { checkMinimum } from "@/lib/payments/minimum";
import type { AmountInput } from "@/lib/payments/schemas";

export type Quote = { amount: number | null; unit_price: number | null; priced_by_stripe: boolean };

export async function quoteAmount({ ctx, input }: { ctx: UserCtx; input: AmountInput & { provider: "epay" | "stripe" } }): Promise<Quote> {
  const cfg = input.provider === "stripe" ? stripeConfig() : epayConfig();
  if (!cfg.enabled) throw new AppError("RULE", "topup_disabled");
  checkMinimum(input.provider, input.amount);
  if (input.provider === "stripe" && stripeConfig().priceId) return { amount: null, unit_price: null, priced_by_stripe: true };
  const { money, unitPrice } = input.provider === "stripe" ? stripeMoney(input.amount, ctx.user.group) : epayMoney(input.amount, ctx.user.group);
  return { amount: money, unit_price: unitPrice, priced_by_stripe: false };
}
