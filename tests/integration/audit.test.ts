// The audit log (docs/audit.md) over HTTP against the real server, on SQLite and PostgreSQL:
// every act of the list writes its row with the actor, the target, the client's address, user
// agent and request id; a refused sign-in says why; a secret option's change says "changed"
// and its value is nowhere in the table; the filters, the paging and the CSV; /api/audit/self
// shows the caller's own events only; admins and users get 403 from /api/audit/; no route
// edits or deletes a row; the retention job deletes the rows older than the option's days and
// keeps the others.
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginAs, makeUser, ROOT_PASSWORD, setOptions } from "../support/accounts";
import { ApiClient } from "../support/client";
import { execDb, queryDb } from "../support/db";
import { startServer, type TestServer } from "../support/server";

type Row = {
  id: number;
  created_at: number | string;
  actor_id: number;
  actor_name: string;
  user_id: number;
  action: string;
  target_type: string;
  target_id: string;
  detail: string;
  ip: string;
  user_agent: string;
  request_id: string;
};
type View = Omit<Row, "detail" | "created_at"> & { created_at: number; detail: Record<string, unknown>; by_admin?: boolean };
type Page = { items: View[]; total: number; total_exact: boolean; page: number; page_size: number };

const UA = "audit-test-agent/1.0 (integration)";
let seq = 0;

