// Pure helpers of the token pages (docs/product-rules.md, "Relay console pages"): presets and the
// expiry field. The server checks everything again.

export const QUOTA_PER_DOLLAR = 500000;
export const TOKEN_BATCH_PRESETS = [10, 20, 30, 100] as const;
export const TOKEN_QUOTA_PRESETS = [1, 10, 50, 100, 500, 1000] as const; // dollars
export const DEFAULT_TOKEN_QUOTA = 500000;
export const RATE_LIMIT_DEFAULTS = { period: 60, count: 1000, success: 10 } as const;

export type ExpiryShortcut = "never" | "hour" | "day" | "month";
export const EXPIRY_SHORTCUTS: ExpiryShortcut[] = ["never", "hour", "day", "month"];
const SHORTCUT_SECONDS: Record<Exclude<ExpiryShortcut, "never">, number> = { hour: 3600, day: 86400, month: 30 * 86400 };

// The datetime-local text for a shortcut, from now (ms); "" for never.
export function expiryFromShortcut(s: ExpiryShortcut, nowMs: number): string {
  if (s === "never") return "";
  return toLocalInput(Math.floor(nowMs / 1000) + SHORTCUT_SECONDS[s]);
}

const pad = (n: number) => String(n).padStart(2, "0");
// Unix seconds -> "YYYY-MM-DD HH:mm:ss" in the browser's zone (the expiry field's format).
export function toLocalInput(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

// The expiry field -> expired_time (-1 never); null when the text is not a date
// ("YYYY-MM-DD HH:mm[:ss]" or "YYYY-MM-DD", local time).
export function parseExpiry(text: string): number | null {
  const s = text.trim();
  if (!s) return -1;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi, se] = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0", m[6] ?? "0"].map(Number);
  const date = new Date(y, mo - 1, d, h, mi, se);
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || h > 23 || mi > 59 || se > 59) return null;
  return Math.floor(date.getTime() / 1000);
}
