// User administration: list, search, read, create, edit and the manage actions, with the
// level rules (docs/product-rules.md, "Accounts") checked for root, admin and user actors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginAs, makeUser, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { queryDb } from "../support/db";
import { startServer, type TestServer } from "../support/server";

type U = { id: number; username: string; role: number; status: number; quota: number; group: string; DeletedAt: number | null; display_name: string };
type Page = { items: U[]; page: number; page_size: number; total: number };

let server: TestServer;
let root: ApiClient;
let admin: ApiClient, admin2: ApiClient, user: ApiClient;
let rootId: number, adminId: number, admin2Id: number, userId: number, user2Id: number;

beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server, "root");
  rootId = root.userId!;
  ({ id: adminId, client: admin } = await makeUser(server, root, "admin1", 10));
  ({ id: admin2Id, client: admin2 } = await makeUser(server, root, "admin2", 10));
  ({ id: userId, client: user } = await makeUser(server, root, "user1", 1));
  ({ id: user2Id } = await makeUser(server, root, "user2", 1));
});
afterAll(async () => {
  await server?.stop();
});

describe("list and search", () => {
  it("is for admins only", async () => {
    expect((await user.get("/api/user/")).status).toBe(403);
    expect((await user.get("/api/user/search?keyword=a")).status).toBe(403);
    expect((await user.get(`/api/user/${user2Id}`)).status).toBe(403);
    expect((await new ApiClient(server.url).get("/api/user/")).status).toBe(401);
  });

  it("pages newest first with a 0-based page", async () => {
    const all = await admin.get<Page>("/api/user/?p=0&page_size=100");
    expect(all.data.total).toBe(5);
    expect(all.data.items.map((u) => u.id)).toEqual([user2Id, userId, admin2Id, adminId, rootId]);
    const second = await admin.get<Page>("/api/user/?p=1&page_size=2");
    expect(second.data).toMatchObject({ page: 1, page_size: 2, total: 5 });
    expect(second.data.items.map((u) => u.id)).toEqual([admin2Id, adminId]);
    expect((await admin.get<Page>("/api/user/?p=0&page_size=7")).data.items).toHaveLength(5);
    expect((await admin.get("/api/user/?page_size=101")).success).toBe(false);
    expect((await admin.get("/api/user/?page_size=0")).success).toBe(false);
    expect(JSON.stringify(all.data)).not.toMatch(/scrypt/);
  });

  it("searches by exact id, by substring and by group, 1-based", async () => {
    const byId = await admin.get<Page>(`/api/user/search?keyword=${userId}&p=1&page_size=10`);
    expect(byId.data.items.map((u) => u.id)).toContain(userId);
    expect(byId.data.items.every((u) => u.id === userId || u.username.includes(String(userId)))).toBe(true);
    const byName = await admin.get<Page>("/api/user/search?keyword=admin&p=1&page_size=10");
    expect(byName.data.items.map((u) => u.username).sort()).toEqual(["admin1", "admin2"]);
    expect(byName.data).toMatchObject({ page: 1, total: 2 });
    const page2 = await admin.get<Page>("/api/user/search?keyword=admin&p=2&page_size=1");
    expect(page2.data.items.map((u) => u.username)).toEqual(["admin1"]);
    const none = await admin.get<Page>("/api/user/search?keyword=user&group=vip&p=1&page_size=10");
    expect(none.data.total).toBe(0);
  });

  it("lists group names", async () => {
    expect((await admin.get<string[]>("/api/group/")).data.sort()).toEqual(["default", "svip", "vip"]);
    expect((await user.get("/api/group/")).status).toBe(403);
  });
});

