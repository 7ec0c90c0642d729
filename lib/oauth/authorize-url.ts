// GET /api/oauth/{provider}/authorize: where the login (or bind) button sends the browser:
// the provider's authorization page with our client id, a new state, the redirect back to
// /oauth/{provider} built from ServerAddress, the scope, and for OIDC the nonce (the state).
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { getBool } from "@/lib/options/store";
import { issueState } from "@/lib/oauth/issue-state";
import { authorizeEndpoint, clientId, ENABLED_OPTION, redirectUri, type RedirectProvider } from "@/lib/oauth/providers";

const SCOPE: Record<RedirectProvider, string> = { github: "user:email", oidc: "openid profile email", linuxdo: "", idcflare: "" };

export async function authorizeUrl({ ctx, input }: { ctx: Ctx; input: { provider: RedirectProvider; aff: string } }) {
  const { provider } = input;
  if (!getBool(ENABLED_OPTION[provider])) throw new AppError("RULE", "oauth_provider_disabled");
  const redirect = redirectUri(provider);
  if (!redirect) throw new AppError("RULE", "oauth_needs_server_address");
  const endpoint = authorizeEndpoint(provider);
  if (!endpoint) throw new AppError("RULE", "oidc_config_failed");
  const { state, cookie } = await issueState({ ctx, input: { aff: input.aff } });
  const url = new URL(endpoint);
  url.searchParams.set("client_id", clientId(provider));
  url.searchParams.set("redirect_uri", redirect);
  url.searchParams.set("state", state);
  url.searchParams.set("response_type", "code");
  if (SCOPE[provider]) url.searchParams.set("scope", SCOPE[provider]);
  if (provider === "oidc") url.searchParams.set("nonce", state);
  return { url: url.toString(), cookie };
}
