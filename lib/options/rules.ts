// The option rules both sides apply (docs/settings.md): the server refuses with them
// (lib/options/validate.ts) and the settings forms check with them before sending, so the
// person sees the same message either way. Each key's rule is its entry in
// lib/options/registry.ts. Pure and free of "server-only": the browser
// loads this module. A refusal names a message of lib/i18n/server-messages.ts.
import type { MessageKey, MessageParams } from "@/lib/i18n/server-messages";
import { checkMapping } from "@/lib/model-mapping/schema";
import { checkGroupLimits } from "@/lib/options/group-limits";
import { isOptionKey, optionKeysWhere, optionSpec, type OptionKey, type OptionRule } from "@/lib/options/registry";

export type OptionCheck = { ok: true; value: string } | { ok: false; key: MessageKey; params?: MessageParams };

// The derived tables (lib/options/registry.ts holds the entries).
export const SECRET_OPTION_KEYS: ReadonlySet<string> = new Set(optionKeysWhere((s) => s.secret === true));
// Payment settings are refused until ServerAddress is set (the callbacks need it).
export const PAYMENT_KEYS: ReadonlySet<string> = new Set(optionKeysWhere((s) => s.payment === true));
// Addresses that lose their trailing slashes before they are stored.
export const TRIM_SLASH: ReadonlySet<string> = new Set(optionKeysWhere((s) => s.rule.kind === "url" && s.rule.trimSlash === true));
export const FALLBACK_VALUES: readonly OptionKey[] = optionKeysWhere((s) => s.rule.kind === "fallback-value");

/** Registered JSON options (shown pretty-printed by the forms). */
export const isJsonOption = (key: string) => isOptionKey(key) && optionSpec(key).rule.kind === "json";
type NumberRule = Extract<OptionRule, { kind: "number" }>;
type JsonRule = Extract<OptionRule, { kind: "json" }>;

/** A numeric option's bounds (the forms' number inputs), or undefined for another key. */
export function numberRule(key: string): NumberRule | undefined {
  if (!isOptionKey(key)) return undefined;
  const rule = optionSpec(key).rule;
  return rule.kind === "number" ? rule : undefined;
}

const ok = (value: string): OptionCheck => ({ ok: true, value });
const no = (key: MessageKey, params?: MessageParams): OptionCheck => ({ ok: false, key, params });

function checkNumber(key: OptionKey, r: NumberRule, value: string): OptionCheck {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) return no("option_not_number", { key });
  if (r.int && !Number.isInteger(n)) return no("option_not_integer", { key });
  if (r.decimals !== undefined && Number(n.toFixed(r.decimals)) !== n) return no("option_too_many_decimals", { key, decimals: r.decimals });
  if (n < r.min || (r.max !== undefined && n > r.max)) {
    if (key === "RebatePercentage") return no("option_rebate_range");
    return r.max === undefined ? no("option_below_min", { key, min: r.min }) : no("option_out_of_range", { key, min: r.min, max: r.max });
  }
  return ok(value.trim());
}

function checkJson(key: OptionKey, r: JsonRule, value: string): OptionCheck {
  const invalid = () => (key === "TopupGroupRatio" ? no("option_topup_group_ratio_json") : no("option_invalid_json", { key }));
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return invalid();
  }
  const isObject = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
  if (r.shape === "array" ? !Array.isArray(parsed) : !isObject) return invalid();
  if (r.shape === "number-map") {
    for (const v of Object.values(parsed as Record<string, unknown>)) {
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0) return no("option_ratio_invalid", { key });
    }
  }
  return ok(value);
}

// model_mapping: the same rules as PUT /api/model_mapping/ (lib/model-mapping/schema.ts),
// stored in its normalized form.
function checkMappingOption(value: string): OptionCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return no("option_invalid_json", { key: "model_mapping" });
  }
  const m = checkMapping(parsed);
  if (!m.ok) return no(m.key as MessageKey, m.params);
  return ok(JSON.stringify(m.mapping));
}

// A hostname: labels of letters, digits and inner hyphens, at least one dot, a letter TLD.
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** The e-mail domain whitelist: comma-joined hostnames without duplicates; stored trimmed and joined by ",". */
export function checkDomainWhitelist(value: string): OptionCheck {
  const seen = new Set<string>();
  const domains = value
    .split(",")
    .map((d) => d.trim())
    .filter((d) => d !== "");
  for (const d of domains) {
    if (!HOSTNAME.test(d)) return no("option_domain_invalid", { host: d });
    const lower = d.toLowerCase();
    if (seen.has(lower)) return no("option_domain_duplicate", { host: d });
    seen.add(lower);
  }
  return ok(domains.join(","));
}

