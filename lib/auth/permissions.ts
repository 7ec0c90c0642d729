// Admin permission sets (docs/permissions.md): the one table of the permission names (area and
// level), the set an admin has by default (today's rights of role 10), and which permission
// every admin console route needs. route() (lib/http/route.ts) enforces the table; the console
// reads the same table to hide what an admin cannot do. Pure and free of "server-only": the
// browser loads it (lib/client/navigation.ts, the user editor's checklist).
//
// The root (role 100) holds every permission whatever is stored; a user (role 1) holds none
// and never reaches an admin route; an admin (role 10) holds the stored set, or the default
// set when none is stored (users.permissions null).

export const PERMISSION_AREAS = ["channels", "users", "tokens", "billing", "logs", "messages", "settings", "audit"] as const;
export type PermissionArea = (typeof PERMISSION_AREAS)[number];

// Every permission: its area, its level, and whether the default admin holds it. Not in the
// default set: what only the root could do before permission sets (reveal a channel's key,
// read the top-up orders, read the audit log); the root "widens" an admin by granting them.
export const PERMISSION_TABLE = [
  { name: "channels:read", area: "channels", level: "read", admin: true },
  { name: "channels:operate", area: "channels", level: "operate", admin: true },
  { name: "channels:write", area: "channels", level: "write", admin: true },
  { name: "channels:reveal", area: "channels", level: "reveal", admin: false },
  { name: "users:read", area: "users", level: "read", admin: true },
  { name: "users:write", area: "users", level: "write", admin: true },
  { name: "users:quota", area: "users", level: "quota", admin: true },
  { name: "tokens:read", area: "tokens", level: "read", admin: false },
  { name: "billing:read", area: "billing", level: "read", admin: true },
  { name: "billing:write", area: "billing", level: "write", admin: true },
  { name: "billing:topups", area: "billing", level: "topups", admin: false },
  { name: "logs:read", area: "logs", level: "read", admin: true },
  { name: "logs:content", area: "logs", level: "content", admin: true },
  { name: "logs:delete", area: "logs", level: "delete", admin: true },
  { name: "messages:read", area: "messages", level: "read", admin: true },
  { name: "messages:write", area: "messages", level: "write", admin: true },
  { name: "settings:operation", area: "settings", level: "operation", admin: true },
  { name: "settings:ratelimit", area: "settings", level: "ratelimit", admin: true },
  { name: "settings:models", area: "settings", level: "models", admin: true },
  { name: "settings:system", area: "settings", level: "system", admin: true },
  { name: "settings:other", area: "settings", level: "other", admin: true },
  { name: "audit:read", area: "audit", level: "read", admin: false },
] as const satisfies readonly { name: `${PermissionArea}:${string}`; area: PermissionArea; level: string; admin: boolean }[];

export type Permission = (typeof PERMISSION_TABLE)[number]["name"];
export const PERMISSIONS: readonly Permission[] = PERMISSION_TABLE.map((p) => p.name);
export const DEFAULT_ADMIN_PERMISSIONS: readonly Permission[] = PERMISSION_TABLE.filter((p) => p.admin).map((p) => p.name);
const KNOWN = new Set<string>(PERMISSIONS);
export const isPermission = (name: string): name is Permission => KNOWN.has(name);

// The settings tabs' permissions, in the settings page's order (lib/options/registry.ts has
// each option's tab).
export const SETTINGS_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((p) => p.startsWith("settings:"));
export const settingsPermission = (tab: string): Permission => `settings:${tab}` as Permission;

const ROLE_ADMIN = 10;
const ROLE_ROOT = 100;

// The stored column, parsed once per distinct text (a handful of sets on a site): the check
// on every console request reads memory only. Unknown names (a permission a later version
// dropped) are ignored; a text that is not a JSON array counts as the default set.
const parsed = new Map<string, readonly Permission[]>();
function storedSet(text: string): readonly Permission[] {
  const hit = parsed.get(text);
  if (hit) return hit;
  let list: readonly Permission[] = DEFAULT_ADMIN_PERMISSIONS;
  try {
    const v: unknown = JSON.parse(text);
    if (Array.isArray(v)) list = PERMISSIONS.filter((p) => v.includes(p));
  } catch {
    // the default set
  }
  if (parsed.size > 1000) parsed.clear();
  parsed.set(text, list);
  return list;
}

/** The permissions a user holds: every one for the root, the stored or default set for an admin, none for a user. */
export function effectivePermissions(role: number, stored: string | null | undefined): readonly Permission[] {
  if (role >= ROLE_ROOT) return PERMISSIONS;
  if (role < ROLE_ADMIN) return [];
  return stored == null ? DEFAULT_ADMIN_PERMISSIONS : storedSet(stored);
}

export function hasPermission(user: { role: number; permissions?: string | null }, permission: Permission): boolean {
  if (user.role >= ROLE_ROOT) return true;
  return effectivePermissions(user.role, user.permissions).includes(permission);
}

/** What the users.permissions column stores for a set: null when it is exactly the default set. */
export function storedPermissions(set: readonly Permission[]): string | null {
  const sorted = PERMISSIONS.filter((p) => set.includes(p));
  if (sorted.length === DEFAULT_ADMIN_PERMISSIONS.length && sorted.every((p, i) => p === DEFAULT_ADMIN_PERMISSIONS[i])) return null;
  return JSON.stringify(sorted);
}
