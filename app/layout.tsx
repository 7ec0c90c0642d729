import type { Metadata } from "next";
import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import { AppShell } from "@/components/layout/app-shell";
import { NoticeDialog } from "@/components/layout/notice-dialog";
import { Providers } from "@/components/layout/providers";
import { THEME_SCRIPT } from "@/components/layout/theme";
import { ensureReady } from "@/lib/boot";
import { headHtmlScript, scriptText, styleText } from "@/lib/branding/inject";
import { DEFAULT_LOGO } from "@/lib/client/branding";
import { getOption } from "@/lib/options/store";
import { LOCALE_TAGS, toLocale } from "@/lib/i18n/locale";
import { siteStatus } from "@/lib/status/site-status";
import { shellUser } from "@/lib/http/shell-user";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  await ensureReady();
  const status = await siteStatus();
  // Every page's title ends with the system name; a page without its own title is just the name.
  const name = status.system_name || "AI Gateway";
  return { title: { default: name, template: `%s | ${name}` }, icons: [{ url: status.logo || DEFAULT_LOGO }] };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  await ensureReady();
  const [status, user] = await Promise.all([siteStatus(), shellUser()]);
  // The root's own code (lib/branding/inject.ts): head HTML, CSS, then JavaScript after the app.
  const headHtml = headHtmlScript(getOption("custom_head_html"));
  const css = getOption("global_css");
  const js = getOption("global_js");
  return (
    <html lang={LOCALE_TAGS[toLocale(locale)]} suppressHydrationWarning>
      <head>
        {/* Applies the remembered theme before the first paint (no light flash in dark mode). */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        {headHtml && <script id="custom-head-html" dangerouslySetInnerHTML={{ __html: headHtml }} />}
        {css.trim() && <style id="global-css" dangerouslySetInnerHTML={{ __html: styleText(css) }} />}
      </head>
      <body>
        <NextIntlClientProvider>
          <Providers status={status} user={user}>
            <AppShell>{children}</AppShell>
            <NoticeDialog notice={getOption("Notice")} />
          </Providers>
        </NextIntlClientProvider>
        {js.trim() && <script id="global-js" dangerouslySetInnerHTML={{ __html: scriptText(js) }} />}
      </body>
    </html>
  );
}
