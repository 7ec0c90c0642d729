// Two-factor authentication (docs/two-factor.md) over HTTP against the real server, with real
// TOTP codes computed by otplib: setup, the first code, the pending login step and its
// completion, a backup code working once, a TOTP step not accepted twice, the per-step and
// per-user attempt limits, the fresh second factor of sensitive actions, disabling, the
// root's reset, and the passkey calls' refusals (the passkey ceremonies themselves run in a
// browser: tests/e2e/two-factor.test.ts).
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginAs, makeUser, setOptions, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { query } from "../support/seed";
import { DEFAULT_ADMIN_PERMISSIONS } from "@/lib/auth/permissions";
import { startServer, type TestServer } from "../support/server";

// A client that keeps every cookie the server sets (the pending step, the fresh-factor proof).
class Browser extends ApiClient {
  jar = new Map<string, string>();
  override async raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    this.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await super.raw(method, path, body, headers);
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === "" || /Max-Age=0/.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    this.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    return res;
  }
}

type Setup = { secret: string; qr_code_data: string; backup_codes: string[] };
type Status = { enabled: boolean; pending: boolean; backup_codes_remaining: number; passkey_count: number; fresh_until: number };

const PASSWORD = "user-pass-1";
let server: TestServer;
let root: ApiClient;

// The code of the step offset seconds from now (the server accepts one step either way).
const totpAt = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset });

async function browserFor(username: string, locale: "zh" | "en" = "en"): Promise<Browser> {
  const b = new Browser(server.url, locale);
  const r = await b.login(username, PASSWORD);
  expect(r.success, r.message).toBe(true);
  return b;
}

// The code of the step that holds the given unix second.
const totpOfEpoch = (secret: string, epoch: number) => generate({ secret, epoch });

// A user with TOTP on: answers its secret, backup codes, a signed-in browser, and the unix
// second whose step turned TOTP on (so that a test can name that step and the next one
// exactly, whatever step boundary it crosses meanwhile).
async function userWith2fa(username: string, role: 1 | 10 = 1) {
  const { id } = await makeUser(server, root, username, role);
  const b = await browserFor(username);
  const s = await b.post<Setup>("/api/user/2fa/setup");
  expect(s.success, s.message).toBe(true);
  const enabledAt = Math.floor(Date.now() / 1000);
  const on = await b.post("/api/user/2fa/enable", { code: await totpOfEpoch(s.data.secret, enabledAt) });
  expect(on.success, on.message).toBe(true);
  return { id, browser: b, secret: s.data.secret, backup: s.data.backup_codes, enabledAt };
}

beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
});
afterAll(async () => {
  await server?.stop();
});

