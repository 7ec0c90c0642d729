"use client";
// The operation tab (docs/settings.md): its sections in the order docs/settings.md lists them, each
// saving on its own. The two pricing blocks are plug-ins (components/settings/plug-in.ts).
import { useTranslations } from "next-intl";
import { FieldGrid, OptionJson, OptionKeywords, OptionNumber, OptionQuota, OptionSelect, OptionSwitch, OptionText, SettingsSection } from "@/components/forms";
import { QUOTA_CURRENCIES } from "@/lib/quota-display";
import type { SettingsPlugInProps } from "./plug-in";
import { labelKey } from "./labels";
import { LogCleanup } from "./log-cleanup";
import { ModelRatioBlock } from "./pricing/model-ratio-block";
import { OtherRatiosSection } from "./pricing/other-ratios-section";

export function useLabel() {
  const t = useTranslations("settings");
  return (key: string) => t(labelKey(key));
}

export function OperationTab({ options, reload }: SettingsPlugInProps) {
  const t = useTranslations("settings.operation");
  const L = useLabel();
  return (
    <div className="flex flex-col gap-5">
      <SettingsSection
        title={t("monitoring")}
        keys={[
          "AutomaticDisableChannelEnabled",
          "AutomaticEnableChannelEnabled",
          "ChannelDisableThreshold",
          "ChannelDisableFailureCount",
          "RetryTimes",
          "AutomaticDisableKeywords",
        ]}
      >
        <FieldGrid cols={2}>
          <OptionSwitch name="AutomaticDisableChannelEnabled" label={L("AutomaticDisableChannelEnabled")} hint={t("hints.autoDisable")} />
          <OptionSwitch name="AutomaticEnableChannelEnabled" label={L("AutomaticEnableChannelEnabled")} hint={t("hints.autoEnable")} />
        </FieldGrid>
        <FieldGrid cols={2}>
          <OptionNumber
            name="ChannelDisableThreshold"
            label={L("ChannelDisableThreshold")}
            hint={t("hints.threshold")}
            suffix={t("seconds")}
            min={1}
            step={1}
          />
          <OptionNumber
            name="ChannelDisableFailureCount"
            label={L("ChannelDisableFailureCount")}
            hint={t("hints.failureCount")}
            suffix={t("times")}
            min={1}
            step={1}
          />
          <OptionNumber name="RetryTimes" label={L("RetryTimes")} min={0} max={10} step={1} />
        </FieldGrid>
        <OptionKeywords name="AutomaticDisableKeywords" label={L("AutomaticDisableKeywords")} hint={t("hints.keywords")} />
      </SettingsSection>

      <SettingsSection title={t("checkIn")} keys={["CheckInEnabled", "CheckInQuota", "CheckInMaxQuota"]}>
        <OptionSwitch name="CheckInEnabled" label={L("CheckInEnabled")} />
        <FieldGrid cols={2}>
          <OptionQuota name="CheckInQuota" label={L("CheckInQuota")} />
          <OptionQuota name="CheckInMaxQuota" label={L("CheckInMaxQuota")} />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection title={t("quota")} keys={["QuotaForNewUser", "QuotaForInviter", "QuotaForInvitee", "QuotaRemindThreshold", "PreConsumedQuota"]}>
        <FieldGrid>
          <OptionQuota name="QuotaForNewUser" label={L("QuotaForNewUser")} />
          <OptionQuota name="QuotaForInviter" label={L("QuotaForInviter")} />
          <OptionQuota name="QuotaForInvitee" label={L("QuotaForInvitee")} />
          <OptionQuota name="QuotaRemindThreshold" label={L("QuotaRemindThreshold")} />
          <OptionQuota name="PreConsumedQuota" label={L("PreConsumedQuota")} />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection title={t("rebate")} keys={["RebateEnabled", "RebatePercentage", "AffEnabled"]}>
        <FieldGrid cols={2}>
          <OptionSwitch name="AffEnabled" label={L("AffEnabled")} hint={t("hints.aff")} />
          <OptionSwitch name="RebateEnabled" label={L("RebateEnabled")} />
        </FieldGrid>
        <FieldGrid cols={2}>
          <OptionNumber name="RebatePercentage" label={L("RebatePercentage")} suffix="%" />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection title={t("chats")} keys={["Chats", "TopUpLink", "general_setting.docs_link"]}>
        <OptionJson name="Chats" label={L("Chats")} hint={t("hints.chats")} rows={10} />
        <FieldGrid cols={2}>
          <OptionText name="TopUpLink" label={L("TopUpLink")} type="url" placeholder="https://" />
          <OptionText name="general_setting.docs_link" label={L("general_setting.docs_link")} type="url" placeholder="https://" />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection title={t("groupRatios")} keys={["GroupRatio", "UserUsableGroups"]}>
        <FieldGrid cols={2}>
          <OptionJson name="GroupRatio" label={L("GroupRatio")} hint={t("hints.groupRatio")} />
          <OptionJson name="UserUsableGroups" label={L("UserUsableGroups")} hint={t("hints.usableGroups")} />
        </FieldGrid>
      </SettingsSection>

      <OtherRatiosSection options={options} reload={reload} />
      <ModelRatioBlock options={options} reload={reload} />

      <SettingsSection
        title={t("general")}
        keys={[
          "QuotaPerUnit",
          "DisplayInCurrencyEnabled",
          "QuotaDisplayType",
          "USDExchangeRate",
          "CustomCurrencySymbol",
          "CustomCurrencyExchangeRate",
          "DisplayTokenStatEnabled",
          "DefaultCollapseSidebar",
          "DemoSiteEnabled",
          "SelfUseModeEnabled",
        ]}
      >
        <FieldGrid cols={2}>
          <OptionNumber name="QuotaPerUnit" label={L("QuotaPerUnit")} hint={t("hints.quotaPerUnit")} />
          <OptionSelect
            name="QuotaDisplayType"
            label={L("QuotaDisplayType")}
            hint={t("hints.quotaDisplayType")}
            choices={QUOTA_CURRENCIES.map((c) => ({ value: c, label: t(`quotaDisplayTypes.${c}`) }))}
          />
          <OptionNumber name="USDExchangeRate" label={L("USDExchangeRate")} hint={t("hints.usdExchangeRate")} />
          <OptionText name="CustomCurrencySymbol" label={L("CustomCurrencySymbol")} />
          <OptionNumber name="CustomCurrencyExchangeRate" label={L("CustomCurrencyExchangeRate")} hint={t("hints.customExchangeRate")} />
        </FieldGrid>
        <FieldGrid>
          <OptionSwitch name="DisplayInCurrencyEnabled" label={L("DisplayInCurrencyEnabled")} />
          <OptionSwitch name="DisplayTokenStatEnabled" label={L("DisplayTokenStatEnabled")} />
          <OptionSwitch name="DefaultCollapseSidebar" label={L("DefaultCollapseSidebar")} />
          <OptionSwitch name="DemoSiteEnabled" label={L("DemoSiteEnabled")} />
          <OptionSwitch name="SelfUseModeEnabled" label={L("SelfUseModeEnabled")} hint={t("hints.selfUse")} />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection
        title={t("drawing")}
        keys={[
          "DrawingEnabled",
          "TaskEnabled",
          "MjNotifyEnabled",
          "MjAccountFilterEnabled",
          "MjForwardUrlEnabled",
          "MjModeClearEnabled",
          "MjActionCheckSuccessEnabled",
        ]}
      >
        <FieldGrid>
          {[
            "DrawingEnabled",
            "TaskEnabled",
            "MjNotifyEnabled",
            "MjAccountFilterEnabled",
            "MjForwardUrlEnabled",
            "MjModeClearEnabled",
            "MjActionCheckSuccessEnabled",
          ].map((k) => (
            <OptionSwitch key={k} name={k} label={L(k)} />
          ))}
        </FieldGrid>
      </SettingsSection>

      <SettingsSection title={t("sensitive")} keys={["CheckSensitiveEnabled", "CheckSensitiveOnPromptEnabled", "SensitiveWords"]}>
        <FieldGrid cols={2}>
          <OptionSwitch name="CheckSensitiveEnabled" label={L("CheckSensitiveEnabled")} />
          <OptionSwitch name="CheckSensitiveOnPromptEnabled" label={L("CheckSensitiveOnPromptEnabled")} />
        </FieldGrid>
        <OptionKeywords name="SensitiveWords" label={L("SensitiveWords")} />
      </SettingsSection>

      <SettingsSection title={t("logs")} keys={["LogConsumeEnabled", "LogChatContentEnabled", "LogErrorEnabled", "LogRetentionDays", "AuditLogRetentionDays"]}>
        <FieldGrid>
          <OptionSwitch name="LogConsumeEnabled" label={L("LogConsumeEnabled")} />
          <OptionSwitch name="LogChatContentEnabled" label={L("LogChatContentEnabled")} />
          <OptionSwitch name="LogErrorEnabled" label={L("LogErrorEnabled")} />
        </FieldGrid>
        <FieldGrid cols={2}>
          <OptionNumber name="LogRetentionDays" label={L("LogRetentionDays")} min={0} step={1} />
          {/* the audit log's retention: the root's alone (docs/audit.md, "Retention") */}
          <OptionNumber name="AuditLogRetentionDays" label={L("AuditLogRetentionDays")} min={0} step={1} />
        </FieldGrid>
        <LogCleanup />
      </SettingsSection>

      <SettingsSection title={t("dashboard")} keys={["DataExportEnabled", "DataExportInterval", "DataExportDefaultTime", "StatusPageEnabled"]}>
        <OptionSwitch name="DataExportEnabled" label={L("DataExportEnabled")} />
        <OptionSwitch name="StatusPageEnabled" label={L("StatusPageEnabled")} />
        <FieldGrid cols={2}>
          <OptionNumber name="DataExportInterval" label={L("DataExportInterval")} suffix={t("minutes")} />
          <OptionSelect
            name="DataExportDefaultTime"
            label={L("DataExportDefaultTime")}
            choices={(["hour", "day", "week"] as const).map((v) => ({ value: v, label: t(`granularity.${v}`) }))}
          />
        </FieldGrid>
      </SettingsSection>
    </div>
  );
}
