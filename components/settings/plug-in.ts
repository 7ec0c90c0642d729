// The props of a settings tab and of the operation tab's pricing blocks (docs/settings.md,
// "Tab components"):
// - options: every option the caller may read, as GET /api/option/ lists them (JSON as
//   stored, not pretty-printed; secrets as ""); a new object after each reload.
// - reload: fetches the options again, for a save that does not go through the forms kit
//   (the visual pricing editor, the preset actions); rejects when the refresh fails.
// They are rendered inside <OptionsProvider>, whose forms kit (components/forms) reads the
// same options, writable and secretsSet.
export type SettingsPlugInProps = {
  options: Record<string, string>;
  reload: () => Promise<void>;
};
