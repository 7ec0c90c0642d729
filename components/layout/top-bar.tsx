"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { DEFAULT_LOGO } from "@/lib/client/branding";
import { isActive, isBuilt } from "@/lib/client/navigation";
import { InboxBell } from "./inbox-bell";
import { LanguageMenu } from "./language-menu";
import { NewYearEgg } from "./new-year-egg";
import { useSessionUser, useStatus } from "./providers";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";

function Brand() {
  const status = useStatus();
  const t = useTranslations("common");
  const name = status.system_name || t("appName");
  return (
    <Link href="/" className="flex shrink-0 items-center gap-2 font-semibold text-zinc-900 dark:text-zinc-100">
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
  const pathname = usePathname();
  const links = [
    { key: "home", href: "/", active: pathname === "/" },
    {
      key: "console",
      href: status.enable_data_export && isBuilt("/app/dashboard") ? "/app/dashboard" : "/app/tokens",
      active: /^\/(app|admin|user|channel)(\/|$)/.test(pathname),
    },
    { key: "pricing", href: "/pricing", active: isActive("/pricing", pathname) },
    { key: "about", href: "/about", active: isActive("/about", pathname) },
  ];
  const linkClass = (active: boolean) =>
    cn(
      "rounded-md px-2.5 py-1.5 text-sm whitespace-nowrap",
      active
        ? "bg-zinc-100 font-medium text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100"
        : "text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100",
    );
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-zinc-200 bg-white/90 px-4 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/90">
      <Brand />
      <nav aria-label={t("mainNav")} className="flex min-w-0 items-center gap-1 overflow-x-auto">
        {links.slice(0, 3).map((l) => (
          <Link key={l.key} href={l.href} className={linkClass(l.active)} aria-current={l.active ? "page" : undefined}>
            {t(`nav.${l.key}`)}
          </Link>
        ))}
        {status.docs_link && (
          <a href={status.docs_link} target="_blank" rel="noreferrer" className={linkClass(false)}>
            {t("nav.docs")}
          </a>
        )}
        <Link href="/about" className={linkClass(links[3].active)} aria-current={links[3].active ? "page" : undefined}>
          {t("nav.about")}
        </Link>
      </nav>
      <div className="ml-auto flex shrink-0 items-center gap-1">
        {status.self_use_mode_enabled && <Badge color="purple">{t("selfUseBadge")}</Badge>}
        {status.demo_site_enabled && <Badge color="orange">{t("demoBadge")}</Badge>}
        <NewYearEgg />
        <ThemeToggle />
        <LanguageMenu />
        {user && isBuilt("/app/inbox") && <InboxBell />}
        <UserMenu />
      </div>
    </header>
  );
}