describe("TOTP setup", () => {
  it("answers a secret, its otpauth URI and ten backup codes, stores them sealed and hashed, and turns on with the first code", async () => {
    const { id } = await makeUser(server, root, "setupuser");
    const b = await browserFor("setupuser");
    expect((await b.get<Status>("/api/user/2fa/status")).data).toMatchObject({ enabled: false, pending: false, backup_codes_remaining: 0, passkey_count: 0 });

    const s = await b.post<Setup>("/api/user/2fa/setup");
    expect(s.success, s.message).toBe(true);
    expect(s.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(s.data.qr_code_data).toMatch(/^otpauth:\/\/totp\/.+:setupuser\?secret=[A-Z2-7]{32}&issuer=/);
    expect(s.data.qr_code_data).toContain(`secret=${s.data.secret}`);
    expect(s.data.backup_codes).toHaveLength(10);
    expect(new Set(s.data.backup_codes).size).toBe(10);
    for (const c of s.data.backup_codes) expect(c).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const [row] = await query(server, 'SELECT "secret", "backup_codes", "enabled" FROM "two_factors" WHERE "user_id" = $1', [id]);
    expect(String(row.secret)).not.toContain(s.data.secret);
    for (const c of s.data.backup_codes) expect(String(row.backup_codes)).not.toContain(c.replace("-", ""));
    expect(Boolean(row.enabled)).toBe(false);
    expect((await b.get<Status>("/api/user/2fa/status")).data).toMatchObject({ enabled: false, pending: true });

    // Not on yet: the password alone still signs in.
    expect((await new ApiClient(server.url).login("setupuser", PASSWORD)).data).not.toHaveProperty("require_2fa");

    const wrong = await b.post("/api/user/2fa/enable", { code: "000000" === (await totpAt(s.data.secret)) ? "111111" : "000000" });
    expect(wrong).toMatchObject({ success: false, message: "The code is wrong or has already been used" });
    const empty = await b.post("/api/user/2fa/enable", { code: "" });
    expect(empty).toMatchObject({ success: false, status: 400, message: "Enter the 6-digit code or a backup code" });
    const on = await b.post("/api/user/2fa/enable", { code: await totpAt(s.data.secret) });
    expect(on).toMatchObject({ success: true, message: "Two-factor authentication is on" });
    expect((await b.get<Status>("/api/user/2fa/status")).data).toMatchObject({ enabled: true, pending: false, backup_codes_remaining: 10 });

    // A second setup cannot replace a working one.
    expect(await b.post("/api/user/2fa/setup")).toMatchObject({ success: false, message: "Two-factor authentication is already on" });
    const zh = new Browser(server.url, "zh");
    zh.jar = new Map(b.jar);
    zh.userId = b.userId;
    expect((await zh.post("/api/user/2fa/setup")).message).toBe("两步验证已启用");
  });

  it("refuses enable without a setup, and every call without a session", async () => {
    await makeUser(server, root, "nosetup");
    const b = await browserFor("nosetup");
    expect(await b.post("/api/user/2fa/enable", { code: "123456" })).toMatchObject({ success: false, message: "Start the two-factor setup first" });
    expect(await b.post("/api/user/2fa/disable", { code: "123456" })).toMatchObject({ success: false, message: "Two-factor authentication is not on" });
    for (const path of ["/api/user/2fa/setup", "/api/user/2fa/enable", "/api/user/2fa/disable", "/api/user/2fa/backup_codes", "/api/user/2fa/verify"]) {
      expect((await new ApiClient(server.url).post(path, { code: "123456" })).status).toBe(401);
    }
    expect((await new ApiClient(server.url).get("/api/user/2fa/status")).status).toBe(401);
  });
});

describe("login with TOTP on", () => {
  it("answers require_2fa and no session; the code completes it; the step of a used code is refused; a backup code works once", async () => {
    const { secret, backup, enabledAt } = await userWith2fa("alice");
    // The step that turned TOTP on, and the one after it (accepted: one step either way of now).
    const usedCode = await totpOfEpoch(secret, enabledAt);
    const nextCode = await totpOfEpoch(secret, enabledAt + 30);

    const b = new Browser(server.url);
    const first = await b.post<{ require_2fa: boolean }>("/api/user/login", { username: "alice", password: PASSWORD });
    expect(first).toMatchObject({ success: true, data: { require_2fa: true }, message: "Enter your two-factor code" });
    expect(b.jar.has("session")).toBe(false);
    expect(b.jar.get("twofa_pending")).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await b.get("/api/user/self")).status).toBe(401);

    // The pending step belongs to this browser: another one has nothing to complete.
    const other = new Browser(server.url);
    expect(await other.post("/api/user/login/2fa", { code: await totpAt(secret) })).toMatchObject({
      success: false,
      message: "The sign-in step has expired; enter your username and password again",
    });

    // The code of the step used to turn TOTP on is not accepted again.
    expect(await b.post("/api/user/login/2fa", { code: usedCode })).toMatchObject({
      success: false,
      message: "The code is wrong or has already been used",
    });
    const done = await b.post<{ id: number; username: string }>("/api/user/login/2fa", { code: nextCode });
    expect(done.success, done.message).toBe(true);
    expect(done.data.username).toBe("alice");
    expect(b.jar.has("session")).toBe(true);
    expect(b.jar.has("twofa_pending")).toBe(false);
    b.userId = done.data.id;
    expect((await b.get<{ username: string }>("/api/user/self")).data.username).toBe("alice");
    // The same code again, on a new pending login: refused (its step is used).
    const again = new Browser(server.url);
    await again.post("/api/user/login", { username: "alice", password: PASSWORD });
    expect(await again.post("/api/user/login/2fa", { code: nextCode })).toMatchObject({ success: false });

    // A backup code (any case, with or without its dash) works once.
    const code = backup[0];
    const viaBackup = new Browser(server.url);
    await viaBackup.post("/api/user/login", { username: "alice", password: PASSWORD });
    expect((await viaBackup.post("/api/user/login/2fa", { code: code.toLowerCase().replace("-", "") })).success).toBe(true);
    const reuse = new Browser(server.url);
    await reuse.post("/api/user/login", { username: "alice", password: PASSWORD });
    expect(await reuse.post("/api/user/login/2fa", { code })).toMatchObject({ success: false, message: "The code is wrong or has already been used" });
    expect((await b.get<Status>("/api/user/2fa/status")).data.backup_codes_remaining).toBe(9);

    // The wrong password still answers the plain refusal, with no pending step.
    const bad = new Browser(server.url);
    expect((await bad.post("/api/user/login", { username: "alice", password: "wrong-pass-1" })).success).toBe(false);
    expect(bad.jar.has("twofa_pending")).toBe(false);
  });

  it("codes racing on one pending step: exactly one opens a session, and only its code is spent", async () => {
    const { secret, backup, browser } = await userWith2fa("racer");
    // A TOTP code with three backup codes, then four backup codes: nine checks with the
    // enabling one, within the per-user window of ten.
    const rounds = [
      [await totpAt(secret, 30), backup[0], backup[1], backup[2]],
      [backup[3], backup[4], backup[5], backup[6]],
    ];
    let remaining = 10;
    for (const [round, codes] of rounds.entries()) {
      const b = new Browser(server.url);
      expect((await b.post("/api/user/login", { username: "racer", password: PASSWORD })).data).toEqual({ require_2fa: true });
      const pending = b.jar.get("twofa_pending")!;
      const answers = await Promise.all(
        codes.map((code) => {
          const racer = new Browser(server.url);
          racer.jar.set("twofa_pending", pending);
          return racer.post("/api/user/login/2fa", { code });
        }),
      );
      const won = codes.filter((_, i) => answers[i].success);
      expect(won, JSON.stringify(answers.map((a) => a.message))).toHaveLength(1);
      for (const lost of answers.filter((a) => !a.success)) expect(lost.message).toBe("The sign-in step has expired; enter your username and password again");
      if (round === 1 || won[0] !== codes[0]) remaining -= 1;
      expect((await browser.get<Status>("/api/user/2fa/status")).data.backup_codes_remaining).toBe(remaining);
    }
  });

  it("a pending step allows five wrong codes, then it is gone", async () => {
    const { secret } = await userWith2fa("bob");
    const b = new Browser(server.url);
    await b.post("/api/user/login", { username: "bob", password: PASSWORD });
    const right = await totpAt(secret, 30);
    const wrongCode = right === "999999" ? "999998" : "999999";
    for (let i = 0; i < 4; i++) expect((await b.post("/api/user/login/2fa", { code: wrongCode })).message).toBe("The code is wrong or has already been used");
    expect((await b.post("/api/user/login/2fa", { code: wrongCode })).message).toBe("The sign-in step has expired; enter your username and password again");
    expect(await b.post("/api/user/login/2fa", { code: right })).toMatchObject({
      success: false,
      message: "The sign-in step has expired; enter your username and password again",
    });
  });

  it("rate-limits the codes of one user across pending steps", async () => {
    const { secret } = await userWith2fa("carol"); // 1 attempt (enable)
    let last = "";
    for (let i = 0; i < 9; i++) {
      const b = new Browser(server.url);
      await b.post("/api/user/login", { username: "carol", password: PASSWORD });
      last = (await b.post("/api/user/login/2fa", { code: "000001" })).message;
    }
    expect(last).toBe("The code is wrong or has already been used");
    const b = new Browser(server.url);
    await b.post("/api/user/login", { username: "carol", password: PASSWORD });
    const limited = await b.post("/api/user/login/2fa", { code: await totpAt(secret, 30) });
    expect(limited).toMatchObject({ success: false, status: 429, message: "Too many attempts; try again later" });
  });

  it("a password change voids a pending step", async () => {
    const { secret, browser } = await userWith2fa("pwchange");
    const pending = new Browser(server.url);
    await pending.post("/api/user/login", { username: "pwchange", password: PASSWORD });
    // The change itself needs a fresh factor.
    expect((await browser.post("/api/user/2fa/verify", { code: await totpAt(secret, 30) })).success).toBe(true);
    const changed = await browser.put("/api/user/self", { original_password: PASSWORD, password: "new-pass-12" });
    expect(changed.success, changed.message).toBe(true);
    expect((await pending.post("/api/user/login/2fa", { code: await totpAt(secret, -30) })).message).toBe(
      "The sign-in step has expired; enter your username and password again",
    );
  });
});

