// The console's eight languages (docs/i18n.md). Chinese (simplified) is the default and the
// fallback, as the spec says; the order is the language menu's.
export const LOCALES = ["zh", "zh-TW", "en", "ja", "fr", "ru", "vi", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "zh";
// The cookie the language menu sets (the browser also keeps i18nextLng in localStorage).
export const LOCALE_COOKIE = "NEXT_LOCALE";

/** Each language by its own name, as the language menu lists it. */
export const LOCALE_NAMES: Record<Locale, string> = {
  zh: "简体中文",
  "zh-TW": "繁體中文",
  en: "English",
  ja: "日本語",
  fr: "Français",
  ru: "Русский",
  vi: "Tiếng Việt",
  es: "Español",
};

/** The BCP 47 tag for Intl formatting and the page's `lang` attribute. */
export const LOCALE_TAGS: Record<Locale, string> = {
  zh: "zh-CN",
  "zh-TW": "zh-TW",
  en: "en-US",
  ja: "ja-JP",
  fr: "fr-FR",
  ru: "ru-RU",
  vi: "vi-VN",
  es: "es-ES",
};

export function isLocale(v: unknown): v is Locale {
  return typeof v === "string" && (LOCALES as readonly string[]).includes(v);
}

/** The user's stored language as a locale (an unknown or empty one is the default). */
export function toLocale(v: unknown): Locale {
  return isLocale(v) ? v : DEFAULT_LOCALE;
}

// One Accept-Language tag to one of ours: Chinese by script or region (Hant, TW, HK, MO
// are traditional), the others by their primary subtag.
function matchTag(tag: string): Locale | null {
  const parts = tag.toLowerCase().split(/[-_]/);
  if (parts[0] === "zh") return parts.slice(1).some((p) => p === "hant" || p === "tw" || p === "hk" || p === "mo") ? "zh-TW" : "zh";
  return isLocale(parts[0]) ? parts[0] : null;
}

/** The best of ours in an Accept-Language header, by its q-values (the first listed on ties), or null. */
export function matchAcceptLanguage(header: string | undefined | null): Locale | null {
  const ranked = (header ?? "")
    .split(",")
    .slice(0, 32)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((e) => e.tag && e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const entry of ranked) {
    const locale = matchTag(entry.tag);
    if (locale) return locale;
  }
  return null;
}

// Picks the locale from the cookie, then Accept-Language, then the default.
export function pickLocale(cookieValue: string | undefined | null, acceptLanguage: string | undefined | null): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  return matchAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE;
}

const LOCALE_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]*)`);

/**
 * The locale of a raw Node request (the relay's and the task routes' server, outside Next): the
 * console's cookie when the call comes from a console session (the playground), else
 * Accept-Language, else the default.
 */
export function requestLocale(headers: { cookie?: string | string[]; "accept-language"?: string | string[] }): Locale {
  const cookie = headers.cookie === undefined ? undefined : LOCALE_COOKIE_VALUE.exec(String(headers.cookie))?.[1];
  return pickLocale(cookie, headers["accept-language"] === undefined ? undefined : String(headers["accept-language"]));
}
