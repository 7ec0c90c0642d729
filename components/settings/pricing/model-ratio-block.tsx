"use client";
// The operation tab's model ratio block (docs/pricing.md, "The visual editor"): three
// sub-tabs, the raw JSON editors of ModelPrice, ModelRatio, CompletionRatio, CacheRatio and the
// prompt-cache writes' CreateCacheRatio and CreateCache1hRatio
// (pretty-printed, saved with the settings kit, 不是合法的 JSON 字符串 for text that does not
// parse), the visual editor, and the unset-model list.
import type { OptionKey } from "@/lib/options/registry";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { OptionJson, SettingsSection } from "@/components/forms";
import type { SettingsPlugInProps } from "@/components/settings/plug-in";
import { Tabs } from "@/components/ui/tabs";
import { PRICE_MAP_KEYS, mapsFromOptions } from "@/lib/client/model-pricing";
import { UnsetModels } from "./unset-models";
import { VisualEditor } from "./visual-editor";

const JSON_KEYS: OptionKey[] = ["ModelPrice", "ModelRatio", "CompletionRatio", "CacheRatio", "CreateCacheRatio", "CreateCache1hRatio"];

export function ModelRatioBlock({ options, reload }: SettingsPlugInProps) {
  const t = useTranslations("pricingEditor");
  const version = PRICE_MAP_KEYS.map((k) => options[k] ?? "").join("\u0000");
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the price options' text
  const base = useMemo(() => mapsFromOptions(options), [version]);
  return (
    <section className="flex flex-col gap-3" aria-labelledby="model-ratio-title">
      <h2 id="model-ratio-title" className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
        {t("blockTitle")}
      </h2>
      <Tabs
        defaultValue="visual"
        items={[
          {
            value: "json",
            label: t("tabs.json"),
            content: (
              <SettingsSection title={t("tabs.json")} description={t("jsonHint")} keys={JSON_KEYS}>
                {JSON_KEYS.map((k) => (
                  <OptionJson key={k} name={k} label={t(`jsonLabels.${k}`)} rows={12} />
                ))}
              </SettingsSection>
            ),
          },
          { value: "visual", label: t("tabs.visual"), content: <VisualEditor base={base} reload={reload} /> },
          { value: "unset", label: t("tabs.unset"), content: <UnsetModels version={version} reload={reload} /> },
        ]}
      />
    </section>
  );
}