describe("read one user", () => {
  it("allows only strictly lower levels (the root reads anyone)", async () => {
    expect((await admin.get<U>(`/api/user/${userId}`)).data.username).toBe("user1");
    for (const id of [admin2Id, adminId, rootId]) {
      expect((await admin.get(`/api/user/${id}`)).message).toBe("You cannot read, update or delete users of the same or higher level");
    }
    expect((await root.get<U>(`/api/user/${adminId}`)).data.role).toBe(10);
    expect((await root.get<U>(`/api/user/${rootId}`)).data.role).toBe(100);
    expect((await root.get(`/api/user/99999`)).message).toBe("User not found");
    expect((await root.get(`/api/user/abc`)).message).toBe("Invalid parameter");
  });

  it("gives any admin the read-only card of any user (the usage logs' username click), without secrets", async () => {
    const fields = ["DeletedAt", "display_name", "group", "id", "quota", "request_count", "role", "status", "used_quota", "username"];
    for (const [id, name, role] of [
      [rootId, "root", 100],
      [adminId, "admin1", 10],
      [admin2Id, "admin2", 10],
      [userId, "user1", 1],
    ] as const) {
      const r = await admin.get<U>(`/api/user/${id}/info`);
      expect(r.success, r.message).toBe(true);
      expect(r.data).toMatchObject({ id, username: name, role });
      expect(Object.keys(r.data).sort()).toEqual(fields);
    }
    const raw = JSON.stringify((await root.get(`/api/user/${adminId}/info`)).data);
    expect(raw).not.toMatch(/scrypt|password|access_token|aff_code|email|setting|remark/);
    expect((await admin.get(`/api/user/99999/info`)).message).toBe("User not found");
    expect((await admin.get(`/api/user/abc/info`)).message).toBe("Invalid parameter");
    expect((await user.get(`/api/user/${user2Id}/info`)).status).toBe(403);
    expect((await new ApiClient(server.url).get(`/api/user/${user2Id}/info`)).status).toBe(401);
  });
});

describe("create", () => {
  it("validates and refuses roles at or above the creator's", async () => {
    const zh = await loginAs(server, "admin1", "user-pass-1", "zh");
    expect((await zh.post("/api/user/", { username: "", password: "" })).message).toBe("用户名和密码不能为空");
    expect((await admin.post("/api/user/", { username: "abcdefghijklm", password: "12345678" })).message).toBe("The username must not exceed 12 characters");
    expect((await admin.post("/api/user/", { username: "shorty", password: "1234567" })).message).toBe("The password length must not be below 8");
    expect((await admin.post("/api/user/", { username: "newadmin", password: "12345678", role: 10 })).message).toBe(
      "You cannot create a user with a permission at or above your own",
    );
    expect((await root.post("/api/user/", { username: "newroot", password: "12345678", role: 100 })).message).toBe(
      "You cannot create a user with a permission at or above your own",
    );
    expect((await admin.post("/api/user/", { username: "user1", password: "12345678" })).message).toBe("The username already exists or was deregistered");
    const ok = await admin.post<U>("/api/user/", { username: "made", password: "12345678", display_name: "Made" });
    expect(ok.data).toMatchObject({ username: "made", display_name: "Made", role: 1, status: 1 });
  });
});

describe("edit", () => {
  it("edits lower users, keeps a blank password, and moves quota through the ledger", async () => {
    const r = await admin.put<U>("/api/user/", { id: userId, display_name: "User One", group: "vip", quota: 750000, password: "" });
    expect(r.data).toMatchObject({ display_name: "User One", group: "vip", quota: 750000 });
    expect((await new ApiClient(server.url).login("user1", "user-pass-1")).success).toBe(true);
    const down = await admin.put<U>("/api/user/", { id: userId, quota: 250000 });
    expect(down.data.quota).toBe(250000);
    const ledger = await queryDb<{ delta: unknown; kind: string }>(server, "SELECT delta, kind FROM quota_ledger WHERE user_id = $1 ORDER BY id", [userId]);
    expect(ledger.map((l) => [BigInt(String(l.delta)), l.kind])).toEqual([
      [750000n, "admin_adjust"],
      [-500000n, "admin_adjust"],
    ]);
    const logs = await queryDb<{ type: number; quota: unknown }>(server, "SELECT type, quota FROM logs WHERE user_id = $1 ORDER BY id", [userId]);
    expect(logs.map((l) => [Number(l.type), Number(l.quota)])).toEqual([
      [3, 750000],
      [3, -500000],
    ]);
    expect((await admin.put("/api/user/", { id: userId, quota: -1 })).success).toBe(false);
    expect((await admin.put("/api/user/", { id: userId, username: "user2" })).message).toBe("The username already exists or was deregistered");
    expect((await admin.put("/api/user/", { id: userId, password: "short" })).message).toBe("The password length must not be below 8");
  });

  it("refuses same or higher levels", async () => {
    for (const id of [adminId, admin2Id, rootId]) {
      expect((await admin.put("/api/user/", { id, display_name: "x" })).message).toBe("You cannot read, update or delete users of the same or higher level");
    }
    expect((await user.put("/api/user/", { id: user2Id, display_name: "x" })).status).toBe(403);
    expect((await root.put<U>("/api/user/", { id: adminId, remark: "trusted" })).success).toBe(true);
  });

  it("changes a password, which ends that user's sessions", async () => {
    const u2 = await loginAs(server, "user2", "user-pass-1");
    expect((await root.put("/api/user/", { id: user2Id, password: "new-pass-22" })).success).toBe(true);
    expect((await u2.get("/api/user/self")).status).toBe(401);
    expect((await new ApiClient(server.url).login("user2", "new-pass-22")).success).toBe(true);
  });
});

