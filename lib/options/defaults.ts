// Every option with its default value (docs/product-rules.md, "Options"), from the entries of
// lib/options/registry.ts, the price tables filled in from the built-in preset. An option is
// a key with a string value; booleans are "true"/"false", JSON options are JSON text. The
// database holds only what an admin has changed; everything else reads from here.
import "server-only";

import { PRESET_RATIOS } from "@/lib/options/presets/ratios";
import { PRICE_MAP_KEYS } from "@/lib/options/pricing-math";
import { OPTION_KEYS, optionSpec, type OptionKey } from "@/lib/options/registry";

function defaultOf(key: OptionKey): string {
  const d = optionSpec(key).default;
  if (typeof d === "string") return d;
  const table = PRICE_MAP_KEYS.find((k) => k === key);
  if (table) return JSON.stringify(PRESET_RATIOS[table]);
  throw new Error(`option ${key}: a preset default names no preset table`);
}

export const OPTION_DEFAULTS: Readonly<Record<OptionKey, string>> = Object.fromEntries(OPTION_KEYS.map((k) => [k, defaultOf(k)])) as Record<OptionKey, string>;
