"use client";
// The phone's navigation (docs/console-ui.md, "Phone width"): below md the sidebar column is
// hidden and the top bar's links do not fit, so a menu button opens a drawer from the left
// with the top bar's links and the sidebar's groups (the same SidebarNav the desktop draws).
import * as D from "@radix-ui/react-dialog";
import { Menu, X } from "lucide-react";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { useSessionUser, useStatus } from "./providers";
import { SidebarNav } from "./sidebar";
import { useTopLinks } from "./top-links";

export function MobileNav() {
  const t = useTranslations("mobileNav");
  const ts = useTranslations("shell");
  const status = useStatus();
  const user = useSessionUser();
  const pathname = usePathname();
  const links = useTopLinks();
  const [open, setOpen] = useState(false);
  // Closes once the navigation has happened (a link to the current page closes it on click).
  useEffect(() => {
    setOpen(false);
  }, [pathname]);
  // A window widened past md while the drawer is open would keep a hidden modal locking the
  // page: close it there.
  useEffect(() => {
    const wide = window.matchMedia("(min-width: 48rem)");
    const onChange = () => {
      if (wide.matches) setOpen(false);
    };
    wide.addEventListener("change", onChange);
    return () => wide.removeEventListener("change", onChange);
  }, []);
  const close = () => setOpen(false);
  return (
    <D.Root open={open} onOpenChange={setOpen}>
      <D.Trigger
        aria-label={t("open")}
        title={t("open")}
        className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-md text-zinc-700 hover:bg-zinc-100 md:hidden dark:text-zinc-200 dark:hover:bg-zinc-800"
      >
        <Menu aria-hidden className="h-5 w-5" />
      </D.Trigger>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-black/40 transition-opacity starting:opacity-0 md:hidden" />
        <D.Content
          data-testid="mobile-nav"
          className="fixed inset-y-0 left-0 z-50 flex w-[min(18rem,85vw)] flex-col border-r border-zinc-200 bg-white shadow-xl transition-transform duration-200 starting:-translate-x-full md:hidden dark:border-zinc-800 dark:bg-zinc-950"
        >
          <div className="flex h-14 shrink-0 items-center justify-between border-b border-zinc-200 px-4 dark:border-zinc-800">
            <D.Title className="font-semibold text-zinc-900 dark:text-zinc-100">{status.system_name || t("title")}</D.Title>
            <D.Description className="sr-only">{t("title")}</D.Description>
            <D.Close
              aria-label={t("close")}
              title={t("close")}
              className="inline-flex h-9 w-9 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
            >
              <X aria-hidden className="h-5 w-5" />
            </D.Close>
          </div>
          <div className="flex-1 overflow-y-auto px-2 py-3">
            {(status.self_use_mode_enabled || status.demo_site_enabled) && (
              <div className="mb-3 flex flex-wrap gap-1 px-2">
                {status.self_use_mode_enabled && <Badge color="purple">{ts("selfUseBadge")}</Badge>}
                {status.demo_site_enabled && <Badge color="orange">{ts("demoBadge")}</Badge>}
              </div>
            )}
            <nav aria-label={ts("mainNav")} className="mb-3 border-b border-zinc-200 pb-3 dark:border-zinc-800">
              {links.map((l) => {
                const className = cn(
                  "flex items-center rounded-md px-2.5 py-2 text-sm",
                  l.active
                    ? "bg-zinc-100 font-medium text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100"
                    : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-900",
                );
                return l.external ? (
                  <a key={l.key} href={l.href} target="_blank" rel="noreferrer" onClick={close} className={className}>
                    {ts(`nav.${l.key}`)}
                  </a>
                ) : (
                  <Link prefetch={false} key={l.key} href={l.href} onClick={close} aria-current={l.active ? "page" : undefined} className={className}>
                    {ts(`nav.${l.key}`)}
                  </Link>
                );
              })}
            </nav>
            {/* A visitor has no console to navigate: the sidebar's groups are for signed-in users. */}
            {user && (
              <div role="group" aria-label={ts("sidebarLabel")}>
                <SidebarNav onNavigate={close} />
              </div>
            )}
          </div>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
