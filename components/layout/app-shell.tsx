"use client";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { sidebarHiddenOn } from "@/lib/client/navigation";
import { Footer } from "./footer";
import { useSessionUser } from "./providers";
import { Sidebar } from "./sidebar";
import { TopBar } from "./top-bar";

export function AppShell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  // Anonymous visitors have no console to navigate: the sidebar is for logged-in users.
  const withSidebar = useSessionUser() !== null && !sidebarHiddenOn(pathname);
  return (
    <div className="flex min-h-screen flex-col bg-zinc-50 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <TopBar />
      <div className="flex flex-1">
        {withSidebar && <Sidebar />}
        <div className="flex min-w-0 flex-1 flex-col">
          <main className="flex-1">{children}</main>
          <Footer />
        </div>
      </div>
    </div>
  );
}
