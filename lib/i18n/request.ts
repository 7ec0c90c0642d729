// next-intl request configuration: the locale comes from the NEXT_LOCALE cookie (set by
// the language menu), then Accept-Language, then Chinese. The locale's server catalogue rides
// along under "server" for the forms (lib/i18n/client-catalogue.ts).
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { LOCALE_COOKIE, pickLocale } from "@/lib/i18n/locale";
import { serverCatalogues } from "@/lib/i18n/server-messages";

export default getRequestConfig(async () => {
  const [c, h] = await Promise.all([cookies(), headers()]);
  const locale = pickLocale(c.get(LOCALE_COOKIE)?.value, h.get("accept-language"));
  const messages = (await import(`../../messages/${locale}.json`)).default;
  return { locale, messages: { ...messages, server: serverCatalogues[locale] }, timeZone: process.env.TZ || "Asia/Shanghai" };
});