describe("sensitive actions", () => {
  it("need a fresh second factor when TOTP is on: password change, access token, account deletion", async () => {
    const { browser: b, backup } = await userWith2fa("dave");
    const fresh = "This action needs a fresh second factor (a code or a passkey) first";
    expect(await b.get("/api/user/token")).toMatchObject({ success: false, message: fresh });
    expect(await b.put("/api/user/self", { original_password: PASSWORD, password: "other-pass-1" })).toMatchObject({ success: false, message: fresh });
    expect(await b.del("/api/user/self")).toMatchObject({ success: false, message: fresh });
    // A display-name change is not sensitive.
    expect((await b.put("/api/user/self", { display_name: "Dave" })).success).toBe(true);
    expect((await b.get<Status>("/api/user/2fa/status")).data.fresh_until).toBe(0);

    expect(await b.post("/api/user/2fa/verify", { code: "AAAAA-AAAAA" })).toMatchObject({ success: false });
    const v = await b.post("/api/user/2fa/verify", { code: backup[1] });
    expect(v.success, v.message).toBe(true);
    expect(b.jar.get("twofa_fresh")).toBeTruthy();
    const until = (await b.get<Status>("/api/user/2fa/status")).data.fresh_until;
    expect(until).toBeGreaterThan(Date.now() / 1000 + 200);
    expect(until).toBeLessThanOrEqual(Date.now() / 1000 + 301);
    const token = await b.get<string>("/api/user/token");
    expect(token.success, token.message).toBe(true);
    expect(token.data).toMatch(/^[A-Za-z0-9]{32}$/);

    // The proof is this user's: another user's session with it is still refused.
    const { browser: eve } = await userWith2fa("eve2");
    const stolen = new Browser(server.url);
    stolen.jar = new Map(eve.jar);
    stolen.jar.set("twofa_fresh", b.jar.get("twofa_fresh")!);
    stolen.userId = eve.userId;
    expect(await stolen.get("/api/user/token")).toMatchObject({ success: false, message: fresh });

    expect((await b.del("/api/user/self")).success).toBe(true);
    const [gone] = await query(server, 'SELECT COUNT(*) AS n FROM "two_factors" WHERE "user_id" = $1', [b.userId]);
    expect(Number(gone.n)).toBe(0);
  });

  it("revealing a channel's key needs one too, and the reveal is audited once", async () => {
    const { id, browser: b, backup } = await userWith2fa("keyholder", 10);
    expect((await root.put(`/api/user/${id}/permissions`, { permissions: [...DEFAULT_ADMIN_PERMISSIONS, "channels:reveal"] })).success).toBe(true);
    const c = await root.post<{ id: number }>("/api/channel/", {
      type: 1,
      name: "revealed",
      key: "sk-fresh-reveal",
      models: "gpt-4o",
      base_url: "http://127.0.0.1:9",
    });
    expect(c.success, c.message).toBe(true);
    const channelId = Number((await query(server, "SELECT id FROM channels WHERE name = 'revealed'"))[0].id);
    const fresh = "This action needs a fresh second factor (a code or a passkey) first";
    expect(await b.post(`/api/channel/${channelId}/key`)).toMatchObject({ success: false, message: fresh });
    expect((await b.post("/api/user/2fa/verify", { code: backup[0] })).success).toBe(true);
    expect((await b.post<{ key: string }>(`/api/channel/${channelId}/key`)).data.key).toBe("sk-fresh-reveal");
    const rows = await query(server, "SELECT actor_id FROM audit_logs WHERE action = 'channel_key_reveal' AND target_id = $1", [String(channelId)]);
    expect(rows.map((r) => Number(r.actor_id))).toEqual([id]);
  });

  it("a user without a second factor is not asked", async () => {
    await makeUser(server, root, "plain");
    const b = await browserFor("plain");
    expect((await b.get<string>("/api/user/token")).success).toBe(true);
  });
});

