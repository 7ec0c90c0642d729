// Redemption codes (docs/redemptions.md): every /api/redemption call with its rules and
// messages, admin-only access, redeeming at POST /api/user/topup, and the races: one
// single-use code redeemed by two users at once, a gift code with max_uses 3 by ten users at
// once, one user twice at once. After all of it each balance equals the sum of its ledger rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { query, seedUser, type SeededUser } from "../support/seed";

type Code = {
  id: number;
  name: string;
  status: number;
  quota: number;
  is_gift: boolean;
  max_uses: number;
  used_count: number;
  valid_from: number;
  valid_until: number;
  used_user_id: number;
  key_hint: string;
};
type Page = { items: Code[]; total: number; page: number; page_size: number };

let server: TestServer;
let root: SeededUser;
let admin: SeededUser;
let alice: SeededUser;
const users: SeededUser[] = [];
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  server = await startServer();
  root = await seedUser(server, { username: "root", role: 100 });
  admin = await seedUser(server, { username: "admin1", role: 10 });
  alice = await seedUser(server, { username: "alice" });
  for (let i = 0; i < 10; i++) users.push(await seedUser(server, { username: `u${i}`, quota: 0 }));
});
afterAll(async () => {
  await server?.stop();
});

async function create(body: Record<string, unknown>): Promise<string[]> {
  const r = await root.client.post<string[]>("/api/redemption/", body);
  expect(r.success, r.message).toBe(true);
  return r.data;
}

async function byName(name: string): Promise<Code[]> {
  const r = await root.client.get<Page>(`/api/redemption/search?keyword=${encodeURIComponent(name)}&p=1&page_size=100`);
  expect(r.success, r.message).toBe(true);
  return r.data.items.filter((c) => c.name === name);
}

// The same session, speaking Chinese.
function inZh(u: SeededUser): ApiClient {
  const c = new ApiClient(server.url, "zh");
  c.cookie = u.client.cookie;
  c.userId = u.client.userId;
  return c;
}

async function balance(u: SeededUser): Promise<bigint> {
  const [row] = await query(server, 'SELECT "quota" FROM "users" WHERE "id" = $1', [u.id]);
  return BigInt(String(row.quota));
}
async function ledgerSum(id: number): Promise<bigint> {
  const rows = await query(server, 'SELECT "delta" FROM "quota_ledger" WHERE "user_id" = $1', [id]);
  return rows.reduce((s, r) => s + BigInt(String(r.delta)), 0n);
}

