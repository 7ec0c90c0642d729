// Server-side validation of option values (docs/product-rules.md, "Options"; docs/settings.md).
// Each key's rule is its entry in lib/options/registry.ts, applied by lib/options/rules.ts
// (shared with the settings forms so that both give the same message); this file adds what
// needs the server: the other options' current values. validateOption returns the value to
// store (some keys are normalized) or a refusal with a message key.
import "server-only";
import { checkOptionCombination, checkOptionValue, PAYMENT_KEYS, type OptionCheck } from "@/lib/options/rules";
import type { OptionKey } from "@/lib/options/registry";

export type { OptionCheck };

export function validateOption(key: OptionKey, rawValue: string, current: (k: OptionKey) => string): OptionCheck {
  const check = checkOptionValue(key, rawValue);
  if (!check.ok) return check;
  // Payment callbacks are built on the server address: payment settings wait for it.
  if (PAYMENT_KEYS.has(key) && current("ServerAddress").trim() === "") return { ok: false, key: "option_payment_needs_server_address" };
  const state = (k: OptionKey) => (k === key ? check.value : current(k));
  const combination = checkOptionCombination(key, check.value, state);
  if (combination) return combination;
  return check;
}
