// Inbox and admin messages (docs/messages.md): every /api/user/messages* and
// /api/admin/messages* call with its rules and messages, admin-only access, read tracking
// (first read time kept, counts in the admin's view), search by keyword and creation date,
// edit and delete, and one message to 10,000 users created in one request within two seconds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { execDb, queryDb } from "../support/db";
import { startServer, type TestServer } from "../support/server";
import { seedUser, type SeededUser } from "../support/seed";

type InboxItem = { id: number; title: string; content: string; format: string; created_at: number; read_at: number | null; is_read: boolean };
type Page<T> = { items: T[]; total: number; page: number; page_size: number };
type AdminMessage = {
  id: number;
  title: string;
  content: string;
  format: string;
  created_at: number;
  stats: { total_recipients: number; read_count?: number };
};
type Recipient = { user_id: number; username: string; display_name: string; read_at: number | null; is_read: boolean };

let server: TestServer;
let root: SeededUser;
let admin: SeededUser;
let alice: SeededUser;
let bob: SeededUser;
let carol: SeededUser;

beforeAll(async () => {
  server = await startServer();
  root = await seedUser(server, { username: "root", role: 100 });
  admin = await seedUser(server, { username: "admin1", role: 10 });
  alice = await seedUser(server, { username: "alice" });
  bob = await seedUser(server, { username: "bob" });
  carol = await seedUser(server, { username: "carol" });
});
afterAll(async () => {
  await server?.stop();
});

function inZh(u: SeededUser): ApiClient {
  const c = new ApiClient(server.url, "zh");
  c.cookie = u.client.cookie;
  c.userId = u.client.userId;
  return c;
}

async function send(body: Record<string, unknown>, by: SeededUser = admin): Promise<AdminMessage> {
  const r = await by.client.post<AdminMessage>("/api/admin/messages", body);
  expect(r.success, r.message).toBe(true);
  return r.data;
}

const unread = async (u: SeededUser) => (await u.client.get<{ unread_count: number }>("/api/user/messages/unread_count")).data.unread_count;

