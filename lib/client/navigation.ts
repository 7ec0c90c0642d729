// The app shell's sidebar (docs/product-rules.md, "Accounts"): which groups and entries a person sees, and
// on which paths the sidebar is hidden. The routes are listed whoever builds the page.
import { DEFAULT_ADMIN_PERMISSIONS, SETTINGS_PERMISSIONS, type Permission } from "@/lib/auth/permissions";

export type NavItem = { key: string; href: string };
export type NavGroup = { key: string; items: NavItem[] };

export type NavStatus = {
  enable_data_export?: boolean;
  enable_drawing?: boolean;
  enable_task?: boolean;
  chats?: unknown[];
};

export const ADMIN_ROLE = 10;
export const ROOT_ROLE = 100;
export const isAdminRole = (role: number | undefined) => (role ?? 0) >= ADMIN_ROLE;
export const isRootRole = (role: number | undefined) => (role ?? 0) >= ROOT_ROLE;

// Whether the signed-in person holds a permission (docs/permissions.md): the root always, a
// user never, an admin per the effective set the server gave with the session user (the
// default set when a stored copy predates it). The server enforces the same table.
export type PermissionHolder = { role: number; permissions?: readonly string[] } | null | undefined;
export function can(user: PermissionHolder, permission: Permission): boolean {
  if (!user) return false;
  if (isRootRole(user.role)) return true;
  if (!isAdminRole(user.role)) return false;
  return (user.permissions ?? DEFAULT_ADMIN_PERMISSIONS).includes(permission);
}
export const canAny = (user: PermissionHolder, permissions: readonly Permission[]) => permissions.some((p) => can(user, p));

// Names of the chats an admin configured (option Chats: a list of {name: link}).
export function chatNames(chats: unknown[] | undefined): string[] {
  if (!Array.isArray(chats)) return [];
  return chats.flatMap((c) => (c && typeof c === "object" ? Object.keys(c as object).slice(0, 1) : []));
}

// Every entry the console's navigation has for this person (docs/console-ui.md).
// The admin group's entries need their area's read permission (settings: any tab's).
export function sidebarGroups(status: NavStatus, user: PermissionHolder): NavGroup[] {
  const role = user?.role;
  const groups: NavGroup[] = [];
  groups.push({
    key: "chat",
    items: [{ key: "playground", href: "/playground" }, ...chatNames(status.chats).map((name, i) => ({ key: `chat:${name}`, href: `/chat/${i}` }))],
  });
  const consoleItems: NavItem[] = [];
  if (status.enable_data_export) consoleItems.push({ key: "dashboard", href: "/app/dashboard" });
  consoleItems.push({ key: "tokens", href: "/app/tokens" }, { key: "usageLogs", href: "/app/logs/api-usage" });
  if (status.enable_drawing) consoleItems.push({ key: "drawingLogs", href: "/app/logs/drawing" });
  if (status.enable_task) consoleItems.push({ key: "taskLogs", href: "/app/logs/tasks" });
  // the API reference, open on the relay API (docs/api-reference.md)
  consoleItems.push({ key: "apiDocs", href: "/docs/api" });
  groups.push({ key: "console", items: consoleItems });
  if (isAdminRole(role)) {
    const admin: NavItem[] = [];
    if (can(user, "channels:read")) admin.push({ key: "channels", href: "/admin/channels" });
    if (can(user, "billing:read")) {
      admin.push({ key: "redemptions", href: "/admin/coupons" });
      // subscription plans and their subscribers (docs/console-ui.md, "Plans")
      admin.push({ key: "plans", href: "/admin/plans" });
    }
    // the top-up orders: the root, or an admin with billing:topups (docs/payments.md)
    if (can(user, "billing:topups")) admin.push({ key: "topups", href: "/admin/topups" });
    // the audit log: the root, or an admin with audit:read (docs/audit.md)
    if (can(user, "audit:read")) admin.push({ key: "audit", href: "/admin/audit" });
    if (can(user, "messages:read")) admin.push({ key: "messages", href: "/admin/messages" });
    if (can(user, "users:read")) admin.push({ key: "users", href: "/admin/users" });
    if (canAny(user, SETTINGS_PERMISSIONS)) admin.push({ key: "settings", href: "/admin/settings" });
    if (admin.length) groups.push({ key: "admin", items: admin });
  }
  groups.push({
    key: "personal",
    items: [
      { key: "wallet", href: "/app/wallet" },
      { key: "me", href: "/app/me" },
    ],
  });
  return groups;
}

// Hidden on the home page, the chat pages and setup (and, by CSS, on small screens).
export function sidebarHiddenOn(pathname: string): boolean {
  return pathname === "/" || pathname === "/setup" || pathname === "/chat" || pathname.startsWith("/chat/");
}

// Whether an entry is the current page (or an ancestor of it).
export function isActive(href: string, pathname: string): boolean {
  return pathname === href || pathname.startsWith(href + "/");
}
