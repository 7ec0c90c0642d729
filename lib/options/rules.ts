// The option rules both sides apply (docs/settings.md): the server refuses with them
// (lib/options/validate.ts) and the settings forms check with them before sending, so the
// person sees the same message either way. Pure and free of "server-only": the browser
// loads this module. A refusal names a message of lib/i18n/server-messages.ts.
import type { MessageKey, MessageParams } from "@/lib/i18n/server-messages";

export type OptionCheck = { ok: true; value: string } | { ok: false; key: MessageKey; params?: MessageParams };

export const JSON_OBJECT_KEYS = new Set([
  "GroupRatio",
  "UserUsableGroups",
  "ModelPrice",
  "ModelRatio",
  "CacheRatio",
  "CompletionRatio",
  "TopupGroupRatio",
  "gemini.safety_settings",
  "gemini.version_settings",
  "claude.model_headers_settings",
  "claude.default_max_tokens",
  "model_mapping",
]);
export const JSON_ARRAY_KEYS = new Set(["Chats", "gemini.supported_imagine_models", "gemini.models_supported_thinking_budget"]);
// Maps whose every value must be a non-negative number.
export const NUMBER_MAP_KEYS = new Set(["GroupRatio", "ModelPrice", "ModelRatio", "CacheRatio", "CompletionRatio", "TopupGroupRatio"]);

export const isJsonOption = (key: string) => JSON_OBJECT_KEYS.has(key) || JSON_ARRAY_KEYS.has(key);

// Number ranges (inclusive) and whether an integer is required. Quota amounts end up in
// 64-bit columns and JSON numbers: at most the largest safe integer (docs/channels-tokens-billing.md).
const QUOTA_MAX = Number.MAX_SAFE_INTEGER;
export type NumberRange = { min: number; max?: number; int: boolean };
export const RANGES: Record<string, NumberRange> = {
  QuotaForNewUser: { min: 0, max: QUOTA_MAX, int: true },
  QuotaForInviter: { min: 0, max: QUOTA_MAX, int: true },
  QuotaForInvitee: { min: 0, max: QUOTA_MAX, int: true },
  QuotaRemindThreshold: { min: 0, max: QUOTA_MAX, int: true },
  PreConsumedQuota: { min: 0, max: QUOTA_MAX, int: true },
  StreamCacheQueueLength: { min: 0, int: true },
  QuotaPerUnit: { min: 1, int: false },
  Price: { min: 0, int: false },
  MinTopUp: { min: 0, int: false },
  StripeUnitPrice: { min: 0, int: false },
  StripeMinTopUp: { min: 0, int: false },
  ChannelDisableThreshold: { min: 1, int: true },
  ChannelDisableFailureCount: { min: 1, int: true },
  // the relay makes at most 10 retries (lib/relay/handler.ts)
  RetryTimes: { min: 0, max: 10, int: true },
  CheckInQuota: { min: 0, max: QUOTA_MAX, int: true },
  CheckInMaxQuota: { min: 0, max: QUOTA_MAX, int: true },
  RebatePercentage: { min: 0, max: 100, int: false },
  "gemini.thinking_adapter_budget_tokens_percentage": { min: 0.002, max: 1, int: false },
  "claude.thinking_adapter_budget_tokens_percentage": { min: 0.1, max: 1, int: false },
  "global.auto_retry_count": { min: 1, max: 10, int: true },
  "general_setting.ping_interval_seconds": { min: 1, int: true },
  ModelRequestRateLimitSuccessCount: { min: 1, int: true },
  ModelRequestRateLimitCount: { min: 0, int: true },
  ModelRequestRateLimitDurationMinutes: { min: 1, int: true },
  LinuxDOMinimumTrustLevel: { min: 0, max: 4, int: true },
  IDCFlareMinimumTrustLevel: { min: 0, max: 4, int: true },
  DataExportInterval: { min: 1, int: true },
  LogRetentionDays: { min: 0, max: 36_500, int: true },
  SMTPPort: { min: 1, max: 65535, int: true },
};

export const ENUMS: Record<string, readonly string[]> = {
  DataExportDefaultTime: ["hour", "day", "week"],
  ReverseProxyProvider: ["nginx", "cloudflare"],
  // the shape of the preset ratio source (docs/pricing.md, "Preset sources")
  PresetRatioSourceKind: ["flexible", "openrouter", "mixed"],
};

// Addresses that lose their trailing slashes before they are stored.
export const TRIM_SLASH = new Set(["ServerAddress", "WorkerUrl", "PayAddress", "PresetRatioSourceUrl"]);
// Other keys holding an http(s) address (empty allowed).
export const URL_KEYS = new Set([
  "UpdateCheckUrl",
  "CustomCallbackAddress",
  "TopUpLink",
  "general_setting.docs_link",
  "oidc.authorization_endpoint",
  "oidc.token_endpoint",
  "oidc.user_info_endpoint",
  "WeChatServerAddress",
  "WeChatAccountQRCodeImageURL",
]);
export const FALLBACK_VALUES = ["fallback_single_price", "fallback_input_ratio", "fallback_completion_ratio"];
// Payment settings are refused until ServerAddress is set (the callbacks need it).
export const PAYMENT_KEYS = new Set([
  "PayAddress",
  "EpayId",
  "EpayKey",
  "Price",
  "MinTopUp",
  "TopupGroupRatio",
  "CustomCallbackAddress",
  // Stripe (docs/payments.md)
  "StripeApiSecret",
  "StripeWebhookSecret",
  "StripePriceId",
  "StripeUnitPrice",
  "StripeMinTopUp",
]);

