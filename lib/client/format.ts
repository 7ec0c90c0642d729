// Display rules: quota, timestamps, badge counts (docs/product-rules.md, "Quota and display").
// Quota follows the one rule of lib/quota-display.ts (docs/console-ui.md, "Quota display").
import { DEFAULT_QUOTA_PER_UNIT, formatQuota, type QuotaDisplay } from "@/lib/quota-display";
import { LOCALE_TAGS, toLocale } from "@/lib/i18n/locale";

export { DEFAULT_QUOTA_PER_UNIT, type QuotaDisplay };

// Shortened number: k from ten thousand, M from a million, B from a billion.
export function shortenNumber(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return (n / 1e9).toFixed(1) + "B";
  if (abs >= 1e6) return (n / 1e6).toFixed(1) + "M";
  if (abs >= 1e4) return (n / 1e3).toFixed(1) + "k";
  return String(n);
}

// Quota by the one display rule: currency (2 decimals unless `digits` says otherwise; a tiny
// non-zero amount with its first two significant digits) when the site displays currency,
// else shortened units.
export function renderQuota(quota: number | bigint | string, display: QuotaDisplay, digits = 2): string {
  return formatQuota(quota, display, digits);
}

const pad = (n: number) => String(n).padStart(2, "0");

// Unix seconds as YYYY-MM-DD HH:mm:ss in the browser's time zone; "" for none.
export function formatTimestamp(seconds: number | null | undefined): string {
  if (!seconds) return "";
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A moment in the browser's time zone, short date and time in the console's language (Intl). */
export function localDateTime(seconds: number, locale: string): string {
  return new Intl.DateTimeFormat(LOCALE_TAGS[toLocale(locale)], { dateStyle: "short", timeStyle: "short" }).format(new Date(seconds * 1000));
}

// The inbox bell's badge: nothing at zero, "99+" above 99.
export function unreadBadge(count: number): string {
  if (!count || count < 0) return "";
  return count > 99 ? "99+" : String(count);
}

// The easter egg of the top bar shows on New Year's Day (1 January, local time).
export function isNewYearsDay(date: Date): boolean {
  return date.getMonth() === 0 && date.getDate() === 1;
}
