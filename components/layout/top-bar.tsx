"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { DEFAULT_LOGO } from "@/lib/client/branding";
import { InboxBell } from "./inbox-bell";
import { LanguageMenu } from "./language-menu";
import { MobileNav } from "./mobile-nav";
import { NewYearEgg } from "./new-year-egg";
import { useSessionUser, useStatus } from "./providers";
import { ThemeToggle } from "./theme-toggle";
import { useTopLinks } from "./top-links";
import { UserMenu } from "./user-menu";

function Brand() {
  const status = useStatus();
  const t = useTranslations("common");
  const name = status.system_name || t("appName");
  return (
    <Link prefetch={false} href="/" className="flex shrink-0 items-center gap-2 font-semibold text-zinc-900 dark:text-zinc-100">
      {/* An admin-set logo may live on any host: a plain <img>, not next/image. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={status.logo || DEFAULT_LOGO} alt="" data-testid="site-logo" className="h-7 w-7 rounded object-contain" />
      <span className="hidden md:inline">{name}</span>
    </Link>
  );
}

export function TopBar() {
  const t = useTranslations("shell");
  const status = useStatus();
  const user = useSessionUser();
  const links = useTopLinks();
  const linkClass = (active: boolean) =>
    cn(
      "rounded-md px-2.5 py-1.5 text-sm whitespace-nowrap",
      active
        ? "bg-zinc-100 font-medium text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100"
        : "text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100",
    );
  // Below md the links move into the menu drawer (docs/console-ui.md, "Phone width"): the
  // bar keeps the menu button, the logo and the compact controls.
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-zinc-200 bg-white/90 px-3 backdrop-blur md:gap-3 md:px-4 dark:border-zinc-800 dark:bg-zinc-950/90">
      <MobileNav />
      <Brand />
      <nav aria-label={t("mainNav")} className="hidden min-w-0 items-center gap-1 overflow-x-auto md:flex">
        {links.map((l) =>
          l.external ? (
            <a key={l.key} href={l.href} target="_blank" rel="noreferrer" className={linkClass(false)}>
              {t(`nav.${l.key}`)}
            </a>
          ) : (
            <Link prefetch={false} key={l.key} href={l.href} className={linkClass(l.active)} aria-current={l.active ? "page" : undefined}>
              {t(`nav.${l.key}`)}
            </Link>
          ),
        )}
      </nav>
      <div className="ml-auto flex min-w-0 shrink-0 items-center gap-0.5 md:gap-1">
        {/* On a phone the badges are shown in the menu drawer. */}
        <span className="hidden items-center gap-1 md:flex">
          {status.self_use_mode_enabled && <Badge color="purple">{t("selfUseBadge")}</Badge>}
          {status.demo_site_enabled && <Badge color="orange">{t("demoBadge")}</Badge>}
        </span>
        <NewYearEgg />
        <ThemeToggle />
        <LanguageMenu />
        {user && <InboxBell />}
        <UserMenu />
      </div>
    </header>
  );
}
