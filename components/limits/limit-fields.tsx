"use client";
// The seven limit fields of a form (docs/console-ui.md, "Limits"), bound by name to the
// surrounding react-hook-form: counts as whole numbers, quotas in the console's display unit
// (dollars when the site shows money, with the exact quota units under the field). Blank or
// 0 is no limit. Used by the token drawer and the user editor.
import { useFormatter, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { useFormContext } from "react-hook-form";
import { FormText } from "@/components/forms";
import { useQuotaDisplay } from "@/components/layout/providers";
import { isQuotaLimit, kindOfField, LIMIT_FIELD_LIST, parseQuotaInput, typesMoney, type LimitField } from "@/lib/client/limits";

export function LimitFields({ placeholders, hint, children }: { placeholders?: Partial<Record<LimitField, string>>; hint?: ReactNode; children?: ReactNode }) {
  const t = useTranslations("limits");
  const format = useFormatter();
  const display = useQuotaDisplay();
  const { watch } = useFormContext<Record<LimitField, string>>();
  const money = typesMoney(display);
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800" data-testid="limit-fields">
      <legend className="px-1 text-sm font-medium text-zinc-700 dark:text-zinc-300">{t("title")}</legend>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">{hint ?? (money ? t("hintMoney") : t("hintUnits"))}</p>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {LIMIT_FIELD_LIST.map((f) => {
          const quota = isQuotaLimit(kindOfField(f));
          const typed = watch(f) ?? "";
          const units = quota && money && typed.trim() !== "" ? parseQuotaInput(typed, display) : null;
          return (
            <FormText
              key={f}
              name={f}
              label={quota && money ? `${t(`field.${f}`)} ($)` : t(`field.${f}`)}
              inputMode={quota && money ? "decimal" : "numeric"}
              autoComplete="off"
              placeholder={placeholders?.[f] ?? "0"}
              hint={units !== null ? t("inUnits", { units: format.number(units) }) : undefined}
            />
          );
        })}
      </div>
      {children}
    </fieldset>
  );
}