describe("sending, reading and the admin's view", () => {
  it("an admin sends to two users: each sees it unread, opens it, and the admin sees one read, one unread", async () => {
    const m = await send({ title: "  Maintenance  ", content: "  **Tonight** at 22:00  ", format: "markdown", user_ids: [alice.id, bob.id] });
    expect(m.title).toBe("Maintenance");
    expect(m.content).toBe("**Tonight** at 22:00");
    expect(m.stats.total_recipients).toBe(2);
    expect(await unread(alice)).toBe(1);
    expect(await unread(bob)).toBe(1);
    expect(await unread(carol)).toBe(0);

    const list = await alice.client.get<Page<InboxItem>>("/api/user/messages?p=1&page_size=10");
    expect(list.success).toBe(true);
    expect(list.data.total).toBe(1);
    expect(list.data.items[0]).toMatchObject({ id: m.id, title: "Maintenance", format: "markdown", read_at: null, is_read: false });
    expect((await carol.client.get<Page<InboxItem>>("/api/user/messages")).data.total).toBe(0);

    const before = Math.floor(Date.now() / 1000);
    const read = await alice.client.put<{ read_at: number }>(`/api/user/messages/${m.id}/read`);
    expect(read.success, read.message).toBe(true);
    expect(read.data.read_at).toBeGreaterThanOrEqual(before - 1);
    expect(await unread(alice)).toBe(0);
    expect(await unread(bob)).toBe(1);

    const detail = await alice.client.get<InboxItem>(`/api/user/messages/${m.id}`);
    expect(detail.data).toMatchObject({ id: m.id, is_read: true, read_at: read.data.read_at });

    const got = await admin.client.get<AdminMessage>(`/api/admin/messages/${m.id}`);
    expect(got.data.stats).toEqual({ total_recipients: 2, read_count: 1 });
    const rec = await admin.client.get<Page<Recipient>>(`/api/admin/messages/${m.id}/recipients?p=1&page_size=10`);
    expect(rec.data.total).toBe(2);
    const byName = Object.fromEntries(rec.data.items.map((r) => [r.username, r]));
    expect(byName.alice).toMatchObject({ user_id: alice.id, is_read: true, read_at: read.data.read_at });
    expect(byName.bob).toMatchObject({ user_id: bob.id, is_read: false, read_at: null });
  });

  it("opening a message again keeps the first read time", async () => {
    const m = await send({ title: "Twice", content: "x", user_ids: [alice.id] });
    await execDb(server, 'UPDATE "message_recipients" SET "read_at" = $1 WHERE "message_id" = $2', [1000, m.id]);
    const again = await alice.client.put<{ read_at: number }>(`/api/user/messages/${m.id}/read`);
    expect(again.data.read_at).toBe(1000);
  });

  it("a message not addressed to the caller does not exist for it", async () => {
    const m = await send({ title: "Only Bob", content: "x", user_ids: [bob.id] });
    for (const r of [await carol.client.get(`/api/user/messages/${m.id}`), await carol.client.put(`/api/user/messages/${m.id}/read`)]) {
      expect(r.success).toBe(false);
      expect(r.message).toBe("The message does not exist");
    }
    expect((await inZh(carol).get("/api/user/messages/999999")).message).toBe("消息不存在");
    const rows = await queryDb<{ read_at: unknown }>(server, 'SELECT "read_at" FROM "message_recipients" WHERE "message_id" = $1', [m.id]);
    expect(rows.map((r) => r.read_at)).toEqual([null]);
  });

  it("the inbox pages newest first; html keeps its format and its text as sent", async () => {
    const html = '<p>Hi</p><script>alert(1)</script><img src="x" onerror="alert(2)">';
    const a = await send({ title: "Page A", content: "a", user_ids: [carol.id] });
    const b = await send({ title: "Page B", content: html, format: "html", user_ids: [carol.id] });
    const p1 = await carol.client.get<Page<InboxItem>>("/api/user/messages?p=1&page_size=1");
    expect(p1.data).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(p1.data.items[0]).toMatchObject({ id: b.id, format: "html", content: html });
    const p2 = await carol.client.get<Page<InboxItem>>("/api/user/messages?p=2&page_size=1");
    expect(p2.data.items[0].id).toBe(a.id);
  });
});

describe("rules and access", () => {
  it("refuses a blank title, empty content, no recipients and unknown users, in both languages", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ title: "   ", content: "x", user_ids: [alice.id] }, "The title cannot be empty", "标题不能为空"],
      [{ content: "x", user_ids: [alice.id] }, "The title cannot be empty", "标题不能为空"],
      [{ title: "t", content: "  \n ", user_ids: [alice.id] }, "The content cannot be empty", "内容不能为空"],
      [{ title: "t", content: "x", user_ids: [] }, "Choose at least one recipient", "请至少选择一个接收用户"],
      [{ title: "t", content: "x", user_ids: [alice.id, 987654] }, "These recipients do not exist: 987654", "接收用户不存在：987654"],
      [{ title: "x".repeat(201), content: "x", user_ids: [alice.id] }, "The title can have at most 200 characters", "标题最多 200 个字符"],
    ];
    const countBefore = (await queryDb<{ n: unknown }>(server, 'SELECT COUNT(*) AS n FROM "messages"'))[0].n;
    for (const [body, en, zh] of cases) {
      const r = await admin.client.post("/api/admin/messages", body);
      expect([r.success, r.message]).toEqual([false, en]);
      expect((await inZh(admin).post("/api/admin/messages", body)).message).toBe(zh);
    }
    const bad = await admin.client.post("/api/admin/messages", { title: "t", content: "x", format: "text", user_ids: [alice.id] });
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("format");
    const countAfter = (await queryDb<{ n: unknown }>(server, 'SELECT COUNT(*) AS n FROM "messages"'))[0].n;
    expect(Number(countAfter)).toBe(Number(countBefore));
  });

  it("duplicate recipients are one recipient", async () => {
    const m = await send({ title: "Dup", content: "x", user_ids: [alice.id, alice.id, bob.id] });
    expect(m.stats.total_recipients).toBe(2);
  });

  it("admin calls are refused to users; the root may use them", async () => {
    const m = await send({ title: "Root sees", content: "x", user_ids: [alice.id] }, root);
    for (const r of [
      await alice.client.get("/api/admin/messages"),
      await alice.client.get("/api/admin/messages/search?keyword=x"),
      await alice.client.post("/api/admin/messages", { title: "t", content: "x", user_ids: [bob.id] }),
      await alice.client.get(`/api/admin/messages/${m.id}`),
      await alice.client.get(`/api/admin/messages/${m.id}/recipients`),
      await alice.client.put(`/api/admin/messages/${m.id}`, { title: "t", content: "x" }),
      await alice.client.del(`/api/admin/messages/${m.id}`),
    ]) {
      expect(r.success).toBe(false);
      expect(r.status).toBe(403);
    }
    expect((await new ApiClient(server.url).get("/api/user/messages")).status).toBe(401);
    expect((await admin.client.get(`/api/admin/messages/${m.id}`)).success).toBe(true);
  });
});

