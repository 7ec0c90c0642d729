// The option registry (docs/options.md, "Adding an option"): one entry per key with its
// default, the rule its value must follow, who may write it, whether it is a secret, and the
// settings tab that edits it. Everything else about options is derived from here: the
// defaults (lib/options/defaults.ts), the access table (lib/options/access.ts), the value
// rules (lib/options/rules.ts) and the key type `OptionKey`, so that reading an option by a
// misspelt name fails to compile. Pure and free of "server-only": the settings page loads it.
//
// Keys are looked up with `optionSpec` (a Map), never with `in` or an index on the object:
// a name such as "constructor" or "__proto__" is not an option.

import { SHIPPED_GROUP_DESCRIPTIONS } from "@/lib/options/shipped-groups";

export type SettingsTab = "operation" | "ratelimit" | "models" | "system" | "other";

/** The rule a value must follow (lib/options/rules.ts applies it). */
export type OptionRule =
  | { kind: "text" }
  | { kind: "bool" }
  /** a number in [min, max]; `int` asks for an integer, `decimals` caps the fraction digits */
  | { kind: "number"; min: number; max?: number; int: boolean; decimals?: number }
  | { kind: "enum"; values: readonly string[] }
  /** JSON text: an object, an array, or an object whose every value is a number ≥ 0 */
  | { kind: "json"; shape: "object" | "array" | "number-map" }
  /** an http(s) address or empty; `trimSlash` drops trailing slashes before it is stored */
  | { kind: "url"; trimSlash?: boolean }
  | { kind: "well-known" }
  | { kind: "domain-whitelist" }
  | { kind: "retry-status-codes" }
  /** one of the three fallback-pricing values: empty or a number > 0 */
  | { kind: "fallback-value" }
  /** the virtual-model map (lib/model-mapping/schema.ts) */
  | { kind: "model-mapping" }
  /** group -> usage limits (lib/options/group-limits.ts, docs/usage-limits.md) */
  | { kind: "group-limits" };

/** The built-in preset price table stands as the default (lib/options/defaults.ts fills it in). */
export const PRESET_TABLE = { preset: true } as const;

export interface OptionSpec {
  default: string | typeof PRESET_TABLE;
  rule: OptionRule;
  /** who may save it: admins (role ≥ 10) or the root alone (docs/settings.md, "Roles") */
  write: "admin" | "root";
  /** write-only, sealed at rest, never read back (docs/secrets.md) */
  secret?: boolean;
  /** a payment setting, refused until ServerAddress is set (the callbacks need it) */
  payment?: boolean;
  tab: SettingsTab;
}

// Quota amounts end up in 64-bit columns and JSON numbers: at most the largest safe integer
// (docs/channels-tokens-billing.md).
const QUOTA: OptionRule = { kind: "number", min: 0, max: Number.MAX_SAFE_INTEGER, int: true };
const BOOL: OptionRule = { kind: "bool" };
const TEXT: OptionRule = { kind: "text" };
const URL: OptionRule = { kind: "url" };
const TRIMMED_URL: OptionRule = { kind: "url", trimSlash: true };
const JSON_OBJECT: OptionRule = { kind: "json", shape: "object" };
const JSON_ARRAY: OptionRule = { kind: "json", shape: "array" };
const NUMBER_MAP: OptionRule = { kind: "json", shape: "number-map" };
const atLeast = (min: number, int = true): OptionRule => ({ kind: "number", min, int });
const between = (min: number, max: number, int = true): OptionRule => ({ kind: "number", min, max, int });

// an exchange rate: a currency's units per US dollar, above zero, six decimals as QuotaPerUnit
const RATE: OptionRule = { kind: "number", min: 0.000001, int: false, decimals: 6 };

const json = (v: unknown) => JSON.stringify(v);

