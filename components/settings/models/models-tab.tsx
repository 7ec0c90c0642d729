"use client";
// The Models tab (docs/options.md, "Global", "Gemini", "Claude"): three sections saved with
// the settings kit, their bounds from the shared option rules (Gemini thinking share 0.002
// to 1, Claude 0.1 to 1, auto-retry count 1 to 10, ping interval at least 1 s), the exempt
// groups picked from GET /api/group/; then the model mapping table.
import type { OptionKey } from "@/lib/options/registry";
import { useTranslations } from "next-intl";
import useSWR from "swr";
import { FieldGrid, OptionJson, OptionNumber, OptionSelect, OptionSwitch, OptionText, SettingsSection } from "@/components/forms";
import { api } from "@/lib/client/api";
import { ModelMappingTable } from "./model-mapping";

const GLOBAL: OptionKey[] = [
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
const GEMINI: OptionKey[] = [
  "gemini.safety_settings",
  "gemini.version_settings",
  "gemini.supported_imagine_models",
  "gemini.thinking_adapter_enabled",
  "gemini.thinking_adapter_budget_tokens_percentage",
  "gemini.models_supported_thinking_budget",
];
const CLAUDE: OptionKey[] = [
  "claude.model_headers_settings",
  "claude.default_max_tokens",
  "claude.thinking_adapter_enabled",
  "claude.thinking_adapter_budget_tokens_percentage",
];

/**
 * The exempt-group choices: the groups with a ratio. The defaults name example groups
 * (bulk-ok, nsfw-ok) that a new site does not have; such a saved value is shown as "no group
 * chosen", not as a preselected choice (docs/settings.md, "The page").
 */
function groupChoices(groups: string[] | undefined): { value: string; label: string }[] {
  return [...(groups ?? [])].sort().map((g) => ({ value: g, label: g }));
}

export function ModelsTab() {
  const t = useTranslations("modelsTab");
  const groups = useSWR("/api/group/", (path: string) => api.get<string[]>(path, { quiet: true }).then((r) => r.data), { revalidateOnFocus: false });
  return (
    <div className="flex flex-col gap-5">
      <SettingsSection title={t("global")} keys={GLOBAL}>
        <FieldGrid cols={2}>
          <OptionSwitch name="global.pass_through_request_enabled" label={t("passThrough")} hint={t("passThroughHint")} />
          <OptionSwitch name="global.hide_upstream_error_enabled" label={t("hideUpstreamError")} hint={t("hideUpstreamErrorHint")} />
          <OptionSwitch name="global.block_browser_extension_enabled" label={t("blockBrowserExtension")} hint={t("blockBrowserExtensionHint")} />
        </FieldGrid>
        <FieldGrid cols={2}>
          <div className="flex flex-col gap-3">
            <OptionSwitch name="global.rate_limit_exempt_enabled" label={t("rateLimitExempt")} hint={t("rateLimitExemptHint")} />
            <OptionSelect
              name="global.rate_limit_exempt_group"
              label={t("exemptGroup")}
              choices={groupChoices(groups.data)}
              unlisted={(group) => t("noGroupChosen", { group })}
            />
          </div>
          <div className="flex flex-col gap-3">
            <OptionSwitch name="global.safe_check_exempt_enabled" label={t("safeCheckExempt")} hint={t("safeCheckExemptHint")} />
            <OptionSelect
              name="global.safe_check_exempt_group"
              label={t("exemptGroup")}
              choices={groupChoices(groups.data)}
              unlisted={(group) => t("noGroupChosen", { group })}
            />
          </div>
        </FieldGrid>
        <FieldGrid cols={2}>
          <OptionSwitch name="global.auto_retry_enabled" label={t("autoRetry")} hint={t("autoRetryHint")} />
          <OptionSwitch name="global.auto_retry_force_channel_switch" label={t("forceChannelSwitch")} />
        </FieldGrid>
        <FieldGrid cols={2}>
          <OptionNumber name="global.auto_retry_count" label={t("autoRetryCount")} hint={t("autoRetryCountHint")} />
          <OptionText name="global.auto_retry_status_codes" label={t("autoRetryStatusCodes")} hint={t("autoRetryStatusCodesHint")} />
        </FieldGrid>
        <FieldGrid cols={2}>
          <OptionSwitch name="general_setting.ping_interval_enabled" label={t("pingEnabled")} hint={t("pingEnabledHint")} />
          <OptionNumber name="general_setting.ping_interval_seconds" label={t("pingSeconds")} suffix={t("seconds")} />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection title={t("gemini")} keys={GEMINI}>
        <FieldGrid cols={2}>
          <OptionSwitch name="gemini.thinking_adapter_enabled" label={t("thinkingAdapter")} hint={t("geminiThinkingHint")} />
          <OptionNumber name="gemini.thinking_adapter_budget_tokens_percentage" label={t("thinkingShare")} hint={t("geminiShareHint")} />
        </FieldGrid>
        <FieldGrid cols={2}>
          <OptionJson name="gemini.safety_settings" label={t("geminiSafety")} rows={5} />
          <OptionJson name="gemini.version_settings" label={t("geminiVersion")} rows={5} />
          <OptionJson name="gemini.supported_imagine_models" label={t("geminiImagine")} rows={5} />
          <OptionJson name="gemini.models_supported_thinking_budget" label={t("geminiThinkingModels")} rows={5} />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection title={t("claude")} keys={CLAUDE}>
        <FieldGrid cols={2}>
          <OptionSwitch name="claude.thinking_adapter_enabled" label={t("thinkingAdapter")} hint={t("claudeThinkingHint")} />
          <OptionNumber name="claude.thinking_adapter_budget_tokens_percentage" label={t("thinkingShare")} hint={t("claudeShareHint")} />
        </FieldGrid>
        <FieldGrid cols={2}>
          <OptionJson name="claude.model_headers_settings" label={t("claudeHeaders")} rows={6} />
          <OptionJson name="claude.default_max_tokens" label={t("claudeMaxTokens")} rows={6} />
        </FieldGrid>
      </SettingsSection>

      <ModelMappingTable />
    </div>
  );
}
