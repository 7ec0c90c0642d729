// Messages the server sends in the {success:false, message} envelope, and the words of its
// mails and notifications, in the console's eight languages: one catalogue per language in
// lib/i18n/server-messages/, English's keys being the list every other must match
// (docs/i18n.md). The request's locale (cookie NEXT_LOCALE, then Accept-Language; Chinese by
// default) chooses which one. Parameters are written {name}. Browser code imports
// lib/i18n/render.ts and lib/i18n/client-catalogue.ts instead: this module carries all eight.
import type { Locale } from "@/lib/i18n/locale";
import { say, type MessageKey, type MessageParams, type ServerCatalogue } from "@/lib/i18n/render";
import { en } from "@/lib/i18n/server-messages/en";
import { es } from "@/lib/i18n/server-messages/es";
import { fr } from "@/lib/i18n/server-messages/fr";
import { ja } from "@/lib/i18n/server-messages/ja";
import { ru } from "@/lib/i18n/server-messages/ru";
import { vi } from "@/lib/i18n/server-messages/vi";
import { zh } from "@/lib/i18n/server-messages/zh";
import { zhTW } from "@/lib/i18n/server-messages/zh-TW";

export type { MessageKey, MessageParams, ServerCatalogue };

export const serverCatalogues: Record<Locale, ServerCatalogue> = { zh, "zh-TW": zhTW, en, ja, fr, ru, vi, es };

export function renderMessage(locale: Locale, key: MessageKey, params?: MessageParams): string {
  return say(serverCatalogues[locale], key, params);
}
