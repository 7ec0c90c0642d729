// Third-party sign-in and binding (docs/oauth.md) against local providers speaking each
// protocol: a real OpenID provider (oidc-provider), GitHub, LINUX DO and IDC Flare stand-ins,
// a WeChat server, and Telegram's widget signature. Sign-up (with an invitation code), login,
// bind, the state rules (single use, this browser), the ID token checks (nonce, issuer,
// audience, signature), trust levels, bans, one user per identity, and the root's clearing.
import { createHash, createHmac } from "node:crypto";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setOptions, setupRoot, makeUser } from "../support/accounts";
import { ApiClient, type Envelope } from "../support/client";
import { startDiscourseMock, startGitHubMock, startWeChatMock, type DiscourseUser } from "../support/oauth-mocks";
import { startOidcProvider, walkAuthorization } from "../support/oidc-op";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

type User = {
  id: number;
  username: string;
  github_id: string;
  oidc_id: string;
  linux_do_id: string;
  idc_flare_id: string;
  wechat_id: string;
  telegram_id: string;
  inviter_id: number;
};

let server: TestServer;
let root: ApiClient;
let github: Awaited<ReturnType<typeof startGitHubMock>>;
let linuxdo: Awaited<ReturnType<typeof startDiscourseMock>>;
let idcflare: Awaited<ReturnType<typeof startDiscourseMock>>;
let wechat: Awaited<ReturnType<typeof startWeChatMock>>;
let op: Awaited<ReturnType<typeof startOidcProvider>>;
const BOT_TOKEN = "123456:telegram-bot-token-for-tests";

