import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";
import { query, seedUser, type SeededUser } from "../support/seed";

let server: TestServer;
let alice: SeededUser;
let bob: SeededUser;

beforeAll(async () => {
  server = await startServer();
  await seedUser(server, { username: "root", role: 100 });
  alice = await seedUser(server, { username: "alice" });
  bob = await seedUser(server, { username: "bob" });
});
afterAll(async () => {
  await server?.stop();
});

type Tok = Record<string, unknown> & { id: number; key: string; name: string; status: number };
type Page = { items: Tok[]; total: number; page: number };
const now = () => Math.floor(Date.now() / 1000);

describe("token creation", () => {
  it("creates a batch with suffixed names and full keys once; lists show masked keys", async () => {
    const r = await alice.client.post<Tok[]>("/api/token/", { name: "work", count: 3, remain_quota: 500000, expired_time: -1 });
    expect(r.success, r.message).toBe(true);
    expect(r.data).toHaveLength(3);
    expect(r.data[0].name).toBe("work");
    for (const t of r.data.slice(1)) expect(t.name).toMatch(/^work-[A-Za-z0-9]{6}$/);
    for (const t of r.data) expect(t.key).toMatch(/^sk-[A-Za-z0-9]{48}$/);
    expect(new Set(r.data.map((t) => t.key)).size).toBe(3);
    expect(r.data[0]).not.toHaveProperty("key_hash");
    expect(r.data[0]).not.toHaveProperty("key_cipher");

    const list = await alice.client.get<Page>("/api/token/?p=1&size=10");
    expect(list.data.total).toBe(3);
    for (const t of list.data.items) {
      expect(t.key).toMatch(/^sk-[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/);
      expect(t.rate_limit_period).toBe(60);
      expect(t.rate_limit_count).toBe(1000);
      expect(t.rate_limit_success).toBe(10);
    }
    const full = r.data.find((t) => t.id === list.data.items[0].id)!.key;
    const reveal = await alice.client.post<{ key: string }>(`/api/token/${list.data.items[0].id}/key`);
    expect(reveal.data.key).toBe(full);
    // stored: keyed hash and sealed key, never the key itself
    const [row] = await query(server, 'SELECT "key_hash", "key_cipher" FROM "tokens" WHERE "id" = $1', [list.data.items[0].id]);
    expect(String(row.key_hash)).toMatch(/^[0-9a-f]{64}$/);
    expect(String(row.key_cipher)).not.toContain(full.slice(3));
  });

  it("validates name, batch count, expiry, quota and group", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "" }, "The token name cannot be empty"],
      [{ name: "x", count: 0 }, "The batch count must be between 1 and 100"],
      [{ name: "x", count: 101 }, "The batch count must be between 1 and 100"],
      [{ name: "x", expired_time: now() - 10 }, "The expiry time must be in the future"],
      [{ name: "x", expired_time: "soon" }, "The expiry time format is wrong"],
      [{ name: "x", remain_quota: -1 }, "The quota cannot be negative"],
      [{ name: "x", group: "svip" }, "You may not use the group svip"],
    ];
    for (const [body, message] of cases) {
      const r = await alice.client.post("/api/token/", body);
      expect(r.success, JSON.stringify(body)).toBe(false);
      expect(r.message).toBe(message);
    }
    const vip = await alice.client.post<Tok[]>("/api/token/", {
      name: "vip-token",
      group: "vip",
      allow_ips: "1.2.3.4\n\n10.0.0.0/8 ",
      model_limits_enabled: true,
      model_limits: ["gpt-4o", "gpt-4o"],
    });
    expect(vip.success, vip.message).toBe(true);
    expect(vip.data[0].group).toBe("vip");
    expect(vip.data[0].allow_ips).toBe("1.2.3.4\n10.0.0.0/8");
    expect(vip.data[0].model_limits).toBe("gpt-4o");
  });
});

describe("token ownership", () => {
  it("keeps users out of each other's tokens", async () => {
    const mine = await alice.client.get<Page>("/api/token/?p=1&size=100");
    const target = mine.data.items[0];
    expect((await bob.client.get<Page>("/api/token/")).data.total).toBe(0);
    expect((await bob.client.get(`/api/token/${target.id}`)).success).toBe(false);
    expect((await bob.client.post(`/api/token/${target.id}/key`)).success).toBe(false);
    expect((await bob.client.put("/api/token/", { id: target.id, name: "stolen" })).success).toBe(false);
    expect((await bob.client.put("/api/token/?status_only=true", { id: target.id, status: 2 })).success).toBe(false);
    expect((await bob.client.del(`/api/token/${target.id}`)).success).toBe(false);
    expect((await bob.client.get<Page>("/api/token/search?keyword=work")).data.total).toBe(0);
    const still = await alice.client.get<Tok>(`/api/token/${target.id}`);
    expect(still.data.name).toBe(target.name);
    expect(still.data.status).toBe(1);
    expect((await fetch(server.url + "/api/token/")).status).toBe(401);
  });
});

