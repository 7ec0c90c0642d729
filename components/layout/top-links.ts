"use client";
import { usePathname } from "next/navigation";
import { isActive } from "@/lib/client/navigation";
import { useStatus } from "./providers";

export type TopLink = { key: string; href: string; active: boolean; external?: boolean };

// The top bar's links in their order (home, console, pricing, status when on, docs when set, about): drawn
// in the bar from md up and in the phone's menu drawer below it.
export function useTopLinks(): TopLink[] {
  const status = useStatus();
  const pathname = usePathname();
  return [
    { key: "home", href: "/", active: pathname === "/" },
    {
      key: "console",
      href: status.enable_data_export ? "/app/dashboard" : "/app/tokens",
      active: /^\/(app|admin|user|channel)(\/|$)/.test(pathname),
    },
    { key: "pricing", href: "/pricing", active: isActive("/pricing", pathname) },
    // the public status page, when it is on (docs/performance.md)
    ...(status.status_page_enabled ? [{ key: "status", href: "/status", active: isActive("/status", pathname) }] : []),
    ...(status.docs_link ? [{ key: "docs", href: status.docs_link, active: false, external: true }] : []),
    { key: "about", href: "/about", active: isActive("/about", pathname) },
  ];
}