/** One domain about to be added to the whitelist `list` (the form's add button). */
export function checkDomainToAdd(list: string, domain: string): OptionCheck {
  const d = domain.trim();
  if (!HOSTNAME.test(d)) return no("option_domain_invalid", { host: d });
  if (list.split(",").some((x) => x.trim().toLowerCase() === d.toLowerCase())) return no("option_domain_duplicate", { host: d });
  return ok(d);
}

export const HTTP_URL = /^https?:\/\/\S+$/i;

// The statuses auto-retry covers: comma-separated codes (429) or classes (5xx), exactly what
// the relay matches (lib/relay/handler.ts, retryable). Empty parts are ignored there too.
const RETRY_STATUS = /^[1-5](?:[0-9]{2}|xx)$/;
export function checkRetryStatusCodes(value: string): OptionCheck {
  const parts = value
    .split(",")
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== "");
  for (const p of parts) if (!RETRY_STATUS.test(p)) return no("option_retry_status_codes", { code: p });
  return ok(parts.join(","));
}

/**
 * The rule of the key's registry entry, on one value alone. Returns the value to store (some
 * keys are normalized) or a refusal.
 */
export function checkOptionValue(key: OptionKey, value: string): OptionCheck {
  const rule = optionSpec(key).rule;
  switch (rule.kind) {
    case "text":
      return ok(value);
    case "bool":
      return value === "true" || value === "false" ? ok(value) : no("option_not_boolean", { key });
    case "number":
      return checkNumber(key, rule, value);
    case "enum":
      return rule.values.includes(value) ? ok(value) : no("option_not_in_list", { key, list: rule.values.join(", ") });
    case "json":
      return checkJson(key, rule, value);
    case "url": {
      const v = rule.trimSlash ? value.trim().replace(/\/+$/, "") : value.trim();
      return v && !HTTP_URL.test(v) ? no("option_invalid_url", { key }) : ok(v);
    }
    case "well-known": {
      const v = value.trim();
      return v && !HTTP_URL.test(v) ? no("option_well_known_url") : ok(v);
    }
    case "domain-whitelist":
      return checkDomainWhitelist(value);
    case "retry-status-codes":
      return checkRetryStatusCodes(value);
    case "fallback-value": {
      if (value.trim() === "") return ok(value);
      const n = Number(value);
      return Number.isFinite(n) && n > 0 ? ok(value.trim()) : no("option_not_positive", { key });
    }
    case "model-mapping":
      return checkMappingOption(value);
    case "group-limits": {
      const c = checkGroupLimits(value);
      return c.ok ? ok(c.value) : no(c.key, c.params);
    }
  }
}

/**
 * The rules that combine keys, checked on the state a change would produce: `state(k)` is
 * the value of k after the change. Returns a refusal or null.
 * - Fallback pricing: either a single price alone, or both ratios and no price, whenever
 *   fallback pricing is (or becomes) enabled; every change to the four keys that would leave
 *   an enabled but incomplete state is refused (billing would ignore it: lib/billing/pricing.ts).
 *   To switch forms a client turns the switch off, changes the values, and turns it on last
 *   (docs/pricing.md, "Saving combined keys"; lib/client/save-options.ts does it).
 * - Rebate: the percentage must be 0 to 100 when rebate is enabled.
 */
export function checkOptionCombination(key: OptionKey, value: string, state: (k: OptionKey) => string): OptionCheck | null {
  if (key === "RebateEnabled" && value === "true") {
    const n = Number(state("RebatePercentage"));
    if (!Number.isFinite(n) || n < 0 || n > 100) return no("option_rebate_range");
  }
  if (key !== "fallback_pricing_enabled" && !FALLBACK_VALUES.includes(key)) return null;
  return fallbackStateValid(state) ? null : no("fallback_pricing_combination");
}

/** Whether a fallback-pricing state is complete (the form checks the whole section at once). */
export function fallbackStateValid(state: (k: OptionKey) => string): boolean {
  if (state("fallback_pricing_enabled").trim() !== "true") return true;
  const price = state("fallback_single_price").trim() !== "";
  const input = state("fallback_input_ratio").trim() !== "";
  const completion = state("fallback_completion_ratio").trim() !== "";
  return (price && !input && !completion) || (!price && input && completion);
}