describe("disable, new backup codes, root reset", () => {
  it("new backup codes replace the old ones; disable needs a valid code; afterwards the password alone signs in", async () => {
    const { browser: b, secret, backup } = await userWith2fa("frank");
    expect(await b.post("/api/user/2fa/backup_codes", { code: "AAAAA-AAAAA" })).toMatchObject({ success: false });
    const fresh = await b.post<{ backup_codes: string[] }>("/api/user/2fa/backup_codes", { code: backup[0] });
    expect(fresh.success, fresh.message).toBe(true);
    expect(fresh.data.backup_codes).toHaveLength(10);
    expect((await b.get<Status>("/api/user/2fa/status")).data.backup_codes_remaining).toBe(10);
    // The old codes are gone.
    expect(await b.post("/api/user/2fa/disable", { code: backup[1] })).toMatchObject({ success: false, message: "The code is wrong or has already been used" });
    expect(await b.post("/api/user/2fa/disable", { code: await totpAt(secret, 30) })).toMatchObject({
      success: true,
      message: "Two-factor authentication is off",
    });
    expect((await b.get<Status>("/api/user/2fa/status")).data).toMatchObject({ enabled: false, pending: false });
    expect((await new ApiClient(server.url).login("frank", PASSWORD)).data).toHaveProperty("username", "frank");
  });

  it("the root resets a user's 2FA; an admin cannot", async () => {
    const { id } = await userWith2fa("grace");
    const admin = await makeUser(server, root, "admin2", 10);
    expect((await admin.client.del(`/api/user/${id}/2fa`)).status).toBe(403);
    expect(await root.del(`/api/user/${id}/2fa`)).toMatchObject({ success: true, message: "The user's two-factor authentication and passkeys were reset" });
    expect((await root.del(`/api/user/99999/2fa`)).message).toBe("User not found");
    const c = await loginAs(server, "grace", PASSWORD);
    expect(c.userId).toBe(id);
  });
});

