// Browser-local state (spec 1 section 3). Every key the console keeps in localStorage is
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
  messagePageSize: "message-page-size",
  language: "i18nextLng",
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

// The user kept locally after login: enough to name the caller in the New-Api-User header
// and to draw the shell. The server decides everything else.
export type LocalUser = { id: number; username: string; display_name: string; role: number; group: string };

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
  return { id: u.id, username: u.username, display_name: u.display_name, role: u.role, group: u.group };
}

export function getLocalUser(): LocalUser | null {
  const u = readJson<LocalUser>(STORAGE_KEYS.user);
  return u && typeof u.id === "number" ? u : null;
}

export function setLocalUser(u: LocalUser): void {
  writeJson(STORAGE_KEYS.user, toLocalUser(u));
}

export function clearLocalUser(): void {
  removeItem(STORAGE_KEYS.user);
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

// The remembered page size, if it is one of the offered choices.
export function parsePageSize(raw: string | null, fallback: number = DEFAULT_PAGE_SIZE): number {
  const n = Number(raw);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : fallback;
}
