// Revocable console sessions (docs/accounts-api.md, "Sessions"): every sign-in is a record;
// logout, ending one session, "sign out everywhere else", a password change (by the user or
// an admin), a 2FA change, a ban and an admin's revoke_all end sessions for good, so that a
// copied cookie is refused afterwards. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { loginAs, makeUser, ROOT_PASSWORD, setupRoot } from "../support/accounts";
import { query, seedUser } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

import type { SessionView } from "@/lib/sessions/manage";

const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

let server: TestServer;
let root: ApiClient;

// a copy of a signed-in client: the same cookie and user header, as a stolen cookie would be
function copyOf(c: ApiClient): ApiClient {
  const copy = new ApiClient(c.base, c.locale);
  copy.cookie = c.cookie;
  copy.userId = c.userId;
  return copy;
}

async function signIn(username: string, password: string, userAgent?: string): Promise<ApiClient> {
  const c = new ApiClient(server.url);
  const r = await c.call<{ id: number }>("POST", "/api/user/login", { username, password }, userAgent ? { "user-agent": userAgent } : {});
  expect(r.success, r.message).toBe(true);
  c.userId = r.data.id;
  return c;
}

async function works(c: ApiClient): Promise<boolean> {
  const r = await c.get<{ id: number }>("/api/user/self");
  return r.success === true && r.data.id === c.userId;
}

beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe("sessions", () => {
  it("records each sign-in with its device and address, and marks the caller's own", async () => {
    const { id } = await makeUser(server, root, "s-list");
    const mac = await signIn("s-list", "user-pass-1", CHROME_MAC);
    const phone = await signIn("s-list", "user-pass-1", SAFARI_IPHONE);
    const r = await mac.get<SessionView[]>("/api/user/sessions");
    expect(r.success, r.message).toBe(true);
    // makeUser signed in once, then two more
    expect(r.data).toHaveLength(3);
    const mine = r.data.filter((s) => s.current);
    expect(mine).toHaveLength(1);
    expect(mine[0].device).toBe("Chrome on macOS");
    expect(r.data.map((s) => s.device)).toContain("Safari on iOS");
    expect(r.data.every((s) => s.ip === "127.0.0.1" && s.created_at > 0 && s.expires_at - s.created_at === 30 * 24 * 3600)).toBe(true);
    // the phone sees the same three sessions, its own marked
    const fromPhone = await phone.get<SessionView[]>("/api/user/sessions");
    expect(fromPhone.data.find((s) => s.current)?.device).toBe("Safari on iOS");
    const rows = await query(server, 'SELECT COUNT(*) AS n FROM "sessions" WHERE "user_id" = $1', [id]);
    expect(Number(rows[0].n)).toBe(3);
  });

  it("refuses a cookie copied before logout once the session has logged out", async () => {
    await makeUser(server, root, "s-logout");
    const c = await signIn("s-logout", "user-pass-1");
    const copy = copyOf(c);
    expect(await works(copy)).toBe(true);
    const out = await c.raw("GET", "/api/user/logout");
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/^session=;.*Max-Age=0/);
    const r = await copy.get("/api/user/self");
    expect(r.status).toBe(401);
    expect(r.success).toBe(false);
    // and stays refused (not only until a cache entry expires): the record is gone
    const left = await query(server, 'SELECT COUNT(*) AS n FROM "sessions" WHERE "user_id" = $1', [c.userId]);
    expect(Number(left[0].n)).toBe(1); // makeUser's own sign-in
  });

  it("ends one session by its id; another user's id is not found; a bad id is a 400", async () => {
    await makeUser(server, root, "s-one");
    const a = await signIn("s-one", "user-pass-1", CHROME_MAC);
    const b = await signIn("s-one", "user-pass-1", SAFARI_IPHONE);
    const list = await a.get<SessionView[]>("/api/user/sessions");
    const bId = list.data.find((s) => s.device === "Safari on iOS")!.id;
    // another user cannot end it
    const other = (await makeUser(server, root, "s-other")).client;
    const foreign = await other.del(`/api/user/sessions/${bId}`);
    expect(foreign.success).toBe(false);
    expect(foreign.message).toBe("Session not found or already ended");
    expect(await works(b)).toBe(true);
    const bad = await a.del("/api/user/sessions/not-an-id");
    expect(bad.status).toBe(400);
    expect(bad.success).toBe(false);
    const r = await a.del<{ current: boolean }>(`/api/user/sessions/${bId}`);
    expect(r.success, r.message).toBe(true);
    expect(r.data.current).toBe(false);
    expect(await works(b)).toBe(false);
    expect(await works(a)).toBe(true);
    // ending it again: not found
    expect((await a.del(`/api/user/sessions/${bId}`)).message).toBe("Session not found or already ended");
    // ending the current one signs this client out
    const aId = (await a.get<SessionView[]>("/api/user/sessions")).data.find((s) => s.current)!.id;
    const copy = copyOf(a);
    const self = await a.raw("DELETE", `/api/user/sessions/${aId}`);
    expect(self.headers.get("set-cookie")).toMatch(/^session=;/);
    expect(await works(copy)).toBe(false);
  });

  it("revoke_all ends every other session and keeps the caller's", async () => {
    await makeUser(server, root, "s-all");
    const keep = await signIn("s-all", "user-pass-1");
    const others = [await signIn("s-all", "user-pass-1"), await signIn("s-all", "user-pass-1")];
    const r = await keep.post<{ ended: number }>("/api/user/sessions/revoke_all");
    expect(r.success, r.message).toBe(true);
    expect(r.data.ended).toBe(3); // makeUser's and the two others
    for (const o of others) expect(await works(o)).toBe(false);
    expect(await works(keep)).toBe(true);
    const list = await keep.get<SessionView[]>("/api/user/sessions");
    expect(list.data).toHaveLength(1);
    expect(list.data[0].current).toBe(true);
  });

  it("a password change ends the other sessions and keeps the caller's with a fresh cookie", async () => {
    await makeUser(server, root, "s-pass");
    const me = await signIn("s-pass", "user-pass-1");
    const other = await signIn("s-pass", "user-pass-1");
    const r = await me.put("/api/user/self", { password: "new-pass-22", original_password: "user-pass-1" });
    expect(r.success, r.message).toBe(true);
    expect(await works(me)).toBe(true);
    expect(await works(other)).toBe(false);
    expect((await me.get<SessionView[]>("/api/user/sessions")).data).toHaveLength(1);
  });

  it("an admin's password reset, a ban and an admin's revoke_all end every session of the user", async () => {
    const { id } = await makeUser(server, root, "s-ban");
    const a = await signIn("s-ban", "user-pass-1");
    const b = await signIn("s-ban", "user-pass-1");
    // admin revoke_all
    const admin = (await makeUser(server, root, "s-admin", 10)).client;
    const r = await admin.post<{ ended: number }>(`/api/user/${id}/sessions/revoke_all`);
    expect(r.success, r.message).toBe(true);
    expect(r.data.ended).toBe(3);
    expect(await works(a)).toBe(false);
    expect(await works(b)).toBe(false);
    // a ban: sessions end, and stay ended when the user is enabled again
    const c = await signIn("s-ban", "user-pass-1");
    expect((await admin.post("/api/user/manage", { id, action: "disable" })).success).toBe(true);
    expect((await admin.post("/api/user/manage", { id, action: "enable" })).success).toBe(true);
    expect(await works(c)).toBe(false);
    expect(Number((await query(server, 'SELECT COUNT(*) AS n FROM "sessions" WHERE "user_id" = $1', [id]))[0].n)).toBe(0);
    // a password set by an admin
    const d = await signIn("s-ban", "user-pass-1");
    expect((await admin.put("/api/user/", { id, password: "admin-set-9" })).success).toBe(true);
    expect(await works(d)).toBe(false);
    expect(await works(await signIn("s-ban", "admin-set-9"))).toBe(true);
  });

  it("an admin cannot end the sessions of an admin or the root; a user cannot call the admin route", async () => {
    const admin = await makeUser(server, root, "s-admin2", 10);
    const other = await makeUser(server, root, "s-admin3", 10);
    const r = await admin.client.post(`/api/user/${other.id}/sessions/revoke_all`);
    expect(r.success).toBe(false);
    expect(r.message).toBe("You cannot read, update or delete users of the same or higher level");
    expect(await works(other.client)).toBe(true);
    const rootId = root.userId!;
    expect((await admin.client.post(`/api/user/${rootId}/sessions/revoke_all`)).success).toBe(false);
    expect(await works(root)).toBe(true);
    const user = await makeUser(server, root, "s-plain");
    const denied = await user.client.post(`/api/user/${admin.id}/sessions/revoke_all`);
    expect(denied.status).toBe(403);
    expect((await admin.client.post("/api/user/999999/sessions/revoke_all")).message).toBe("User not found");
    // the root may end an admin's
    expect((await root.post(`/api/user/${admin.id}/sessions/revoke_all`)).success).toBe(true);
    expect(await works(admin.client)).toBe(false);
  });

  it("refuses a cookie sealed before sessions were recorded (no session id)", async () => {
    const { sealData } = await import("iron-session");
    const { readFileSync } = await import("node:fs");
    const { hkdfSync } = await import("node:crypto");
    const path = await import("node:path");
    const { passwordVersion } = await import("@/lib/auth/session");
    const secret = readFileSync(path.join(server.dataDir, "session-secret"), "utf8").trim();
    const key = Buffer.from(hkdfSync("sha256", secret, "ai-gateway", "session", 32)).toString("base64");
    const u = await makeUser(server, root, "s-old");
    const [row] = await query(server, 'SELECT "password" FROM "users" WHERE "id" = $1', [u.id]);
    const old = new ApiClient(server.url);
    old.userId = u.id;
    old.cookie =
      "session=" + (await sealData({ uid: u.id, pv: passwordVersion(String(row.password)), iat: Math.floor(Date.now() / 1000) }, { password: key, ttl: 3600 }));
    expect((await old.get("/api/user/self")).status).toBe(401);
  });

  it("writes last seen and the address in a batch, at most once a minute per session", async () => {
    // a session this node has not looked up yet, last seen an hour ago
    const u = await seedUser(server, { username: "s-seen" });
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    await query(server, 'UPDATE "sessions" SET "last_seen_at" = $1, "ip" = $2 WHERE "user_id" = $3', [hourAgo, "192.0.2.1", u.id]);
    const seen = async () => (await query(server, 'SELECT "last_seen_at", "ip" FROM "sessions" WHERE "user_id" = $1', [u.id]))[0];
    for (let i = 0; i < 5; i++) expect(await works(u.client)).toBe(true);
    // not at once: the batch goes every 15 s
    const since = Date.now();
    while (Number((await seen()).last_seen_at) === hourAgo && Date.now() - since < 25_000) await new Promise((r) => setTimeout(r, 250));
    const first = await seen();
    expect(Number(first.last_seen_at)).toBeGreaterThan(hourAgo + 3000);
    expect(first.ip).toBe("127.0.0.1");
    // written once: a mark put on the row now is not overwritten by the calls of the next seconds
    await query(server, 'UPDATE "sessions" SET "last_seen_at" = $1 WHERE "user_id" = $2', [hourAgo, u.id]);
    for (let i = 0; i < 5; i++) expect(await works(u.client)).toBe(true);
    await new Promise((r) => setTimeout(r, 16_000));
    expect(Number((await seen()).last_seen_at)).toBe(hourAgo);
  }, 60_000);

  it("the root's own sessions can be listed and revoked like anyone's", async () => {
    const other = await loginAs(server, "root", ROOT_PASSWORD);
    const r = await root.post<{ ended: number }>("/api/user/sessions/revoke_all");
    expect(r.success).toBe(true);
    expect(r.data.ended).toBeGreaterThanOrEqual(1);
    expect(await works(other)).toBe(false);
    expect(await works(root)).toBe(true);
  });
});
