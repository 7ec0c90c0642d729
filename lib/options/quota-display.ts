// The console's quota display (lib/quota-display.ts) as the options set it, for text the
// server writes as the console would show it (a redemption code's default name).
import "server-only";
import { getBool, getNumber, getOption } from "@/lib/options/store";
import { quotaDisplayOf, type QuotaDisplay } from "@/lib/quota-display";

/** The options of the display, as /api/status hands them to the console. */
export function quotaDisplayOptions() {
  return {
    quota_per_unit: getNumber("QuotaPerUnit", 500000),
    display_in_currency: getBool("DisplayInCurrencyEnabled"),
    // the currency of that display and its rate per US dollar (lib/quota-display.ts)
    quota_display_type: getOption("QuotaDisplayType"),
    usd_exchange_rate: getNumber("USDExchangeRate", 7.3),
    custom_currency_symbol: getOption("CustomCurrencySymbol"),
    custom_currency_exchange_rate: getNumber("CustomCurrencyExchangeRate", 1),
  };
}

export function serverQuotaDisplay(): QuotaDisplay {
  return quotaDisplayOf(quotaDisplayOptions());
}
