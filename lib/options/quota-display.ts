// The console's quota display (lib/quota-display.ts) as the options set it, for text the
// server writes as the console would show it (a redemption code's default name).
import "server-only";
import { getBool, getNumber, getOption } from "@/lib/options/store";
import { quotaDisplayOf, type QuotaDisplay } from "@/lib/quota-display";

export function serverQuotaDisplay(): QuotaDisplay {
  return quotaDisplayOf({
    quota_per_unit: getNumber("QuotaPerUnit", 500000),
    display_in_currency: getBool("DisplayInCurrencyEnabled"),
    quota_display_type: getOption("QuotaDisplayType"),
    usd_exchange_rate: getNumber("USDExchangeRate", 7.3),
    custom_currency_symbol: getOption("CustomCurrencySymbol"),
    custom_currency_exchange_rate: getNumber("CustomCurrencyExchangeRate", 1),
  });
}
