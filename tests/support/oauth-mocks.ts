// Local stand-ins for the sign-in providers (docs/oauth.md, "Tests"), each on 127.0.0.1 and
// speaking its provider's protocol: GitHub's web flow and API, Discourse Connect (LINUX DO
// and IDC Flare), a WeChat server, and Cloudflare's Turnstile siteverify. The OpenID provider
// is the real `oidc-provider` package (tests/support/oidc-op.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";

export type Mock = { url: string; close: () => Promise<void> };

async function listen(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      Promise.resolve(handler(req, res, body)).catch((e) => {
        res.statusCode = 500;
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}` };
}

const closer = (server: Server) => () => new Promise<void>((r) => server.close(() => r()));

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

// The account the next consent grants, chosen by the test; codes and tokens the mock issued.
type Grant<U> = { user: U; redirectUri: string };

// The provider's consent page: answers at once with a redirect back to redirect_uri with a
// code and the state, as the provider does after the user agrees.
function consent<U>(res: ServerResponse, url: URL, clientId: string, codes: Map<string, Grant<U>>, user: U | null) {
  if (url.searchParams.get("client_id") !== clientId || !user) return json(res, 400, { error: "invalid_request" });
  const code = randomBytes(12).toString("hex");
  const redirectUri = url.searchParams.get("redirect_uri") ?? "";
  codes.set(code, { user, redirectUri });
  const back = new URL(redirectUri);
  back.searchParams.set("code", code);
  back.searchParams.set("state", url.searchParams.get("state") ?? "");
  res.writeHead(302, { location: back.toString() });
  res.end();
}

export type GitHubUser = { id: number; login: string; name: string; email: string | null };

export async function startGitHubMock(clientId: string, clientSecret: string) {
  const codes = new Map<string, Grant<GitHubUser>>();
  const tokens = new Map<string, GitHubUser>();
  const state = { next: null as GitHubUser | null, tokenCalls: 0 };
  const { server, url } = await listen((req, res, body) => {
    const u = new URL(req.url ?? "/", "http://x");
    if (req.method === "GET" && u.pathname === "/login/oauth/authorize") return consent(res, u, clientId, codes, state.next);
    if (req.method === "POST" && u.pathname === "/login/oauth/access_token") {
      state.tokenCalls++;
      const f = new URLSearchParams(body);
      const grant = codes.get(f.get("code") ?? "");
      codes.delete(f.get("code") ?? "");
      // GitHub answers 200 with an error field for a bad code.
      if (f.get("client_id") !== clientId || f.get("client_secret") !== clientSecret || !grant || grant.redirectUri !== f.get("redirect_uri")) {
        return json(res, 200, { error: "bad_verification_code" });
      }
      const token = `gho_${randomBytes(16).toString("hex")}`;
      tokens.set(token, grant.user);
      return json(res, 200, { access_token: token, token_type: "bearer", scope: "user:email" });
    }
    if (req.method === "GET" && u.pathname === "/user") {
      const user = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
      if (!user) return json(res, 401, { message: "Bad credentials" });
      return json(res, 200, user);
    }
    json(res, 404, { message: "Not Found" });
  });
  return { url, close: closer(server), state };
}

export type DiscourseUser = { id: number; username: string; name: string; active: boolean; trust_level: number; silenced: boolean };

export async function startDiscourseMock(clientId: string, clientSecret: string) {
  const codes = new Map<string, Grant<DiscourseUser>>();
  const tokens = new Map<string, DiscourseUser>();
  const state = { next: null as DiscourseUser | null };
  const { server, url } = await listen((req, res, body) => {
    const u = new URL(req.url ?? "/", "http://x");
    if (req.method === "GET" && u.pathname === "/oauth2/authorize") return consent(res, u, clientId, codes, state.next);
    if (req.method === "POST" && u.pathname === "/oauth2/token") {
      const basic = Buffer.from(`${clientId}:${clientSecret}`).toString("base64");
      const f = new URLSearchParams(body);
      const grant = codes.get(f.get("code") ?? "");
      codes.delete(f.get("code") ?? "");
      if (req.headers.authorization !== `Basic ${basic}`) return json(res, 401, { error: "invalid_client" });
      if (f.get("grant_type") !== "authorization_code" || !grant || grant.redirectUri !== f.get("redirect_uri"))
        return json(res, 400, { error: "invalid_grant" });
      const token = randomBytes(16).toString("hex");
      tokens.set(token, grant.user);
      return json(res, 200, { access_token: token, token_type: "bearer", expires_in: 3600 });
    }
    if (req.method === "GET" && u.pathname === "/api/user") {
      const user = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
      if (!user) return json(res, 401, { error: "invalid_token" });
      return json(res, 200, user);
    }
    json(res, 404, { error: "not_found" });
  });
  return { url, close: closer(server), state };
}

// The WeChat server: the official account hands a user a code valid three minutes; the
// gateway exchanges it with the server token for the user's openid.
export async function startWeChatMock(token: string) {
  const codes = new Map<string, { openid: string; issued: number }>();
  const { server, url } = await listen((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    if (req.method === "GET" && u.pathname === "/api/wechat/user") {
      if (req.headers.authorization !== token) return json(res, 200, { success: false, message: "token invalid" });
      const code = u.searchParams.get("code") ?? "";
      const entry = codes.get(code);
      codes.delete(code);
      if (!entry || Date.now() - entry.issued > 3 * 60_000) return json(res, 200, { success: false, message: "code invalid or expired" });
      return json(res, 200, { success: true, message: "", data: entry.openid });
    }
    json(res, 404, { success: false, message: "not found" });
  });
  return {
    url,
    close: closer(server),
    issue(openid: string, issued = Date.now()) {
      const code = String(100000 + Math.floor(Math.random() * 900000));
      codes.set(code, { openid, issued });
      return code;
    },
  };
}

// Turnstile's siteverify: success for the token "pass" with the right secret.
export async function startTurnstileMock(secret: string) {
  const calls: Array<{ secret: string; response: string; remoteip: string | null }> = [];
  const { server, url } = await listen((req, res, body) => {
    const f = new URLSearchParams(body);
    calls.push({ secret: f.get("secret") ?? "", response: f.get("response") ?? "", remoteip: f.get("remoteip") });
    const ok = req.method === "POST" && f.get("secret") === secret && f.get("response") === "pass";
    json(
      res,
      200,
      ok ? { success: true, challenge_ts: new Date().toISOString(), hostname: "127.0.0.1" } : { success: false, "error-codes": ["invalid-input-response"] },
    );
  });
  return { url: `${url}/turnstile/v0/siteverify`, close: closer(server), calls };
}
