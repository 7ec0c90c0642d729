// What the payment options say, read from the options cache (docs/payments.md). A provider
// is "on" only when everything it needs to take a payment and verify its callback is set;
// otherwise payment through it is refused with "the admin has turned off online top-up".
import "server-only";
import { getJson, getNumber, getOption } from "@/lib/options/store";
import type { OptionKey } from "@/lib/options/registry";

export type EpayConfig = { enabled: boolean; address: string; pid: string; key: string };
export type StripeConfig = { enabled: boolean; apiSecret: string; webhookSecret: string; priceId: string; unitPrice: number };

const trimmed = (key: OptionKey) => getOption(key).trim();

// Where the provider sends its callback: CustomCallbackAddress, else ServerAddress.
export function callbackBase(): string {
  return (trimmed("CustomCallbackAddress") || trimmed("ServerAddress")).replace(/\/+$/, "");
}

// Where the payer's browser comes back: ServerAddress, else the callback address.
export function siteBase(): string {
  return (trimmed("ServerAddress") || trimmed("CustomCallbackAddress")).replace(/\/+$/, "");
}

export const TOPUP_SUCCESS_PATH = "/app/wallet/topup-success";

export function epayConfig(): EpayConfig {
  const address = trimmed("PayAddress").replace(/\/+$/, "");
  const pid = trimmed("EpayId");
  const key = getOption("EpayKey");
  return { enabled: address !== "" && pid !== "" && key !== "" && callbackBase() !== "", address, pid, key };
}

export function stripeConfig(): StripeConfig {
  const apiSecret = getOption("StripeApiSecret");
  const webhookSecret = getOption("StripeWebhookSecret");
  const priceId = trimmed("StripePriceId");
  const unitPrice = getNumber("StripeUnitPrice", 0);
  return {
    enabled: apiSecret !== "" && webhookSecret !== "" && unitPrice > 0 && siteBase() !== "",
    apiSecret,
    webhookSecret,
    priceId,
    unitPrice,
  };
}

// The ratio of the user's group in TopupGroupRatio; a group without one (or with 0) pays 1.
export function topUpGroupRatio(group: string): number {
  const ratios = getJson<Record<string, unknown>>("TopupGroupRatio", {});
  const r = ratios[group];
  return typeof r === "number" && Number.isFinite(r) && r > 0 ? r : 1;
}

// Money is rounded to cents once, here; the callbacks compare cents with it.
export const toCents = (money: number) => Math.round(money * 100);
export const fromCents = (cents: number) => cents / 100;

/** The epay price of `amount` dollars of quota for a user of `group`, in the site's currency. */
export function epayMoney(amount: number, group: string): { money: number; unitPrice: number } {
  const unitPrice = getNumber("Price", 7.3) * topUpGroupRatio(group);
  return { money: fromCents(toCents(amount * unitPrice)), unitPrice };
}

/** The Stripe price in USD: StripeUnitPrice per dollar; the group ratio applies unless a Stripe Price is used. */
export function stripeMoney(amount: number, group: string): { money: number; unitPrice: number } {
  const cfg = stripeConfig();
  const unitPrice = cfg.priceId ? cfg.unitPrice : cfg.unitPrice * topUpGroupRatio(group);
  return { money: fromCents(toCents(amount * unitPrice)), unitPrice };
}

export const quotaPerUnit = () => Math.max(1, Math.trunc(getNumber("QuotaPerUnit", 500000)));
