// The third-party sign-in providers (docs/oauth.md): which option switches each on, which
// user column holds its binding, and where its endpoints are. The base URLs of GitHub, LINUX
// DO and IDC Flare come from the environment (lib/env.ts) so that tests can point them at
// local servers; the OIDC endpoints are options the admin sets.
import "server-only";
import { env } from "@/lib/env";
import { getOption } from "@/lib/options/store";
import type { OptionKey } from "@/lib/options/registry";

export const REDIRECT_PROVIDERS = ["github", "oidc", "linuxdo", "idcflare"] as const;
export type RedirectProvider = (typeof REDIRECT_PROVIDERS)[number];
export type Provider = RedirectProvider | "wechat" | "telegram";

export const BINDING_COLUMN = {
  github: "github_id",
  oidc: "oidc_id",
  linuxdo: "linux_do_id",
  idcflare: "idc_flare_id",
  wechat: "wechat_id",
  telegram: "telegram_id",
} as const satisfies Record<Provider, string>;
export type BindingColumn = (typeof BINDING_COLUMN)[Provider];

export const ENABLED_OPTION: Record<Provider, OptionKey> = {
  github: "GitHubOAuthEnabled",
  oidc: "oidc.enabled",
  linuxdo: "LinuxDOOAuthEnabled",
  idcflare: "IDCFlareOAuthEnabled",
  wechat: "WeChatAuthEnabled",
  telegram: "TelegramOAuthEnabled",
};

// Usernames given to accounts created through a provider: a short prefix and the user's
// number (usernames are at most 12 characters).
export const USERNAME_PREFIX: Record<Provider, string> = {
  github: "gh_",
  oidc: "oidc_",
  linuxdo: "ld_",
  idcflare: "idc_",
  wechat: "wx_",
  telegram: "tg_",
};

const trim = (u: string) => u.replace(/\/+$/, "");

export function discourseBase(provider: "linuxdo" | "idcflare"): string {
  return trim(provider === "linuxdo" ? env().LINUXDO_URL : env().IDCFLARE_URL);
}

// The page the browser is sent to for consent.
export function authorizeEndpoint(provider: RedirectProvider): string {
  switch (provider) {
    case "github":
      return `${trim(env().GITHUB_OAUTH_URL)}/login/oauth/authorize`;
    case "oidc":
      return getOption("oidc.authorization_endpoint");
    default:
      return `${discourseBase(provider)}/oauth2/authorize`;
  }
}

export function clientId(provider: RedirectProvider): string {
  return getOption(({ github: "GitHubClientId", oidc: "oidc.client_id", linuxdo: "LinuxDOClientId", idcflare: "IDCFlareClientId" } as const)[provider]);
}

export function clientSecret(provider: RedirectProvider): string {
  return getOption(
    ({ github: "GitHubClientSecret", oidc: "oidc.client_secret", linuxdo: "LinuxDOClientSecret", idcflare: "IDCFlareClientSecret" } as const)[provider],
  );
}

// The callback page registered with the provider, built from ServerAddress (never from the
// request's Host header); "" when ServerAddress is not set.
export function redirectUri(provider: RedirectProvider): string {
  const base = trim(getOption("ServerAddress"));
  return base ? `${base}/oauth/${provider}` : "";
}
