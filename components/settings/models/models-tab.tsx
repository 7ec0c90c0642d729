"use client";
// PLACEHOLDER owned by the pricing-models branch, which replaces this file: the models tab
// (global, Gemini and Claude settings, the model mapping table). Contract:
// components/settings/plug-in.ts. Until replaced it edits the global, Gemini and Claude
// options with the forms kit.
import { useTranslations } from "next-intl";
import { FieldGrid, OptionJson, OptionNumber, OptionSwitch, OptionText, SettingsSection } from "@/components/forms";
import type { SettingsPlugInProps } from "@/components/settings/plug-in";

const GLOBAL = [
  "global.pass_through_request_enabled",
  "global.hide_upstream_error_enabled",
  "global.block_browser_extension_enabled",
  "global.rate_limit_exempt_enabled",
  "global.rate_limit_exempt_group",
  "global.safe_check_exempt_enabled",
  "global.safe_check_exempt_group",
  "global.auto_retry_enabled",
  "global.auto_retry_count",
  "global.auto_retry_force_channel_switch",
  "global.auto_retry_status_codes",
  "general_setting.ping_interval_enabled",
  "general_setting.ping_interval_seconds",
];
const GEMINI = [
  "gemini.safety_settings",
  "gemini.version_settings",
  "gemini.supported_imagine_models",
  "gemini.thinking_adapter_enabled",
  "gemini.thinking_adapter_budget_tokens_percentage",
  "gemini.models_supported_thinking_budget",
];
const CLAUDE = [
  "claude.model_headers_settings",
  "claude.default_max_tokens",
  "claude.thinking_adapter_enabled",
  "claude.thinking_adapter_budget_tokens_percentage",
];

const isSwitch = (k: string) => k.endsWith("_enabled") || k.endsWith("force_channel_switch");

export function ModelsTab(_props: SettingsPlugInProps) {
  const t = useTranslations("settings.models");
  return (
    <div className="flex flex-col gap-5">
      <SettingsSection title={t("global")} keys={GLOBAL}>
        <FieldGrid>
          {GLOBAL.map((k) =>
            isSwitch(k) ? (
              <OptionSwitch key={k} name={k} label={k} />
            ) : k.endsWith("_count") || k.endsWith("_seconds") ? (
              <OptionNumber key={k} name={k} label={k} />
            ) : (
              <OptionText key={k} name={k} label={k} />
            ),
          )}
        </FieldGrid>
      </SettingsSection>
      {[
        { title: t("gemini"), keys: GEMINI },
        { title: t("claude"), keys: CLAUDE },
      ].map((s) => (
        <SettingsSection key={s.keys[0]} title={s.title} keys={s.keys}>
          <FieldGrid cols={2}>
            {s.keys.map((k) =>
              k.endsWith("_enabled") ? (
                <OptionSwitch key={k} name={k} label={k} />
              ) : k.endsWith("_percentage") ? (
                <OptionNumber key={k} name={k} label={k} />
              ) : (
                <OptionJson key={k} name={k} label={k} rows={6} />
              ),
            )}
          </FieldGrid>
        </SettingsSection>
      ))}
    </div>
  );
}
