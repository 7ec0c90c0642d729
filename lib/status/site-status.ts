// The public site status record, built from the options cache (docs/product-rules.md, "Site
// status, setup status, browser state"). It is public: it carries flags and client ids,
// never a secret.
import "server-only";
import { quotaDisplayOptions } from "@/lib/options/quota-display";
import { mailConfigured } from "@/lib/mail/send";
import { getBool, getJson, getNumber, getOption } from "@/lib/options/store";
import { epayConfig, stripeConfig } from "@/lib/payments/config";
import { isSetupDone } from "@/lib/setup/state";
import { APP_VERSION, START_TIME } from "@/lib/version";

export async function siteStatus() {
  return {
    // branding and display
    system_name: getOption("SystemName"),
    logo: getOption("Logo"),
    footer_html: getOption("Footer"),
    ...quotaDisplayOptions(),
    display_token_stat: getBool("DisplayTokenStatEnabled"),
    default_collapse_sidebar: getBool("DefaultCollapseSidebar"),
    chats: getJson<unknown[]>("Chats", []),
    chat_link: "",
    chat_link2: "",
    docs_link: getOption("general_setting.docs_link"),
    top_up_link: getOption("TopUpLink"),
    server_address: getOption("ServerAddress"),
    version: APP_VERSION,
    start_time: START_TIME,
    price: getNumber("Price", 7.3),
    min_topup: getNumber("MinTopUp", 1),
    // which online top-up methods are on (docs/payments.md, "Off"); never a key
    enable_online_topup: epayConfig().enabled,
    enable_stripe_topup: stripeConfig().enabled,
    stripe_unit_price: getNumber("StripeUnitPrice", 8),
    stripe_min_topup: getNumber("StripeMinTopUp", 1),
    // features
    enable_drawing: getBool("DrawingEnabled"),
    enable_task: getBool("TaskEnabled"),
    enable_data_export: getBool("DataExportEnabled"),
    data_export_default_time: getOption("DataExportDefaultTime"),
    // the public status page /status and its badges on the pricing page (docs/performance.md)
    status_page_enabled: getBool("StatusPageEnabled"),
    mj_notify_enabled: getBool("MjNotifyEnabled"),
    aff_enabled: getBool("AffEnabled"),
    check_in_enabled: getBool("CheckInEnabled"),
    // chat calls' content is kept in the usage log: the token page and the playground say so
    log_chat_content_enabled: getBool("LogChatContentEnabled"),
    // modes
    setup: await isSetupDone(),
    self_use_mode_enabled: getBool("SelfUseModeEnabled"),
    demo_site_enabled: getBool("DemoSiteEnabled"),
    // login options
    password_login_enabled: getBool("PasswordLoginEnabled"),
    password_register_enabled: getBool("PasswordRegisterEnabled"),
    register_enabled: getBool("RegisterEnabled"),
    turnstile_check: getBool("TurnstileCheckEnabled"),
    passkey_login: getBool("PasskeyLoginEnabled"),
    turnstile_site_key: getOption("TurnstileSiteKey"),
    email_verification: getBool("EmailVerificationEnabled"),
    // whether the site can send mail (an SMTP server is set): without it the console explains
    // why e-mail binding cannot work instead of offering a button that fails (docs/console-ui.md)
    mail_configured: mailConfigured(),
    github_oauth: getBool("GitHubOAuthEnabled"),
    github_client_id: getOption("GitHubClientId"),
    oidc_enabled: getBool("oidc.enabled"),
    oidc_client_id: getOption("oidc.client_id"),
    oidc_authorization_endpoint: getOption("oidc.authorization_endpoint"),
    wechat_login: getBool("WeChatAuthEnabled"),
    wechat_qrcode: getOption("WeChatAccountQRCodeImageURL"),
    telegram_oauth: getBool("TelegramOAuthEnabled"),
    telegram_bot_name: getOption("TelegramBotName"),
    linuxdo_oauth: getBool("LinuxDOOAuthEnabled"),
    linuxdo_client_id: getOption("LinuxDOClientId"),
    idcflare_oauth: getBool("IDCFlareOAuthEnabled"),
    idcflare_client_id: getOption("IDCFlareClientId"),
  };
}

export type SiteStatus = Awaited<ReturnType<typeof siteStatus>>;