describe("admin list, search, edit and delete", () => {
  it("searches title and content by keyword and creation date", async () => {
    const m = await send({ title: "Quarterly billing", content: "The 100%_discount ends", user_ids: [alice.id] });
    const ids = async (q: string) => (await admin.client.get<Page<AdminMessage>>(`/api/admin/messages/search?${q}`)).data.items.map((i) => i.id);
    expect(await ids("keyword=Quarterly")).toContain(m.id);
    expect(await ids("keyword=100%25_disc")).toEqual([m.id]);
    expect(await ids("keyword=100%25x")).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await ids(`keyword=Quarterly&start_date=${today}&end_date=${today}`)).toEqual([m.id]);
    expect(await ids(`keyword=Quarterly&start_date=2999-01-01`)).toEqual([]);
    expect(await ids(`keyword=Quarterly&end_date=2000-01-01T00:00:00Z`)).toEqual([]);
    const bad = await admin.client.get("/api/admin/messages/search?start_date=yesterday");
    expect(bad.status).toBe(400);

    const all = await admin.client.get<Page<AdminMessage>>("/api/admin/messages?p=1&page_size=2");
    expect(all.data.items.length).toBe(2);
    expect(all.data.items[0].id).toBeGreaterThan(all.data.items[1].id);
    expect(all.data.total).toBeGreaterThan(2);
    expect(all.data.items[0].stats.total_recipients).toBeGreaterThan(0);
  });

  it("edits title, format and content; read times stay; blank fields are refused", async () => {
    const m = await send({ title: "Old", content: "old", user_ids: [alice.id, bob.id] });
    await alice.client.put(`/api/user/messages/${m.id}/read`);
    const blank = await admin.client.put(`/api/admin/messages/${m.id}`, { title: " ", content: "x" });
    expect([blank.success, blank.message]).toEqual([false, "The title cannot be empty"]);
    const noContent = await admin.client.put(`/api/admin/messages/${m.id}`, { title: "t", content: "" });
    expect([noContent.success, noContent.message]).toEqual([false, "The content cannot be empty"]);
    const r = await admin.client.put(`/api/admin/messages/${m.id}`, { title: " New ", content: "<b>new</b>", format: "html" });
    expect(r.success, r.message).toBe(true);
    const seen = await bob.client.get<InboxItem>(`/api/user/messages/${m.id}`);
    expect(seen.data).toMatchObject({ title: "New", content: "<b>new</b>", format: "html", is_read: false });
    expect((await admin.client.get<AdminMessage>(`/api/admin/messages/${m.id}`)).data.stats).toEqual({ total_recipients: 2, read_count: 1 });
    const missing = await admin.client.put("/api/admin/messages/999999", { title: "t", content: "x" });
    expect([missing.success, missing.message]).toEqual([false, "The message does not exist"]);
  });

  it("deletes the message and every recipient's record", async () => {
    const m = await send({ title: "Gone", content: "x", user_ids: [carol.id, bob.id] });
    const before = await unread(carol);
    const r = await admin.client.del(`/api/admin/messages/${m.id}`);
    expect(r.success, r.message).toBe(true);
    expect(await unread(carol)).toBe(before - 1);
    expect((await carol.client.get(`/api/user/messages/${m.id}`)).message).toBe("The message does not exist");
    expect((await admin.client.get(`/api/admin/messages/${m.id}`)).message).toBe("The message does not exist");
    const rows = await queryDb(server, 'SELECT * FROM "message_recipients" WHERE "message_id" = $1', [m.id]);
    expect(rows).toEqual([]);
    expect((await admin.client.del(`/api/admin/messages/${m.id}`)).success).toBe(false);
  });

  it("two concurrent deletes: one succeeds, the other answers not found (never a 500)", async () => {
    for (let round = 0; round < 3; round++) {
      const m = await send({ title: `Twice ${round}`, content: "x", user_ids: [carol.id, bob.id] });
      const both = await Promise.all([admin.client.del(`/api/admin/messages/${m.id}`), root.client.del(`/api/admin/messages/${m.id}`)]);
      expect(
        both.map((r) => r.status).every((s) => s < 500),
        JSON.stringify(both),
      ).toBe(true);
      expect(both.filter((r) => r.success)).toHaveLength(1);
      expect(both.find((r) => !r.success)!.message).toBe("The message does not exist");
    }
  });
});