describe("admin calls", () => {
  it("are refused to anonymous callers and to ordinary users, allowed to an admin", async () => {
    const anon = await fetch(server.url + "/api/redemption/?p=1&page_size=10");
    expect(anon.status).toBe(401);
    const paths: Array<[string, string, unknown?]> = [
      ["GET", "/api/redemption/?p=1&page_size=10"],
      ["GET", "/api/redemption/search?keyword=x"],
      ["GET", "/api/redemption/1"],
      ["POST", "/api/redemption/", { name: "x" }],
      ["PUT", "/api/redemption/", { id: 1, name: "x" }],
      ["PUT", "/api/redemption/?status_only=true", { id: 1, status: 2 }],
      ["DELETE", "/api/redemption/1/"],
      ["PUT", "/api/redemption/batch-disable", { ids: [1] }],
      ["DELETE", "/api/redemption/delete-disabled"],
      ["GET", "/api/redemption/count-by-name?name=x"],
      ["DELETE", "/api/redemption/delete-by-name?name=x"],
    ];
    for (const [method, path, body] of paths) {
      const r = await alice.client.call(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.success).toBe(false);
    }
    const r = await admin.client.post<string[]>("/api/redemption/", { name: "by-admin", quota: 1000 });
    expect(r.success, r.message).toBe(true);
    expect(r.data).toHaveLength(1);
  });

  it("creates a batch: long random codes answered once, stored only as a hash", async () => {
    const keys = await create({ name: "batch-a", quota: 250000, count: 5 });
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
    for (const k of keys) expect(k).toMatch(/^[A-Za-z0-9]{32}$/);
    const list = await byName("batch-a");
    expect(list).toHaveLength(5);
    for (const c of list) {
      expect(c).not.toHaveProperty("key");
      expect(c.status).toBe(1);
      expect(c.quota).toBe(250000);
      expect(c.is_gift).toBe(false);
      expect(c.max_uses).toBe(1);
      expect(keys.some((k) => c.key_hint === `${k.slice(0, 4)}…${k.slice(-4)}`)).toBe(true);
    }
    const rows = await query(server, 'SELECT "key" FROM "redemptions" WHERE "name" = $1', ["batch-a"]);
    for (const row of rows) {
      expect(String(row.key)).toMatch(/^[0-9a-f]{64}$/);
      expect(keys).not.toContain(String(row.key));
    }
    // the list and get never answer a code; the whole code finds its row through search
    const one = await root.client.get<Code>(`/api/redemption/${list[0].id}`);
    expect(one.data.id).toBe(list[0].id);
    expect(JSON.stringify(one.data)).not.toContain(keys[0]);
    const found = await root.client.get<Page>(`/api/redemption/search?keyword=${keys[2]}`);
    expect(found.data.total).toBe(1);
    expect(found.data.items[0].key_hint).toBe(`${keys[2].slice(0, 4)}…${keys[2].slice(-4)}`);
    const byId = await root.client.get<Page>(`/api/redemption/search?keyword=${list[0].id}`);
    expect(byId.data.items.map((c) => c.id)).toContain(list[0].id);
  });

  it("defaults: quota 100000, an empty name becomes the formatted quota", async () => {
    await create({ name: "", count: 1 });
    const r = await root.client.get<Page>("/api/redemption/?p=1&page_size=1");
    expect(r.data.items[0].quota).toBe(100000);
    expect(r.data.items[0].name).toBe("$0.20");
    await create({ name: "   ", quota: 500000 });
    expect((await root.client.get<Page>("/api/redemption/?p=1&page_size=1")).data.items[0].name).toBe("$1.00");
  });

  it("refuses bad input with the rule's message, in English and Chinese", async () => {
    const t = now();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "x".repeat(21) }, "The code name must be 1 to 20 characters long"],
      [{ name: "x", count: 0 }, "The number of codes must be between 1 and 100"],
      [{ name: "x", count: 101 }, "The number of codes must be between 1 and 100"],
      [{ name: "x", quota: 0 }, "The quota must be a positive integer"],
      [{ name: "x", quota: "1.5" }, "The quota must be a positive integer"],
      [{ name: "x", valid_from: t + 100, valid_until: t + 50 }, "The effective time must be earlier than the expiry time"],
      [{ name: "x", valid_from: t + 100, valid_until: t + 100 }, "The effective time must be earlier than the expiry time"],
      [{ name: "x", valid_from: -5 }, "The effective or expiry time is invalid"],
      [{ name: "x", is_gift: true, max_uses: 0 }, "Max uses must be -1 (unlimited) or a positive integer"],
      [{ name: "x", is_gift: true, max_uses: -2 }, "Max uses must be -1 (unlimited) or a positive integer"],
      [{ name: "x", key: "short" }, "A custom code must be 8 to 64 letters, digits, - or _"],
      [{ name: "x", key: "custom-code-1", count: 2 }, "A custom code creates exactly one code"],
    ];
    for (const [body, message] of cases) {
      const r = await root.client.post("/api/redemption/", body);
      expect(r.success, JSON.stringify(body)).toBe(false);
      expect(r.message, JSON.stringify(body)).toBe(message);
    }
    expect(await byName("x")).toHaveLength(0);
    const zh = await seedUser(server, { username: "zh-admin", role: 10 });
    const zhClient = inZh(zh);
    expect((await zhClient.post("/api/redemption/", { name: "x", valid_from: t + 100, valid_until: t + 50 })).message).toBe("生效时间必须早于过期时间");
    expect((await zhClient.post("/api/redemption/", { name: "x".repeat(21) })).message).toBe("兑换码名称长度必须在 1-20 之间");
  });

  it("a custom key: created once, refused when it exists", async () => {
    expect(await create({ name: "custom", key: "MY-CODE-2026", quota: 1234 })).toEqual(["MY-CODE-2026"]);
    const again = await root.client.post("/api/redemption/", { name: "custom", key: "MY-CODE-2026" });
    expect(again.message).toBe("This code already exists");
  });

  it("lists with paging", async () => {
    const p1 = await root.client.get<Page>("/api/redemption/?p=1&page_size=3");
    const p2 = await root.client.get<Page>("/api/redemption/?p=2&page_size=3");
    expect(p1.data.items).toHaveLength(3);
    expect(p1.data.page).toBe(1);
    expect(p2.data.page).toBe(2);
    expect(p1.data.total).toBe(p2.data.total);
    expect(p1.data.items[0].id).toBeGreaterThan(p2.data.items[0].id);
  });

  it("edits only an unused code; status_only enables and disables; a used code keeps its status", async () => {
    const [key] = await create({ name: "edit-me", quota: 1000 });
    const [c] = await byName("edit-me");
    const t = now();
    const bad = await root.client.put("/api/redemption/", { id: c.id, name: "edit-me", valid_from: t + 10, valid_until: t + 5 });
    expect(bad.message).toBe("The effective time must be earlier than the expiry time");
    const blank = await root.client.put("/api/redemption/", { id: c.id, name: " " });
    expect(blank.message).toBe("The code name must be 1 to 20 characters long");
    const ok = await root.client.put<Code>("/api/redemption/", { id: c.id, name: "edited", quota: 2000, valid_until: t + 3600 });
    expect(ok.success, ok.message).toBe(true);
    expect(ok.data.name).toBe("edited");
    expect(ok.data.quota).toBe(2000);

    const off = await root.client.put<Code>("/api/redemption/?status_only=true", { id: c.id, status: 2 });
    expect(off.data.status).toBe(2);
    expect((await root.client.put("/api/redemption/", { id: c.id, name: "again" })).message).toBe("Only an unused code can be edited");
    expect((await alice.client.post("/api/user/topup", { key })).message).toBe("The redemption code is invalid or already used");
    const on = await root.client.put<Code>("/api/redemption/?status_only=true", { id: c.id, status: 1 });
    expect(on.data.status).toBe(1);
    expect((await root.client.put("/api/redemption/?status_only=true", { id: c.id, status: 3 })).success).toBe(false);

    const r = await alice.client.post<{ quota: number; is_gift: boolean }>("/api/user/topup", { key });
    expect(r.data).toEqual({ quota: 2000, is_gift: false });
    const used = (await root.client.get<Code>(`/api/redemption/${c.id}`)).data;
    expect(used.status).toBe(3);
    expect(used.used_user_id).toBe(alice.id);
    expect((await root.client.put("/api/redemption/?status_only=true", { id: c.id, status: 1 })).message).toBe("A used code cannot be enabled or disabled");
    expect((await root.client.put("/api/redemption/?status_only=true", { id: c.id, status: 2 })).message).toBe("A used code cannot be enabled or disabled");
    expect((await root.client.put("/api/redemption/", { id: c.id, name: "late" })).message).toBe("Only an unused code can be edited");
  });

  it("deletes one, batch-disables, deletes the disabled, counts and deletes by name", async () => {
    await create({ name: "bulk", quota: 10, count: 6 });
    const codes = await byName("bulk");
    expect((await root.client.put("/api/redemption/batch-disable", { ids: [] })).message).toBe("Select codes first");
    const dis = await root.client.put<number>("/api/redemption/batch-disable", { ids: codes.slice(0, 3).map((c) => c.id) });
    expect(dis.data).toBe(3);
    expect((await byName("bulk")).filter((c) => c.status === 2)).toHaveLength(3);

    const del = await root.client.del(`/api/redemption/${codes[5].id}/`);
    expect(del.success, del.message).toBe(true);
    expect((await root.client.get(`/api/redemption/${codes[5].id}`)).message).toBe("Record not found");

    const before = (await root.client.get<Page>("/api/redemption/?p=1&page_size=100")).data.items.filter((c) => c.status === 2).length;
    const dd = await root.client.del<number>("/api/redemption/delete-disabled");
    expect(dd.data).toBe(before);
    expect(await byName("bulk")).toHaveLength(2);

    expect((await root.client.get("/api/redemption/count-by-name?name=%20")).message).toBe("Enter the name of the codes to delete");
    expect((await root.client.del("/api/redemption/delete-by-name?name=")).message).toBe("Enter the name of the codes to delete");
    expect((await root.client.get<{ count: number }>("/api/redemption/count-by-name?name=bulk")).data).toEqual({ count: 2 });
    expect((await root.client.get<{ count: number }>("/api/redemption/count-by-name?name=bul")).data).toEqual({ count: 0 });
    expect((await root.client.del<{ count: number }>("/api/redemption/delete-by-name?name=bulk")).data).toEqual({ count: 2 });
    expect((await root.client.get<{ count: number }>("/api/redemption/count-by-name?name=bulk")).data).toEqual({ count: 0 });
  });
});