describe("manage actions", () => {
  const manage = (c: ApiClient, id: number, action: string) => c.post<{ status: number; role: number }>("/api/user/manage", { id, action });

  it("only the root promotes to admin; already_admin / already_common", async () => {
    expect((await manage(admin, user2Id, "promote")).message).toBe("A regular admin cannot promote users to admin");
    expect((await manage(root, user2Id, "promote")).data).toEqual({ status: 1, role: 10 });
    expect((await manage(root, user2Id, "promote")).message).toBe("This user is already an admin");
    expect((await manage(root, user2Id, "demote")).data).toEqual({ status: 1, role: 1 });
    expect((await manage(root, user2Id, "demote")).message).toBe("This user is already a normal user");
    expect((await manage(admin, user2Id, "demote")).message).toBe("This user is already a normal user");
  });

  it("admins cannot act on the same or a higher level", async () => {
    for (const action of ["promote", "demote", "disable", "enable", "delete"]) {
      expect((await manage(admin, admin2Id, action)).message).toBe("You cannot read, update or delete users of the same or higher level");
      expect((await manage(admin, adminId, action)).message).toBe("You cannot read, update or delete users of the same or higher level");
      expect((await manage(admin, rootId, action)).message).toBe("You cannot read, update or delete users of the same or higher level");
    }
    expect((await manage(user, user2Id, "disable")).status).toBe(403);
  });

  it("the root can never be disabled, deleted or demoted", async () => {
    const zh = await loginAs(server, "root", "root-pass-123", "zh");
    expect((await manage(zh, rootId, "disable")).message).toBe("无法禁用超级管理员用户");
    expect((await manage(root, rootId, "disable")).message).toBe("The super admin cannot be disabled");
    expect((await manage(root, rootId, "delete")).message).toBe("The super admin cannot be deleted");
    expect((await manage(root, rootId, "demote")).message).toBe("The super admin cannot be demoted");
    expect((await manage(root, rootId, "promote")).message).toBe("This user is already an admin");
    expect((await root.get<U>("/api/user/self")).data).toMatchObject({ role: 100, status: 1 });
  });

  it("disables and enables; a disabled user is locked out", async () => {
    expect((await manage(admin, userId, "disable")).data).toEqual({ status: 2, role: 1 });
    // the live session gets the banned message on every call, not the 403 "insufficient permission"
    for (const path of ["/api/user/self", "/api/token/?p=0&size=10", "/api/user/models"]) {
      expect(await user.get(path)).toMatchObject({ status: 200, success: false, message: "This user has been banned" });
    }
    expect(await user.post("/api/token/", { name: "x" })).toMatchObject({ status: 200, success: false, message: "This user has been banned" });
    expect((await user.get("/api/user/")).message).toBe("This user has been banned"); // before the role check
    expect((await new ApiClient(server.url).login("user1", "user-pass-1")).message).toBe("This user has been banned");
    // the playground's relay route answers in the OpenAI shape: 403, permission_error
    const pg = await user.raw("POST", "/pg/chat/completions", { model: "m", messages: [{ role: "user", content: "hi" }] });
    const pgBody = (await pg.json()) as { error: { type: string; message: string } };
    expect([pg.status, pgBody.error.type]).toEqual([403, "permission_error"]);
    expect(pgBody.error.message).toMatch(/banned|封禁/);
    expect((await manage(admin, userId, "enable")).data).toEqual({ status: 1, role: 1 });
    // the ban ended the session for good (docs/accounts-api.md, "Sessions"): sign in again
    expect((await user.get("/api/user/self")).status).toBe(401);
    expect((await user.login("user1", "user-pass-1")).success).toBe(true);
    expect((await user.get("/api/user/self")).success).toBe(true);
  });

  it("the root manages admins, and deletes softly", async () => {
    expect((await manage(root, admin2Id, "disable")).data).toEqual({ status: 2, role: 10 });
    expect((await manage(root, admin2Id, "enable")).data).toEqual({ status: 1, role: 10 });
    expect((await manage(root, admin2Id, "delete")).success).toBe(true);
    expect((await admin2.get("/api/user/self")).status).toBe(401);
    const row = (await root.get<Page>("/api/user/?p=0&page_size=100")).data.items.find((u) => u.id === admin2Id)!;
    expect(row.DeletedAt).toBeGreaterThan(0);
    for (const action of ["enable", "disable", "promote", "demote", "delete"]) {
      expect((await manage(root, admin2Id, action)).message).toBe("This user has been deregistered");
    }
    expect((await root.put("/api/user/", { id: admin2Id, display_name: "back" })).message).toBe("This user has been deregistered");
    expect((await new ApiClient(server.url).login("admin2", "user-pass-1")).success).toBe(false);
    // deregistration frees the username (the row keeps a tombstone name)
    expect(row.username).toBe(`deleted-user-${admin2Id}`);
    const again = await root.post<U>("/api/user/", { username: "admin2", password: "12345678" });
    expect(again.success, again.message).toBe(true);
    expect(again.data.id).not.toBe(admin2Id);
    expect((await manage(root, 99999, "enable")).message).toBe("User not found");
    expect((await root.post("/api/user/manage", { id: userId, action: "explode" })).message).toBe("Invalid parameter");
  });
});

