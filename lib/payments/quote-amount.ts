// POST /api/user/amount and /api/user/stripe/amount: what `amount` dollars of quota cost the
// caller, at the price of the caller's group (TopupGroupRatio), with the minimum applied.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { epayMoney, stripeMoney } from "@/lib/payments/config";
import { checkMinimum } from "@/lib/payments/minimum";
import type { AmountInput } from "@/lib/payments/schemas";

export async function quoteAmount({ ctx, input }: { ctx: UserCtx; input: AmountInput & { provider: "epay" | "stripe" } }) {
  checkMinimum(input.provider, input.amount);
  const { money, unitPrice } = input.provider === "stripe" ? stripeMoney(input.amount, ctx.user.group) : epayMoney(input.amount, ctx.user.group);
  return { amount: money, unit_price: unitPrice };
}
