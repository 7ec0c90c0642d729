"use client";
// A settings section: a card with its title, its fields and its own Save button
// (docs/settings.md). The fields inside are bound by option key to this section's form
// (useOptionSection); children may read the form with react-hook-form's useFormContext.
import { useTranslations } from "next-intl";
import type { OptionKey } from "@/lib/options/registry";
import type { ReactNode } from "react";
import { FormProvider } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useOptionsState } from "./options-context";
import { useOptionSection, type OptionSectionConfig } from "./use-option-section";

export type SettingsSectionProps = OptionSectionConfig & {
  title: ReactNode;
  description?: ReactNode;
  /** the option keys this section edits and saves */
  keys: readonly OptionKey[];
  children: ReactNode;
  /** more buttons beside Save */
  actions?: ReactNode;
  /** the save button's text (default 保存…设置) */
  saveLabel?: ReactNode;
  id?: string;
};

export function SettingsSection({ title, description, keys, children, actions, saveLabel, id, ...config }: SettingsSectionProps) {
  const t = useTranslations("settingsKit");
  const { options, secretsSet, writable } = useOptionsState();
  const section = useOptionSection(keys, options, config);
  const visible = keys.filter((k) => k in options || k in secretsSet);
  if (visible.length === 0) return null;
  const canSave = visible.some((k) => writable[k]);
  return (
    <FormProvider {...section.form}>
      <form
        id={id}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void section.save();
        }}
      >
        <Card title={title}>
          {description && <p className="-mt-2 mb-4 text-sm text-zinc-500 dark:text-zinc-400">{description}</p>}
          <div className="flex flex-col gap-4">{children}</div>
          <div className="mt-5 flex flex-wrap items-center gap-2">
            <Button type="submit" disabled={section.saving || !canSave}>
              {saveLabel ?? t("save")}
            </Button>
            {actions}
          </div>
        </Card>
      </form>
    </FormProvider>
  );
}
