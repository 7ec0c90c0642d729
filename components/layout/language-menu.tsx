"use client";
import { Check, Languages } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Dropdown, DropdownItem } from "@/components/ui/dropdown";
import { LOCALE_COOKIE, LOCALE_NAMES, LOCALES, type Locale } from "@/lib/i18n/locale";
import { STORAGE_KEYS, writeItem } from "@/lib/client/storage";

// The server reads the NEXT_LOCALE cookie; the browser also keeps i18nextLng.
function chooseLocale(locale: Locale) {
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
  writeItem(STORAGE_KEYS.language, locale);
}

export function LanguageMenu() {
  const t = useTranslations("shell");
  const locale = useLocale() as Locale;
  const router = useRouter();
  return (
    <Dropdown
      label={t("language")}
      trigger={
        <Button variant="ghost" size="sm" aria-label={t("language")}>
          <Languages aria-hidden className="h-4 w-4" />
          <span className="hidden sm:inline">{LOCALE_NAMES[locale]}</span>
        </Button>
      }
    >
      {LOCALES.map((l) => (
        <DropdownItem
          key={l}
          onSelect={() => {
            chooseLocale(l);
            router.refresh();
          }}
        >
          <span className="w-4">{l === locale ? <Check aria-hidden className="h-4 w-4" /> : null}</span>
          {LOCALE_NAMES[l]}
        </DropdownItem>
      ))}
    </Dropdown>
  );
}
