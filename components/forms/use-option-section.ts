"use client";
// One settings section's form (docs/settings.md, "Saving"): a react-hook-form over the
// section's option keys with the shared rules as its zod schema; saving sends only the
// changed keys through lib/client/save-options.ts. The page's save bar (settings-frame.tsx)
// reports the outcome with the messages of docs/settings.md, then reloads the options.
import { zodResolver } from "@hookform/resolvers/zod";
import type { OptionKey } from "@/lib/options/registry";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useForm, type Resolver, type UseFormReturn } from "react-hook-form";
import { changedOptions, saveOptions, unsavedValues, type OptionChange, type SaveResult } from "@/lib/client/save-options";
import { isJsonOption, SECRET_OPTION_KEYS } from "@/lib/options/rules";
import { fieldName, optionKey } from "./field-name";
import { useOptionsState } from "./options-context";
import { optionSectionSchema } from "./option-schema";
import { putOption } from "./put-option";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";
import { dict } from "@/lib/own-keys";

export type OptionSectionConfig = {
  /** asked with the changes before anything is sent; false cancels the save */
  beforeSave?: (changes: OptionChange[]) => boolean | Promise<boolean>;
  /** called after a save that sent something */
  afterSave?: (result: SaveResult) => void;
};

/**
 * What a section's save came to: the keys' outcome, `null` when nothing was sent (nothing
 * changed, or `beforeSave` said no), "invalid" when a field's check failed.
 */
export type SectionSaveOutcome = SaveResult | null | "invalid";

export type OptionSection = {
  form: UseFormReturn<Record<string, string>>;
  keys: readonly OptionKey[];
  /** the loaded values as the form shows them (JSON pretty-printed, secrets empty) */
  baseline: Record<string, string>;
  /**
   * Sends the changed keys. The settings page's save bar (settings-frame.tsx) saves every
   * changed section this way, then reports once and reloads the options once for all.
   */
  save: () => Promise<SectionSaveOutcome>;
  /** the fields back to the loaded values */
  discard: () => void;
  saving: boolean;
};

/** JSON options are edited pretty-printed (two spaces); text that does not parse is shown as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A value as the form shows it on load. */
export function formValue(key: string, options: Record<string, string>): string {
  if (SECRET_OPTION_KEYS.has(key)) return "";
  const raw = options[key] ?? "";
  return isJsonOption(key) ? prettyJson(raw) : raw;
}

export function useOptionSection(keys: readonly OptionKey[], options: Record<string, string>, config: OptionSectionConfig = {}): OptionSection {
  const { writable } = useOptionsState();
  const catalogue = useServerCatalogue();
  const keysId = keys.join("\n");
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the keys' text, callers pass a fresh array each render
  const stableKeys = useMemo(() => keys, [keysId]);
  // Keyed on this section's values only: a save elsewhere reloads the options without
  // resetting what is being typed here.
  const signature = stableKeys.map((k) => `${k}\u0000${options[k] ?? ""}`).join("\u0001");
  const baseline = useMemo(() => {
    const b = dict<string>();
    for (const key of stableKeys) b[key] = formValue(key, options);
    return b;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- options are read through the signature
  }, [stableKeys, signature]);
  const defaults = useMemo(() => {
    return Object.fromEntries(stableKeys.map((key) => [fieldName(key), baseline[key]]));
  }, [stableKeys, baseline]);
  const schema = useMemo(() => optionSectionSchema(stableKeys, catalogue, baseline), [stableKeys, catalogue, baseline]);
  const form = useForm<Record<string, string>>({
    resolver: zodResolver(schema) as unknown as Resolver<Record<string, string>>,
    defaultValues: defaults,
    mode: "onChange",
  });
  const { reset, setValue } = form;
  // the typed values of the keys the last save did not store (unsavedValues), read by the reset below
  const keptRef = useRef<Record<string, string>>({});
  // the options were (re)loaded: the form starts again from them, except the fields whose
  // save failed, which keep what was typed
  useEffect(() => {
    reset(defaults);
    for (const [key, value] of Object.entries(keptRef.current)) setValue(fieldName(key), value, { shouldDirty: true, shouldValidate: true });
    keptRef.current = {};
  }, [reset, setValue, defaults]);
  const [saving, setSaving] = useState(false);
  const { beforeSave, afterSave } = config;

  const submit = useCallback(
    async (values: Record<string, string>): Promise<SaveResult | null> => {
      const byKey = dict<string>();
      for (const [name, value] of Object.entries(values)) if (writable[optionKey(name)]) byKey[optionKey(name)] = value;
      const changes = changedOptions(baseline, byKey, SECRET_OPTION_KEYS);
      if (changes.length === 0) return null;
      if (beforeSave && !(await beforeSave(changes))) return null;
      setSaving(true);
      try {
        keptRef.current = {};
        const result = await saveOptions(changes, putOption);
        keptRef.current = unsavedValues(result, byKey);
        // a saved secret is not shown again: its field empties (the badge now says "set")
        for (const key of result.succeeded) if (SECRET_OPTION_KEYS.has(key)) form.resetField(fieldName(key), { defaultValue: "" });
        afterSave?.(result);
        return result;
      } finally {
        setSaving(false);
      }
    },
    [baseline, writable, beforeSave, afterSave, form],
  );

  const save = useCallback(async (): Promise<SectionSaveOutcome> => {
    let outcome: SectionSaveOutcome = "invalid";
    await form.handleSubmit(async (values) => {
      outcome = await submit(values);
    })();
    return outcome;
  }, [form, submit]);
  const discard = useCallback(() => reset(defaults), [reset, defaults]);
  return { form, keys: stableKeys, baseline, save, discard, saving };
}
