// The zod schema of a settings section, built from the shared option rules
// (lib/options/rules.ts) so that the form refuses what the server refuses, with the same
// message in the person's language (lib/i18n/server-messages.ts).
import { z } from "zod";
import type { OptionKey } from "@/lib/options/registry";
import { say, type ServerCatalogue } from "@/lib/i18n/render";
import { checkOptionCombination, checkOptionValue, fallbackStateValid, FALLBACK_VALUES, SECRET_OPTION_KEYS } from "@/lib/options/rules";
import { fieldName } from "./field-name";
import { dict } from "@/lib/own-keys";

export function optionSectionSchema(keys: readonly OptionKey[], catalogue: ServerCatalogue, loaded: Record<string, string>) {
  const shape = dict<z.ZodType<string>>();
  for (const key of keys) {
    shape[fieldName(key)] = z.string().superRefine((value, ctx) => {
      if (SECRET_OPTION_KEYS.has(key) && value === "") return; // left empty: not sent
      // a value the form did not change is not checked again (it is what the server holds)
      if (value === (loaded[key] ?? "")) return;
      const check = checkOptionValue(key, value);
      if (!check.ok) ctx.addIssue({ code: "custom", message: say(catalogue, check.key, check.params) });
    });
  }
  return z.object(shape).superRefine((values, ctx) => {
    const state = (k: OptionKey) => (keys.includes(k) ? values[fieldName(k)] : (loaded[k] ?? ""));
    for (const key of keys) {
      if (values[fieldName(key)] === (loaded[key] ?? "")) continue;
      const refusal = checkOptionCombination(key, values[fieldName(key)], state);
      if (refusal && !refusal.ok) {
        const target = key === "RebateEnabled" && keys.includes("RebatePercentage") ? "RebatePercentage" : key;
        ctx.addIssue({ code: "custom", path: [fieldName(target)], message: say(catalogue, refusal.key, refusal.params) });
      }
    }
    // The fallback section is checked as a whole: the keys are saved separately, so a
    // combination the server would refuse halfway is refused here first.
    if (keys.includes("fallback_pricing_enabled") && FALLBACK_VALUES.every((k) => keys.includes(k)) && !fallbackStateValid(state)) {
      ctx.addIssue({ code: "custom", path: [fieldName("fallback_pricing_enabled")], message: say(catalogue, "fallback_pricing_combination") });
    }
  });
}
