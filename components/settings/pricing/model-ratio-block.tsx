"use client";
// PLACEHOLDER owned by the pricing-models branch, which replaces this file: the operation
// tab's model ratio block (raw JSON editors, visual editor, unset-model list).
// Contract: components/settings/plug-in.ts. Until replaced it shows the four raw JSON
// editors through the forms kit.
import { useTranslations } from "next-intl";
import { OptionJson, SettingsSection } from "@/components/forms";
import type { SettingsPlugInProps } from "@/components/settings/plug-in";

const KEYS = ["ModelPrice", "ModelRatio", "CompletionRatio", "CacheRatio"];

export function ModelRatioBlock(_props: SettingsPlugInProps) {
  const t = useTranslations("settings.operation.modelRatio");
  return (
    <SettingsSection title={t("title")} keys={KEYS}>
      {KEYS.map((k) => (
        <OptionJson key={k} name={k} label={k} rows={10} />
      ))}
    </SettingsSection>
  );
}
