// Browser-local state (docs/product-rules.md, "Site status, setup status, browser state"). Every key the console keeps in localStorage is
// named here, so no component spells one on its own.
export const STORAGE_KEYS = {
  user: "user",
  status: "status",
  systemName: "system_name",
  logo: "logo",
  footerHtml: "footer_html",
  quotaPerUnit: "quota_per_unit",
  displayInCurrency: "display_in_currency",
  pageSize: "page-size",
  aff: "aff",
  channelModels: "channel_models",
  modelsExpanded: "modelsExpanded",
  themeMode: "theme-mode",
  // The sidebar's collapse state; the site option of the same name is its first value.
  defaultCollapseSidebar: "default_collapse_sidebar",
  enableDataExport: "enable_data_export",
  enableDrawing: "enable_drawing",
  enableTask: "enable_task",
  chats: "chats",
  // the playground's conversations: { active, list } (lib/client/playground.ts)
  playgroundConversations: "playground-conversations",
  messagePageSize: "message-page-size",
  language: "i18nextLng",
  // relay console pages: tag mode, model test results (24 h)
  channelTagMode: "channel-tag-mode",
  channelTestResults: "channel-test-results",
  // The DataTable kit's hidden columns, one key per table: `table-columns:<table id>` (tableColumnsKey).
  tableColumns: "table-columns:",
  pricingShowRatio: "pricing-show-ratio",
  // the day (YYYY-MM-DD, local) the announcement was closed "for today"
  noticeCloseDate: "notice_close_date",
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS] | `${typeof STORAGE_KEYS.tableColumns}${string}`;

// The key under which a table's hidden columns are kept (components/data-table/).
export function tableColumnsKey(tableId: string): StorageKey {
  return `${STORAGE_KEYS.tableColumns}${tableId}`;
}

// The user kept locally after login: enough to name the caller in the New-Api-User header
// and to draw the shell, with the admin's effective permission set (docs/permissions.md) for
// hiding what they cannot do. The server decides everything else.
export type LocalUser = { id: number; username: string; display_name: string; role: number; group: string; permissions?: readonly string[] };

function store(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // storage disabled (private mode, sandboxed frame)
  }
}

export function readItem(key: StorageKey): string | null {
  return store()?.getItem(key) ?? null;
}

export function writeItem(key: StorageKey, value: string): void {
  store()?.setItem(key, value);
}

export function removeItem(key: StorageKey): void {
  store()?.removeItem(key);
}

export function readJson<T>(key: StorageKey): T | null {
  const raw = readItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: StorageKey, value: unknown): void {
  writeItem(key, JSON.stringify(value));
}

export function toLocalUser(u: LocalUser): LocalUser {
  return { id: u.id, username: u.username, display_name: u.display_name, role: u.role, group: u.group, permissions: u.permissions };
}

// A browser without usable storage (private mode, sandboxed frame) still needs the header:
// the user is then kept in memory for the life of the page.
let memoryUser: LocalUser | null = null;

export function getLocalUser(): LocalUser | null {
  if (!store()) return memoryUser;
  const u = readJson<LocalUser>(STORAGE_KEYS.user);
  return u && typeof u.id === "number" ? u : null;
}

export function setLocalUser(u: LocalUser): void {
  memoryUser = toLocalUser(u);
  writeJson(STORAGE_KEYS.user, memoryUser);
}

export function clearLocalUser(): void {
  memoryUser = null;
  removeItem(STORAGE_KEYS.user);
}

// Makes the local copy match the server's session user (null: no session). Idempotent and
// cheap when nothing changed, so it may run during render.
export function syncLocalUser(user: LocalUser | null): void {
  if (typeof window === "undefined") return;
  if (!user) {
    if (getLocalUser()) clearLocalUser();
    return;
  }
  const current = getLocalUser();
  const wanted = toLocalUser(user);
  if (!current || JSON.stringify(toLocalUser(current)) !== JSON.stringify(wanted)) setLocalUser(wanted);
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

// The remembered page size, if it is one of the offered choices.
export function parsePageSize(raw: string | null, fallback: number = DEFAULT_PAGE_SIZE): number {
  const n = Number(raw);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : fallback;
}
