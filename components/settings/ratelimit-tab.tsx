"use client";
// The rate-limit tab: the four rate-limit options (docs/settings.md), and the groups' default
// usage limits, GroupLimits (docs/console-ui.md, "Limits").
import type { OptionKey } from "@/lib/options/registry";
import { useTranslations } from "next-intl";
import { FieldGrid, OptionNumber, OptionSwitch, SettingsSection } from "@/components/forms";
import { GroupLimitsEditor } from "./group-limits-editor";
import { useLabel } from "./operation-tab";

const KEYS: OptionKey[] = [
  "ModelRequestRateLimitEnabled",
  "ModelRequestRateLimitDurationMinutes",
  "ModelRequestRateLimitCount",
  "ModelRequestRateLimitSuccessCount",
];

const GROUP_KEYS: OptionKey[] = ["GroupLimits"];

export function RateLimitTab() {
  const t = useTranslations("settings.ratelimit");
  const tl = useTranslations("limits.groups");
  const L = useLabel();
  return (
    <div className="flex flex-col gap-5">
      <SettingsSection title={t("title")} description={t("description")} keys={KEYS}>
        <OptionSwitch name="ModelRequestRateLimitEnabled" label={L("ModelRequestRateLimitEnabled")} />
        <FieldGrid>
          <OptionNumber name="ModelRequestRateLimitDurationMinutes" label={L("ModelRequestRateLimitDurationMinutes")} suffix={t("minutes")} />
          <OptionNumber name="ModelRequestRateLimitCount" label={L("ModelRequestRateLimitCount")} hint={t("countHint")} />
          <OptionNumber name="ModelRequestRateLimitSuccessCount" label={L("ModelRequestRateLimitSuccessCount")} hint={t("successHint")} />
        </FieldGrid>
      </SettingsSection>
      <SettingsSection title={tl("title")} description={tl("description")} keys={GROUP_KEYS}>
        <GroupLimitsEditor />
      </SettingsSection>
    </div>
  );
}
