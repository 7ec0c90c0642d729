// Request bodies of the top-up calls (docs/payments.md). The amount is whole US dollars of
// quota; the console forces it to at least 1 before sending, the verbs apply the minimums.
import { z } from "zod";

const amount = z.coerce.number().int().min(0).max(1_000_000);
const topUpCode = z.string().trim().max(64).optional().default("");

export const amountBody = z.object({ amount, top_up_code: topUpCode });
export const epayPayBody = z.object({ amount, top_up_code: topUpCode, payment_method: z.enum(["zfb", "wx"]) });
export const stripePayBody = z.object({ amount, top_up_code: topUpCode });
export const tradeNoBody = z.object({ trade_no: z.string().trim().min(1).max(128) });

export type AmountInput = z.infer<typeof amountBody>;
export type EpayPayInput = z.infer<typeof epayPayBody>;
