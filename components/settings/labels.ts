// Option labels live under settings.labels in messages/*.json, keyed by the option key with
// its dots replaced (next-intl reads dots as nesting).
export const labelKey = (optionKey: string) => `labels.${optionKey.replace(/\./g, "_")}`;
