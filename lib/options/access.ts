// Who may read and write which option (docs/settings.md, "Roles"). Pure and free of
// "server-only": the server enforces it (GET and PUT /api/option/) and the settings page
// disables what the caller cannot save.
// - The root (role 100) reads every option (secrets only as "set / not set") and writes all.
// - An admin (role 10) reads every option except the secrets and writes the operational ones
//   (quota, pricing, display, logs, monitoring, rate limit, check-in, content, models);
//   sign-in, payment, mail, network and security, modes, and the custom code injected into
//   every console page stay with the root.
// - Nobody reads a secret's value.
import { ROLE } from "@/lib/auth/roles";
import { SECRET_OPTION_KEYS } from "@/lib/options/rules";

const ROOT_ONLY_KEYS = new Set([
  // login and registration
  "PasswordLoginEnabled",
  "PasswordRegisterEnabled",
  "EmailVerificationEnabled",
  "RegisterEnabled",
  "EmailDomainRestrictionEnabled",
  "EmailAliasRestrictionEnabled",
  "EmailDomainWhitelist",
  // third-party sign-in and the human check
  "GitHubOAuthEnabled",
  "GitHubClientId",
  "oidc.enabled",
  "oidc.client_id",
  "oidc.well_known",
  "oidc.authorization_endpoint",
  "oidc.token_endpoint",
  "oidc.user_info_endpoint",
  "LinuxDOOAuthEnabled",
  "LinuxDOClientId",
  "LinuxDOMinimumTrustLevel",
  "IDCFlareOAuthEnabled",
  "IDCFlareClientId",
  "IDCFlareMinimumTrustLevel",
  "WeChatAuthEnabled",
  "WeChatServerAddress",
  "WeChatAccountQRCodeImageURL",
  "TelegramOAuthEnabled",
  "TelegramBotName",
  "TurnstileCheckEnabled",
  "PasskeyLoginEnabled",
  "TurnstileSiteKey",
  // mail
  "SMTPServer",
  "SMTPPort",
  "SMTPAccount",
  "SMTPFrom",
  "SMTPSSLEnabled",
  // network, security and payment
  "ServerAddress",
  "WorkerUrl",
  "ReverseProxyEnabled",
  "ReverseProxyProvider",
  "fetch_setting.allow_private_ip",
  "UpdateCheckUrl",
  // a URL the server fetches (docs/pricing.md, "Preset sources")
  "PresetRatioSourceUrl",
  "PresetRatioSourceKind",
  "EpayId",
  "PayAddress",
  "CustomCallbackAddress",
  "Price",
  "MinTopUp",
  "TopupGroupRatio",
  "StripePriceId",
  "StripeUnitPrice",
  "StripeMinTopUp",
  // modes
  "DemoSiteEnabled",
  "SelfUseModeEnabled",
  // code run in every visitor's browser (docs/settings.md, "Custom code")
  "custom_head_html",
  "global_css",
  "global_js",
]);

const isRootRole = (role: number) => role >= ROLE.root;

/** Whether a caller of this role may read the option's value (secrets: nobody). */
export function canReadOption(key: string, role: number): boolean {
  if (SECRET_OPTION_KEYS.has(key)) return false;
  return role >= ROLE.admin;
}

/** Whether a caller of this role may see that a secret is set (the root). */
export function canSeeSecretSet(role: number): boolean {
  return isRootRole(role);
}

/** Whether a caller of this role may save the option. */
export function canWriteOption(key: string, role: number): boolean {
  if (isRootRole(role)) return true;
  if (role < ROLE.admin) return false;
  return !SECRET_OPTION_KEYS.has(key) && !ROOT_ONLY_KEYS.has(key);
}
