// POST /api/user/stripe/amount: the Stripe price (USD) of an amount for the caller {amount, unit_price}
import { route } from "@/lib/http/route";
import { quoteAmount } from "@/lib/payments/quote-amount";
import { amountBody } from "@/lib/payments/schemas";

export const POST = route({ access: "user", body: amountBody }, async ({ ctx, body }) =>
  quoteAmount({ ctx, input: Object.assign({ provider: "stripe" as const }, body) }),
);
