// A real OpenID provider for the tests: the `oidc-provider` package on 127.0.0.1, with one
// confidential client (client_secret_basic) whose redirect URI is the gateway's /oauth/oidc.
// The login and consent steps finish at once for the account the test chose (`next`), so a
// plain HTTP client can walk the authorization flow. `/tamper/token` forwards to the real
// token endpoint and, when `tamper` is set, re-signs the ID token (with the provider's own
// key) with a wrong nonce, issuer or audience, or an expiry in the past, for the refusal tests.
// `misplacedWellKnown` serves the provider's own discovery document under another path, so
// that its issuer does not match the URL it was read from. With `issuerSlash` the provider's
// issuer is its address with a trailing slash (its tokens' `iss` too), as some providers have.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWK } from "jose";
import Provider from "oidc-provider";

export type OidcAccount = { sub: string; name: string; preferred_username: string; email: string };
export type Tamper = null | "nonce" | "issuer" | "audience" | "foreign-key" | "expired";

export async function startOidcProvider(opts: { clientId: string; clientSecret: string; redirectUri: string; issuerSlash?: boolean }) {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const foreign = (await generateKeyPair("RS256", { extractable: true })).privateKey;
  const accounts = new Map<string, OidcAccount>();
  const control = { next: null as OidcAccount | null, tamper: null as Tamper };
  // assigned once the server listens (the issuer is its address); the handler reads it later
  // eslint-disable-next-line prefer-const
  let provider: Provider;

  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === "login") {
      const account = control.next!;
      accounts.set(account.sub, account);
      await provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: opts.clientId });
    grant.addOIDCScope("openid profile email");
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  async function tamperedToken(req: IncomingMessage, res: ServerResponse, body: string, base: string) {
    const real = await fetch(`${base}/token`, {
      method: "POST",
      headers: { "content-type": String(req.headers["content-type"]), authorization: String(req.headers.authorization ?? "") },
      body,
    });
    const answer = (await real.json()) as Record<string, unknown>;
    if (control.tamper && typeof answer.id_token === "string") {
      const claims = decodeJwt(answer.id_token);
      if (control.tamper === "nonce") claims.nonce = "not-the-state";
      if (control.tamper === "issuer") claims.iss = "http://127.0.0.1:9/another-issuer";
      if (control.tamper === "audience") claims.aud = "another-client";
      if (control.tamper === "expired") {
        // Well past the gateway's 30 seconds of clock tolerance.
        const now = Math.floor(Date.now() / 1000);
        claims.iat = now - 3600;
        claims.exp = now - 600;
      }
      const key = control.tamper === "foreign-key" ? foreign : privateKey;
      answer.id_token = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "test-key" }).sign(key);
    }
    res.writeHead(real.status, { "content-type": "application/json" });
    res.end(JSON.stringify(answer));
  }

  let base = "";
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path.startsWith("/interaction/")) {
      interaction(req, res).catch((e) => {
        res.statusCode = 500;
        res.end(String(e));
      });
      return;
    }
    if (path === "/elsewhere/.well-known/openid-configuration") {
      fetch(`${base}/.well-known/openid-configuration`)
        .then(async (real) => {
          res.writeHead(real.status, { "content-type": "application/json" });
          res.end(await real.text());
        })
        .catch((e) => {
          res.statusCode = 500;
          res.end(String(e));
        });
      return;
    }
    if (path === "/tamper/token") {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => void tamperedToken(req, res, body, base));
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  provider = new Provider(opts.issuerSlash ? `${base}/` : base, {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ["oidc-op-test-cookie-key"] },
    claims: { openid: ["sub"], profile: ["name", "preferred_username"], email: ["email", "email_verified"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, i) => `/interaction/${i.uid}` },
    async findAccount(_ctx, sub) {
      const a = accounts.get(sub);
      if (!a) return undefined;
      return { accountId: sub, claims: async () => ({ sub, name: a.name, preferred_username: a.preferred_username, email: a.email, email_verified: true }) };
    },
  });
  return {
    issuer: base,
    wellKnown: `${base}/.well-known/openid-configuration`,
    control,
    tamperTokenEndpoint: `${base}/tamper/token`,
    misplacedWellKnown: `${base}/elsewhere/.well-known/openid-configuration`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

// Walks the authorization flow like a browser: follows the provider's redirects (keeping
// its cookies) until it redirects to the gateway's callback page; answers that URL.
export async function walkAuthorization(start: string, callbackPrefix: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  for (let i = 0; i < 20; i++) {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get("location");
    if (!location) throw new Error(`the provider stopped at ${url} with ${res.status}: ${await res.text()}`);
    const next = new URL(location, url);
    if (next.toString().startsWith(callbackPrefix)) return next;
    url = next.toString();
  }
  throw new Error("too many redirects");
}
