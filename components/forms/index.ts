// The forms kit for option settings (docs/settings.md).
export {
  FieldGrid,
  OptionJson,
  OptionKeywords,
  OptionNumber,
  OptionQuota,
  OptionSecret,
  OptionSelect,
  OptionSwitch,
  OptionText,
  OptionTextarea,
} from "./fields";
export { OptionsProvider, useOptionAccess, useOptionsState, type OptionsState } from "./options-context";
export { SettingsSection, type SettingsSectionProps } from "./settings-section";
export { SettingsBody, SettingsFrame, useSettingsFrame } from "./settings-frame";
export { formValue, prettyJson, useOptionSection, type OptionSection, type OptionSectionConfig, type SectionSaveOutcome } from "./use-option-section";
export { fieldName, optionKey } from "./field-name";
export { useConfirm } from "./use-confirm";
export { FormDateTime, FormNumber, FormQuota, FormSelect, FormSwitch, FormText, FormTextarea } from "./form-fields";
export { firstRefusal, ruleMessage, ruleResolver, toastFirstError, useRuleForm } from "./rule-form";
export { QuotaInput, type QuotaInputProps } from "./quota-input";
