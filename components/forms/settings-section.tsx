"use client";
// A settings section: a card with its title and its fields (docs/settings.md). The fields
// inside are bound by option key to this section's form (useOptionSection); children may read
// the form with react-hook-form's useFormContext. The section registers with the page's
// frame (settings-frame.tsx), whose one save bar saves it when it has changed (as does the
// browser's submit by Enter in a lone field).
import type { OptionKey } from "@/lib/options/registry";
import { useId, useEffect, type ReactNode } from "react";
import { FormProvider } from "react-hook-form";
import { Card } from "@/components/ui/card";
import { useOptionsState } from "./options-context";
import { useSettingsFrame } from "./settings-frame";
import { useOptionSection, type OptionSectionConfig } from "./use-option-section";

export type SettingsSectionProps = OptionSectionConfig & {
  title: string;
  description?: ReactNode;
  /** the option keys this section edits and saves */
  keys: readonly OptionKey[];
  children: ReactNode;
  /** buttons under the fields (the test mail beside SMTP) */
  actions?: ReactNode;
};

export function SettingsSection({ title, description, keys, children, actions, ...config }: SettingsSectionProps) {
  const { options, secretsSet } = useOptionsState();
  const frame = useSettingsFrame();
  const section = useOptionSection(keys, options, config);
  const anchor = `settings-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  const visible = keys.some((k) => k in options || k in secretsSet);
  const dirty = section.form.formState.isDirty;
  const { put, remove } = frame;
  const { save, discard } = section;
  useEffect(() => {
    if (visible) put({ anchor, title, dirty }, { save, discard });
    else remove(anchor);
  }, [put, remove, anchor, title, dirty, visible, save, discard]);
  useEffect(() => () => remove(anchor), [remove, anchor]);
  if (!visible) return null;
  return (
    <FormProvider {...section.form}>
      <form
        id={anchor}
        noValidate
        className="scroll-mt-20"
        onSubmit={(e) => {
          e.preventDefault();
          void frame.saveAll();
        }}
      >
        <Card title={title}>
          {description && <p className="-mt-2 mb-4 text-sm text-zinc-500 dark:text-zinc-400">{description}</p>}
          <div className="flex flex-col gap-4">{children}</div>
          {actions && <div className="mt-5 flex flex-wrap items-center gap-2">{actions}</div>}
        </Card>
      </form>
    </FormProvider>
  );
}
