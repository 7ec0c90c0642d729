"use client";
// The user editor's limits (docs/console-ui.md, "Limits"): the user's own limit fields, each
// showing its group's default (the option GroupLimits) as placeholder, and the meters of what
// the user uses now against the limits that apply (its own, else its group's).
import { useTranslations } from "next-intl";
import { useFormContext } from "react-hook-form";
import useSWR from "swr";
import { useQuotaDisplay } from "@/components/layout/providers";
import {
  LIMIT_KINDS,
  LIMIT_FIELDS,
  limitInputText,
  metersOf,
  NO_LIMITS,
  parseGroupLimits,
  parseLimitInput,
  typesMoney,
  type LimitField,
  type LimitValues,
} from "@/lib/client/limits";
import { own } from "@/lib/own-keys";
import { LimitFields } from "./limit-fields";
import { LimitMeters } from "./limit-meter";
import { limitUsagePath, useLimitUsage } from "./use-limit-usage";

type Listed = { key: string; value: string };

/** The option GroupLimits as the admin's option list gives it ({} when unset or unreadable). */
export function useGroupLimits(): Record<string, LimitValues> {
  const { data } = useSWR<Listed[]>("/api/option/", { revalidateOnFocus: false });
  const raw = data?.find((o) => o.key === "GroupLimits")?.value ?? "{}";
  return parseGroupLimits(raw) ?? {};
}

export function UserLimits({ userId }: { userId: number }) {
  const t = useTranslations("limits");
  const display = useQuotaDisplay();
  const { watch } = useFormContext<Record<LimitField | "group", string>>();
  const group = watch("group") ?? "";
  const defaults = own(useGroupLimits(), group) ?? NO_LIMITS;
  const { data: usage } = useLimitUsage(limitUsagePath({ user_id: userId }));
  const placeholders = {} as Record<LimitField, string>;
  const effective = { ...NO_LIMITS };
  for (const k of LIMIT_KINDS) {
    const f = LIMIT_FIELDS[k];
    const d = defaults[f];
    placeholders[f] = d > 0 ? t("groupDefault", { value: limitInputText(k, d, display) }) : t("noGroupDefault");
    const own = parseLimitInput(k, watch(f) ?? "", display, true) ?? 0;
    effective[f] = own > 0 ? own : own < 0 ? 0 : d;
  }
  return (
    <LimitFields placeholders={placeholders} hint={t("userHint", { group: group || "default", unit: typesMoney(display) ? t("unitMoney") : t("unitUnits") })}>
      <div className="flex flex-col gap-2 border-t border-zinc-200 pt-3 dark:border-zinc-800" data-testid="user-editor-meters">
        <span className="text-xs font-medium text-zinc-600 dark:text-zinc-400">{t("current")}</span>
        <LimitMeters rows={metersOf(effective, usage, "user")} empty={<span className="text-xs text-zinc-500 dark:text-zinc-400">{t("noneSet")}</span>} />
      </div>
    </LimitFields>
  );
}
