// Browser-side branding rules (docs/console-ui.md, "Branding and announcement").

// The logo of a site whose admin set none (public/logo.png; docs/console-ui.md).
export const DEFAULT_LOGO = "/logo.png";

// The local calendar day of a date, as the announcement's "closed today" mark stores it.
export function localDay(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

// The announcement shows unless it is empty or was closed "for today" on this very day.
export function noticeVisible(notice: string, closedOn: string | null, now: Date): boolean {
  return notice.trim() !== "" && closedOn !== localDay(now);
}

// How administrator content (HomePageContent, About) is shown: a lone http(s) URL in a
// frame, anything else as Markdown, in which HTML is allowed and sanitized.
export function contentKind(content: string): "url" | "markdown" {
  return /^https?:\/\/\S+$/.test(content.trim()) ? "url" : "markdown";
}

// The footer's powered-by link turns, every POWERED_BY_ROTATE_MS, from the site's own About
// page to each of these and back (docs/console-ui.md, "Branding and announcement").
export const POWERED_BY_ROTATE_MS = 4000;
export const POWERED_BY: readonly { name: string; href: string }[] = [
  { name: "New API", href: "https://github.com/QuantumNous/new-api" },
  { name: "One API", href: "https://github.com/songquanpeng/one-api" },
];
