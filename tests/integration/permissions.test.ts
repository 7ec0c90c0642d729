// Admin permission sets (docs/permissions.md) over HTTP against the real server, on SQLite and
// PostgreSQL: every admin route of the table answers 403 (the envelope, success false) to an
// admin lacking exactly its permission, and not 403 to one holding it; GET and PUT
// /api/user/{id}/permissions are the root's, validated and audited; the channel key reveal,
// a system option, a quota change and a log's chat content follow the set; a PUT holds at
// once, without a new sign-in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ADMIN_PERMISSIONS, PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { ROUTE_PERMISSIONS } from "@/lib/http/route-permissions";
import { makeUser, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { execDb, queryDb } from "../support/db";
import { startServer, type TestServer } from "../support/server";

type Perms = { id: number; role: number; permissions: Permission[]; is_default: boolean };

let server: TestServer;
let root: ApiClient;
let admin: ApiClient;
let adminId: number;
let userId: number;
let channelId: number;

// what the root sets for the admin
async function grant(set: readonly Permission[]) {
  const r = await root.put<Perms>(`/api/user/${adminId}/permissions`, { permissions: set });
  expect(r.success, r.message).toBe(true);
}
const without = (...drop: readonly Permission[]) => DEFAULT_ADMIN_PERMISSIONS.filter((p) => !drop.includes(p));

// routes that reach outside on a successful call (the preset source, the release source, every
// channel's upstream): called only without their permission
const OUTBOUND = new Set(["POST /api/option/preset_ratio/fetch", "POST /api/option/update_check", "GET /api/channel/test", "GET /api/channel/update_balance"]);

beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
  const a = await makeUser(server, root, "perm-admin", 10);
  admin = a.client;
  adminId = a.id;
  userId = (await makeUser(server, root, "perm-user", 1)).id;
  const c = await root.post<{ id: number }>("/api/channel/", {
    type: 1,
    name: "perm-channel",
    key: "sk-perm-secret-key",
    models: "gpt-4o",
    base_url: "http://127.0.0.1:9",
  });
  expect(c.success, c.message).toBe(true);
  channelId = c.data.id;
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("every admin route", () => {
  it("answers 403 to an admin lacking its permission, and not 403 to one holding it", async () => {
    const rows = Object.entries(ROUTE_PERMISSIONS);
    expect(rows.length).toBeGreaterThan(80);
    for (const [key, rule] of rows) {
      const [method, template] = key.split(" ");
      const path = template.replace(/\{[a-z_]+\}/g, "999999") + (template.endsWith("}") ? "" : "/");
      const body = method === "GET" ? undefined : {};
      await grant(without(...rule.anyOf));
      const refused = await admin.call(method, path, body);
      expect(refused.status, key).toBe(403);
      expect(refused.success, key).toBe(false);
      expect(refused.message, key).toBe("Not allowed: insufficient permission");
      if (OUTBOUND.has(key)) continue;
      await grant([...DEFAULT_ADMIN_PERMISSIONS, ...rule.anyOf]);
      const let_in = await admin.call(method, path, body);
      expect(let_in.status, key).not.toBe(403);
    }
    await grant(DEFAULT_ADMIN_PERMISSIONS);
  }, 120_000);
});

describe("the permissions routes", () => {
  it("are the root's: an admin or a user gets 403", async () => {
    expect((await admin.get(`/api/user/${adminId}/permissions`)).status).toBe(403);
    expect((await admin.put(`/api/user/${adminId}/permissions`, { permissions: PERMISSIONS })).status).toBe(403);
  });

  it("answers the effective set: the default for a new admin, all for the root, none for a user", async () => {
    const a = await root.get<Perms>(`/api/user/${adminId}/permissions`);
    expect(a.data).toMatchObject({ role: 10, is_default: true });
    expect(a.data.permissions).toEqual([...DEFAULT_ADMIN_PERMISSIONS]);
    expect((await root.get<Perms>(`/api/user/${root.userId}/permissions`)).data.permissions).toEqual([...PERMISSIONS]);
    expect((await root.get<Perms>(`/api/user/${userId}/permissions`)).data.permissions).toEqual([]);
    expect((await root.get(`/api/user/999999/permissions`)).success).toBe(false);
  });

  it("refuses unknown names (400) and a set for the root or a user", async () => {
    const bad = await root.put(`/api/user/${adminId}/permissions`, { permissions: ["channels:read", "channels:fly"] });
    expect(bad.status).toBe(400);
    expect(bad.message).toBe("Unknown permission name");
    expect((await root.put(`/api/user/${adminId}/permissions`, { permissions: "channels:read" })).status).toBe(400);
    for (const id of [root.userId, userId]) {
      const r = await root.put(`/api/user/${id}/permissions`, { permissions: ["channels:read"] });
      expect(r.success).toBe(false);
      expect(r.message).toBe("Permission sets apply to admins only: the root holds every permission and a user none");
    }
  });

  it("writes an audit row with the old and new sets, and none when nothing changes", async () => {
    const count = async () => (await queryDb<{ n: number | string }>(server, "SELECT COUNT(*) AS n FROM audit_logs WHERE action = 'permission_change'"))[0].n;
    const before = Number(await count());
    await grant([...DEFAULT_ADMIN_PERMISSIONS, "audit:read"]);
    const rows = await queryDb<{ actor_id: number; user_id: number; target_id: string; detail: string }>(
      server,
      "SELECT actor_id, user_id, target_id, detail FROM audit_logs WHERE action = 'permission_change' ORDER BY id DESC",
    );
    expect(rows.length).toBe(before + 1);
    expect(rows[0]).toMatchObject({ actor_id: root.userId, user_id: adminId, target_id: String(adminId) });
    const detail = JSON.parse(rows[0].detail) as { from: string[]; to: string[]; default: boolean; username: string };
    expect(detail).toMatchObject({ username: "perm-admin", default: false });
    expect(detail.from).toEqual([...DEFAULT_ADMIN_PERMISSIONS]);
    expect(detail.to).toContain("audit:read");
    await grant([...DEFAULT_ADMIN_PERMISSIONS, "audit:read"]);
    expect(Number(await count())).toBe(before + 1);
    // back to the default: stored as null again
    await grant(DEFAULT_ADMIN_PERMISSIONS);
    expect((await root.get<Perms>(`/api/user/${adminId}/permissions`)).data.is_default).toBe(true);
    expect(Number(await count())).toBe(before + 2);
  });

  it("holds at once, without a new sign-in, and the admin's own record carries the set", async () => {
    expect((await admin.get("/api/channel/")).status).toBe(200);
    await grant(without("channels:read"));
    expect((await admin.get("/api/channel/")).status).toBe(403);
    const self = await admin.get<{ permissions: string[] }>("/api/user/self");
    expect(self.data.permissions).not.toContain("channels:read");
    await grant(DEFAULT_ADMIN_PERMISSIONS);
    expect((await admin.get("/api/channel/")).status).toBe(200);
  });
});

describe("what the permissions guard", () => {
  it("the channel key: 403 without channels:reveal (the default), the key with it, the root always; each reveal audited", async () => {
    const refused = await admin.post(`/api/channel/${channelId}/key`);
    expect(refused.status).toBe(403);
    expect(refused.success).toBe(false);
    const byRoot = await root.post<{ key: string }>(`/api/channel/${channelId}/key`);
    expect(byRoot.data.key).toBe("sk-perm-secret-key");
    await grant([...DEFAULT_ADMIN_PERMISSIONS, "channels:reveal"]);
    expect((await admin.post<{ key: string }>(`/api/channel/${channelId}/key`)).data.key).toBe("sk-perm-secret-key");
    const rows = await queryDb<{ actor_id: number; target_id: string; detail: string }>(
      server,
      "SELECT actor_id, target_id, detail FROM audit_logs WHERE action = 'channel_key_reveal' ORDER BY id",
    );
    expect(rows.map((r) => r.actor_id)).toEqual([root.userId, adminId]);
    expect(rows.every((r) => r.target_id === String(channelId) && !r.detail.includes("sk-perm"))).toBe(true);
    await grant(DEFAULT_ADMIN_PERMISSIONS);
  });

  it("options: a system-tab option needs settings:system, another tab's does not; the root saves both", async () => {
    await grant(without("settings:system"));
    const footer = await admin.put("/api/option/", { key: "Footer", value: "admin footer" });
    expect(footer.status).toBe(403);
    expect(footer.success).toBe(false);
    expect((await admin.put("/api/option/", { key: "SystemName", value: "Perm Gateway" })).success).toBe(true);
    // the list says so too
    const listed = await admin.get<{ key: string; writable: boolean }[]>("/api/option/");
    expect(listed.data.find((o) => o.key === "Footer")?.writable).toBe(false);
    expect(listed.data.find((o) => o.key === "SystemName")?.writable).toBe(true);
    expect((await root.put("/api/option/", { key: "Footer", value: "root footer" })).success).toBe(true);
    await grant(DEFAULT_ADMIN_PERMISSIONS);
    expect((await admin.put("/api/option/", { key: "Footer", value: "admin footer" })).success).toBe(true);
    // a set never opens a root-only key
    const rootOnly = await admin.put("/api/option/", { key: "RegisterEnabled", value: "false" });
    expect(rootOnly.status).toBe(403);
  });

  it("channels: enabling and disabling is an operation, any other field a write", async () => {
    await grant(without("channels:write"));
    expect((await admin.put("/api/channel/", { id: channelId, status: 2 })).success).toBe(true);
    expect((await admin.put("/api/channel/", { id: channelId, priority: 5 })).status).toBe(403);
    await grant(without("channels:operate"));
    expect((await admin.put("/api/channel/", { id: channelId, status: 1 })).status).toBe(403);
    expect((await admin.put("/api/channel/", { id: channelId, priority: 5 })).success).toBe(true);
    await grant(DEFAULT_ADMIN_PERMISSIONS);
  });

  it("a quota change needs users:quota; the other fields users:write alone", async () => {
    await grant(without("users:quota"));
    const q = await admin.put("/api/user/", { id: userId, username: "perm-user", display_name: "P", quota: 777 });
    expect(q.status).toBe(403);
    expect(q.message).toBe("A user's quota can only be changed with the permission to change quotas");
    const user = await root.get<{ quota: number }>(`/api/user/${userId}`);
    expect(user.data.quota).toBe(0);
    // the editor resends the unchanged quota with every save
    expect((await admin.put("/api/user/", { id: userId, username: "perm-user", display_name: "P2", quota: 0 })).success).toBe(true);
    await grant(DEFAULT_ADMIN_PERMISSIONS);
    expect((await admin.put("/api/user/", { id: userId, username: "perm-user", display_name: "P2", quota: 777 })).success).toBe(true);
  });

  it("a log's chat content needs logs:content", async () => {
    const other = JSON.stringify({ input_content: "secret question", output_content: "secret answer", model_ratio: 1 });
    await execDb(server, "INSERT INTO logs (user_id, created_at, type, content, username, other) VALUES ($1, $2, 2, '', 'perm-user', $3)", [
      userId,
      Math.floor(Date.now() / 1000),
      other,
    ]);
    const read = async () => (await admin.get<{ items: { other: string }[] }>("/api/log/?username=perm-user&type=2")).data.items[0].other;
    expect(await read()).toContain("secret question");
    await grant(without("logs:content"));
    const stripped = JSON.parse(await read()) as Record<string, unknown>;
    expect(stripped).toEqual({ model_ratio: 1 });
    await grant(DEFAULT_ADMIN_PERMISSIONS);
  });

  it("widening: an admin granted audit:read reads the audit log, billing:topups the orders, tokens:read a user's tokens", async () => {
    expect((await admin.get("/api/audit/")).status).toBe(403);
    expect((await admin.get("/api/user/topup")).status).toBe(403);
    expect((await admin.get(`/api/user/${userId}/tokens`)).status).toBe(403);
    await grant([...DEFAULT_ADMIN_PERMISSIONS, "audit:read", "billing:topups", "tokens:read"]);
    expect((await admin.get<{ items: unknown[] }>("/api/audit/")).data.items.length).toBeGreaterThan(0);
    expect((await admin.get("/api/user/topup")).success).toBe(true);
    const tokens = await admin.get<{ items: unknown[]; total: number }>(`/api/user/${userId}/tokens`);
    expect(tokens.success, tokens.message).toBe(true);
    // an admin's tokens stay out of reach of another admin (the level rule)
    expect((await admin.get(`/api/user/${root.userId}/tokens`)).success).toBe(false);
    await grant(DEFAULT_ADMIN_PERMISSIONS);
  });
});

describe("a role change", () => {
  it("drops the stored set: promoted again, the admin starts at the default", async () => {
    await grant(without("users:read"));
    expect((await root.post("/api/user/manage", { id: adminId, action: "demote" })).success).toBe(true);
    expect((await root.get<Perms>(`/api/user/${adminId}/permissions`)).data.permissions).toEqual([]);
    expect((await root.post("/api/user/manage", { id: adminId, action: "promote" })).success).toBe(true);
    const back = await root.get<Perms>(`/api/user/${adminId}/permissions`);
    expect(back.data.is_default).toBe(true);
    expect(back.data.permissions).toEqual([...DEFAULT_ADMIN_PERMISSIONS]);
  });
});
