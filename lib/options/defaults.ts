// Every option with its default value (docs/product-rules.md, "Options"). An option is a key with a string value;
// booleans are "true"/"false", JSON options are JSON text. The database holds only what an
// admin has changed; everything else reads from here.
import "server-only";

import { PRESET_RATIOS } from "@/lib/options/presets/ratios";

const QUOTA_PER_UNIT = 500000; // 500000 quota units = 1 USD (docs/product-rules.md, "Quota and display")

const json = (v: unknown) => JSON.stringify(v);

export const OPTION_DEFAULTS: Record<string, string> = {
  // quota
  QuotaForNewUser: "0",
  QuotaForInviter: "0",
  QuotaForInvitee: "0",
  QuotaRemindThreshold: "1000",
  PreConsumedQuota: "500",
  StreamCacheQueueLength: "0",
  QuotaPerUnit: String(QUOTA_PER_UNIT),

  // pricing: the preset price table (lib/options/presets/models.ts, docs/pricing.md)
  ModelRatio: json(PRESET_RATIOS.ModelRatio),
  CacheRatio: json(PRESET_RATIOS.CacheRatio),
  CompletionRatio: json(PRESET_RATIOS.CompletionRatio),
  ModelPrice: json(PRESET_RATIOS.ModelPrice),
  // where "fetch presets" reads from instead of the built-in table: a URL and its shape
  // (flexible, openrouter or mixed), docs/pricing.md "Preset sources"
  PresetRatioSourceUrl: "",
  PresetRatioSourceKind: "flexible",
  GroupRatio: json({ default: 1, vip: 1, svip: 1 }),
  UserUsableGroups: json({ default: "默认分组", vip: "vip分组" }),
  TopupGroupRatio: json({ default: 1, vip: 1, svip: 1 }),
  Price: "7.3",
  MinTopUp: "1",

  // display
  TopUpLink: "",
  "general_setting.docs_link": "",
  DisplayInCurrencyEnabled: "true",
  DisplayTokenStatEnabled: "true",
  DefaultCollapseSidebar: "false",
  Chats: json([
    { "Cherry Studio": "cherrystudio://providers/api-keys?v=1&data={cherryConfig}" },
    { AionUI: "aionui://provider/add?v=1&data={aionuiConfig}" },
    { 流畅阅读: "fluentread" },
    { "Lobe Chat": 'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}' },
  ]),

  // channel monitoring
  AutomaticDisableChannelEnabled: "false",
  AutomaticEnableChannelEnabled: "false",
  ChannelDisableThreshold: "5",
  ChannelDisableFailureCount: "5",
  AutomaticDisableKeywords: [
    "Your credit balance is too low",
    "This organization has been disabled.",
    "You exceeded your current quota",
    "Permission denied",
    "The security token included in the request is invalid",
    "Operation not allowed",
    "Your account is not authorized",
  ].join("\n"),
  RetryTimes: "0",

  // logs
  LogConsumeEnabled: "true",
  LogChatContentEnabled: "false",
  LogErrorEnabled: "true",
  // keep the usage logs this many days, 0 = for ever (lib/rollups/retention.ts, docs/operations.md)
  LogRetentionDays: "0",

  // sensitive words
  CheckSensitiveEnabled: "false",
  CheckSensitiveOnPromptEnabled: "false",
  SensitiveWords: "",

  // drawing
  DrawingEnabled: "false",
  MjNotifyEnabled: "false",
  MjAccountFilterEnabled: "false",
  MjForwardUrlEnabled: "false",
  MjModeClearEnabled: "false",
  MjActionCheckSuccessEnabled: "true",
  TaskEnabled: "false",

  // dashboard
  DataExportEnabled: "true",
  DataExportInterval: "5",
  DataExportDefaultTime: "hour",

  // modes
  DemoSiteEnabled: "false",
  SelfUseModeEnabled: "false",

  // check-in
  CheckInEnabled: "false",
  CheckInQuota: "1000",
  CheckInMaxQuota: "10000",

  // rebate and invitation
  RebateEnabled: "false",
  RebatePercentage: "0",
  AffEnabled: "true",

  // rate limit
  ModelRequestRateLimitEnabled: "false",
  ModelRequestRateLimitCount: "-1",
  ModelRequestRateLimitSuccessCount: "1000",
  ModelRequestRateLimitDurationMinutes: "1",

  // fallback pricing
  fallback_pricing_enabled: "false",
  fallback_single_price: "",
  fallback_input_ratio: "",
  fallback_completion_ratio: "",
  redirect_billing_enabled: "false",

  // gemini
  "gemini.safety_settings": json({ default: "OFF" }),
  "gemini.version_settings": json({ default: "v1beta" }),
  "gemini.supported_imagine_models": json(["gemini-2.0-flash-exp-image-generation", "gemini-2.0-flash-exp"]),
  "gemini.thinking_adapter_enabled": "false",
  "gemini.thinking_adapter_budget_tokens_percentage": "0.6",
  "gemini.models_supported_thinking_budget": json(["gemini-2.5-flash-preview-04-17", "gemini-2.5-flash"]),

  // claude
  "claude.model_headers_settings": json({}),
  "claude.default_max_tokens": json({ default: 8192, "claude-3-haiku-20240307": 4096, "claude-3-opus-20240229": 4096 }),
  "claude.thinking_adapter_enabled": "true",
  "claude.thinking_adapter_budget_tokens_percentage": "0.8",

  // global
  "global.pass_through_request_enabled": "false",
  "global.hide_upstream_error_enabled": "false",
  "global.block_browser_extension_enabled": "false",
  "global.rate_limit_exempt_enabled": "false",
  "global.rate_limit_exempt_group": "bulk-ok",
  "global.safe_check_exempt_enabled": "false",
  "global.safe_check_exempt_group": "nsfw-ok",
  "global.auto_retry_enabled": "false",
  "global.auto_retry_count": "3",
  "global.auto_retry_force_channel_switch": "false",
  "global.auto_retry_status_codes": "5xx,4xx",
  "general_setting.ping_interval_enabled": "false",
  "general_setting.ping_interval_seconds": "60",

  // login and registration
  PasswordLoginEnabled: "true",
  PasswordRegisterEnabled: "true",
  EmailVerificationEnabled: "false",
  RegisterEnabled: "true",
  EmailDomainRestrictionEnabled: "false",
  EmailAliasRestrictionEnabled: "false",
  EmailDomainWhitelist: ["gmail.com", "163.com", "126.com", "qq.com", "outlook.com", "hotmail.com", "icloud.com", "yahoo.com", "foxmail.com"].join(","),

  // third-party sign-in
  GitHubOAuthEnabled: "false",
  GitHubClientId: "",
  GitHubClientSecret: "",
  "oidc.enabled": "false",
  "oidc.client_id": "",
  "oidc.client_secret": "",
  "oidc.well_known": "",
  "oidc.authorization_endpoint": "",
  "oidc.token_endpoint": "",
  "oidc.user_info_endpoint": "",
  LinuxDOOAuthEnabled: "false",
  LinuxDOClientId: "",
  LinuxDOClientSecret: "",
  LinuxDOMinimumTrustLevel: "0",
  IDCFlareOAuthEnabled: "false",
  IDCFlareClientId: "",
  IDCFlareClientSecret: "",
  IDCFlareMinimumTrustLevel: "0",
  WeChatAuthEnabled: "false",
  WeChatServerAddress: "",
  WeChatServerToken: "",
  WeChatAccountQRCodeImageURL: "",
  TelegramOAuthEnabled: "false",
  TelegramBotToken: "",
  TelegramBotName: "",
  TurnstileCheckEnabled: "false",
  // passkey sign-in from the login page (docs/two-factor.md)
  PasskeyLoginEnabled: "false",
  TurnstileSiteKey: "",
  TurnstileSecretKey: "",

  // mail
  SMTPServer: "",
  SMTPPort: "587",
  SMTPAccount: "",
  SMTPFrom: "",
  SMTPToken: "",
  SMTPSSLEnabled: "false",

  // network and payment
  ServerAddress: "",
  WorkerUrl: "",
  WorkerValidKey: "",
  ReverseProxyEnabled: "false",
  ReverseProxyProvider: "nginx",
  EpayId: "",
  EpayKey: "",
  PayAddress: "",
  CustomCallbackAddress: "",
  // Stripe Checkout (docs/payments.md)
  StripeApiSecret: "",
  StripeWebhookSecret: "",
  StripePriceId: "",
  StripeUnitPrice: "8",
  StripeMinTopUp: "1",

  // outbound requests (docs/outbound.md): channels on loopback and private addresses
  "fetch_setting.allow_private_ip": "false",
  // update check (docs/settings.md): a release source answering {tag_name, body}; empty: no check
  UpdateCheckUrl: "",

  // branding
  SystemName: "AI Gateway",
  Logo: "",
  About: "",
  HomePageContent: "",
  Footer: "",
  Notice: "",
  custom_head_html: "",
  global_css: "",
  global_js: "",

  // model mapping: virtual model name -> [{model, priorities}] (docs/product-rules.md, "Options")
  model_mapping: json({}),
};

// The secret keys and the boolean rule live with the shared rules (lib/options/rules.ts).
export { SECRET_OPTION_KEYS, isBooleanOption } from "@/lib/options/rules";