// admin-writable entries of one tab
const op = (d: string | typeof PRESET_TABLE, rule: OptionRule): OptionSpec => ({ default: d, rule, write: "admin", tab: "operation" });
const models = (d: string, rule: OptionRule): OptionSpec => ({ default: d, rule, write: "admin", tab: "models" });
// root-only entries
const root = (tab: SettingsTab, d: string, rule: OptionRule): OptionSpec => ({ default: d, rule, write: "root", tab });
const secret = (tab: SettingsTab, payment = false): OptionSpec => ({ default: "", rule: TEXT, write: "root", tab, secret: true, payment });
const pay = (d: string, rule: OptionRule): OptionSpec => ({ default: d, rule, write: "root", tab: "system", payment: true });

export const OPTION_REGISTRY = {
  // quota (StreamCacheQueueLength of the option spec is not an option here: docs/options.md)
  QuotaForNewUser: op("0", QUOTA),
  QuotaForInviter: op("0", QUOTA),
  QuotaForInvitee: op("0", QUOTA),
  // the warning threshold of users who set none: $1 (docs/notifications.md)
  QuotaRemindThreshold: op("500000", QUOTA),
  PreConsumedQuota: op("500", QUOTA),
  // 500000 quota units = 1 USD (docs/product-rules.md, "Quota and display")
  // kept to six decimals (docs/options.md)
  QuotaPerUnit: op("500000", { kind: "number", min: 1, int: false, decimals: 6 }),

  // pricing: the preset price table (lib/options/presets/models.ts, docs/pricing.md)
  ModelRatio: op(PRESET_TABLE, NUMBER_MAP),
  CacheRatio: op(PRESET_TABLE, NUMBER_MAP),
  // prompt-cache writes of five minutes and of one hour, per model (docs/pricing.md, "Prompt-cache writes")
  CreateCacheRatio: op(PRESET_TABLE, NUMBER_MAP),
  CreateCache1hRatio: op(PRESET_TABLE, NUMBER_MAP),
  CompletionRatio: op(PRESET_TABLE, NUMBER_MAP),
  ModelPrice: op(PRESET_TABLE, NUMBER_MAP),
  // where "fetch presets" reads from instead of the built-in table: a URL the server fetches
  // and its shape (docs/pricing.md, "Preset sources")
  PresetRatioSourceUrl: root("operation", "", TRIMMED_URL),
  PresetRatioSourceKind: root("operation", "flexible", { kind: "enum", values: ["flexible", "openrouter", "mixed"] }),
  GroupRatio: op(json({ default: 1, vip: 1, svip: 1 }), NUMBER_MAP),
  UserUsableGroups: op(json(SHIPPED_GROUP_DESCRIPTIONS), JSON_OBJECT),
  TopupGroupRatio: pay(json({ default: 1, vip: 1, svip: 1 }), NUMBER_MAP),
  Price: pay("7.3", atLeast(0, false)),
  MinTopUp: pay("1", atLeast(0, false)),

  // display
  TopUpLink: op("", URL),
  "general_setting.docs_link": op("", URL),
  DisplayInCurrencyEnabled: op("true", BOOL),
  // which currency the console shows quota in when DisplayInCurrencyEnabled is on, and at what
  // rate per US dollar (lib/quota-display.ts, docs/console-ui.md "Quota display")
  QuotaDisplayType: op("USD", { kind: "enum", values: ["USD", "CNY", "CUSTOM"] }),
  USDExchangeRate: op("7.3", RATE),
  CustomCurrencySymbol: op("¤", TEXT),
  CustomCurrencyExchangeRate: op("1", RATE),
  DisplayTokenStatEnabled: op("true", BOOL),
  DefaultCollapseSidebar: op("false", BOOL),
  Chats: op(
    json([
      { "Cherry Studio": "cherrystudio://providers/api-keys?v=1&data={cherryConfig}" },
      { AionUI: "aionui://provider/add?v=1&data={aionuiConfig}" },
      { "Lobe Chat": 'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}' },
    ]),
    JSON_ARRAY,
  ),

  // channel monitoring
  AutomaticDisableChannelEnabled: op("false", BOOL),
  AutomaticEnableChannelEnabled: op("false", BOOL),
  ChannelDisableThreshold: op("5", atLeast(1)),
  ChannelDisableFailureCount: op("5", atLeast(1)),
  AutomaticDisableKeywords: op(
    [
      "Your credit balance is too low",
      "This organization has been disabled.",
      "You exceeded your current quota",
      "Permission denied",
      "The security token included in the request is invalid",
      "Operation not allowed",
      "Your account is not authorized",
    ].join("\n"),
    TEXT,
  ),
  // the relay makes at most 10 retries (lib/relay/handler.ts)
  RetryTimes: op("0", between(0, 10)),

  // logs
  LogConsumeEnabled: op("true", BOOL),
  LogChatContentEnabled: op("false", BOOL),
  LogErrorEnabled: op("true", BOOL),
  // keep the usage logs this many days, 0 = for ever (lib/rollups/retention.ts, docs/operations.md)
  LogRetentionDays: op("0", between(0, 36_500)),
  // keep the audit log this many days, 0 = for ever (lib/audit-retention/job.ts, docs/audit.md);
  // the root's alone, as the audit log is
  AuditLogRetentionDays: root("operation", "180", between(0, 36_500)),

  // sensitive words
  CheckSensitiveEnabled: op("false", BOOL),
  CheckSensitiveOnPromptEnabled: op("false", BOOL),
  SensitiveWords: op("", TEXT),

  // drawing
  // the drawing and task logs open on a fresh install, as in new-api (docs/options.md)
  DrawingEnabled: op("true", BOOL),
  MjNotifyEnabled: op("false", BOOL),
  MjAccountFilterEnabled: op("false", BOOL),
  MjForwardUrlEnabled: op("false", BOOL),
  MjModeClearEnabled: op("false", BOOL),
  MjActionCheckSuccessEnabled: op("true", BOOL),
  TaskEnabled: op("true", BOOL),

  // dashboard
  DataExportEnabled: op("true", BOOL),
  DataExportInterval: op("5", atLeast(1)),
  DataExportDefaultTime: op("hour", { kind: "enum", values: ["hour", "day", "week"] }),
  // the public status page /status and GET /api/status/models (docs/performance.md)
  StatusPageEnabled: op("false", BOOL),

  // modes
  DemoSiteEnabled: root("operation", "false", BOOL),
  SelfUseModeEnabled: root("operation", "false", BOOL),

  // check-in
  CheckInEnabled: op("false", BOOL),
  CheckInQuota: op("1000", QUOTA),
  CheckInMaxQuota: op("10000", QUOTA),

  // rebate and invitation
  RebateEnabled: op("false", BOOL),
  RebatePercentage: op("0", between(0, 100, false)),
  AffEnabled: op("true", BOOL),

  // rate limit
  ModelRequestRateLimitEnabled: { default: "false", rule: BOOL, write: "admin", tab: "ratelimit" },
  ModelRequestRateLimitCount: { default: "-1", rule: atLeast(0), write: "admin", tab: "ratelimit" },
  ModelRequestRateLimitSuccessCount: { default: "1000", rule: atLeast(1), write: "admin", tab: "ratelimit" },
  ModelRequestRateLimitDurationMinutes: { default: "1", rule: atLeast(1), write: "admin", tab: "ratelimit" },
  // the default usage limits of each group's users (docs/usage-limits.md); a user's own non-zero
  // field overrides its group's
  GroupLimits: { default: "{}", rule: { kind: "group-limits" }, write: "admin", tab: "ratelimit" },

  // fallback pricing
  fallback_pricing_enabled: op("false", BOOL),
  fallback_single_price: op("", { kind: "fallback-value" }),
  fallback_input_ratio: op("", { kind: "fallback-value" }),
  fallback_completion_ratio: op("", { kind: "fallback-value" }),
  redirect_billing_enabled: op("false", BOOL),

  // gemini
  "gemini.safety_settings": models(json({ default: "OFF" }), JSON_OBJECT),
  "gemini.version_settings": models(json({ default: "v1beta" }), JSON_OBJECT),
  "gemini.supported_imagine_models": models(json(["gemini-2.0-flash-exp-image-generation", "gemini-2.0-flash-exp"]), JSON_ARRAY),
  "gemini.thinking_adapter_enabled": models("false", BOOL),
  "gemini.thinking_adapter_budget_tokens_percentage": models("0.6", between(0.002, 1, false)),
  "gemini.models_supported_thinking_budget": models(json(["gemini-2.5-flash-preview-04-17", "gemini-2.5-flash"]), JSON_ARRAY),

  // claude
  "claude.model_headers_settings": models(json({}), JSON_OBJECT),
  "claude.default_max_tokens": models(json({ default: 8192, "claude-3-haiku-20240307": 4096, "claude-3-opus-20240229": 4096 }), JSON_OBJECT),
  "claude.thinking_adapter_enabled": models("true", BOOL),
  "claude.thinking_adapter_budget_tokens_percentage": models("0.8", between(0.1, 1, false)),

  // global
  "global.pass_through_request_enabled": models("false", BOOL),
  "global.hide_upstream_error_enabled": models("false", BOOL),
  "global.block_browser_extension_enabled": models("false", BOOL),
  "global.rate_limit_exempt_enabled": models("false", BOOL),
  "global.rate_limit_exempt_group": models("bulk-ok", TEXT),
  "global.safe_check_exempt_enabled": models("false", BOOL),
  "global.safe_check_exempt_group": models("nsfw-ok", TEXT),
  "global.auto_retry_enabled": models("false", BOOL),
  "global.auto_retry_count": models("3", between(1, 10)),
  "global.auto_retry_force_channel_switch": models("false", BOOL),
  "global.auto_retry_status_codes": models("5xx,4xx", { kind: "retry-status-codes" }),
  "general_setting.ping_interval_enabled": models("false", BOOL),
  "general_setting.ping_interval_seconds": models("60", atLeast(1)),

  // login and registration
  PasswordLoginEnabled: root("system", "true", BOOL),
  PasswordRegisterEnabled: root("system", "true", BOOL),
  EmailVerificationEnabled: root("system", "false", BOOL),
  RegisterEnabled: root("system", "true", BOOL),
  EmailDomainRestrictionEnabled: root("system", "false", BOOL),
  EmailAliasRestrictionEnabled: root("system", "false", BOOL),
  EmailDomainWhitelist: root(
    "system",
    ["gmail.com", "163.com", "126.com", "qq.com", "outlook.com", "hotmail.com", "icloud.com", "yahoo.com", "foxmail.com"].join(","),
    { kind: "domain-whitelist" },
  ),

  // third-party sign-in and the human check
  GitHubOAuthEnabled: root("system", "false", BOOL),
  GitHubClientId: root("system", "", TEXT),
  GitHubClientSecret: secret("system"),
  "oidc.enabled": root("system", "false", BOOL),
  "oidc.client_id": root("system", "", TEXT),
  "oidc.client_secret": secret("system"),
  "oidc.well_known": root("system", "", { kind: "well-known" }),
  "oidc.authorization_endpoint": root("system", "", URL),
  "oidc.token_endpoint": root("system", "", URL),
  "oidc.user_info_endpoint": root("system", "", URL),
  LinuxDOOAuthEnabled: root("system", "false", BOOL),
  LinuxDOClientId: root("system", "", TEXT),
  LinuxDOClientSecret: secret("system"),
  LinuxDOMinimumTrustLevel: root("system", "0", between(0, 4)),
  IDCFlareOAuthEnabled: root("system", "false", BOOL),
  IDCFlareClientId: root("system", "", TEXT),
  IDCFlareClientSecret: secret("system"),
  IDCFlareMinimumTrustLevel: root("system", "0", between(0, 4)),
  WeChatAuthEnabled: root("system", "false", BOOL),
  WeChatServerAddress: root("system", "", URL),
  WeChatServerToken: secret("system"),
  WeChatAccountQRCodeImageURL: root("system", "", URL),
  TelegramOAuthEnabled: root("system", "false", BOOL),
  TelegramBotToken: secret("system"),
  TelegramBotName: root("system", "", TEXT),
  TurnstileCheckEnabled: root("system", "false", BOOL),
  // passkey sign-in from the login page (docs/two-factor.md)
  PasskeyLoginEnabled: root("system", "false", BOOL),
  TurnstileSiteKey: root("system", "", TEXT),
  TurnstileSecretKey: secret("system"),

  // mail
  SMTPServer: root("system", "", TEXT),
  SMTPPort: root("system", "587", between(1, 65535)),
  SMTPAccount: root("system", "", TEXT),
  SMTPFrom: root("system", "", TEXT),
  SMTPToken: secret("system"),
  SMTPSSLEnabled: root("system", "false", BOOL),

  // network and payment
  ServerAddress: root("system", "", TRIMMED_URL),
  WorkerUrl: root("system", "", TRIMMED_URL),
  WorkerValidKey: secret("system"),
  ReverseProxyEnabled: root("system", "false", BOOL),
  ReverseProxyProvider: root("system", "nginx", { kind: "enum", values: ["nginx", "cloudflare"] }),
  EpayId: pay("", TEXT),
  EpayKey: secret("system", true),
  PayAddress: pay("", TRIMMED_URL),
  CustomCallbackAddress: pay("", URL),
  // Stripe Checkout (docs/payments.md)
  StripeApiSecret: secret("system", true),
  StripeWebhookSecret: secret("system", true),
  StripePriceId: pay("", TEXT),
  StripeUnitPrice: pay("8", atLeast(0, false)),
  StripeMinTopUp: pay("1", atLeast(0, false)),

  // outbound requests (docs/outbound.md): channels on loopback and private addresses
  "fetch_setting.allow_private_ip": root("system", "false", BOOL),
  // update check (docs/settings.md): a release source answering {tag_name, body}; empty: no check
  UpdateCheckUrl: root("system", "", URL),

  // branding
  SystemName: { default: "AI Gateway", rule: TEXT, write: "admin", tab: "other" },
  Logo: { default: "", rule: TEXT, write: "admin", tab: "other" },
  About: { default: "", rule: TEXT, write: "admin", tab: "other" },
  HomePageContent: { default: "", rule: TEXT, write: "admin", tab: "other" },
  Footer: { default: "", rule: TEXT, write: "admin", tab: "system" },
  Notice: { default: "", rule: TEXT, write: "admin", tab: "other" },
  // code run in every visitor's browser (docs/settings.md, "Custom code")
  custom_head_html: root("other", "", TEXT),
  global_css: root("other", "", TEXT),
  global_js: root("other", "", TEXT),

  // model mapping: virtual model name -> [{model, priorities}] (docs/product-rules.md, "Options")
  model_mapping: models(json({}), { kind: "model-mapping" }),
} satisfies Record<string, OptionSpec>;

export type OptionKey = keyof typeof OPTION_REGISTRY;

const SPECS: ReadonlyMap<string, OptionSpec> = new Map(Object.entries(OPTION_REGISTRY));

/** Every registered key, in the registry's order. */
export const OPTION_KEYS = [...SPECS.keys()] as OptionKey[];

/** Whether a name is a registered option (own keys only: "constructor" is not). */
export function isOptionKey(key: string): key is OptionKey {
  return SPECS.has(key);
}

/** The entry of a registered key. */
export function optionSpec(key: OptionKey): OptionSpec {
  return SPECS.get(key)!;
}

/** The keys whose entry passes `test` (the derived tables of lib/options/rules.ts). */
export function optionKeysWhere(test: (spec: OptionSpec) => boolean): OptionKey[] {
  return OPTION_KEYS.filter((k) => test(optionSpec(k)));
}
