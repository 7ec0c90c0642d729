// Exchanging the code a provider sent back for the identity of its user (docs/oauth.md):
// GitHub (web flow, then GET /user), LINUX DO and IDC Flare (Discourse Connect: OAuth 2 with
// HTTP Basic client authentication, then GET /api/user, whose trust_level must reach the
// configured minimum) and OIDC (lib/oauth/oidc.ts).
import "server-only";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { getNumber } from "@/lib/options/store";
import { providerJson, str } from "@/lib/oauth/http";
import { oidcIdentity } from "@/lib/oauth/oidc";
import { clientId, clientSecret, discourseBase, redirectUri, type RedirectProvider } from "@/lib/oauth/providers";

export type Identity = { id: string; username: string; displayName: string; email: string };

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = "application/x-www-form-urlencoded";

async function github(code: string): Promise<Identity> {
  const token = await providerJson(
    `${env().GITHUB_OAUTH_URL.replace(/\/+$/, "")}/login/oauth/access_token`,
    {
      method: "POST",
      headers: { "content-type": FORM },
      body: form({ client_id: clientId("github"), client_secret: clientSecret("github"), code, redirect_uri: redirectUri("github") }),
    },
    "oauth_exchange_failed",
  );
  const accessToken = str(token.access_token);
  if (!accessToken) throw new AppError("RULE", "oauth_exchange_failed");
  const user = await providerJson(
    `${env().GITHUB_API_URL.replace(/\/+$/, "")}/user`,
    { headers: { authorization: `Bearer ${accessToken}`, "user-agent": "ai-gateway" } },
    "oauth_userinfo_failed",
  );
  const id = str(user.id);
  if (!id) throw new AppError("RULE", "oauth_userinfo_failed");
  return { id, username: str(user.login), displayName: str(user.name) || str(user.login), email: str(user.email) };
}

async function discourse(provider: "linuxdo" | "idcflare", code: string): Promise<Identity> {
  const base = discourseBase(provider);
  const basic = Buffer.from(`${clientId(provider)}:${clientSecret(provider)}`).toString("base64");
  const token = await providerJson(
    `${base}/oauth2/token`,
    {
      method: "POST",
      headers: { "content-type": FORM, authorization: `Basic ${basic}` },
      body: form({ grant_type: "authorization_code", code, redirect_uri: redirectUri(provider) }),
    },
    "oauth_exchange_failed",
  );
  const accessToken = str(token.access_token);
  if (!accessToken) throw new AppError("RULE", "oauth_exchange_failed");
  const user = await providerJson(`${base}/api/user`, { headers: { authorization: `Bearer ${accessToken}` } }, "oauth_userinfo_failed");
  const id = str(user.id);
  if (!id) throw new AppError("RULE", "oauth_userinfo_failed");
  if (user.active === false || user.silenced === true) throw new AppError("RULE", "oauth_account_inactive");
  const minimum = Math.min(4, Math.max(0, Math.trunc(getNumber(provider === "linuxdo" ? "LinuxDOMinimumTrustLevel" : "IDCFlareMinimumTrustLevel", 0))));
  const level = typeof user.trust_level === "number" ? user.trust_level : -1;
  if (level < minimum) throw new AppError("RULE", "oauth_trust_level_low", { level: Math.max(level, 0), minimum });
  return { id, username: str(user.username), displayName: str(user.name) || str(user.username), email: str(user.email) };
}

export async function exchangeCode(provider: RedirectProvider, code: string, state: string): Promise<Identity> {
  if (!redirectUri(provider)) throw new AppError("RULE", "oauth_needs_server_address");
  switch (provider) {
    case "github":
      return github(code);
    case "oidc":
      return oidcIdentity(code, state);
    default:
      return discourse(provider, code);
  }
}
