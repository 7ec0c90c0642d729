// First-run setup, login and logout, the session rules (New-Api-User), the system access
// token and the self calls, against the real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT_PASSWORD, loginAs, makeUser } from "../support/accounts";
import { ApiClient } from "../support/client";
import { queryDb } from "../support/db";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const body = (over: Record<string, unknown> = {}) => ({
  username: "root",
  password: ROOT_PASSWORD,
  confirmPassword: ROOT_PASSWORD,
  SelfUseModeEnabled: false,
  DemoSiteEnabled: false,
  ...over,
});

describe("first-run setup", () => {
  it("reports the status before setup", async () => {
    const r = await new ApiClient(server.url).get<{ status: boolean; root_init: boolean; database_type: string }>("/api/setup");
    expect(r.success).toBe(true);
    expect(r.data).toEqual({ status: false, root_init: false, database_type: server.dbKind === "postgresql" ? "postgres" : "sqlite" });
  });

  it("validates the form in Chinese and English", async () => {
    const zh = new ApiClient(server.url, "zh");
    const en = new ApiClient(server.url, "en");
    expect((await zh.post("/api/setup", body({ username: "  " }))).message).toBe("请输入管理员用户名");
    expect((await en.post("/api/setup", body({ username: "" }))).message).toBe("Please enter the admin username");
    expect((await zh.post("/api/setup", body({ password: "short", confirmPassword: "short" }))).message).toBe("密码长度至少为8个字符");
    expect((await en.post("/api/setup", body({ password: "short", confirmPassword: "short" }))).message).toBe("The password must be at least 8 characters");
    const mismatch = await zh.post("/api/setup", body({ confirmPassword: "different-1" }));
    expect(mismatch).toMatchObject({ success: false, status: 200, message: "两次输入的密码不一致" });
    expect((await en.post("/api/setup", body({ confirmPassword: "different-1" }))).message).toBe("The two passwords differ");
    expect((await zh.get<{ status: boolean }>("/api/setup")).data.status).toBe(false);
  });

  it("redirects every page to /setup before setup", async () => {
    for (const path of ["/", "/login", "/app/me"]) {
      const res = await fetch(server.url + path, { redirect: "manual" });
      expect(res.status).toBe(307);
      expect(res.headers.get("location")).toMatch(/\/setup$/);
    }
  });

  it("creates exactly one root and one setup row under concurrent calls", async () => {
    const clients = Array.from({ length: 6 }, () => new ApiClient(server.url));
    const results = await Promise.all(clients.map((c, i) => c.post<{ id: number }>("/api/setup", body({ username: `root${i}`, SelfUseModeEnabled: i === 0 }))));
    const winners = results.filter((r) => r.success);
    expect(winners).toHaveLength(1);
    // The winner is signed in as the new root (docs/accounts-api.md): the answer names it,
    // without its password, and set the session cookie; the others got no session.
    const signedIn = clients[results.indexOf(winners[0])];
    expect(winners[0].data).toMatchObject({ role: 100, display_name: "Root User" });
    expect(JSON.stringify(winners[0].data)).not.toMatch(/password|scrypt/);
    expect(signedIn.cookie).toMatch(/^session=/);
    signedIn.userId = winners[0].data.id;
    expect((await signedIn.get<{ role: number }>("/api/user/self")).data.role).toBe(100);
    expect(clients.filter((c) => c.cookie)).toEqual([signedIn]);
    for (const r of results.filter((r) => !r.success)) expect(r.message).toBe("The system has already been initialized");
    const roots = await queryDb<{ username: string }>(server, "SELECT username FROM users WHERE role >= 100");
    expect(roots).toHaveLength(1);
    const setups = await queryDb(server, "SELECT id FROM setups");
    expect(setups).toHaveLength(1);
    const status = await new ApiClient(server.url).get<{ status: boolean; root_init: boolean }>("/api/setup");
    expect(status.data).toMatchObject({ status: true, root_init: true });
    // a later call is refused too
    const again = await new ApiClient(server.url).post("/api/setup", body({ username: "late" }));
    expect(again).toMatchObject({ success: false, message: "The system has already been initialized" });
    // rename the winner to "root" for the rest of the file: log in as whoever won
    const winner = roots[0].username;
    const root = await loginAs(server, winner, ROOT_PASSWORD);
    const self = await root.get<{ role: number; status: number; username: string }>("/api/user/self");
    expect(self.data).toMatchObject({ role: 100, status: 1, username: winner });
    const mode = await new ApiClient(server.url).get<{ self_use_mode_enabled: boolean }>("/api/status");
    expect(mode.data.self_use_mode_enabled).toBe(winner === "root0");
    (globalThis as { rootName?: string }).rootName = winner;
  });

  it("redirects /setup to / and protected pages to /login after setup", async () => {
    const setup = await fetch(server.url + "/setup", { redirect: "manual" });
    expect(setup.status).toBe(307);
    expect(new URL(setup.headers.get("location")!, server.url).pathname).toBe("/");
    const me = await fetch(server.url + "/app/me", { redirect: "manual" });
    expect(me.status).toBe(307);
    expect(me.headers.get("location")).toContain("/login?returnTo=%2Fapp%2Fme");
  });
});

