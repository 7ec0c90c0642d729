"use client";
// PLACEHOLDER owned by the pricing-models branch, which replaces this file: the operation
// tab's "Other ratios" section (preset fetch/reset, fallback pricing, redirect billing).
// Contract: components/settings/plug-in.ts. Until replaced it edits the fallback pricing
// and redirect billing options with the forms kit, so nothing on the page is dead.
import { useTranslations } from "next-intl";
import { OptionNumber, OptionSwitch, SettingsSection, FieldGrid } from "@/components/forms";
import type { SettingsPlugInProps } from "@/components/settings/plug-in";

const KEYS = ["fallback_pricing_enabled", "fallback_single_price", "fallback_input_ratio", "fallback_completion_ratio", "redirect_billing_enabled"];

export function OtherRatiosSection(_props: SettingsPlugInProps) {
  const t = useTranslations("settings.operation.otherRatios");
  return (
    <SettingsSection title={t("title")} keys={KEYS}>
      <FieldGrid cols={2}>
        <OptionSwitch name="fallback_pricing_enabled" label="fallback_pricing_enabled" />
        <OptionSwitch name="redirect_billing_enabled" label="redirect_billing_enabled" />
      </FieldGrid>
      <FieldGrid>
        <OptionNumber name="fallback_single_price" label="fallback_single_price" step="any" />
        <OptionNumber name="fallback_input_ratio" label="fallback_input_ratio" step="any" />
        <OptionNumber name="fallback_completion_ratio" label="fallback_completion_ratio" step="any" />
      </FieldGrid>
    </SettingsSection>
  );
}
