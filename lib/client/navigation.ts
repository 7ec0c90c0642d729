// The app shell's sidebar (docs/product-rules.md, "Accounts"): which groups and entries a person sees, and
// on which paths the sidebar is hidden. The routes are listed whoever builds the page.
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

// Names of the chats an admin configured (option Chats: a list of {name: link}).
export function chatNames(chats: unknown[] | undefined): string[] {
  if (!Array.isArray(chats)) return [];
  return chats.flatMap((c) => (c && typeof c === "object" ? Object.keys(c as object).slice(0, 1) : []));
}

// Every entry the console's navigation has for this person (docs/console-ui.md).
export function sidebarGroups(status: NavStatus, role: number | undefined): NavGroup[] {
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
    groups.push({
      key: "admin",
      items: [
        { key: "channels", href: "/admin/channels" },
        { key: "redemptions", href: "/admin/coupons" },
        // subscription plans and their subscribers (docs/console-ui.md, "Plans")
        { key: "plans", href: "/admin/plans" },
        // the top-up orders: root only (docs/payments.md)
        ...(isRootRole(role) ? [{ key: "topups", href: "/admin/topups" }] : []),
        // the audit log: root only, until the admin permissions of issue 29 (docs/audit.md)
        ...(isRootRole(role) ? [{ key: "audit", href: "/admin/audit" }] : []),
        { key: "messages", href: "/admin/messages" },
        { key: "users", href: "/admin/users" },
        { key: "settings", href: "/admin/settings" },
      ],
    });
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