describe("redeeming", () => {
  it("credits once, writes the ledger and a type-1 log row, never the code", async () => {
    const [key] = await create({ name: "once", quota: 777 });
    const before = await balance(alice);
    expect((await alice.client.post("/api/user/topup?turnstile=", { key: "" })).message).toBe("Please enter a code");
    expect((await alice.client.post("/api/user/topup", {})).message).toBe("Please enter a code");
    expect((await alice.client.post("/api/user/topup", { key: "nope-nope-nope" })).message).toBe("The redemption code is invalid or already used");
    const r = await alice.client.post<{ quota: number; is_gift: boolean }>("/api/user/topup?turnstile=x", { key: `  ${key} ` });
    expect(r.success, r.message).toBe(true);
    expect(r.data).toEqual({ quota: 777, is_gift: false });
    expect(await balance(alice)).toBe(before + 777n);
    const again = await alice.client.post("/api/user/topup", { key });
    expect(again.message).toBe("The redemption code is invalid or already used");
    const [c] = await byName("once");
    const ledger = await query(server, 'SELECT "delta", "kind", "ref" FROM "quota_ledger" WHERE "user_id" = $1 AND "kind" = $2 AND "ref" = $3', [
      alice.id,
      "redeem",
      String(c.id),
    ]);
    expect(ledger).toHaveLength(1);
    expect(Number(ledger[0].delta)).toBe(777);
    const logs = await query(server, 'SELECT "type", "quota", "content", "other" FROM "logs" WHERE "user_id" = $1 AND "type" = 1', [alice.id]);
    const mine = logs.filter((l) => String(l.content).includes(`#${c.id}`));
    expect(mine).toHaveLength(1);
    expect(Number(mine[0].quota)).toBe(777);
    const all = JSON.stringify(await query(server, 'SELECT * FROM "quota_ledger"')) + JSON.stringify(await query(server, 'SELECT * FROM "logs"'));
    expect(all).not.toContain(key);
    const zh = inZh(alice);
    expect((await zh.post("/api/user/topup", { key })).message).toBe("无效的兑换码，或已被使用");
    expect((await zh.post("/api/user/topup", { key: "" })).message).toBe("请输入兑换码");
  });

  it("refuses codes not valid yet, expired, disabled and deleted", async () => {
    const t = now();
    const [early] = await create({ name: "early", quota: 5, valid_from: t + 3600 });
    const [late] = await create({ name: "late", quota: 5, valid_until: t - 10 });
    const [off] = await create({ name: "off", quota: 5 });
    const [gone] = await create({ name: "gone", quota: 5 });
    const [window] = await create({ name: "window", quota: 5, valid_from: t - 60, valid_until: t + 3600 });
    await root.client.put("/api/redemption/?status_only=true", { id: (await byName("off"))[0].id, status: 2 });
    await root.client.del(`/api/redemption/${(await byName("gone"))[0].id}/`);
    const before = await balance(alice);
    expect((await alice.client.post("/api/user/topup", { key: early })).message).toBe("This code is not valid yet");
    expect((await alice.client.post("/api/user/topup", { key: late })).message).toBe("This code has expired");
    expect((await alice.client.post("/api/user/topup", { key: off })).message).toBe("The redemption code is invalid or already used");
    expect((await alice.client.post("/api/user/topup", { key: gone })).message).toBe("The redemption code is invalid or already used");
    expect(await balance(alice)).toBe(before);
    expect((await alice.client.post("/api/user/topup", { key: window })).success).toBe(true);
    const zh = inZh(alice);
    expect((await zh.post("/api/user/topup", { key: early })).message).toBe("该兑换码尚未生效");
    expect((await zh.post("/api/user/topup", { key: late })).message).toBe("该兑换码已过期");
  });

  it("two users redeeming one single-use code at the same moment: one credit", async () => {
    for (let round = 0; round < 5; round++) {
      const [key] = await create({ name: `race-${round}`, quota: 1000 });
      const [a, b] = [users[0], users[1]];
      const before = [await balance(a), await balance(b)];
      const results = await Promise.all([a.client.post("/api/user/topup", { key }), b.client.post("/api/user/topup", { key })]);
      expect(results.filter((r) => r.success)).toHaveLength(1);
      const loser = results.find((r) => !r.success)!;
      expect(loser.message).toBe("The redemption code is invalid or already used");
      const gained = (await balance(a)) - before[0] + ((await balance(b)) - before[1]);
      expect(gained).toBe(1000n);
      const [c] = await byName(`race-${round}`);
      expect(c.status).toBe(3);
      expect(c.used_count).toBe(1);
      const uses = await query(server, 'SELECT "user_id" FROM "redemption_uses" WHERE "redemption_id" = $1', [c.id]);
      expect(uses).toHaveLength(1);
      expect(Number(uses[0].user_id)).toBe(c.used_user_id);
    }
  });

  it("a gift code with max_uses 3 and ten users at once: three credits", async () => {
    const [key] = await create({ name: "gift3", quota: 300, is_gift: true, max_uses: 3 });
    const before = await Promise.all(users.map(balance));
    const results = await Promise.all(users.map((u) => u.client.post<{ quota: number; is_gift: boolean }>("/api/user/topup", { key })));
    const wins = results.filter((r) => r.success);
    expect(wins).toHaveLength(3);
    for (const w of wins) expect(w.data).toEqual({ quota: 300, is_gift: true });
    for (const r of results.filter((r) => !r.success)) expect(r.message).toBe("The redemption code is invalid or already used");
    const after = await Promise.all(users.map(balance));
    const gained = after.map((b, i) => b - before[i]);
    expect(gained.filter((g) => g === 300n)).toHaveLength(3);
    expect(gained.filter((g) => g === 0n)).toHaveLength(7);
    const [c] = await byName("gift3");
    expect(c.used_count).toBe(3);
    expect(c.status).toBe(1);
    const uses = await query(server, 'SELECT "user_id" FROM "redemption_uses" WHERE "redemption_id" = $1', [c.id]);
    expect(uses).toHaveLength(3);
  });

  it("the same user twice at once on a gift code: once; another user can still redeem it", async () => {
    const [key] = await create({ name: "gift-many", quota: 50, is_gift: true, max_uses: -1 });
    const u = users[2];
    const before = await balance(u);
    const results = await Promise.all(Array.from({ length: 4 }, () => u.client.post("/api/user/topup", { key })));
    expect(results.filter((r) => r.success)).toHaveLength(1);
    for (const r of results.filter((r) => !r.success)) {
      expect(["You have already redeemed this gift code", "The redemption code is invalid or already used"]).toContain(r.message);
    }
    expect(await balance(u)).toBe(before + 50n);
    expect((await u.client.post("/api/user/topup", { key })).message).toBe("You have already redeemed this gift code");
    expect((await users[3].client.post("/api/user/topup", { key })).success).toBe(true);
    const [c] = await byName("gift-many");
    expect(c.used_count).toBe(2);
  });

  it("a gift code's max uses cannot go below the uses made", async () => {
    const [key] = await create({ name: "gift-edit", quota: 1, is_gift: true, max_uses: 5 });
    await users[4].client.post("/api/user/topup", { key });
    await users[5].client.post("/api/user/topup", { key });
    const [c] = await byName("gift-edit");
    expect((await root.client.put("/api/redemption/", { id: c.id, max_uses: 1 })).message).toBe("Max uses cannot be below the uses already made (2)");
    expect((await root.client.put<Code>("/api/redemption/", { id: c.id, max_uses: 2 })).data.max_uses).toBe(2);
    expect((await users[6].client.post("/api/user/topup", { key })).message).toBe("The redemption code is invalid or already used");
  });

  it("after all of it, every balance equals the sum of its ledger rows", async () => {
    for (const u of [alice, ...users]) expect(await ledgerSum(u.id), u.username).toBe(await balance(u));
  });
});