describe("passkey calls", () => {
  it("are refused without ServerAddress, and sign-in is refused while the site option is off", async () => {
    await makeUser(server, root, "pk");
    const b = await browserFor("pk");
    expect(await b.post("/api/user/passkey/register/begin")).toMatchObject({
      success: false,
      message: "The admin has not set the server address, so passkeys cannot be used",
    });
    expect((await new ApiClient(server.url).get<{ passkey_login: boolean }>("/api/status")).data.passkey_login).toBe(false);
    expect(await new ApiClient(server.url).post("/api/user/passkey/login/begin")).toMatchObject({
      success: false,
      message: "The admin has not turned on passkey sign-in",
    });
    expect((await new ApiClient(server.url, "zh").post("/api/user/passkey/login/begin")).message).toBe("管理员未开启通行密钥登录");

    await setOptions(root, { ServerAddress: "http://localhost:3999", PasskeyLoginEnabled: "true" });
    expect((await new ApiClient(server.url).get<{ passkey_login: boolean }>("/api/status")).data.passkey_login).toBe(true);
    const begin = await b.post<{ rp: { id: string }; challenge: string; excludeCredentials: unknown[] }>("/api/user/passkey/register/begin");
    expect(begin.success, begin.message).toBe(true);
    expect(begin.data.rp.id).toBe("localhost");
    expect(b.jar.get("webauthn_step")).toMatch(/^[A-Za-z0-9]{32}$/);
    const anon = new Browser(server.url);
    const login = await anon.post<{ rpId: string; challenge: string }>("/api/user/passkey/login/begin");
    expect(login.data.rpId).toBe("localhost");
    // A forged response is refused, and the challenge is then spent.
    const forged = {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA" },
      clientExtensionResults: {},
    };
    expect(await anon.post("/api/user/passkey/login/finish", { response: forged })).toMatchObject({ success: false });
    expect(await b.post("/api/user/passkey/register/finish", { name: "x", response: forged })).toMatchObject({
      success: false,
      message: "The passkey check failed",
    });
    expect(await b.post("/api/user/passkey/register/finish", { name: "x", response: forged })).toMatchObject({
      success: false,
      message: "The passkey check failed",
    });
    expect((await b.get<unknown[]>("/api/user/passkey")).data).toEqual([]);
    // A user with TOTP on adds a passkey only after a fresh second factor.
    const { browser: h, backup } = await userWith2fa("henry");
    expect(await h.post("/api/user/passkey/register/begin")).toMatchObject({
      success: false,
      message: "This action needs a fresh second factor (a code or a passkey) first",
    });
    expect((await h.post("/api/user/2fa/verify", { code: backup[0] })).success).toBe(true);
    expect((await h.post("/api/user/passkey/register/begin")).success).toBe(true);
    expect(await b.del("/api/user/passkey/12345")).toMatchObject({ success: false, message: "Passkey not found" });
    await setOptions(root, { ServerAddress: "", PasskeyLoginEnabled: "false" });
  });
});

