// The eight languages' catalogues against English (docs/i18n.md): the same keys, the same
// placeholders, every message parsable, nothing left in English but the terms that stay; and
// the first visit's language from Accept-Language.
import { describe, expect, it } from "vitest";
// @ts-expect-error a plain ES module of the repository's scripts (scripts/i18n-check.mjs)
import { checkLocale, flatten } from "../../../scripts/i18n-check.mjs";
import { DEFAULT_LOCALE, LOCALES, LOCALE_NAMES, matchAcceptLanguage, pickLocale, requestLocale, type Locale } from "@/lib/i18n/locale";
import { renderMessage, serverCatalogues } from "@/lib/i18n/server-messages";
import en from "@/messages/en.json";

type Check = { problems: string[]; identical: string[] };
const english = flatten(en) as Record<string, string>;

// A value may stay as English writes it when it is a name, an acronym, a cognate or one word
// ("GitHub", "RPM: {rpm}", "Chat"), or a term that language's glossary keeps in English
// (docs/i18n.md); two words or more with an ordinary lowercase one are an English phrase left
// untranslated.
const KEPT_TERMS: Partial<Record<Locale, string[]>> = {
  ja: ["Powered by"],
  fr: ["Prompt {price} / 1M tokens"],
  es: ["Prompt {price} / 1M tokens", "Check-in"],
  ru: ["Python (openai SDK)"],
  vi: ["Python (openai SDK)", "Reverse proxy"],
};
const words = (value: string) => value.replace(/\{[^}]*\}/g, " ").match(/\p{L}{2,}/gu) ?? [];
const englishPhrase = (locale: Locale, value: string) =>
  !KEPT_TERMS[locale]?.includes(value) && words(value).length >= 2 && words(value).some((w) => /^[a-z]/.test(w));

describe("catalogues", () => {
  it.each(LOCALES.filter((l) => l !== "en"))("%s has English's keys and placeholders, and parses", (locale) => {
    const { problems } = checkLocale(locale) as Check;
    expect(problems).toEqual([]);
  });

  it.each(LOCALES.filter((l) => l !== "en" && l !== "zh"))("%s leaves no English phrase untranslated", (locale) => {
    const { identical } = checkLocale(locale) as Check;
    const server = serverCatalogues.en as Record<string, string>;
    const left = identical.filter((key) => {
      const value = key.startsWith("server.") ? server[key.slice(7)]! : english[key]!;
      return englishPhrase(locale, value);
    });
    expect(left).toEqual([]);
  });

  it("renders a server message in each language, placeholders filled", () => {
    for (const locale of LOCALES) {
      const text = renderMessage(locale, "passkey_limit", { max: 7 });
      expect(text, locale).toContain("7");
      expect(text, locale).not.toContain("{max}");
    }
    expect(new Set(LOCALES.map((l) => renderMessage(l, "login_failed"))).size).toBe(LOCALES.length);
  });

  it("names each language by its own name", () => {
    expect(Object.keys(LOCALE_NAMES).sort()).toEqual([...LOCALES].sort());
    expect(LOCALE_NAMES.ja).toBe("日本語");
    expect(LOCALE_NAMES["zh-TW"]).toBe("繁體中文");
  });
});

describe("the first visit's language", () => {
  it("takes the best of ours by q-value from Accept-Language", () => {
    expect(matchAcceptLanguage("ja-JP,ja;q=0.9,en;q=0.8")).toBe("ja");
    expect(matchAcceptLanguage("de-DE,de;q=0.9,fr;q=0.8,en;q=0.7")).toBe("fr");
    expect(matchAcceptLanguage("en;q=0.5, ru;q=0.9")).toBe("ru");
    expect(matchAcceptLanguage("zh-TW,zh;q=0.9")).toBe("zh-TW");
    expect(matchAcceptLanguage("zh-Hant-HK")).toBe("zh-TW");
    expect(matchAcceptLanguage("zh-Hans-CN,zh;q=0.9")).toBe("zh");
    expect(matchAcceptLanguage("es-419")).toBe("es");
    expect(matchAcceptLanguage("vi-VN")).toBe("vi");
    expect(matchAcceptLanguage("de-DE, it;q=0.5")).toBeNull();
    expect(matchAcceptLanguage("ja;q=0, en")).toBe("en");
    expect(matchAcceptLanguage("")).toBeNull();
  });
  it("prefers the remembered choice, and Chinese when nothing matches", () => {
    expect(pickLocale("fr", "ja")).toBe("fr");
    expect(pickLocale("xx", "ja")).toBe("ja");
    expect(pickLocale(undefined, "de")).toBe(DEFAULT_LOCALE);
    // a raw request (the relay, the task routes): the console's cookie first (the playground)
    expect(requestLocale({ cookie: "session=x; NEXT_LOCALE=fr", "accept-language": "en" })).toBe("fr");
    expect(requestLocale({ cookie: "NEXT_LOCALE=xx", "accept-language": "ru" })).toBe("ru");
    expect(requestLocale({ "accept-language": "vi" })).toBe("vi");
    expect(requestLocale({})).toBe("zh");
    expect(DEFAULT_LOCALE).toBe("zh");
  });
});