beforeAll(async () => {
  github = await startGitHubMock("gh-client", "gh-secret");
  linuxdo = await startDiscourseMock("ld-client", "ld-secret");
  idcflare = await startDiscourseMock("idc-client", "idc-secret");
  wechat = await startWeChatMock("wx-server-token");
  server = await startServer({
    env: { GITHUB_OAUTH_URL: github.url, GITHUB_API_URL: github.url, LINUXDO_URL: linuxdo.url, IDCFLARE_URL: idcflare.url },
  });
  root = await setupRoot(server);
  op = await startOidcProvider({ clientId: "gw-client", clientSecret: "gw-oidc-secret", redirectUri: `${server.url}/oauth/oidc` });
  await setOptions(root, {
    ServerAddress: server.url,
    RegisterEnabled: "true",
    AffEnabled: "true",
    GitHubOAuthEnabled: "true",
    GitHubClientId: "gh-client",
    GitHubClientSecret: "gh-secret",
    LinuxDOOAuthEnabled: "true",
    LinuxDOClientId: "ld-client",
    LinuxDOClientSecret: "ld-secret",
    LinuxDOMinimumTrustLevel: "2",
    IDCFlareOAuthEnabled: "true",
    IDCFlareClientId: "idc-client",
    IDCFlareClientSecret: "idc-secret",
    IDCFlareMinimumTrustLevel: "1",
    WeChatAuthEnabled: "true",
    WeChatServerAddress: wechat.url,
    WeChatServerToken: "wx-server-token",
    TelegramOAuthEnabled: "true",
    TelegramBotToken: BOT_TOKEN,
    TelegramBotName: "gateway_test_bot",
    "oidc.enabled": "true",
    "oidc.client_id": "gw-client",
    "oidc.client_secret": "gw-oidc-secret",
    "oidc.well_known": `${op.issuer}/.well-known/openid-configuration`,
    "oidc.authorization_endpoint": `${op.issuer}/auth`,
    "oidc.token_endpoint": op.tamperTokenEndpoint,
    "oidc.user_info_endpoint": `${op.issuer}/me`,
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await Promise.all([github?.close(), linuxdo?.close(), idcflare?.close(), wechat?.close(), op?.close()]);
});

// A browser: its API client (session cookie, New-Api-User) and the sign-in binding cookie.
class Browser {
  binding = "";
  constructor(readonly client: ApiClient) {}
  static anonymous(locale: "zh" | "en" = "en") {
    return new Browser(new ApiClient(server.url, locale));
  }
  cookies() {
    return [`NEXT_LOCALE=${this.client.locale}`, this.client.cookie, this.binding].filter(Boolean).join("; ");
  }
  async start(provider: string, aff = ""): Promise<string> {
    const res = await this.client.raw("GET", `/api/oauth/${provider}/authorize${aff ? `?aff=${aff}` : ""}`, undefined, { cookie: this.cookies() });
    expect(res.status, await res.clone().text()).toBe(302);
    for (const c of res.headers.getSetCookie()) if (c.startsWith("oauth_browser=")) this.binding = c.split(";")[0];
    return res.headers.get("location")!;
  }
  async finish(provider: string, callback: URL): Promise<Envelope<User | null>> {
    const q = `code=${encodeURIComponent(callback.searchParams.get("code") ?? "")}&state=${encodeURIComponent(callback.searchParams.get("state") ?? "")}`;
    const r = await this.client.call<User | null>("GET", `/api/oauth/${provider}?${q}`, undefined, { cookie: this.cookies() });
    if (r.success && r.data) this.client.userId = r.data.id;
    return r;
  }
  async signIn(provider: string, aff = "") {
    const cb = await walkAuthorization(await this.start(provider, aff), `${server.url}/oauth/${provider}`);
    return { cb, result: await this.finish(provider, cb) };
  }
}

async function self(c: ApiClient) {
  const r = await c.get<User>("/api/user/self");
  expect(r.success, r.message).toBe(true);
  return r.data;
}

describe("OIDC against a real OpenID provider", () => {
  it("the redirect carries client id, state, nonce, scope and a redirect URI built from ServerAddress", async () => {
    const b = Browser.anonymous();
    const location = new URL(await b.start("oidc"));
    expect(location.origin + location.pathname).toBe(`${op.issuer}/auth`);
    expect(location.searchParams.get("client_id")).toBe("gw-client");
    expect(location.searchParams.get("scope")).toBe("openid profile email");
    expect(location.searchParams.get("redirect_uri")).toBe(`${server.url}/oauth/oidc`);
    const state = location.searchParams.get("state")!;
    expect(Buffer.from(state, "base64url").length).toBeGreaterThanOrEqual(16);
    expect(location.searchParams.get("nonce")).toBe(state);
    // A forged Host header changes nothing.
    const res = await b.client.raw("GET", "/api/oauth/oidc/authorize", undefined, { cookie: b.cookies(), host: "evil.example" });
    expect(new URL(res.headers.get("location")!).searchParams.get("redirect_uri")).toBe(`${server.url}/oauth/oidc`);
  });

  it("signs up (with the invitation code), then logs in, and the session works", async () => {
    const inviter = await makeUser(server, root, "inviter1");
    const aff = (await inviter.client.get<string>("/api/user/aff")).data;
    op.control.next = { sub: "oidc-sub-1", name: "Olive", preferred_username: "olive", email: "olive@example.com" };
    const b = Browser.anonymous();
    const { result } = await b.signIn("oidc", aff);
    expect(result.success, result.message).toBe(true);
    const me = await self(b.client);
    expect(me.oidc_id).toBe("oidc-sub-1");
    expect(me.inviter_id).toBe(inviter.id);
    expect(me.username).toMatch(/^oidc_/);
    // the same identity logs in to the same account
    const again = Browser.anonymous();
    const second = await again.signIn("oidc");
    expect(second.result.success, second.result.message).toBe(true);
    expect(second.result.data!.id).toBe(me.id);
    // the audit log (docs/audit.md): the sign-up and each sign-in by the provider
    const rows = await query(server, 'SELECT "action", "detail" FROM "audit_logs" WHERE "user_id" = $1 ORDER BY "id"', [me.id]);
    expect(rows.map((r) => `${r.action} ${JSON.parse(String(r.detail)).method}`)).toEqual(["register oauth:oidc", "login oauth:oidc", "login oauth:oidc"]);
  });

  it("refuses a replayed state, a state from another browser, and an unknown state", async () => {
    op.control.next = { sub: "oidc-sub-1", name: "Olive", preferred_username: "olive", email: "" };
    const b = Browser.anonymous();
    const { cb, result } = await b.signIn("oidc");
    expect(result.success, result.message).toBe(true);
    const replay = await b.finish("oidc", cb);
    expect(replay.success).toBe(false);
    expect(replay.message).toBe("The sign-in state is invalid or has expired; start the sign-in again");

    const victim = Browser.anonymous();
    const cb2 = await walkAuthorization(await victim.start("oidc"), `${server.url}/oauth/oidc`);
    const attacker = Browser.anonymous();
    attacker.binding = "oauth_browser=" + "A".repeat(43);
    const stolen = await attacker.finish("oidc", cb2);
    expect(stolen.success).toBe(false);
    expect(stolen.message).toMatch(/sign-in state is invalid/);
    const none = await attacker.client.call("GET", "/api/oauth/oidc?code=x&state=made-up", undefined, { cookie: attacker.cookies() });
    expect(none.success).toBe(false);
    // the victim's own browser still finishes it (the attacker's try did not use it up)
    expect((await victim.finish("oidc", cb2)).success).toBe(true);
  });

  for (const tamper of ["nonce", "issuer", "audience", "foreign-key", "expired"] as const) {
    it(`refuses an ID token with a wrong ${tamper}`, async () => {
      op.control.next = { sub: "oidc-sub-1", name: "Olive", preferred_username: "olive", email: "" };
      op.control.tamper = tamper;
      try {
        const b = Browser.anonymous("zh");
        const { result } = await b.signIn("oidc");
        expect(result.success).toBe(false);
        expect(result.message).toBe("OIDC 身份令牌校验失败");
        expect(b.client.cookie).toBe("");
      } finally {
        op.control.tamper = null;
      }
    });
  }

  it("refuses a Well-Known document whose issuer is not the one its URL names", async () => {
    // The provider's real document (issuer op.issuer) served under another path.
    await setOptions(root, { "oidc.well_known": op.misplacedWellKnown });
    try {
      op.control.next = { sub: "oidc-sub-1", name: "Olive", preferred_username: "olive", email: "" };
      const b = Browser.anonymous();
      const { result } = await b.signIn("oidc");
      expect(result.success).toBe(false);
      expect(result.message).toBe("Failed to fetch the OIDC configuration; check the network and the Well-Known URL");
      expect(b.client.cookie).toBe("");
    } finally {
      await setOptions(root, { "oidc.well_known": `${op.issuer}/.well-known/openid-configuration` });
    }
    // The matching document works again.
    op.control.next = { sub: "oidc-sub-1", name: "Olive", preferred_username: "olive", email: "" };
    expect((await Browser.anonymous().signIn("oidc")).result.success).toBe(true);
  });

  it("accepts an issuer written with a trailing slash", async () => {
    const slashed = await startOidcProvider({
      clientId: "gw-client",
      clientSecret: "gw-oidc-secret",
      redirectUri: `${server.url}/oauth/oidc`,
      issuerSlash: true,
    });
    await setOptions(root, {
      "oidc.well_known": slashed.wellKnown,
      "oidc.authorization_endpoint": `${slashed.issuer}/auth`,
      "oidc.token_endpoint": slashed.tamperTokenEndpoint,
      "oidc.user_info_endpoint": `${slashed.issuer}/me`,
    });
    try {
      const doc = (await (await fetch(slashed.wellKnown)).json()) as { issuer: string };
      expect(doc.issuer).toBe(`${slashed.issuer}/`);
      slashed.control.next = { sub: "oidc-slash-1", name: "Sly", preferred_username: "sly", email: "" };
      const b = Browser.anonymous();
      const { result } = await b.signIn("oidc");
      expect(result.success, result.message).toBe(true);
      expect((await self(b.client)).oidc_id).toBe("oidc-slash-1");
    } finally {
      await setOptions(root, {
        "oidc.well_known": `${op.issuer}/.well-known/openid-configuration`,
        "oidc.authorization_endpoint": `${op.issuer}/auth`,
        "oidc.token_endpoint": op.tamperTokenEndpoint,
        "oidc.user_info_endpoint": `${op.issuer}/me`,
      });
      await slashed.close();
    }
  });

  it("binds to the signed-in user; an identity bound to another user is refused", async () => {
    const { client, id } = await makeUser(server, root, "binder1");
    op.control.next = { sub: "oidc-sub-2", name: "Bea", preferred_username: "bea", email: "" };
    const b = new Browser(client);
    const { result } = await b.signIn("oidc");
    expect(result.success, result.message).toBe(true);
    expect(result.message).toBe("bind");
    expect((await self(client)).oidc_id).toBe("oidc-sub-2");

    const other = await makeUser(server, root, "binder2");
    const b2 = new Browser(other.client);
    const r2 = await b2.signIn("oidc");
    expect(r2.result.success).toBe(false);
    expect(r2.result.message).toBe("This third-party account is already bound to another user");
    expect((await self(other.client)).oidc_id).toBe("");
    // logging in with it now reaches binder1
    const anon = Browser.anonymous();
    expect((await anon.signIn("oidc")).result.data!.id).toBe(id);
  });
});

describe("GitHub through a local GitHub", () => {
  it("signs up, logs in, and a banned user is refused", async () => {
    github.state.next = { id: 4242, login: "octo", name: "Octo Cat", email: null };
    const b = Browser.anonymous();
    const location = new URL(await b.start("github"));
    expect(location.origin + location.pathname).toBe(`${github.url}/login/oauth/authorize`);
    expect(location.searchParams.get("client_id")).toBe("gh-client");
    const cb = await walkAuthorization(location.toString(), `${server.url}/oauth/github`);
    const r = await b.finish("github", cb);
    expect(r.success, r.message).toBe(true);
    const me = await self(b.client);
    expect(me.github_id).toBe("4242");
    expect(me.username).toBe(`gh_${me.id}`);

    const ban = await root.post("/api/user/manage", { id: me.id, action: "disable" });
    expect(ban.success, ban.message).toBe(true);
    const again = await Browser.anonymous().signIn("github");
    expect(again.result.success).toBe(false);
    expect(again.result.message).toBe("This user has been banned");
    await root.post("/api/user/manage", { id: me.id, action: "enable" });
  });

  it("obeys RegisterEnabled for a new identity, but existing accounts still sign in", async () => {
    await setOptions(root, { RegisterEnabled: "false" });
    try {
      github.state.next = { id: 9999, login: "newbie", name: "", email: null };
      const r = await Browser.anonymous().signIn("github");
      expect(r.result.success).toBe(false);
      expect(r.result.message).toBe("The admin has disabled new user registration");
      github.state.next = { id: 4242, login: "octo", name: "Octo Cat", email: null };
      expect((await Browser.anonymous().signIn("github")).result.success).toBe(true);
    } finally {
      await setOptions(root, { RegisterEnabled: "true" });
    }
  });

  it("a provider that is off is refused at both ends", async () => {
    await setOptions(root, { GitHubOAuthEnabled: "false" });
    try {
      const b = Browser.anonymous();
      // the button's page goes to the callback page, which names the refusal (docs/oauth.md)
      const res = await b.client.raw("GET", "/api/oauth/github/authorize", undefined, { cookie: b.cookies() });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/oauth/github?oauth_error=disabled");
      const cb = await b.client.call("GET", "/api/oauth/github?code=a&state=b", undefined, { cookie: b.cookies() });
      expect(cb.message).toBe("The admin has not enabled sign-in and sign-up through this provider");
    } finally {
      await setOptions(root, { GitHubOAuthEnabled: "true" });
    }
  });
});

describe("LINUX DO and IDC Flare through local Discourse Connect servers", () => {
  const ld = (id: number, trust_level: number): DiscourseUser => ({ id, username: `ld${id}`, name: `LD ${id}`, active: true, trust_level, silenced: false });

  it("enforces the minimum trust level", async () => {
    linuxdo.state.next = ld(11, 1);
    const low = await Browser.anonymous().signIn("linuxdo");
    expect(low.result.success).toBe(false);
    expect(low.result.message).toBe("Trust level 1 is below the minimum trust level 2 the admin requires");
    linuxdo.state.next = ld(12, 2);
    const ok = Browser.anonymous();
    const r = await ok.signIn("linuxdo");
    expect(r.result.success, r.result.message).toBe(true);
    expect((await self(ok.client)).linux_do_id).toBe("12");
  });

  it("IDC Flare uses its own server and minimum", async () => {
    idcflare.state.next = { id: 21, username: "idc21", name: "", active: true, trust_level: 0, silenced: false };
    const low = await Browser.anonymous().signIn("idcflare");
    expect(low.result.message).toMatch(/Trust level 0 is below the minimum trust level 1/);
    idcflare.state.next = { id: 22, username: "idc22", name: "", active: true, trust_level: 1, silenced: false };
    const b = Browser.anonymous();
    const r = await b.signIn("idcflare");
    expect(r.result.success, r.result.message).toBe(true);
    expect((await self(b.client)).idc_flare_id).toBe("22");
  });
});

describe("WeChat through a local WeChat server", () => {
  it("signs in with a fresh code, refuses a used or expired one, and binds", async () => {
    const anon = new ApiClient(server.url);
    const code = wechat.issue("openid-1");
    const r = await anon.get<User>(`/api/oauth/wechat?code=${code}`);
    expect(r.success, r.message).toBe(true);
    expect(r.data.wechat_id).toBe("openid-1");
    const used = await new ApiClient(server.url).get(`/api/oauth/wechat?code=${code}`);
    expect(used.message).toBe("The verification code is wrong or has expired");
    const stale = wechat.issue("openid-2", Date.now() - 4 * 60_000);
    expect((await new ApiClient(server.url).get(`/api/oauth/wechat?code=${stale}`)).success).toBe(false);

    const { client } = await makeUser(server, root, "wxbinder");
    const bind = await client.get(`/api/oauth/wechat/bind?code=${wechat.issue("openid-3")}`);
    expect(bind.success, bind.message).toBe(true);
    expect((await self(client)).wechat_id).toBe("openid-3");
    const taken = await client.get(`/api/oauth/wechat/bind?code=${wechat.issue("openid-1")}`);
    expect(taken.message).toBe("This third-party account is already bound to another user");
    expect((await new ApiClient(server.url).get("/api/oauth/wechat/bind?code=1")).status).toBe(401);
  });

  it("a sign-up with &aff= records the inviter and rewards them", async () => {
    const inviter = await makeUser(server, root, "wxinviter");
    const aff = (await inviter.client.get<string>("/api/user/aff")).data;
    const r = await new ApiClient(server.url).get<User>(`/api/oauth/wechat?code=${wechat.issue("openid-invited")}&aff=${aff}`);
    expect(r.success, r.message).toBe(true);
    const [row] = await query(server, "SELECT inviter_id FROM users WHERE wechat_id = $1", ["openid-invited"]);
    expect(Number(row.inviter_id)).toBe(inviter.id);
    const [counted] = await query(server, "SELECT aff_count FROM users WHERE id = $1", [inviter.id]);
    expect(Number(counted.aff_count)).toBe(1);
  });

  it("a banned user is refused", async () => {
    const made = await new ApiClient(server.url).get<User>(`/api/oauth/wechat?code=${wechat.issue("openid-banned")}`);
    expect(made.success, made.message).toBe(true);
    expect((await root.post("/api/user/manage", { id: made.data.id, action: "disable" })).success).toBe(true);
    try {
      const c = new ApiClient(server.url);
      const again = await c.get(`/api/oauth/wechat?code=${wechat.issue("openid-banned")}`);
      expect(again).toMatchObject({ success: false, message: "This user has been banned" });
      expect(c.cookie).toBe("");
    } finally {
      await root.post("/api/user/manage", { id: made.data.id, action: "enable" });
    }
  });

  it("refuses a cross-site sign-in without using the code up", async () => {
    const code = wechat.issue("openid-csrf");
    const refused = await new ApiClient(server.url).call("GET", `/api/oauth/wechat?code=${code}`, undefined, { "sec-fetch-site": "cross-site" });
    expect(refused.status).toBe(403);
    expect(refused.message).toBe("Cross-site request refused");
    const ok = await new ApiClient(server.url).call<User>("GET", `/api/oauth/wechat?code=${code}`, undefined, { "sec-fetch-site": "same-origin" });
    expect(ok.success, ok.message).toBe(true);
    expect(ok.data.wechat_id).toBe("openid-csrf");
  });
});

describe("Telegram login widget", () => {
  function signed(fields: Record<string, string>, token = BOT_TOKEN) {
    const check = Object.keys(fields)
      .sort()
      .map((k) => `${k}=${fields[k]}`)
      .join("\n");
    const hash = createHmac("sha256", createHash("sha256").update(token).digest()).update(check).digest("hex");
    return new URLSearchParams({ ...fields, hash }).toString();
  }
  const now = () => String(Math.floor(Date.now() / 1000));

  it("a correct hash logs in; a forged, re-keyed or stale one is refused", async () => {
    const fields = { id: "777", first_name: "Tele", username: "tele", auth_date: now() };
    const ok = await new ApiClient(server.url).get<User>(`/api/oauth/telegram/login?${signed(fields)}&lang=en`);
    expect(ok.success, ok.message).toBe(true);
    expect(ok.data.telegram_id).toBe("777");

    const forged = signed(fields).replace("first_name=Tele", "first_name=Mallory");
    expect((await new ApiClient(server.url).get(`/api/oauth/telegram/login?${forged}`)).message).toBe("The Telegram sign-in data failed verification");
    const otherBot = signed(fields, "999:another-bot");
    expect((await new ApiClient(server.url).get(`/api/oauth/telegram/login?${otherBot}`)).success).toBe(false);
    const old = signed({ ...fields, auth_date: String(Math.floor(Date.now() / 1000) - 86_400 - 60) });
    expect((await new ApiClient(server.url).get(`/api/oauth/telegram/login?${old}`)).message).toBe("The Telegram sign-in data has expired; sign in again");
  });

  it("signs every received field but hash and our own (aff, lang): a field Telegram adds later counts", async () => {
    const fields = { id: "7771", first_name: "Extra", auth_date: now(), allows_write_to_pm: "true" };
    const ok = await new ApiClient(server.url).get<User>(`/api/oauth/telegram/login?${signed(fields)}&lang=en&aff=`);
    expect(ok.success, ok.message).toBe(true);
    expect(ok.data.telegram_id).toBe("7771");
    // The extra field is signed: changing it breaks the hash.
    const forged = signed(fields).replace("allows_write_to_pm=true", "allows_write_to_pm=false");
    expect((await new ApiClient(server.url).get(`/api/oauth/telegram/login?${forged}`)).message).toBe("The Telegram sign-in data failed verification");
  });

  it("refuses a cross-site request (login CSRF), and a same-origin one passes", async () => {
    const fields = { id: "7772", first_name: "Csrf", auth_date: now() };
    for (const site of ["cross-site", "same-site"]) {
      const r = await new ApiClient(server.url).call("GET", `/api/oauth/telegram/login?${signed(fields)}`, undefined, { "sec-fetch-site": site });
      expect(r.status).toBe(403);
      expect(r.message).toBe("Cross-site request refused");
    }
    const ok = await new ApiClient(server.url).call<User>("GET", `/api/oauth/telegram/login?${signed(fields)}`, undefined, { "sec-fetch-site": "same-origin" });
    expect(ok.success, ok.message).toBe(true);
  });

  it("a signed payload is good once, at login and bind alike, even when two arrive at once", async () => {
    const USED = "This Telegram sign-in data has already been used; sign in again";
    const payload = signed({ id: "7795", first_name: "Once", auth_date: now() });
    const first = await new ApiClient(server.url).get<User>(`/api/oauth/telegram/login?${payload}&lang=en`);
    expect(first.success, first.message).toBe(true);
    // Our own parameters are not signed: changing them does not make a new payload.
    for (const extra of ["", "&lang=zh", "&aff=abc"]) {
      const c = new ApiClient(server.url);
      expect(await c.get(`/api/oauth/telegram/login?${payload}${extra}`)).toMatchObject({ success: false, message: USED });
      expect(c.cookie).toBe("");
    }
    const { client } = await makeUser(server, root, "tgreplay");
    expect((await client.get(`/api/oauth/telegram/bind?${payload}`)).message).toBe(USED);
    expect((await self(client)).telegram_id).toBe("");
    // The spent payload is kept (as a hash) until auth_date plus a day, when it would be stale anyway.
    const authDate = Number(new URLSearchParams(payload).get("auth_date"));
    const hash = createHash("sha256").update(new URLSearchParams(payload).get("hash")!).digest("hex");
    const rows = await query(server, "SELECT expires_at FROM telegram_logins WHERE payload_hash = $1", [hash]);
    expect(rows.map((r) => Number(r.expires_at))).toEqual([authDate + 86_400]);

    const raced = signed({ id: "7796", first_name: "Race", auth_date: now() });
    const answers = await Promise.all([0, 1, 2].map(() => new ApiClient(server.url).get(`/api/oauth/telegram/login?${raced}`)));
    expect(answers.filter((a) => a.success)).toHaveLength(1);
    expect(answers.filter((a) => a.message === USED)).toHaveLength(2);
  });

  it("a banned user is refused", async () => {
    const t = Number(now());
    const made = await new ApiClient(server.url).get<User>(`/api/oauth/telegram/login?${signed({ id: "7790", first_name: "Ban", auth_date: String(t - 2) })}`);
    expect(made.success, made.message).toBe(true);
    expect((await root.post("/api/user/manage", { id: made.data.id, action: "disable" })).success).toBe(true);
    try {
      // A payload of its own (another auth_date): each signed payload is good once.
      const c = new ApiClient(server.url);
      const again = await c.get(`/api/oauth/telegram/login?${signed({ id: "7790", first_name: "Ban", auth_date: String(t - 1) })}`);
      expect(again).toMatchObject({ success: false, message: "This user has been banned" });
      expect(c.cookie).toBe("");
    } finally {
      await root.post("/api/user/manage", { id: made.data.id, action: "enable" });
    }
  });

  it("binds the signed-in user", async () => {
    const { client } = await makeUser(server, root, "tgbinder");
    const r = await client.get(`/api/oauth/telegram/bind?${signed({ id: "888", first_name: "B", auth_date: now() })}`);
    expect(r.success, r.message).toBe(true);
    expect((await self(client)).telegram_id).toBe("888");
  });
});

describe("the admin's user editor", () => {
  it("cannot write bindings: PUT /api/user/ with github_id, oidc_id, telegram_id and wechat_id leaves them as they were", async () => {
    const { id } = await makeUser(server, root, "editbind");
    const admin = await makeUser(server, root, "editadmin", 10);
    await query(server, "UPDATE users SET github_id = 'gh-keep', oidc_id = 'oidc-keep', telegram_id = 'tg-keep', wechat_id = 'wx-keep' WHERE id = $1", [id]);
    const kept = { github_id: "gh-keep", oidc_id: "oidc-keep", telegram_id: "tg-keep", wechat_id: "wx-keep" };
    for (const [editor, name] of [
      [root, "Edited by root"],
      [admin.client, "Edited by admin"],
    ] as const) {
      for (const attempt of [
        { github_id: "gh-new", oidc_id: "oidc-new", telegram_id: "tg-new", wechat_id: "wx-new" },
        { github_id: "", oidc_id: "", telegram_id: "", wechat_id: "" },
      ]) {
        const r = await editor.put("/api/user/", { id, username: "editbind", display_name: name, ...attempt });
        expect(r.success, r.message).toBe(true);
        const [row] = await query(server, "SELECT display_name, github_id, oidc_id, telegram_id, wechat_id FROM users WHERE id = $1", [id]);
        expect(row).toEqual({ display_name: name, ...kept });
      }
    }
  });
});

describe("the root clears a binding", () => {
  it("only the root", async () => {
    const { client, id } = await makeUser(server, root, "tgclear");
    const now = String(Math.floor(Date.now() / 1000));
    const fields = { id: "999", auth_date: now };
    const check = `auth_date=${now}\nid=999`;
    const hash = createHmac("sha256", createHash("sha256").update(BOT_TOKEN).digest()).update(check).digest("hex");
    expect((await client.get(`/api/oauth/telegram/bind?${new URLSearchParams({ ...fields, hash })}`)).success).toBe(true);
    expect((await client.del(`/api/user/${id}/binding/telegram`)).status).toBe(403);
    const r = await root.del(`/api/user/${id}/binding/telegram`);
    expect(r.success, r.message).toBe(true);
    expect((await self(client)).telegram_id).toBe("");
    const rows = await query(server, "SELECT telegram_id FROM users WHERE id = $1", [id]);
    expect(rows[0].telegram_id).toBe("");
  });
});

// A client that keeps every cookie the server sets (the session, oauth_browser, twofa_pending,
// twofa_fresh), as a browser does.
class Jar extends ApiClient {
  jar = new Map<string, string>();
  override async raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const sent = [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await super.raw(method, path, body, { ...headers, cookie: [`NEXT_LOCALE=${this.locale}`, sent].filter(Boolean).join("; ") });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === "" || /Max-Age=0/.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }
  // Sign-in through the local GitHub with this jar's cookies.
  async github(): Promise<Envelope<User | { require_2fa: true } | null>> {
    const start = await this.raw("GET", "/api/oauth/github/authorize");
    expect(start.status, await start.clone().text()).toBe(302);
    const cb = await walkAuthorization(start.headers.get("location")!, `${server.url}/oauth/github`);
    return this.call(
      "GET",
      `/api/oauth/github?code=${encodeURIComponent(cb.searchParams.get("code")!)}&state=${encodeURIComponent(cb.searchParams.get("state")!)}`,
    );
  }
}

describe("second factor and provider sign-in", () => {
  it("a provider login of a user with TOTP on takes the pending code step; binding needs a fresh factor", async () => {
    github.state.next = { id: 6161, login: "twofa-gh", name: "Two Fa", email: null };
    const owner = new Jar(server.url);
    const made = await owner.github();
    expect(made.success, made.message).toBe(true);
    owner.userId = (made.data as User).id;
    const setup = await owner.post<{ secret: string; backup_codes: string[] }>("/api/user/2fa/setup");
    expect(setup.success, setup.message).toBe(true);
    const enabledAt = Math.floor(Date.now() / 1000);
    const on = await owner.post("/api/user/2fa/enable", { code: await generate({ secret: setup.data.secret, epoch: enabledAt }) });
    expect(on.success, on.message).toBe(true);

    // Another browser signs in through GitHub: no session, the pending step instead.
    github.state.next = { id: 6161, login: "twofa-gh", name: "Two Fa", email: null };
    const other = new Jar(server.url);
    const pending = await other.github();
    expect(pending).toMatchObject({ success: true, data: { require_2fa: true }, message: "Enter your two-factor code" });
    expect(other.jar.has("session")).toBe(false);
    expect(other.jar.get("twofa_pending")).toMatch(/^[A-Za-z0-9]{32}$/);
    const done = await other.post<User>("/api/user/login/2fa", { code: await generate({ secret: setup.data.secret, epoch: enabledAt + 30 }) });
    expect(done.success, done.message).toBe(true);
    expect(done.data.id).toBe(owner.userId);
    expect(other.jar.has("session")).toBe(true);

    // Without a fresh second factor no bind starts or goes through.
    const fresh = "This action needs a fresh second factor (a code or a passkey) first";
    expect((await owner.get(`/api/oauth/wechat/bind?code=${wechat.issue("openid-2fa")}`)).message).toBe(fresh);
    expect((await owner.get("/api/oauth/state")).message).toBe(fresh);
    const authorize = await owner.call("GET", "/api/oauth/github/authorize");
    expect(authorize.message).toBe(fresh);
    const now = String(Math.floor(Date.now() / 1000));
    const check = `auth_date=${now}\nid=6262`;
    const hash = createHmac("sha256", createHash("sha256").update(BOT_TOKEN).digest()).update(check).digest("hex");
    expect((await owner.get(`/api/oauth/telegram/bind?${new URLSearchParams({ id: "6262", auth_date: now, hash })}`)).message).toBe(fresh);
    expect((await self(owner)).wechat_id).toBe("");

    // With a fresh factor the binds go through.
    expect((await owner.post("/api/user/2fa/verify", { code: setup.data.backup_codes[0] })).success).toBe(true);
    expect((await owner.get(`/api/oauth/wechat/bind?code=${wechat.issue("openid-2fa")}`)).success).toBe(true);
    expect((await self(owner)).wechat_id).toBe("openid-2fa");
    const state = await owner.call<string>("GET", "/api/oauth/state");
    expect(state.success, state.message).toBe(true);

    // A WeChat sign-in of this user now takes the code step too.
    const viaWx = new Jar(server.url);
    expect(await viaWx.get(`/api/oauth/wechat?code=${wechat.issue("openid-2fa")}`)).toMatchObject({ success: true, data: { require_2fa: true } });
    expect(viaWx.jar.has("session")).toBe(false);
  });

  it("every state request sends oauth_browser again with a fresh Max-Age", async () => {
    const b = new Jar(server.url);
    const first = await b.raw("GET", "/api/oauth/state");
    const c1 = first.headers.getSetCookie().find((c) => c.startsWith("oauth_browser="));
    expect(c1).toMatch(/Max-Age=600/);
    const second = await b.raw("GET", "/api/oauth/state");
    const c2 = second.headers.getSetCookie().find((c) => c.startsWith("oauth_browser="));
    expect(c2, "re-sent").toMatch(/Max-Age=600/);
    expect(c2!.split(";")[0]).toBe(c1!.split(";")[0]);
  });

  it("an account made through a provider sets a first password without an original", async () => {
    github.state.next = { id: 7171, login: "nopass", name: "No Pass", email: null };
    const b = new Jar(server.url);
    const made = await b.github();
    expect(made.success, made.message).toBe(true);
    const me = made.data as User;
    b.userId = me.id;
    expect((await b.get<{ has_password: boolean }>("/api/user/self")).data.has_password).toBe(false);
    const set = await b.put("/api/user/self", { password: "first-pass-1" });
    expect(set.success, set.message).toBe(true);
    expect((await b.get<{ has_password: boolean }>("/api/user/self")).data.has_password).toBe(true);
    const login = new ApiClient(server.url);
    expect((await login.login(me.username, "first-pass-1")).success).toBe(true);
    // From now on the original is asked for.
    expect(await b.put("/api/user/self", { password: "second-pass-2" })).toMatchObject({ success: false, message: "The original password is wrong" });
  });
});