const rootName = () => (globalThis as { rootName?: string }).rootName!;

describe("login, logout and the session", () => {
  it("refuses wrong credentials with one message and never leaks secrets", async () => {
    const c = new ApiClient(server.url);
    expect((await c.login(rootName(), "wrong-password")).message).toBe("Wrong username or password, or the user is banned");
    expect((await c.login("nobody", "whatever-1")).message).toBe("Wrong username or password, or the user is banned");
    expect((await c.post("/api/user/login", { username: "", password: "" })).message).toBe("Please enter username and password");
    const ok = await c.raw("POST", "/api/user/login", { username: rootName(), password: ROOT_PASSWORD });
    const text = await ok.text();
    expect(text).not.toMatch(/scrypt|password"|access_token/);
    expect(ok.headers.get("set-cookie")).toMatch(/^session=[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
  });

  it("needs the New-Api-User header and it must match", async () => {
    const root = await loginAs(server, rootName(), ROOT_PASSWORD);
    expect((await root.get("/api/user/self")).success).toBe(true);
    const missing = await root.call("GET", "/api/user/self", undefined, { "new-api-user": "" });
    expect(missing.status).toBe(401);
    const other = await root.call("GET", "/api/user/self", undefined, { "new-api-user": String(root.userId! + 1) });
    expect(other.status).toBe(401);
    expect(other.message).toBe("Not allowed: New-Api-User does not match the logged-in user");
    const anon = await new ApiClient(server.url).get("/api/user/self");
    expect(anon.status).toBe(401);
  });

  it("logs out by clearing the cookie", async () => {
    const root = await loginAs(server, rootName(), ROOT_PASSWORD);
    const res = await root.raw("GET", "/api/user/logout");
    expect(res.headers.get("set-cookie")).toMatch(/^session=; .*Max-Age=0/);
    expect(root.cookie).toBe("");
    expect((await root.get("/api/user/self")).status).toBe(401);
  });

  it("refuses login when password login is off, and for banned users", async () => {
    const root = await loginAs(server, rootName(), ROOT_PASSWORD);
    const { id } = await makeUser(server, root, "banme");
    expect((await root.post("/api/user/manage", { id, action: "disable" })).success).toBe(true);
    const c = new ApiClient(server.url, "zh");
    expect((await c.login("banme", "user-pass-1")).message).toBe("用户已被封禁");
    expect((await root.put("/api/option/", { key: "PasswordLoginEnabled", value: "false" })).success).toBe(true);
    expect((await c.login(rootName(), ROOT_PASSWORD)).message).toBe("管理员关闭了密码登录");
    expect((await root.put("/api/option/", { key: "PasswordLoginEnabled", value: "true" })).success).toBe(true);
  });
});

describe("system access token", () => {
  it("authenticates with the Authorization header plus New-Api-User, and only the latest token", async () => {
    const root = await loginAs(server, rootName(), ROOT_PASSWORD);
    const first = await root.get<string>("/api/user/token");
    expect(first.data).toMatch(/^[A-Za-z0-9]{32}$/);
    const token = await root.get<string>("/api/user/token");
    const stored = await queryDb<{ access_token_hash: string }>(server, "SELECT access_token_hash FROM users WHERE id = $1", [root.userId]);
    expect(stored[0].access_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0].access_token_hash).not.toContain(token.data);

    const script = new ApiClient(server.url);
    const ok = await script.call<{ id: number }>("GET", "/api/user/self", undefined, { authorization: token.data, "new-api-user": String(root.userId) });
    expect(ok.success).toBe(true);
    expect(ok.data.id).toBe(root.userId);
    const bearer = await script.call("GET", "/api/user/self", undefined, { authorization: `Bearer ${token.data}`, "new-api-user": String(root.userId) });
    expect(bearer.success).toBe(true);
    const old = await script.call("GET", "/api/user/self", undefined, { authorization: first.data, "new-api-user": String(root.userId) });
    expect(old.status).toBe(401);
    const wrongUser = await script.call("GET", "/api/user/self", undefined, { authorization: token.data, "new-api-user": "999" });
    expect(wrongUser.status).toBe(401);
  });
});

describe("self", () => {
  it("returns the public user without secrets", async () => {
    const root = await loginAs(server, rootName(), ROOT_PASSWORD);
    const r = await root.get<Record<string, unknown>>("/api/user/self");
    expect(Object.keys(r.data)).not.toContain("password");
    expect(Object.keys(r.data)).not.toContain("access_token_hash");
    for (const k of [
      "id",
      "username",
      "display_name",
      "role",
      "status",
      "email",
      "group",
      "quota",
      "used_quota",
      "request_count",
      "aff_code",
      "aff_count",
      "aff_quota",
      "aff_history_quota",
      "inviter_id",
      "github_id",
      "oidc_id",
      "wechat_id",
      "telegram_id",
      "linux_do_id",
      "idc_flare_id",
      "setting",
      "remark",
      "created_time",
      "last_login_time",
      "DeletedAt",
    ]) {
      expect(r.data).toHaveProperty(k);
    }
    expect(r.data.DeletedAt).toBeNull();
    expect(typeof r.data.aff_code).toBe("string");
    expect((r.data.aff_code as string).length).toBeGreaterThan(0);
  });

  it("changes the display name and the password; the old sessions end", async () => {
    const root = await loginAs(server, rootName(), ROOT_PASSWORD);
    const { client: alice } = await makeUser(server, root, "alice", 1, "alice-pass-1");
    const aliceOther = await loginAs(server, "alice", "alice-pass-1");
    expect((await alice.put<{ display_name: string }>("/api/user/self", { display_name: "Alice A" })).data.display_name).toBe("Alice A");
    expect((await alice.put("/api/user/self", { password: "alice-pass-2", original_password: "nope-nope" })).message).toBe("The original password is wrong");
    expect((await alice.put("/api/user/self", { password: "alice-pass-2" })).message).toBe("The original password is wrong");
    expect((await alice.put("/api/user/self", { password: "short", original_password: "alice-pass-1" })).message).toBe(
      "The password length must not be below 8",
    );
    const changed = await alice.put("/api/user/self", { password: "alice-pass-2", original_password: "alice-pass-1" });
    expect(changed.success).toBe(true);
    // the caller got a fresh cookie and stays logged in; the other session has ended
    expect((await alice.get("/api/user/self")).success).toBe(true);
    expect((await aliceOther.get("/api/user/self")).status).toBe(401);
    expect((await new ApiClient(server.url).login("alice", "alice-pass-1")).success).toBe(false);
    expect((await new ApiClient(server.url).login("alice", "alice-pass-2")).success).toBe(true);
  });

  it("deletes the account softly; the root cannot delete itself", async () => {
    const root = await loginAs(server, rootName(), ROOT_PASSWORD);
    expect((await root.del("/api/user/self")).message).toBe("The super admin account cannot be deleted");
    const { id, client: bob } = await makeUser(server, root, "bob");
    await bob.get("/api/user/token");
    const res = await bob.del("/api/user/self");
    expect(res.success).toBe(true);
    expect(bob.cookie).toBe("");
    const rows = await queryDb<{ deleted_at: unknown; access_token_hash: unknown }>(server, "SELECT deleted_at, access_token_hash FROM users WHERE id = $1", [
      id,
    ]);
    expect(rows[0].deleted_at).not.toBeNull();
    expect(rows[0].access_token_hash).toBeNull();
    expect((await new ApiClient(server.url).login("bob", "user-pass-1")).message).toBe("Wrong username or password, or the user is banned");
  });
});

describe("server log", () => {
  it("has no unexpected errors and no secrets", () => {
    const logs = server.logs();
    expect(server.logLines().filter((l) => l.area === "api" && l.msg === "unexpected error")).toEqual([]);
    expect(logs).not.toMatch(/scrypt\$/);
  });
});
