// Pure helpers of the inbox (docs/messages.md): the list's date rule and the preview text.
import { LOCALE_TAGS, toLocale } from "@/lib/i18n/locale";
import { nowSeconds } from "@/lib/time";

export const PREVIEW_LENGTH = 100;
export const INBOX_POLL_MS = 30_000;

export type InboxMessage = {
  id: number;
  title: string;
  content: string;
  format: string;
  created_at: number;
  read_at: number | null;
  is_read: boolean;
  stats: { total_recipients: number };
};

const pad = (n: number) => String(n).padStart(2, "0");
const DAY = 86_400;

// Time (HH:mm) within 24 hours, the weekday within 7 days, else the date (YYYY-MM-DD).
export function messageDate(createdAt: number, locale: string, now = nowSeconds()): string {
  const d = new Date(createdAt * 1000);
  const age = now - createdAt;
  if (age < DAY) return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (age < 7 * DAY) return new Intl.DateTimeFormat(LOCALE_TAGS[toLocale(locale)], { weekday: "long" }).format(d);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

// The text of a body without its markup: HTML tags (script and style with their content),
// and for Markdown the syntax (headings, emphasis, code fences, links and images keep their
// text, quotes, list markers, tables' pipes).
export function plainText(content: string, format: string): string {
  let s = content.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, " ").replace(/<!--[\s\S]*?-->/g, " ");
  s = s.replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr)>/gi, " ").replace(/<[^>]+>/g, "");
  if (format !== "html") {
    s = s
      .replace(/```[^\n]*\n?/g, " ")
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, "")
      .replace(/^\s*([-*_]\s*){3,}$/gm, " ")
      .replace(/(\*\*|__|~~|\*|_|`)/g, "")
      .replace(/\|/g, " ");
  }
  return decodeEntities(s).replace(/\s+/g, " ").trim();
}

// The list's preview: the plain text cut to 100 characters (97 and an ellipsis).
export function messagePreview(content: string, format: string): string {
  const chars = Array.from(plainText(content, format));
  return chars.length > PREVIEW_LENGTH ? chars.slice(0, PREVIEW_LENGTH - 3).join("") + "..." : chars.join("");
}

// The bell's count (components/layout/inbox-bell.tsx); opening a message refreshes it.
export const UNREAD_PATH = "/api/user/messages/unread_count";
