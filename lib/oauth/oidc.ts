// OIDC sign-in (docs/oauth.md, "OIDC"): the Well-Known document (oidc.well_known) gives the
// issuer and the JWKS (its issuer must be the one the configured URL names); the code is exchanged at oidc.token_endpoint (client_secret_basic);
// the ID token is verified with jose: signature by a key of the JWKS, issuer, audience (our
// client id), expiry, and the nonce, which is the state of this sign-in; then the userinfo
// endpoint is read with the access token and its subject must be the ID token's.
import "server-only";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import { AppError } from "@/lib/errors";
import { getOption } from "@/lib/options/store";
import { providerJson, str } from "@/lib/oauth/http";
import { clientId, clientSecret, redirectUri } from "@/lib/oauth/providers";

type Discovery = { issuer: string; jwks: JSONWebKeySet; at: number; url: string };
const CACHE_MS = 5 * 60_000;
let cached: Discovery | null = null;

async function discovery(fresh: boolean): Promise<Discovery> {
  const url = getOption("oidc.well_known");
  if (!url) throw new AppError("RULE", "oidc_config_failed");
  if (!fresh && cached && cached.url === url && Date.now() - cached.at < CACHE_MS) return cached;
  const doc = await providerJson(url, {}, "oidc_config_failed");
  const issuer = str(doc.issuer);
  const jwksUri = str(doc.jwks_uri);
  if (!issuer || !jwksUri) throw new AppError("RULE", "oidc_config_failed");
  // OpenID Connect Discovery 1.0, section 4.3: the document must be the issuer's own. Without
  // this, a document served elsewhere (a wrong URL, a compromised or mistaken host) could name
  // any issuer and key set, and ID tokens of that issuer would be taken for the configured one.
  if (`${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration` !== url) throw new AppError("RULE", "oidc_config_failed");
  const jwks = await providerJson(jwksUri, {}, "oidc_config_failed");
  if (!Array.isArray(jwks.keys)) throw new AppError("RULE", "oidc_config_failed");
  cached = { issuer, jwks: jwks as unknown as JSONWebKeySet, at: Date.now(), url };
  return cached;
}

async function verifyIdToken(idToken: string, nonce: string): Promise<JWTPayload> {
  for (const fresh of [false, true]) {
    const d = await discovery(fresh);
    try {
      const { payload } = await jwtVerify(idToken, createLocalJWKSet(d.jwks), {
        issuer: d.issuer,
        audience: clientId("oidc"),
        requiredClaims: ["sub", "exp", "iat"],
        clockTolerance: 30,
      });
      if (payload.nonce !== nonce) throw new AppError("RULE", "oidc_token_invalid");
      return payload;
    } catch (e) {
      // A key the cached JWKS does not have: the provider may have rotated; read it again once.
      if (!fresh && e instanceof Error && "code" in e && e.code === "ERR_JWKS_NO_MATCHING_KEY") continue;
      if (e instanceof AppError) throw e;
      throw new AppError("RULE", "oidc_token_invalid");
    }
  }
  throw new AppError("RULE", "oidc_token_invalid");
}

export async function oidcIdentity(code: string, state: string) {
  const tokenEndpoint = getOption("oidc.token_endpoint");
  const userinfoEndpoint = getOption("oidc.user_info_endpoint");
  if (!tokenEndpoint || !userinfoEndpoint) throw new AppError("RULE", "oidc_config_failed");
  const basic = Buffer.from(`${encodeURIComponent(clientId("oidc"))}:${encodeURIComponent(clientSecret("oidc"))}`).toString("base64");
  const token = await providerJson(
    tokenEndpoint,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri("oidc") }).toString(),
    },
    "oauth_exchange_failed",
  );
  const idToken = str(token.id_token);
  const accessToken = str(token.access_token);
  if (!idToken || !accessToken) throw new AppError("RULE", "oauth_exchange_failed");
  const claims = await verifyIdToken(idToken, state);
  const info = await providerJson(userinfoEndpoint, { headers: { authorization: `Bearer ${accessToken}` } }, "oauth_userinfo_failed");
  if (str(info.sub) !== claims.sub) throw new AppError("RULE", "oidc_token_invalid");
  return {
    id: String(claims.sub),
    username: str(info.preferred_username),
    displayName: str(info.name) || str(info.preferred_username),
    email: info.email_verified === true ? str(info.email) : "",
  };
}