// Secrets are write-only: GET /api/option/ never returns their values.
export const SECRET_OPTION_KEYS = new Set([
  "GitHubClientSecret",
  "oidc.client_secret",
  "LinuxDOClientSecret",
  "IDCFlareClientSecret",
  "WeChatServerToken",
  "TelegramBotToken",
  "TurnstileSecretKey",
  "SMTPToken",
  "EpayKey",
  "WorkerValidKey",
  "StripeApiSecret",
  "StripeWebhookSecret",
]);

export const isBooleanOption = (key: string) =>
  key.endsWith("Enabled") ||
  key.endsWith("_enabled") ||
  key.endsWith(".enabled") ||
  key === "DefaultCollapseSidebar" ||
  key === "fetch_setting.allow_private_ip";

const ok = (value: string): OptionCheck => ({ ok: true, value });
const no = (key: MessageKey, params?: MessageParams): OptionCheck => ({ ok: false, key, params });

function checkNumber(key: string, value: string): OptionCheck {
  const r = RANGES[key];
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) return no("option_not_number", { key });
  if (r.int && !Number.isInteger(n)) return no("option_not_integer", { key });
  if (n < r.min || (r.max !== undefined && n > r.max)) {
    if (key === "RebatePercentage") return no("option_rebate_range");
    return r.max === undefined ? no("option_below_min", { key, min: r.min }) : no("option_out_of_range", { key, min: r.min, max: r.max });
  }
  return ok(value.trim());
}

function checkJson(key: string, value: string): OptionCheck {
  const invalid = () => (key === "TopupGroupRatio" ? no("option_topup_group_ratio_json") : no("option_invalid_json", { key }));
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return invalid();
  }
  const isObject = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
  if (JSON_OBJECT_KEYS.has(key) && !isObject) return invalid();
  if (JSON_ARRAY_KEYS.has(key) && !Array.isArray(parsed)) return invalid();
  if (NUMBER_MAP_KEYS.has(key)) {
    for (const v of Object.values(parsed as Record<string, unknown>)) {
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0) return no("option_ratio_invalid", { key });
    }
  }
  return ok(value);
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
 * The rules that look at one value alone: booleans, bounds, enums, JSON, addresses, the
 * whitelist. Returns the value to store (some keys are normalized) or a refusal.
 */
export function checkOptionValue(key: string, rawValue: string): OptionCheck {
  let value = rawValue;
  if (isBooleanOption(key)) {
    if (value !== "true" && value !== "false") return no("option_not_boolean", { key });
  } else if (key in RANGES) {
    return checkNumber(key, value);
  } else if (isJsonOption(key)) {
    return checkJson(key, value);
  } else if (key in ENUMS) {
    if (!ENUMS[key].includes(value)) return no("option_not_in_list", { key, list: ENUMS[key].join(", ") });
  } else if (TRIM_SLASH.has(key)) {
    value = value.trim().replace(/\/+$/, "");
    if (value && !HTTP_URL.test(value)) return no("option_invalid_url", { key });
  } else if (URL_KEYS.has(key)) {
    value = value.trim();
    if (value && !HTTP_URL.test(value)) return no("option_invalid_url", { key });
  } else if (key === "oidc.well_known") {
    value = value.trim();
    if (value && !HTTP_URL.test(value)) return no("option_well_known_url");
  } else if (key === "EmailDomainWhitelist") {
    return checkDomainWhitelist(value);
  } else if (key === "global.auto_retry_status_codes") {
    return checkRetryStatusCodes(value);
  } else if (FALLBACK_VALUES.includes(key) && value.trim() !== "") {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) return no("option_not_positive", { key });
    value = value.trim();
  }
  return ok(value);
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
export function checkOptionCombination(key: string, value: string, state: (k: string) => string): OptionCheck | null {
  if (key === "RebateEnabled" && value === "true") {
    const n = Number(state("RebatePercentage"));
    if (!Number.isFinite(n) || n < 0 || n > 100) return no("option_rebate_range");
  }
  if (key !== "fallback_pricing_enabled" && !FALLBACK_VALUES.includes(key)) return null;
  return fallbackStateValid(state) ? null : no("fallback_pricing_combination");
}

/** Whether a fallback-pricing state is complete (the form checks the whole section at once). */
export function fallbackStateValid(state: (k: string) => string): boolean {
  if (state("fallback_pricing_enabled").trim() !== "true") return true;
  const price = state("fallback_single_price").trim() !== "";
  const input = state("fallback_input_ratio").trim() !== "";
  const completion = state("fallback_completion_ratio").trim() !== "";
  return (price && !input && !completion) || (!price && input && completion);
}
