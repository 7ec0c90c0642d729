// The top-up minimum (docs/payments.md): at least 1 dollar, and at least MinTopUp (epay) or
// StripeMinTopUp (Stripe); refused with "top-up amount cannot be less than $X".
import "server-only";
import { AppError } from "@/lib/errors";
import { getNumber } from "@/lib/options/store";

export function minimumOf(provider: "epay" | "stripe"): number {
  return getNumber(provider === "stripe" ? "StripeMinTopUp" : "MinTopUp", 1);
}

export function checkMinimum(provider: "epay" | "stripe", amount: number): void {
  const min = minimumOf(provider);
  if (amount < min) throw new AppError("RULE", "topup_amount_min", { min });
  if (amount < 1) throw new AppError("RULE", "topup_amount_min", { min: 1 });
}
