import type { Metadata } from "next";
import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import { AppShell } from "@/components/layout/app-shell";
import { Providers } from "@/components/layout/providers";
import { THEME_SCRIPT } from "@/components/layout/theme";
import { ensureReady } from "@/lib/boot";
import { siteStatus } from "@/lib/status/site-status";
import { shellUser } from "@/lib/session-user";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  await ensureReady();
  const status = await siteStatus();
  return { title: status.system_name || "AI Gateway", icons: status.logo ? [{ url: status.logo }] : undefined };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  await ensureReady();
  const [status, user] = await Promise.all([siteStatus(), shellUser()]);
  return (
    <html lang={locale === "zh" ? "zh-CN" : "en"} suppressHydrationWarning>
      <head>
        {/* Applies the remembered theme before the first paint (no light flash in dark mode). */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <NextIntlClientProvider>
          <Providers status={status} user={user}>
            <AppShell>{children}</AppShell>
          </Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
