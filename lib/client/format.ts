// Display rules: quota, timestamps, badge counts (docs/product-rules.md, "Quota and display").
export const DEFAULT_QUOTA_PER_UNIT = 500000; // 500000 quota units = 1 USD

export type QuotaDisplay = { displayInCurrency: boolean; quotaPerUnit: number };

// Shortened number: k from ten thousand, M from a million, B from a billion.
export function shortenNumber(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return (n / 1e9).toFixed(1) + "B";
  if (abs >= 1e6) return (n / 1e6).toFixed(1) + "M";
  if (abs >= 1e4) return (n / 1e3).toFixed(1) + "k";
  return String(n);
}

// A dollar amount with `digits` decimals; one that is not zero but would show as zero at that
// precision gets the decimals its first two significant digits need instead, trailing zeros
// dropped (0.000066 with 2 digits: "0.000066", not "0.00"), as new-api shows a tiny cost.
function formatAmount(amount: number, digits = 2): string {
  const fixed = amount.toFixed(digits);
  if (amount === 0 || !Number.isFinite(amount) || Number(fixed) !== 0) return fixed;
  const decimals = Math.min(20, Math.max(digits + 1, 1 - Math.floor(Math.log10(Math.abs(amount)))));
  return amount.toFixed(decimals).replace(/0+$/, "");
}

// Quota as dollars (2 decimals unless `digits` says otherwise; a tiny non-zero amount with
// more, see formatAmount) when the site displays currency, else shortened units.
export function renderQuota(quota: number, display: QuotaDisplay, digits = 2): string {
  if (display.displayInCurrency) {
    const perUnit = display.quotaPerUnit > 0 ? display.quotaPerUnit : DEFAULT_QUOTA_PER_UNIT;
    return "$" + formatAmount(quota / perUnit, digits);
  }
  return shortenNumber(quota);
}

const pad = (n: number) => String(n).padStart(2, "0");

// Unix seconds as YYYY-MM-DD HH:mm:ss in the browser's time zone; "" for none.
export function formatTimestamp(seconds: number | null | undefined): string {
  if (!seconds) return "";
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
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
