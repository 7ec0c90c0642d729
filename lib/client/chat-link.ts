// The embedded chat's links (docs/chat.md): the admin's Chats option is a list of
// {name: link}; a link gets the user's key and the server address filled in, or a payload
// for the desktop clients that import a provider from a link.
import { readItem, removeItem, STORAGE_KEYS, writeJson } from "@/lib/client/storage";
import { nowSeconds } from "@/lib/time";
import { TOKEN_STATUS } from "@/lib/statuses";

export type ChatEntry = { name: string; link: string };

// One entry of the Chats list, or null when it is not a one-name object with a text link.
export function chatEntry(raw: unknown): ChatEntry | null {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const pairs = Object.entries(raw as Record<string, unknown>);
  if (pairs.length !== 1) return null;
  const [name, link] = pairs[0];
  return typeof link === "string" && link.trim() ? { name, link: link.trim() } : null;
}

// The payload placeholders and what each client expects inside: base64 of a JSON object
// with the provider id (or platform), the base URL and the key, then URI-encoded.
const PAYLOADS = {
  "{cherryConfig}": (baseUrl: string, apiKey: string) => ({ id: "new-api", baseUrl, apiKey }),
  "{aionuiConfig}": (baseUrl: string, apiKey: string) => ({ platform: "new-api", baseUrl, apiKey }),
} as const;

function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

export function withSkPrefix(key: string): string {
  return key.startsWith("sk-") ? key : `sk-${key}`;
}

// The link with the placeholders filled: a payload placeholder gets its encoded payload;
// otherwise {address} becomes the URI-encoded server address and {key} the sk- key.
export function resolveChatLink(template: string, key: string, serverAddress: string): string {
  const apiKey = withSkPrefix(key);
  for (const [placeholder, build] of Object.entries(PAYLOADS)) {
    if (template.includes(placeholder)) {
      return template.split(placeholder).join(encodeURIComponent(base64Utf8(JSON.stringify(build(serverAddress, apiKey)))));
    }
  }
  return template.split("{address}").join(encodeURIComponent(serverAddress)).split("{key}").join(apiKey);
}

// Whether the link needs one of the user's keys.
export function needsKey(template: string): boolean {
  return ["{key}", ...Object.keys(PAYLOADS)].some((p) => template.includes(p));
}

// A link that can be framed: http or https.
export function isWebLink(link: string): boolean {
  return /^https?:\/\//i.test(link);
}

// Schemes that run code or content in this page's origin (or a blob/data document) when
// assigned to window.location: never opened, whatever the admin wrote.
const REFUSED_SCHEMES = /^\s*(?:javascript|data|vbscript|blob|file|about):/i;
// An app link: a custom scheme followed by "://" (cherrystudio://, aionui://, ...).
const APP_LINK = /^[a-z][a-z0-9+.-]*:\/\//i;

// What the page does with a filled-in link: "web" frames it, "app" hands it to the
// installed app by navigating to it, null refuses it (javascript:, data:, vbscript:, blob:,
// a bare word or a relative path, anything without "scheme://").
export function chatLinkKind(link: string): "web" | "app" | null {
  if (REFUSED_SCHEMES.test(link)) return null;
  if (isWebLink(link)) return "web";
  return APP_LINK.test(link) ? "app" : null;
}

// The server address the links carry: the ServerAddress option, else this page's origin;
// without a trailing slash.
export function chatServerAddress(serverAddress: string | undefined, origin: string): string {
  return (serverAddress?.trim() || origin).replace(/\/+$/, "");
}

// The Chats list for the chat pages: always the site status's (`fresh`). The copy the
// browser keeps under `chats` is not read for the links: the page's effect runs before the
// provider's that refreshes the copy, so on the first full load after the admin changed the
// option the copy still holds the old list. The copy is only checked: one that cannot be
// parsed as a list is reported (broken), removed and replaced by the status's list.
export function pageChats(fresh: unknown[] | undefined): { chats: unknown[]; broken: boolean } {
  const chats = Array.isArray(fresh) ? fresh : [];
  const raw = readItem(STORAGE_KEYS.chats);
  if (raw === null || storedList(raw)) return { chats, broken: false };
  removeItem(STORAGE_KEYS.chats);
  writeJson(STORAGE_KEYS.chats, chats);
  return { chats, broken: true };
}

function storedList(raw: string): boolean {
  try {
    return Array.isArray(JSON.parse(raw));
  } catch {
    return false;
  }
}

export type ChatToken = { id: number; status: number; expired_time: number; remain_quota: number; unlimited_quota: boolean };

// The first token that can be used now: enabled, not expired, not exhausted.
export function firstUsableToken(tokens: readonly ChatToken[], now = nowSeconds()): ChatToken | null {
  return (
    tokens.find((t) => t.status === TOKEN_STATUS.enabled && (t.expired_time === -1 || t.expired_time > now) && (t.unlimited_quota || t.remain_quota > 0)) ??
    null
  );
}

// After the "no enabled token" message the page goes to /app/tokens.
export const NO_TOKEN_REDIRECT_MS = 1500;
