"use client";
import { PanelLeftClose, PanelLeftOpen } from "lucide-react";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { cn } from "@/components/ui/cn";
import { isActive, sidebarGroups } from "@/lib/client/navigation";
import { readItem, STORAGE_KEYS, writeItem } from "@/lib/client/storage";
import { navIcon } from "./nav-icons";
import { useSessionUser, useStatus } from "./providers";

// Collapse is remembered in localStorage; the site option default_collapse_sidebar is the
// state of a browser that has not chosen yet.
function useCollapsed(siteDefault: boolean): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(siteDefault);
  useEffect(() => {
    const saved = readItem(STORAGE_KEYS.defaultCollapseSidebar);
    if (saved !== null) setCollapsed(saved === "true");
  }, []);
  const toggle = () =>
    setCollapsed((c) => {
      writeItem(STORAGE_KEYS.defaultCollapseSidebar, String(!c));
      return !c;
    });
  return [collapsed, toggle];
}

export function Sidebar() {
  const t = useTranslations("shell");
  const tt = useTranslations("sidebarToggle");
  const status = useStatus();
  const [collapsed, toggle] = useCollapsed(status.default_collapse_sidebar);
  // The outer column stretches to the page's full height (background and border reach the
  // footer however long the page is); the sticky inner part keeps the menu in view.
  return (
    <div className={cn("hidden shrink-0 border-r border-zinc-200 bg-white md:block dark:border-zinc-800 dark:bg-zinc-950", collapsed ? "w-14" : "w-52")}>
      <aside aria-label={t("sidebarLabel")} className="sticky top-14 flex h-[calc(100vh-3.5rem)] flex-col">
        <SidebarNav collapsed={collapsed} className="flex-1 overflow-y-auto px-2 py-3" />
        <button
          type="button"
          onClick={toggle}
          aria-expanded={!collapsed}
          aria-label={collapsed ? tt("expand") : t("collapse")}
          title={collapsed ? tt("expand") : t("collapse")}
          className="flex items-center gap-2 border-t border-zinc-200 px-4 py-2 text-left text-sm text-zinc-500 hover:text-zinc-900 dark:border-zinc-800 dark:hover:text-zinc-100"
        >
          {collapsed ? <PanelLeftOpen aria-hidden className="h-4 w-4" /> : <PanelLeftClose aria-hidden className="h-4 w-4" />}
          {!collapsed && t("collapse")}
        </button>
      </aside>
    </div>
  );
}

// The sidebar's groups and entries for the signed-in person, the current page highlighted:
// drawn by the desktop sidebar and by the phone's menu drawer (components/layout/mobile-nav.tsx),
// so both always list the same entries. `onNavigate` runs when an entry is followed.
export function SidebarNav({ collapsed = false, className, onNavigate }: { collapsed?: boolean; className?: string; onNavigate?: () => void }) {
  const t = useTranslations("shell");
  const status = useStatus();
  const user = useSessionUser();
  const pathname = usePathname();
  const label = (key: string) => (key.startsWith("chat:") ? key.slice(5) : t(`sidebar.${key}`));
  return (
    <nav className={className}>
      {sidebarGroups(status, user).map((group) => (
        <div key={group.key} className="mb-3">
          {!collapsed && <div className="px-2 pb-1 text-xs font-medium text-zinc-400 dark:text-zinc-500">{t(`sidebar.group.${group.key}`)}</div>}
          {group.items.map((item) => {
            const active = isActive(item.href, pathname);
            const text = label(item.key);
            const Icon = navIcon(item.key);
            // No prefetch when the link scrolls into view: on a cold load the shell's
            // links asked the server for some 20 page payloads (each with the message
            // catalogue) beside the page's own requests; a click fetches the page instead
            // (docs/console-ui.md, "Cold load").
            return (
              <Link
                prefetch={false}
                key={item.key}
                href={item.href}
                title={text}
                onClick={onNavigate}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "flex items-center gap-2.5 rounded-md px-2.5 py-2 text-sm",
                  active
                    ? "bg-blue-50 font-medium text-blue-700 dark:bg-blue-950/60 dark:text-blue-300"
                    : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-900",
                )}
              >
                <Icon aria-hidden className="h-4 w-4 shrink-0" />
                {!collapsed && <span className="truncate">{text}</span>}
              </Link>
            );
          })}
        </div>
      ))}
    </nav>
  );
}
