"use client";
// The rate-limit tab: one section with the four rate-limit options (docs/settings.md).
import type { OptionKey } from "@/lib/options/registry";
import { useTranslations } from "next-intl";
import { FieldGrid, OptionNumber, OptionSwitch, SettingsSection } from "@/components/forms";
import { useLabel } from "./operation-tab";

const KEYS: OptionKey[] = [
  "ModelRequestRateLimitEnabled",
  "ModelRequestRateLimitDurationMinutes",
  "ModelRequestRateLimitCount",
  "ModelRequestRateLimitSuccessCount",
];

export function RateLimitTab() {
  const t = useTranslations("settings.ratelimit");
  const L = useLabel();
  return (
    <SettingsSection title={t("title")} description={t("description")} keys={KEYS}>
      <OptionSwitch name="ModelRequestRateLimitEnabled" label={L("ModelRequestRateLimitEnabled")} />
      <FieldGrid>
        <OptionNumber name="ModelRequestRateLimitDurationMinutes" label={L("ModelRequestRateLimitDurationMinutes")} suffix={t("minutes")} />
        <OptionNumber name="ModelRequestRateLimitCount" label={L("ModelRequestRateLimitCount")} hint={t("countHint")} />
        <OptionNumber name="ModelRequestRateLimitSuccessCount" label={L("ModelRequestRateLimitSuccessCount")} hint={t("successHint")} />
      </FieldGrid>
    </SettingsSection>
  );
}