describe("a message to 10,000 users", () => {
  it("is created in one request within two seconds, with every recipient", async () => {
    const n = 10_000;
    const insert =
      server.dbKind === "postgresql"
        ? `INSERT INTO "users" ("username", "password", "aff_code", "created_time") SELECT 'bulk' || g, 'x', 'bulkaff' || g, 0 FROM generate_series(1, ${n}) AS g`
        : `INSERT INTO "users" ("username", "password", "aff_code", "created_time") WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < ${n}) SELECT 'bulk' || g, 'x', 'bulkaff' || g, 0 FROM s`;
    await execDb(server, insert);
    const rows = await queryDb<{ id: unknown }>(server, `SELECT "id" FROM "users" WHERE "username" LIKE 'bulk%' ORDER BY "id"`);
    const ids = rows.map((r) => Number(r.id));
    expect(ids.length).toBe(n);

    const started = performance.now();
    const r = await admin.client.post<AdminMessage>("/api/admin/messages", { title: "Everyone", content: "Hello all", format: "markdown", user_ids: ids });
    const elapsed = performance.now() - started;
    expect(r.success, r.message).toBe(true);
    console.log(`message to ${n} users (${server.dbKind}): ${elapsed.toFixed(0)} ms`);
    expect(elapsed).toBeLessThan(2000);
    expect(r.data.stats.total_recipients).toBe(n);

    const count = await queryDb<{ n: unknown }>(server, 'SELECT COUNT(*) AS n FROM "message_recipients" WHERE "message_id" = $1 AND "read_at" IS NULL', [
      r.data.id,
    ]);
    expect(Number(count[0].n)).toBe(n);
    const last = await admin.client.get<Page<Recipient>>(`/api/admin/messages/${r.data.id}/recipients?p=1000&page_size=10`);
    expect(last.data.total).toBe(n);
    expect(last.data.items.map((i) => i.username)).toEqual(Array.from({ length: 10 }, (_, i) => `bulk${n - 9 + i}`));
  }, 60_000);
});