describe("token update and search", () => {
  it("never makes quota negative and refuses to enable expired or exhausted tokens", async () => {
    const [t] = (await alice.client.post<Tok[]>("/api/token/", { name: "edit-me", remain_quota: 0 })).data;
    expect((await alice.client.put("/api/token/", { id: t.id, remain_quota: -5 })).message).toBe("The quota cannot be negative");
    expect((await alice.client.put("/api/token/?status_only=true", { id: t.id, status: 2 })).success).toBe(true);
    const exhausted = await alice.client.put("/api/token/?status_only=true", { id: t.id, status: 1 });
    expect(exhausted.success).toBe(false);
    expect(exhausted.message).toMatch(/quota is exhausted/);
    const unlimited = await alice.client.put<Tok>("/api/token/", {
      id: t.id,
      unlimited_quota: true,
      name: "edited",
      rate_limit_enabled: true,
      rate_limit_count: 5,
    });
    expect(unlimited.success, unlimited.message).toBe(true);
    expect(unlimited.data.name).toBe("edited");
    expect(unlimited.data.status).toBe(2); // a full edit keeps the status
    expect((await alice.client.put("/api/token/?status_only=true", { id: t.id, status: 1 })).success).toBe(true);

    await query(server, 'UPDATE "tokens" SET "expired_time" = $1, "status" = 3 WHERE "id" = $2', [now() - 5, t.id]);
    const expired = await alice.client.put("/api/token/?status_only=true", { id: t.id, status: 1 });
    expect(expired.success).toBe(false);
    expect(expired.message).toMatch(/expired/);
    const renewed = await alice.client.put<Tok>("/api/token/", { id: t.id, expired_time: -1, status: 1 });
    expect(renewed.success, renewed.message).toBe(true);
    expect(renewed.data.status).toBe(1);
  });

  it("edits a token whose expiry has passed: the drawer resends the stored expiry with the other fields", async () => {
    const [t] = (await alice.client.post<Tok[]>("/api/token/", { name: "lapsed", remain_quota: 100, expired_time: now() + 3600 })).data;
    const past = now() - 60;
    await query(server, 'UPDATE "tokens" SET "expired_time" = $1, "status" = 3 WHERE "id" = $2', [past, t.id]);
    // what the drawer sends on save: every field, the expiry as stored
    const drawer = {
      id: t.id,
      name: "lapsed-renamed",
      remain_quota: 200,
      unlimited_quota: false,
      expired_time: past,
      rate_limit_enabled: false,
      rate_limit_period: 60,
      rate_limit_count: 1000,
      rate_limit_success: 10,
      model_limits_enabled: false,
      model_limits: "",
      allow_ips: "",
      group: "",
    };
    const renamed = await alice.client.put<Tok>("/api/token/", drawer);
    expect(renamed.success, renamed.message).toBe(true);
    expect(renamed.data).toMatchObject({ name: "lapsed-renamed", remain_quota: 200, expired_time: past, status: 3 });
    // a new expiry that is also in the past is refused with a message that says so
    const earlier = await alice.client.put("/api/token/", { ...drawer, expired_time: past - 10 });
    expect(earlier).toMatchObject({ success: false, message: "The expiry time must be in the future" });
    // a future expiry renews it; enabling is then allowed
    const renewed = await alice.client.put<Tok>("/api/token/", { ...drawer, expired_time: now() + 86400, status: 1 });
    expect(renewed.success, renewed.message).toBe(true);
    expect(renewed.data.status).toBe(1);
  });

  it("searches by name and by a fragment of the key, then deletes", async () => {
    const created = (await alice.client.post<Tok[]>("/api/token/", { name: "findable" })).data[0];
    const byName = await alice.client.get<Page>("/api/token/search?keyword=findab");
    expect(byName.data.items.map((t) => t.id)).toEqual([created.id]);
    const fragment = created.key.slice(10, 30);
    const byKey = await alice.client.get<Page>(`/api/token/search?token=${fragment}`);
    expect(byKey.data.items.map((t) => t.id)).toEqual([created.id]);
    expect((await alice.client.get<Page>(`/api/token/search?token=sk-${created.key.slice(3, 20)}`)).data.total).toBe(1);
    expect((await alice.client.del(`/api/token/${created.id}/`)).success).toBe(true);
    expect((await alice.client.get(`/api/token/${created.id}`)).success).toBe(false);
    expect((await alice.client.get<Page>("/api/token/search?keyword=findable")).data.total).toBe(0);
  });
});