// A client that sends a known user agent and a fresh request id with every call, and keeps
// every cookie (the 2FA steps need theirs); lastRequestId is the id of its last call.
class Client extends ApiClient {
  jar = new Map<string, string>();
  lastRequestId = "";
  override async raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    this.lastRequestId = `audit-req-${++seq}`;
    this.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await super.raw(method, path, body, Object.assign({ "user-agent": UA, "x-request-id": this.lastRequestId }, headers));
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

let server: TestServer;
let root: Client;

async function signIn(username: string, password: string): Promise<Client> {
  const c = new Client(server.url);
  const r = await c.login(username, password);
  expect(r.success, r.message).toBe(true);
  return c;
}

async function rows(where = "", params: unknown[] = []): Promise<Row[]> {
  return queryDb<Row>(server, `SELECT * FROM audit_logs ${where} ORDER BY id`, params);
}

// The newest row of an action (after the call that should have written it).
async function last(action: string): Promise<Row & { parsed: Record<string, unknown> }> {
  const found = await rows("WHERE action = $1", [action]);
  expect(found.length, `no ${action} row`).toBeGreaterThan(0);
  const row = found[found.length - 1];
  return Object.assign(row, { parsed: JSON.parse(row.detail) as Record<string, unknown> });
}

// The row of an act made by `client` carries who, what and the request it came with.
async function expectRow(action: string, client: Client, want: Partial<Omit<Row, "detail">> & { detail?: Record<string, unknown> }) {
  const row = await last(action);
  const { detail, ...columns } = want;
  expect(row).toMatchObject(columns);
  if (detail) expect(row.parsed).toMatchObject(detail);
  expect(row.ip).toMatch(/127\.0\.0\.1|::1/);
  expect(row.user_agent).toBe(UA);
  expect(row.request_id).toBe(client.lastRequestId);
  expect(Number(row.created_at)).toBeGreaterThan(Date.now() / 1000 - 600);
  return row;
}

let rootId: number;
let alice: { id: number; client: Client };
const ALICE_PASSWORD = "alice-pass-1";

beforeAll(async () => {
  server = await startServer();
  const anon = new Client(server.url);
  const r = await anon.post("/api/setup", {
    username: "root",
    password: ROOT_PASSWORD,
    confirmPassword: ROOT_PASSWORD,
    SelfUseModeEnabled: false,
    DemoSiteEnabled: false,
  });
  expect(r.success, r.message).toBe(true);
  root = await signIn("root", ROOT_PASSWORD);
  rootId = root.userId!;
  const made = await root.post<{ id: number }>("/api/user/", { username: "alice", password: ALICE_PASSWORD, role: 1 });
  expect(made.success, made.message).toBe(true);
  alice = { id: made.data.id, client: await signIn("alice", ALICE_PASSWORD) };
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("sign-ins, sign-ups and credentials", () => {
  it("records the setup's root, a sign-in and the account made by the root", async () => {
    expect((await last("register")).parsed).toEqual({ method: "setup" });
    const login = await last("login");
    expect(login).toMatchObject({
      action: "login",
      actor_id: alice.id,
      actor_name: "alice",
      user_id: alice.id,
      target_type: "user",
      target_id: String(alice.id),
    });
    expect(login.parsed).toEqual({ method: "password" });
    expect(login.request_id).toBe(alice.client.lastRequestId);
    expect(login.user_agent).toBe(UA);
    await expectRow("user_create", root, {
      actor_id: rootId,
      actor_name: "root",
      user_id: alice.id,
      target_type: "user",
      target_id: String(alice.id),
      detail: { username: "alice", role: 1 },
    });
  });

  it("records a refused sign-in with its reason, on the account when it exists, and writes no password", async () => {
    const anon = new Client(server.url);
    expect((await anon.login("alice", "wrong-password-typed")).success).toBe(false);
    await expectRow("login_failed", anon, {
      actor_id: 0,
      actor_name: "",
      user_id: alice.id,
      target_type: "user",
      target_id: String(alice.id),
      detail: { method: "password", reason: "wrong_password" },
    });
    expect((await anon.login("nobody-here", "another-wrong-one")).success).toBe(false);
    const unknown = await expectRow("login_failed", anon, { actor_id: 0, user_id: 0, target_type: "", target_id: "", detail: { reason: "unknown_user" } });
    expect(unknown.detail).not.toContain("nobody-here");
    const all = JSON.stringify(await rows());
    expect(all).not.toContain("wrong-password-typed");
    expect(all).not.toContain("another-wrong-one");
    expect(all).not.toContain(ALICE_PASSWORD);
  });

  it("records a sign-up with its method", async () => {
    const anon = new Client(server.url);
    const r = await anon.post<{ id: number }>("/api/user/register", {
      username: "bob",
      password: "bob-pass-12",
      email: "",
      verification_code: "",
      aff_code: "",
    });
    expect(r.success, r.message).toBe(true);
    const bob = (await queryDb<{ id: number }>(server, "SELECT id FROM users WHERE username = 'bob'"))[0].id;
    await expectRow("register", anon, { actor_id: bob, actor_name: "bob", user_id: bob, target_type: "user", detail: { method: "password" } });
  });

  it("records a password change, 2FA on, the second factor step, a refused code, 2FA off, and the sessions they end", async () => {
    const { id } = await makeUser(server, root, "carol");
    let carol = await signIn("carol", "user-pass-1");
    expect((await carol.put("/api/user/self", { password: "carol-new-pass", original_password: "user-pass-1" })).success).toBe(true);
    await expectRow("password_change", carol, { actor_id: id, user_id: id, target_id: String(id), detail: { by: "self" } });
    const setup = await carol.post<{ secret: string; backup_codes: string[] }>("/api/user/2fa/setup");
    expect(setup.success, setup.message).toBe(true);
    const enable = await carol.post("/api/user/2fa/enable", { code: await generate({ secret: setup.data.secret }) });
    expect(enable.success, enable.message).toBe(true);
    await expectRow("twofa_enable", carol, { actor_id: id, user_id: id });
    // the password step, then a wrong code, then the right one
    const again = new Client(server.url);
    const step = await again.post<{ require_2fa?: boolean }>("/api/user/login", { username: "carol", password: "carol-new-pass" });
    expect(step.data.require_2fa).toBe(true);
    await expectRow("login_2fa_required", again, { actor_id: id, user_id: id, detail: { method: "password" } });
    const right = await generate({ secret: setup.data.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    expect((await again.post("/api/user/login/2fa", { code: right === "000000" ? "111111" : "000000" })).success).toBe(false);
    await expectRow("login_failed", again, { actor_id: 0, user_id: id, detail: { method: "two_factor", reason: "twofa_code_invalid" } });
    const done = await again.post<{ id: number }>("/api/user/login/2fa", { code: right });
    expect(done.success, done.message).toBe(true);
    await expectRow("login", again, { actor_id: id, user_id: id, detail: { method: "two_factor" } });
    again.userId = id;
    carol = again;
    const off = await carol.post("/api/user/2fa/disable", { code: setup.data.backup_codes[0] });
    expect(off.success, off.message).toBe(true);
    await expectRow("twofa_disable", carol, { actor_id: id, user_id: id });
    // turning 2FA off ended carol's other session (the first one)
    await expectRow("session_revoke", carol, { actor_id: id, user_id: id, detail: { reason: "twofa_changed", count: 1 } });
    const all = JSON.stringify(await rows());
    expect(all).not.toContain(setup.data.secret);
    expect(all).not.toContain("carol-new-pass");
    for (const code of setup.data.backup_codes) expect(all).not.toContain(code);
  });

  it("records the root's 2FA reset, sign-outs, and sessions ended by the user and by an admin", async () => {
    const { id } = await makeUser(server, root, "dave");
    expect((await root.del(`/api/user/${id}/2fa`)).success).toBe(true);
    await expectRow("twofa_reset", root, {
      actor_id: rootId,
      user_id: id,
      target_id: String(id),
      detail: { username: "dave", totp_removed: false, passkeys_removed: 0 },
    });
    const first = await signIn("dave", "user-pass-1");
    const second = await signIn("dave", "user-pass-1");
    const ended = await second.post<{ ended: number }>("/api/user/sessions/revoke_all");
    // the root's 2FA reset ended the session makeUser opened: first's is the one other
    expect(ended.data.ended).toBe(1);
    await expectRow("session_revoke", second, { actor_id: id, user_id: id, detail: { reason: "others_revoked" } });
    await second.get("/api/user/logout");
    await expectRow("logout", second, { actor_id: id, actor_name: "dave", user_id: id });
    await signIn("dave", "user-pass-1");
    expect((await root.post<{ ended: number }>(`/api/user/${id}/sessions/revoke_all`)).data.ended).toBe(1);
    await expectRow("session_revoke", root, { actor_id: rootId, actor_name: "root", user_id: id, detail: { reason: "admin", count: 1 } });
    expect((await first.get("/api/user/self")).status).toBe(401);
    // no session id anywhere in the table
    const sids = await queryDb<{ id: string }>(server, "SELECT id FROM sessions");
    const all = JSON.stringify(await rows());
    for (const s of sids) expect(all).not.toContain(s.id);
  });

  it("records the system access token's renewal without the token", async () => {
    const r = await alice.client.get<string>("/api/user/token");
    expect(r.success, r.message).toBe(true);
    await expectRow("access_token_generate", alice.client, { actor_id: alice.id, user_id: alice.id });
    expect(JSON.stringify(await rows())).not.toContain(r.data);
  });
});

describe("an admin's acts", () => {
  it("records role changes, bans, quota and field changes, and a password set by an admin", async () => {
    const { id } = await makeUser(server, root, "erin");
    expect((await root.post("/api/user/manage", { id, action: "promote" })).success).toBe(true);
    await expectRow("role_change", root, { actor_id: rootId, user_id: id, target_id: String(id), detail: { role_from: 1, role_to: 10 } });
    expect((await root.post("/api/user/manage", { id, action: "disable" })).success).toBe(true);
    await expectRow("user_disable", root, { user_id: id, detail: { status_from: 1, status_to: 2 } });
    expect((await root.post("/api/user/manage", { id, action: "enable" })).success).toBe(true);
    await expectRow("user_enable", root, { user_id: id });
    const u = await root.put("/api/user/", { id, username: "erin", display_name: "Erin E", quota: 123456, password: "erin-admin-set-pw" });
    expect(u.success, u.message).toBe(true);
    await expectRow("quota_change", root, { actor_id: rootId, user_id: id, detail: { from: 0, to: 123456, delta: 123456 } });
    await expectRow("password_change", root, { actor_id: rootId, user_id: id, detail: { by: "admin" } });
    const fields = await expectRow("user_update", root, { user_id: id });
    expect(fields.parsed.fields).toEqual(["display_name"]);
    expect(JSON.stringify(await rows())).not.toContain("erin-admin-set-pw");
  });

  it('records an option change with its old and new values, and a secret\'s as "changed" only', async () => {
    await setOptions(root, { SystemName: "Audit Gateway" });
    await expectRow("option_change", root, {
      target_type: "option",
      target_id: "SystemName",
      detail: { key: "SystemName", old: "AI Gateway", new: "Audit Gateway" },
    });
    const secret = "smtp-secret-value-8a1f0c";
    await setOptions(root, { SMTPToken: secret });
    const row = await expectRow("option_change", root, { target_id: "SMTPToken" });
    expect(row.parsed).toEqual({ key: "SMTPToken", old: "changed", new: "changed", secret: true });
    await setOptions(root, { SMTPToken: "" });
    // the secret is nowhere in the table, in any column of any row
    const all = JSON.stringify(await rows());
    expect(all).not.toContain(secret);
    expect(all).not.toContain("8a1f0c");
  });

  it("records channel creation, edits and deletion without the keys", async () => {
    const key = "sk-channel-key-audit-77f3";
    const c = await root.post<{ id: number }[] | { id: number }>("/api/channel/", { type: 1, name: "audited", key, models: "gpt-x", group: "default" });
    expect(c.success, c.message).toBe(true);
    const created = await expectRow("channel_create", root, {
      actor_id: rootId,
      user_id: rootId,
      target_type: "channel",
      detail: { name: "audited", type: 1, mode: "single" },
    });
    const channelId = Number(created.target_id);
    const newKey = "sk-channel-key-audit-new-9c2e";
    expect((await root.put("/api/channel/", { id: channelId, name: "audited-2", key: newKey })).success).toBe(true);
    const edit = await expectRow("channel_update", root, { target_id: String(channelId), detail: { name: "audited-2", key_changed: true } });
    expect(edit.parsed.fields).toContain("name");
    expect((await root.del(`/api/channel/${channelId}`)).success).toBe(true);
    await expectRow("channel_delete", root, { target_id: String(channelId) });
    const all = JSON.stringify(await rows());
    expect(all).not.toContain(key);
    expect(all).not.toContain(newKey);
  });

  it("records a code batch without its codes, a manual top-up completion, and plan grants and revocations", async () => {
    const codes = await root.post<string[]>("/api/redemption/", { name: "audit batch", quota: 5000, count: 3 });
    expect(codes.success, codes.message).toBe(true);
    await expectRow("redemption_create", root, { target_type: "redemption", target_id: "audit batch", detail: { name: "audit batch", count: 3, quota: 5000 } });
    const all = JSON.stringify(await rows());
    for (const code of codes.data) expect(all).not.toContain(code);

    const tradeNo = "AUDIT-TRADE-0001";
    await execDb(server, "INSERT INTO top_ups (user_id, amount, money, trade_no, status, create_time) VALUES ($1, $2, $3, $4, 'pending', $5)", [
      alice.id,
      250000,
      3.5,
      tradeNo,
      Math.floor(Date.now() / 1000),
    ]);
    const done = await root.post<{ completed: boolean }>("/api/user/topup/complete", { trade_no: tradeNo });
    expect(done.data.completed).toBe(true);
    await expectRow("topup_complete", root, { actor_id: rootId, user_id: alice.id, target_type: "topup", target_id: tradeNo, detail: { amount: 250000 } });

    const plan = await root.post<{ id: number }>("/api/plan/", {
      name: "Audit plan",
      price: "1",
      currency: "USD",
      duration_days: 30,
      quota: 1000,
      reset_period: "none",
    });
    expect(plan.success, plan.message).toBe(true);
    const granted = await root.post<{ id: number }>(`/api/user/${alice.id}/plan`, { plan_id: plan.data.id });
    expect(granted.success, granted.message).toBe(true);
    await expectRow("plan_grant", root, {
      user_id: alice.id,
      target_type: "subscription",
      target_id: String(granted.data.id),
      detail: { plan_id: plan.data.id, plan_name: "Audit plan" },
    });
    expect((await root.del(`/api/user/${alice.id}/plan/${granted.data.id}`)).success).toBe(true);
    await expectRow("plan_revoke", root, { user_id: alice.id, target_id: String(granted.data.id) });
  });
});

describe("tokens", () => {
  it("records a token made, its key shown and its deletion, never the key", async () => {
    const made = await alice.client.post<{ id: number; key: string }[]>("/api/token/", { name: "audited token" });
    expect(made.success, made.message).toBe(true);
    const token = made.data[0];
    await expectRow("token_create", alice.client, {
      actor_id: alice.id,
      user_id: alice.id,
      target_type: "token",
      target_id: String(token.id),
      detail: { name: "audited token" },
    });
    const shown = await alice.client.post<{ key: string }>(`/api/token/${token.id}/key`);
    await expectRow("token_key_reveal", alice.client, { target_id: String(token.id) });
    expect((await alice.client.del(`/api/token/${token.id}`)).success).toBe(true);
    await expectRow("token_delete", alice.client, { target_id: String(token.id), detail: { name: "audited token" } });
    const all = JSON.stringify(await rows());
    expect(all).not.toContain(shown.data.key.replace(/^sk-/, ""));
    expect(all).not.toContain(token.key.replace(/^sk-/, ""));
  });
});

describe("reading the log", () => {
  it("pages newest first, with the filters by actor, action, target and time", async () => {
    const first = await root.get<Page>("/api/audit/?p=1&page_size=5");
    expect(first.success, first.message).toBe(true);
    const total = (await rows()).length;
    expect(first.data).toMatchObject({ page: 1, page_size: 5, total, total_exact: true });
    expect(first.data.items).toHaveLength(5);
    const ids = first.data.items.map((r) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const second = await root.get<Page>("/api/audit/?p=2&page_size=5");
    expect(second.data.items[0].id).toBeLessThan(ids[4]);

    const failed = await root.get<Page>("/api/audit/?action=login_failed&page_size=100");
    expect(failed.data.items.length).toBeGreaterThanOrEqual(3);
    expect(failed.data.items.every((r) => r.action === "login_failed")).toBe(true);
    expect(failed.data.items.find((r) => r.detail.reason === "wrong_password")).toBeTruthy();

    const byName = await root.get<Page>("/api/audit/?actor=alice&page_size=100");
    const byId = await root.get<Page>(`/api/audit/?actor=${alice.id}&page_size=100`);
    expect(byName.data.items.length).toBeGreaterThan(0);
    expect(byName.data.items).toEqual(byId.data.items);
    expect(byName.data.items.every((r) => r.actor_id === alice.id)).toBe(true);
    expect((await root.get<Page>("/api/audit/?actor=no-such-user")).data.total).toBe(0);
    const anonymous = await root.get<Page>("/api/audit/?actor=0&page_size=100");
    expect(anonymous.data.items.every((r) => r.actor_id === 0 && r.action === "login_failed")).toBe(true);

    const onAlice = await root.get<Page>(`/api/audit/?target=user:${alice.id}&page_size=100`);
    expect(onAlice.data.items.length).toBeGreaterThan(0);
    expect(onAlice.data.items.every((r) => r.target_type === "user" && r.target_id === String(alice.id))).toBe(true);
    const options = await root.get<Page>("/api/audit/?target=option&page_size=100");
    expect(new Set(options.data.items.map((r) => r.action))).toEqual(new Set(["option_change"]));

    // a time range: rows moved an hour back are found by it, the others are not
    const moved = (await rows("WHERE action = 'user_create'")).map((r) => r.id);
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    await execDb(server, `UPDATE audit_logs SET created_at = $1 WHERE action = 'user_create'`, [hourAgo]);
    const range = await root.get<Page>(`/api/audit/?start_timestamp=${hourAgo - 10}&end_timestamp=${hourAgo + 10}&page_size=100`);
    expect(range.data.items.map((r) => r.id).sort()).toEqual([...moved].sort());
    const both = await root.get<Page>(`/api/audit/?action=user_create&end_timestamp=${hourAgo - 20}`);
    expect(both.data.total).toBe(0);

    // bad filters answer 400 with the parameter named
    const bad = await root.call("GET", "/api/audit/?action=drop_table");
    expect(bad.status).toBe(400);
    expect((await root.call("GET", "/api/audit/?target=nothing:1")).status).toBe(400);
  });

  it("exports the filtered rows as CSV", async () => {
    const res = await root.raw("GET", "/api/audit/?action=login_failed&format=csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-all-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = (await res.text()).replace(/^\uFEFF/, "");
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe("id,time_utc,created_at,actor_id,actor_name,user_id,action,target_type,target_id,detail,ip,user_agent,request_id");
    const failed = await rows("WHERE action = 'login_failed'");
    expect(lines).toHaveLength(failed.length + 1);
    expect(lines.slice(1).every((l) => l.split(",")[6] === "login_failed")).toBe(true);
    expect(lines[1].split(",")[0]).toBe(String(failed[failed.length - 1].id));
    expect(text).toContain('"{""method"":""password"",""reason"":""wrong_password""}"');
    const own = await alice.client.raw("GET", "/api/audit/self?format=csv");
    expect(own.headers.get("content-disposition")).toContain(`audit-${alice.id}-`);
    const ownLines = (await own.text()).trim().split("\r\n").slice(1);
    expect(ownLines.length).toBe((await rows("WHERE user_id = $1", [alice.id])).length);
  });

  it("shows a user their own events only, without the admin's address", async () => {
    const mine = await alice.client.get<Page>("/api/audit/self?page_size=100");
    expect(mine.success, mine.message).toBe(true);
    const expected = await rows("WHERE user_id = $1", [alice.id]);
    expect(mine.data.total).toBe(expected.length);
    expect(mine.data.items.every((r) => r.user_id === alice.id)).toBe(true);
    const actions = new Set(mine.data.items.map((r) => r.action));
    for (const a of ["login", "login_failed", "topup_complete", "plan_grant", "token_create"]) expect(actions).toContain(a);
    // the root's acts on alice's account: no name, address, browser or request of the root
    const byRoot = mine.data.items.filter((r) => r.by_admin);
    expect(byRoot.length).toBeGreaterThan(0);
    for (const r of byRoot) expect(r).toMatchObject({ actor_id: 0, actor_name: "", ip: "", user_agent: "", request_id: "" });
    // a refused sign-in on her account shows where it came from
    const refused = mine.data.items.find((r) => r.action === "login_failed")!;
    expect(refused.ip).toMatch(/127\.0\.0\.1|::1/);
    // the filters apply within her own events; another user's id as actor finds nothing
    const logins = await alice.client.get<Page>("/api/audit/self?action=login");
    expect(logins.data.items.every((r) => r.action === "login" && r.user_id === alice.id)).toBe(true);
    expect((await alice.client.get<Page>(`/api/audit/self?actor=${rootId}`)).data.items.every((r) => r.user_id === alice.id)).toBe(true);
  });

  it("refuses the whole log to admins and users (403)", async () => {
    const { client: admin } = await makeUser(server, root, "plain-admin", 10);
    const a = await admin.get("/api/audit/");
    expect(a.status).toBe(403);
    expect(a.success).toBe(false);
    expect((await admin.raw("GET", "/api/audit/?format=csv")).status).toBe(403);
    expect((await alice.client.get("/api/audit/")).status).toBe(403);
    expect((await new Client(server.url).get("/api/audit/self")).status).toBe(401);
    // an admin reads their own events
    expect((await admin.get<Page>("/api/audit/self")).success).toBe(true);
  });

  it("has no route that edits or deletes a row", async () => {
    const before = await rows();
    const id = before[0].id;
    for (const method of ["PUT", "DELETE", "PATCH", "POST"]) {
      for (const path of ["/api/audit/", `/api/audit/${id}`, "/api/audit/self", `/api/audit/self/${id}`]) {
        const res = await root.raw(method, path, method === "DELETE" ? undefined : { id, action: "nothing" });
        expect([404, 405], `${method} ${path}`).toContain(res.status);
      }
    }
    const after = await rows();
    expect(after.slice(0, before.length)).toEqual(before);
  });
});

describe("a console request's id", () => {
  it("is the client's sane X-Request-Id, or a new one, in the answer's header", async () => {
    const given = await root.raw("GET", "/api/status", undefined, { "x-request-id": "console-id-1" });
    expect(given.headers.get("x-request-id")).toBe("console-id-1");
    const made = await root.raw("GET", "/api/status", undefined, { "x-request-id": "bad id with spaces" });
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe("retention (AuditLogRetentionDays)", () => {
  let short: TestServer;
  afterAll(async () => {
    await short?.stop();
  });

  it("deletes the rows older than the option's days and keeps the others; only the root sets it", async () => {
    short = await startServer({ env: { AUDIT_RETENTION_INTERVAL_SECONDS: "1" } });
    const anon = new ApiClient(short.url);
    expect(
      (
        await anon.post("/api/setup", {
          username: "root",
          password: ROOT_PASSWORD,
          confirmPassword: ROOT_PASSWORD,
          SelfUseModeEnabled: false,
          DemoSiteEnabled: false,
        })
      ).success,
    ).toBe(true);
    const r = await loginAs(short, "root", ROOT_PASSWORD);
    const { client: admin } = await makeUser(short, r, "ret-admin", 10);
    // the option is the root's: an admin cannot shorten the audit log
    expect((await admin.put("/api/option/", { key: "AuditLogRetentionDays", value: "1" })).success).toBe(false);
    expect((await r.put("/api/option/", { key: "AuditLogRetentionDays", value: "-1" })).success).toBe(false);
    expect((await r.put("/api/option/", { key: "AuditLogRetentionDays", value: "1.5" })).success).toBe(false);
    // the default (180 days) keeps a row of 100 days
    const all = await queryDb<{ id: number }>(short, "SELECT id FROM audit_logs ORDER BY id");
    expect(all.length).toBeGreaterThanOrEqual(4);
    const now = Math.floor(Date.now() / 1000);
    const [old, older, kept] = [all[0].id, all[1].id, all[2].id];
    await execDb(short, "UPDATE audit_logs SET created_at = $1 WHERE id = $2", [now - 100 * 86400, old]);
    await execDb(short, "UPDATE audit_logs SET created_at = $1 WHERE id = $2", [now - 40 * 86400, older]);
    await execDb(short, "UPDATE audit_logs SET created_at = $1 WHERE id = $2", [now - 20 * 86400, kept]);
    await new Promise((res) => setTimeout(res, 2500));
    expect((await queryDb(short, "SELECT id FROM audit_logs WHERE id = $1", [old])).length).toBe(1);
    // 30 days: the rows of 100 and 40 days go, the one of 20 days and the recent ones stay
    await setOptions(r, { AuditLogRetentionDays: "30" });
    const deadline = Date.now() + 15_000;
    let left: { id: number }[] = [];
    while (Date.now() < deadline) {
      left = await queryDb<{ id: number }>(short, "SELECT id FROM audit_logs ORDER BY id");
      if (!left.some((x) => x.id === old || x.id === older)) break;
      await new Promise((res) => setTimeout(res, 250));
    }
    const ids = left.map((x) => x.id);
    expect(ids).not.toContain(old);
    expect(ids).not.toContain(older);
    expect(ids).toContain(kept);
    expect(ids.length).toBe(all.length - 2 + 1); // the option's change is a new row
    // 0 keeps every row for ever
    await setOptions(r, { AuditLogRetentionDays: "0" });
    await execDb(short, "UPDATE audit_logs SET created_at = $1 WHERE id = $2", [now - 3650 * 86400, kept]);
    await new Promise((res) => setTimeout(res, 2500));
    expect((await queryDb(short, "SELECT id FROM audit_logs WHERE id = $1", [kept])).length).toBe(1);
    expect(short.logs()).toContain("audit retention: old rows removed");
  }, 60_000);
});
