// POST /api/user/amount: the epay price of an amount for the caller's group {amount, unit_price}
import { route } from "@/lib/http/route";
import { quoteAmount } from "@/lib/payments/quote-amount";
import { amountBody } from "@/lib/payments/schemas";

export const POST = route({ access: "user", body: amountBody }, async ({ ctx, body }) =>
  quoteAmount({ ctx, input: Object.assign({ provider: "epay" as const }, body) }),
);