describe("review fixes", () => {
  it("deleting a passkey needs a fresh second factor", async () => {
    const { browser: b, backup } = await userWith2fa("passkeydel");
    // No fresh proof: refused before the passkey is even looked up.
    expect(await b.del("/api/user/passkey/999999")).toMatchObject({
      success: false,
      message: "This action needs a fresh second factor (a code or a passkey) first",
    });
    expect((await b.post("/api/user/2fa/verify", { code: backup[0] })).success).toBe(true);
    expect(await b.del("/api/user/passkey/999999")).toMatchObject({ success: false, message: "Passkey not found" });
  });

  it("an admin reads the 2FA status only of users below them; the reset checks the root role first", async () => {
    const admin = await makeUser(server, root, "twofaadmin", 10);
    const peer = await makeUser(server, root, "twofapeer", 10);
    const plain = await makeUser(server, root, "twofaplain");
    const rootId = (await root.get<{ id: number }>("/api/user/self")).data.id;
    for (const id of [rootId, peer.id]) {
      expect(await admin.client.get(`/api/user/${id}/2fa`)).toMatchObject({
        success: false,
        message: "You cannot read, update or delete users of the same or higher level",
      });
    }
    expect(await admin.client.get(`/api/user/${plain.id}/2fa`)).toMatchObject({ success: true, data: { enabled: false, passkey_count: 0 } });
    expect((await root.get(`/api/user/${peer.id}/2fa`)).success).toBe(true);
    // A non-root is refused alike for an id that exists and one that does not.
    const missing = await admin.client.del("/api/user/99999999/2fa");
    const existing = await admin.client.del(`/api/user/${plain.id}/2fa`);
    expect(missing.status).toBe(403);
    expect(existing.status).toBe(403);
    expect(missing.message).toBe(existing.message);
  });
});