describe("self deregistration", () => {
  it("erases the personal data, frees the username, and keeps the ledger and the logs consistent", async () => {
    const { id, client } = await makeUser(server, root, "leaver", 1);
    expect((await root.put("/api/user/", { id, quota: 300000, display_name: "Leaving Soon", remark: "vip customer" })).success).toBe(true);
    const tok = (await client.post<{ id: number; key: string }[]>("/api/token/", { name: "leaver-key", remain_quota: 1000 })).data[0];
    expect((await client.get<string>("/api/user/token")).success).toBe(true); // an access token to revoke
    const logsBefore = await queryDb<{ n: unknown }>(server, "SELECT COUNT(*) AS n FROM logs WHERE user_id = $1", [id]);
    expect(Number(logsBefore[0].n)).toBeGreaterThan(0);

    expect((await client.del("/api/user/self")).success).toBe(true);
    expect((await client.get("/api/user/self")).status).toBe(401);
    expect((await new ApiClient(server.url).login("leaver", "user-pass-1")).success).toBe(false);

    const [u] = await queryDb<Record<string, unknown>>(server, "SELECT * FROM users WHERE id = $1", [id]);
    expect(u).toMatchObject({ username: `deleted-user-${id}`, display_name: "", email: "", remark: "", setting: "", access_token_hash: null });
    expect(String(u.password)).not.toMatch(/^scrypt\$/);
    expect(u.deleted_at).not.toBeNull();
    // the balance stays on the row and still equals the sum of its ledger
    const [{ s: sum }] = await queryDb<{ s: unknown }>(server, "SELECT COALESCE(SUM(delta), 0) AS s FROM quota_ledger WHERE user_id = $1", [id]);
    expect(BigInt(String(sum))).toBe(BigInt(String(u.quota)));
    expect(BigInt(String(u.quota))).toBe(300000n);
    // logs keep their user id and figures, under the tombstone name and without the address
    const logs = await queryDb<{ username: string; ip: string }>(server, "SELECT username, ip FROM logs WHERE user_id = $1", [id]);
    expect(logs.length).toBe(Number(logsBefore[0].n));
    expect(logs.every((l) => l.username === `deleted-user-${id}` && l.ip === "")).toBe(true);
    expect((await root.get<{ items: unknown[] }>("/api/log/?p=1&page_size=10&username=leaver")).data.items).toHaveLength(0);
    // the token no longer authenticates
    const [t] = await queryDb<{ deleted_at: unknown; status: unknown }>(server, "SELECT deleted_at, status FROM tokens WHERE id = $1", [tok.id]);
    expect(t.deleted_at).not.toBeNull();
    expect(Number(t.status)).toBe(2);
    const relay = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${tok.key}` } });
    expect(relay.status).toBe(401);

    // the name can be registered again, as a new account with nothing of the old one
    const reg = await new ApiClient(server.url).post<{ id: number }>("/api/user/register", { username: "leaver", password: "12345678", password2: "12345678" });
    expect(reg.success, reg.message).toBe(true);
    const fresh = await loginAs(server, "leaver", "12345678");
    const self = (await fresh.get<U>("/api/user/self")).data;
    expect(self.id).not.toBe(id);
    expect(self.quota).not.toBe(300000);
    expect((await fresh.get<{ items: unknown[] }>("/api/log/self/?p=1&page_size=10")).data.items).toHaveLength(0);
  });
});

describe("server log", () => {
  it("has no unexpected errors and no secrets", () => {
    const logs = server.logs();
    expect(server.logLines().filter((l) => l.area === "api" && l.msg === "unexpected error")).toEqual([]);
    expect(logs).not.toMatch(/scrypt\$/);
  });
});
