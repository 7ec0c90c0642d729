// The contract of the components other parts plug into the settings page
// (docs/settings.md, "Plug-in components"): the pricing blocks of the operation tab
// (components/settings/pricing/) and the models tab (components/settings/models/).
// - options: every option the caller may read, as GET /api/option/ lists them (JSON as
//   stored, not pretty-printed; secrets as ""); a new object after each reload.
// - reload: fetches the options again (after a save); rejects when the refresh fails.
// They are rendered inside <OptionsProvider>, so they may also use the forms kit
// (components/forms: SettingsSection, useOptionSection, the Option* fields), which reads
// writable/secretsSet from it.
export type SettingsPlugInProps = {
  options: Record<string, string>;
  reload: () => Promise<void>;
};
