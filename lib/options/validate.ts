// Server-side validation of option values (docs/product-rules.md, "Options"), pure so that it is
// unit-tested. validateOption returns the value to store (some keys are normalized) or a
// refusal with a message key. `current` reads the other options, for the rules that
// combine several keys (fallback pricing).
import "server-only";
import type { MessageKey, MessageParams } from "@/lib/i18n/server-messages";
import { isBooleanOption, OPTION_DEFAULTS } from "@/lib/options/defaults";

export type OptionCheck = { ok: true; value: string } | { ok: false; key: MessageKey; params?: MessageParams };

const JSON_OBJECT_KEYS = new Set([
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
const JSON_ARRAY_KEYS = new Set(["Chats", "gemini.supported_imagine_models", "gemini.models_supported_thinking_budget"]);
// Maps whose every value must be a non-negative number.
const NUMBER_MAP_KEYS = new Set(["GroupRatio", "ModelPrice", "ModelRatio", "CacheRatio", "CompletionRatio", "TopupGroupRatio"]);

// Number ranges (inclusive) and whether an integer is required. Quota amounts end up in
// 64-bit columns and JSON numbers: at most the largest safe integer (docs/channels-tokens-billing.md).
const QUOTA_MAX = Number.MAX_SAFE_INTEGER;
const RANGES: Record<string, { min: number; max?: number; int: boolean }> = {
  QuotaForNewUser: { min: 0, max: QUOTA_MAX, int: true },
  QuotaForInviter: { min: 0, max: QUOTA_MAX, int: true },
  QuotaForInvitee: { min: 0, max: QUOTA_MAX, int: true },
  QuotaRemindThreshold: { min: 0, max: QUOTA_MAX, int: true },
  PreConsumedQuota: { min: 0, max: QUOTA_MAX, int: true },
  StreamCacheQueueLength: { min: 0, int: true },
  QuotaPerUnit: { min: 1, int: false },
  Price: { min: 0, int: false },
  MinTopUp: { min: 0, int: false },
  ChannelDisableThreshold: { min: 0, int: false },
  RetryTimes: { min: 0, int: true },
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
  SMTPPort: { min: 1, max: 65535, int: true },
};

const ENUMS: Record<string, readonly string[]> = {
  DataExportDefaultTime: ["hour", "day", "week"],
  ReverseProxyProvider: ["nginx", "cloudflare"],
  PresetRatioSourceKind: ["flexible", "openrouter", "mixed"],
};

const TRIM_SLASH = new Set(["ServerAddress", "WorkerUrl", "PayAddress", "PresetRatioSourceUrl"]);
const FALLBACK_VALUES = ["fallback_single_price", "fallback_input_ratio", "fallback_completion_ratio"];

const ok = (value: string): OptionCheck => ({ ok: true, value });
const no = (key: MessageKey, params?: MessageParams): OptionCheck => ({ ok: false, key, params });

function checkNumber(key: string, value: string): OptionCheck {
  const r = RANGES[key];
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) return no("option_not_number", { key });
  if (r.int && !Number.isInteger(n)) return no("option_not_integer", { key });
  if (n < r.min || (r.max !== undefined && n > r.max)) {
    return r.max === undefined ? no("option_below_min", { key, min: r.min }) : no("option_out_of_range", { key, min: r.min, max: r.max });
  }
  return ok(value.trim());
}

function checkJson(key: string, value: string): OptionCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return no("option_invalid_json", { key });
  }
  const isObject = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
  if (JSON_OBJECT_KEYS.has(key) && !isObject) return no("option_invalid_json", { key });
  if (JSON_ARRAY_KEYS.has(key) && !Array.isArray(parsed)) return no("option_invalid_json", { key });
  if (NUMBER_MAP_KEYS.has(key)) {
    for (const v of Object.values(parsed as Record<string, unknown>)) {
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0) return no("option_ratio_invalid", { key });
    }
  }
  return ok(value);
}

// Fallback pricing: either a single price alone, or both ratios and no price. Checked on
// the state the change would produce whenever fallback pricing is (or becomes) enabled.
// Clearing a value is always allowed, so that a client can switch from one form to the
// other by clearing first.
function checkFallback(key: string, value: string, current: (k: string) => string): OptionCheck | null {
  if (FALLBACK_VALUES.includes(key) && value.trim() !== "") {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) return no("option_not_positive", { key });
  }
  const state = (k: string) => (k === key ? value : current(k)).trim();
  if (state("fallback_pricing_enabled") !== "true") return null;
  if (FALLBACK_VALUES.includes(key) && value.trim() === "") return null;
  const price = state("fallback_single_price") !== "";
  const input = state("fallback_input_ratio") !== "";
  const completion = state("fallback_completion_ratio") !== "";
  if (key === "fallback_pricing_enabled") {
    if ((price && !input && !completion) || (!price && input && completion)) return null;
    return no("fallback_pricing_combination");
  }
  if (price && (input || completion)) return no("fallback_pricing_combination");
  return null;
}

export function validateOption(key: string, rawValue: string, current: (k: string) => string): OptionCheck {
  if (!(key in OPTION_DEFAULTS)) return no("invalid_parameter");
  let value = rawValue;
  if (isBooleanOption(key)) {
    if (value !== "true" && value !== "false") return no("option_not_boolean", { key });
  } else if (key in RANGES) {
    const r = checkNumber(key, value);
    if (!r.ok) return r;
    value = r.value;
  } else if (JSON_OBJECT_KEYS.has(key) || JSON_ARRAY_KEYS.has(key)) {
    const r = checkJson(key, value);
    if (!r.ok) return r;
  } else if (key in ENUMS) {
    if (!ENUMS[key].includes(value)) return no("option_not_in_list", { key, list: ENUMS[key].join(", ") });
  } else if (TRIM_SLASH.has(key)) {
    value = value.trim().replace(/\/+$/, "");
    if (value && !/^https?:\/\/\S+$/i.test(value)) return no("option_invalid_url", { key });
  }
  const fallback = checkFallback(key, value, current);
  if (fallback) return fallback;
  return ok(value);
}
