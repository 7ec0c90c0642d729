import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";
import { startMockUpstream } from "../support/mock-upstreams";
import { query, seedUser, type SeededUser } from "../support/seed";

const UPSTREAM_KEY = "sk-upstream-SECRET-0123456789";
let server: TestServer;
let admin: SeededUser;
let user: SeededUser;
let upstream: http.Server;
let upstreamUrl = "";
const seenAuth: string[] = [];

beforeAll(async () => {
  server = await startServer();
  admin = await seedUser(server, { username: "root", role: 100 });
  user = await seedUser(server, { username: "alice" });
  // A mock upstream with OpenAI-style model list and billing endpoints.
  upstream = http.createServer((req, res) => {
    seenAuth.push(String(req.headers.authorization ?? ""));
    const ok = req.headers.authorization === `Bearer ${UPSTREAM_KEY}`;
    res.setHeader("content-type", "application/json");
    if (!ok) return res.writeHead(401).end(JSON.stringify({ error: "bad key" }));
    if (req.url === "/v1/models") return res.end(JSON.stringify({ data: [{ id: "m-b" }, { id: "m-a" }, { id: "m-a" }] }));
    if (req.url === "/v1/dashboard/billing/subscription") return res.end(JSON.stringify({ hard_limit_usd: 120 }));
    if (req.url?.startsWith("/v1/dashboard/billing/usage")) return res.end(JSON.stringify({ total_usage: 2050 }));
    res.writeHead(404).end("{}");
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream?.close();
  await server?.stop();
});

type Ch = Record<string, unknown> & { id: number };
const create = async (body: Record<string, unknown>) => {
  const r = await admin.client.post<Ch>("/api/channel/", { type: 1, key: UPSTREAM_KEY, models: "gpt-4o", group: "default", ...body });
  expect(r.success, r.message).toBe(true);
  return r.data;
};
const abilities = (id: number) => query(server, 'SELECT * FROM "abilities" WHERE "channel_id" = $1 ORDER BY "group", "model"', [id]);

describe("channel access", () => {
  it("refuses ordinary users and anonymous callers", async () => {
    const r = await user.client.get("/api/channel/");
    expect(r.status).toBe(403);
    expect(r.success).toBe(false);
    const anon = await fetch(server.url + "/api/channel/");
    expect(anon.status).toBe(401);
    expect((await user.client.post("/api/channel/", { name: "x", key: "k", models: "m" })).status).toBe(403);
  });
});

describe("channel create, read, update", () => {
  it("creates a channel with its abilities, stores the key sealed and never returns it", async () => {
    const c = await create({
      name: "main",
      models: "gpt-4o, gpt-4o-mini,gpt-4o",
      group: "default,vip",
      priority: 5,
      weight: 2,
      model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
      base_url: upstreamUrl + "/",
      tag: "",
    });
    expect(c.key_set).toBe(true);
    expect(c).not.toHaveProperty("key");
    expect(c.models).toBe("gpt-4o,gpt-4o-mini");
    expect(c.base_url).toBe(upstreamUrl);
    const [row] = await query(server, 'SELECT "key" FROM "channels" WHERE "id" = $1', [c.id]);
    expect(String(row.key)).toMatch(/^v1\./);
    expect(String(row.key)).not.toContain("SECRET");
    const ab = await abilities(c.id);
    expect(ab.map((a) => `${a.group}/${a.model}/${a.priority}/${a.weight}`)).toEqual([
      "default/gpt-4o/5/2",
      "default/gpt-4o-mini/5/2",
      "vip/gpt-4o/5/2",
      "vip/gpt-4o-mini/5/2",
    ]);
    for (const path of [`/api/channel/${c.id}`, "/api/channel/?p=1&page_size=100", "/api/channel/search?keyword=main"]) {
      const text = await (await admin.client.raw("GET", path)).text();
      expect(text).not.toContain("SECRET");
      expect(text).toContain('"key_set":true');
    }
  });

  it("validates input with the catalogue messages", async () => {
    expect((await admin.client.post("/api/channel/", { type: 1, name: "", key: "k", models: "m" })).success).toBe(false);
    expect((await admin.client.post("/api/channel/", { type: 1, name: "n", key: "", models: "m" })).success).toBe(false);
    const badMapping = await admin.client.post("/api/channel/", { type: 1, name: "n", key: "k", models: "m", model_mapping: "[1]" });
    expect(badMapping.success).toBe(false);
    expect(badMapping.message).toBe("The model mapping is not a valid JSON object");
    // each JSON field the editor shows names itself (docs/console-ui.md, "Forms")
    const badStatus = await admin.client.post("/api/channel/", { type: 1, name: "n", key: "k", models: "m", status_code_mapping: '{"400":' });
    expect(badStatus.success).toBe(false);
    expect(badStatus.message).toBe("The status code mapping is not a valid JSON object");
    const badSetting = await admin.client.post("/api/channel/", { type: 1, name: "n", key: "k", models: "m", setting: "[]" });
    expect(badSetting.message).toBe("The channel setting is not a valid JSON object");
    const c = await create({ name: "validate" });
    const p = await admin.client.put("/api/channel/", { id: c.id, priority: "1.5" });
    expect(p.success).toBe(false);
    expect(p.message).toBe("Priority must be an integer");
    const w = await admin.client.put<Ch>("/api/channel/", { id: c.id, weight: -7 });
    expect(w.success).toBe(true);
    expect(w.data.weight).toBe(0);
    const w2 = await admin.client.put("/api/channel/", { id: c.id, weight: "abc" });
    expect(w2.success).toBe(false);
    expect(w2.message).toBe("Weight must be a non-negative integer");
    const neg = await admin.client.post("/api/channel/", { type: 1, name: "n", key: "k", models: "m", weight: -1 });
    expect(neg.success).toBe(false);
    expect((await admin.client.put("/api/channel/", { id: 999999, priority: 1 })).success).toBe(false);
    // The type must be one of the shared list (lib/channels/channel-types.ts).
    const unknownType = await admin.client.post("/api/channel/", { type: 999, name: "n", key: "k", models: "m" });
    expect(unknownType.success).toBe(false);
    expect(unknownType.message).toBe("Unknown channel type");
    const toUnknown = await admin.client.put("/api/channel/", { id: c.id, type: 998 });
    expect(toUnknown.message).toBe("Unknown channel type");
    // A stored type the list does not know is kept on edit.
    await query(server, 'UPDATE "channels" SET "type" = 999 WHERE "id" = $1', [c.id]);
    const keep = await admin.client.put<Ch>("/api/channel/", { id: c.id, type: 999, remark: "legacy" });
    expect(keep.success, keep.message).toBe(true);
    await query(server, 'UPDATE "channels" SET "type" = 1 WHERE "id" = $1', [c.id]);
    // The types the server used to miss: Ollama, Moonshot, Perplexity, Mistral, xAI.
    for (const type of [4, 25, 27, 42, 48]) {
      const made = await admin.client.post<Ch>("/api/channel/", { type, name: `type-${type}`, key: "k", models: `m-${type}`, status: 2 });
      expect(made.success, made.message).toBe(true);
      await admin.client.del(`/api/channel/${made.data.id}`);
    }
  });

  it("refuses a key that does not have its type's format, line by line, without echoing it (docs/providers.md)", async () => {
    const bad = await admin.client.post("/api/channel/", { type: 15, name: "baidu", key: "onlyTheApiKey123", models: "ernie-4.0-8k" });
    expect(bad.success).toBe(false);
    expect(bad.message).toBe("The key of this channel type must look like APIKey|SecretKey: the Qianfan application's API Key and Secret Key, joined by |");
    const batch = await admin.client.post("/api/channel/", { mode: "batch", type: 23, name: "hy", key: "1300|AKID1|sk1\nAKID2|sk2", models: "hunyuan-lite" });
    expect(batch.success).toBe(false);
    expect(batch.message).toMatch(/^The key of this channel type must look like AppId\|SecretId\|SecretKey: key 2: three parts/);
    expect(batch.message).not.toContain("AKID2");
    const ok = await admin.client.post<Ch>("/api/channel/", { type: 18, name: "spark", key: "app|secret|key", models: "lite", status: 2 });
    expect(ok.success, ok.message).toBe(true);
    const edit = await admin.client.put("/api/channel/", { id: ok.data.id, key: "secret|key" });
    expect(edit.success).toBe(false);
    expect(edit.message).toMatch(/must look like APPID\|APISecret\|APIKey: three parts/);
    await admin.client.del(`/api/channel/${ok.data.id}`);
    // FastGPT is not offered: its answers carry no usage to bill from
    expect((await admin.client.post("/api/channel/", { type: 22, name: "fg", key: "fastgpt-x", models: "m" })).message).toBe("Unknown channel type");
  });

  it("creates one channel per key line in batch mode", async () => {
    const r = await admin.client.post<Ch[]>("/api/channel/", {
      mode: "batch",
      type: 1,
      name: "multi",
      key: "k1\n k2 \n\nk3\n",
      models: "m1",
      group: "default",
    });
    expect(r.success).toBe(true);
    expect(r.data).toHaveLength(3);
    const rows = await query(server, 'SELECT "id" FROM "channels" WHERE "name" = $1', ["multi"]);
    expect(rows).toHaveLength(3);
  });

  it("updates status, models and groups and rebuilds abilities; an empty key keeps the stored one", async () => {
    const c = await create({ name: "upd", models: "a,b" });
    const [before] = await query(server, 'SELECT "key" FROM "channels" WHERE "id" = $1', [c.id]);
    const r = await admin.client.put<Ch>("/api/channel/", { id: c.id, status: 2, models: "a,b,c", key: "" });
    expect(r.success).toBe(true);
    const ab = await abilities(c.id);
    expect(ab).toHaveLength(3);
    expect(ab.every((a) => !a.enabled || a.enabled === 0)).toBe(true);
    const [after] = await query(server, 'SELECT "key" FROM "channels" WHERE "id" = $1', [c.id]);
    expect(after.key).toBe(before.key);
    await admin.client.put("/api/channel/", { id: c.id, status: 1, group: "vip" });
    const ab2 = await abilities(c.id);
    expect(ab2.map((a) => a.group)).toEqual(["vip", "vip", "vip"]);
    expect(ab2.every((a) => a.enabled === true || a.enabled === 1)).toBe(true);
  });

  it("answers a missing channel with a message", async () => {
    const r = await admin.client.get("/api/channel/987654");
    expect(r.success).toBe(false);
    expect(r.message).toBe("Channel not found");
  });
});

describe("list, search, tags", () => {
  it("aggregates tagged channels in tag mode", async () => {
    const a = await create({ name: "tag-a", group: "default", priority: 1, weight: 3, models: "x" });
    const b = await create({ name: "tag-b", group: "vip,svip", priority: 2, weight: 3, models: "y" });
    const bt = await admin.client.post<number>("/api/channel/batch/tag", { ids: [a.id, b.id], tag: "team" });
    expect(bt.data).toBe(2);
    await query(server, 'UPDATE "channels" SET "used_quota" = $1, "response_time" = $2 WHERE "id" = $3', [100, 200, a.id]);
    await query(server, 'UPDATE "channels" SET "used_quota" = $1, "response_time" = $2 WHERE "id" = $3', [50, 401, b.id]);
    const r = await admin.client.get<{ items: Array<Record<string, unknown>>; total: number }>("/api/channel/?p=1&page_size=100&tag_mode=true");
    expect(r.success).toBe(true);
    const row = r.data.items.find((i) => i.is_tag && i.tag === "team")!;
    expect(row).toBeTruthy();
    expect(String(row.group).split(",").sort()).toEqual(["default", "svip", "vip"]);
    expect(row.used_quota).toBe(150);
    expect(row.response_time).toBe(301);
    expect(row.priority).toBeNull();
    expect(row.weight).toBe(3);
    expect((row.children as unknown[]).length).toBe(2);
    expect(r.data.items.some((i) => i.id === a.id && !i.is_tag)).toBe(false);
    const plain = await admin.client.get<{ items: Array<Record<string, unknown>>; total: number }>("/api/channel/?p=1&page_size=100");
    expect(plain.data.total).toBe(r.data.total + 1);

    const tags = await admin.client.get<string[]>("/api/channel/tags?offset=0&limit=200");
    expect(tags.data).toContain("team");

    const dis = await admin.client.post("/api/channel/tag/disabled", { tag: "team" });
    expect(dis.success).toBe(true);
    const rows = await query(server, 'SELECT "status" FROM "channels" WHERE "tag" = $1', ["team"]);
    expect(rows.map((x) => Number(x.status))).toEqual([2, 2]);
    await admin.client.post("/api/channel/tag/enabled", { tag: "team" });
    const edit = await admin.client.put("/api/channel/tag", { tag: "team", new_tag: "crew", priority: 9, models: "z1,z2" });
    expect(edit.success).toBe(true);
    const ab = await abilities(a.id);
    expect(ab.map((x) => `${x.model}/${x.priority}/${x.tag}`)).toEqual(["z1/9/crew", "z2/9/crew"]);
  });

  it("pages tag mode over tag rows whose children lie past the page, with the filters and type counts", async () => {
    // 12 channels of one new model, in id order: tags "pg-a" (ids 1, 4, 7, 10 of them), "pg-b"
    // (2 and 11), the rest untagged; channel 3 is type 14
    const made: Ch[] = [];
    for (let i = 1; i <= 12; i++) made.push(await create({ name: `pager-${i}`, models: "pager-model", type: i === 3 ? 14 : 1 }));
    const tag = async (ids: number[], t: string) => expect((await admin.client.post("/api/channel/batch/tag", { ids, tag: t })).success).toBe(true);
    await tag(
      [1, 4, 7, 10].map((i) => made[i - 1].id),
      "pg-a",
    );
    await tag(
      [2, 11].map((i) => made[i - 1].id),
      "pg-b",
    );
    type Row = Ch & { is_tag?: boolean; tag?: string; children?: Ch[] };
    type Page = { items: Row[]; total: number; type_counts: Record<string, number> };
    const page = async (p: number) => {
      const r = await admin.client.get<Page>(`/api/channel/search?model=pager-model&tag_mode=true&id_sort=true&page_size=3&p=${p}`);
      expect(r.success, r.message).toBe(true);
      return r.data;
    };
    // newest first: 12, 11 (pg-b: 11 and 2), 10 (pg-a: 10, 7, 4, 1), 9, 8, 6, 5, 3
    const label = (r: Row) => (r.is_tag ? `${r.tag}:${r.children!.map((c) => String(c.name).slice(6)).join("+")}` : String(r.name).slice(6));
    const first = await page(1);
    expect(first.items.map(label)).toEqual(["12", "pg-b:11+2", "pg-a:10+7+4+1"]);
    expect(first.total).toBe(8);
    expect(first.type_counts).toEqual({ "1": 11, "14": 1 });
    expect(first.items.every((r) => !("key" in r) && (r.is_tag ? r.children!.every((c) => !("key" in c)) : true))).toBe(true);
    expect((await page(2)).items.map(label)).toEqual(["9", "8", "6"]);
    expect((await page(3)).items.map(label)).toEqual(["5", "3"]);
    expect((await page(4)).items).toEqual([]);
    // without tag mode: one row a channel
    const plain = await admin.client.get<Page>("/api/channel/search?model=pager-model&id_sort=true&page_size=5&p=2");
    expect([plain.data.items.map(label), plain.data.total]).toEqual([["7", "6", "5", "4", "3"], 12]);
    expect((await admin.client.post<number>("/api/channel/batch", { ids: made.map((c) => c.id) })).data).toBe(12);
  });

  it("refuses batch operations without a selection or tag", async () => {
    const r = await admin.client.post("/api/channel/batch/tag", { ids: [], tag: "x" });
    expect(r.success).toBe(false);
    expect(r.message).toBe("Please choose channels first");
    expect((await admin.client.post("/api/channel/tag/enabled", { tag: " " })).message).toBe("The tag cannot be empty");
  });

  it("searches by keyword, model, group, type and status", async () => {
    await create({ name: "needle-one", models: "rare-model", group: "gold", type: 14 });
    const byName = await admin.client.get<{ items: Ch[] }>("/api/channel/search?keyword=needle");
    expect(byName.data.items.map((c) => c.name)).toEqual(["needle-one"]);
    const byModel = await admin.client.get<{ items: Ch[] }>("/api/channel/search?model=rare-model");
    expect(byModel.data.items).toHaveLength(1);
    const byGroup = await admin.client.get<{ items: Ch[] }>("/api/channel/search?group=gold");
    expect(byGroup.data.items).toHaveLength(1);
    const byType = await admin.client.get<{ items: Ch[] }>("/api/channel/search?types=14");
    expect(byType.data.items.every((c) => c.type === 14)).toBe(true);
    const none = await admin.client.get<{ items: Ch[] }>("/api/channel/search?keyword=needle&statuses=2");
    expect(none.data.items).toHaveLength(0);
    const paged = await admin.client.get<{ items: Ch[]; total: number }>("/api/channel/?p=2&page_size=2&id_sort=true");
    expect(paged.data.items).toHaveLength(2);
    expect(paged.data.items[0].id).toBeGreaterThan(paged.data.items[1].id);
  });

  it("lists enabled models and all channel models", async () => {
    const enabled = await admin.client.get<string[]>("/api/channel/models_enabled");
    expect(enabled.data).toContain("gpt-4o");
    expect(enabled.data).toContain("rare-model");
    const all = await admin.client.get<Array<{ id: string }>>("/api/channel/models");
    expect(all.data.map((m) => m.id)).toContain("gpt-4o-mini");
    const byType = await admin.client.get<Record<string, string[]>>("/api/models");
    expect(byType.data["14"]).toEqual(["rare-model"]);
    // Every known type is a key, the ones without channels with an empty list.
    for (const type of ["1", "3", "4", "8", "14", "24", "25", "27", "42", "43", "48"]) expect(byType.data).toHaveProperty(type);
    expect(byType.data["48"]).toEqual([]);
  });
});

describe("upstream calls", () => {
  it("fetches the upstream model list with the stored (decrypted) key and with a given key", async () => {
    const c = await create({ name: "fetcher", base_url: upstreamUrl });
    const r = await admin.client.get<string[]>(`/api/channel/fetch_models/${c.id}`);
    expect(r.success, r.message).toBe(true);
    expect(r.data).toEqual(["m-a", "m-b"]);
    expect(seenAuth.at(-1)).toBe(`Bearer ${UPSTREAM_KEY}`);
    const direct = await admin.client.post<string[]>("/api/channel/fetch_models", { base_url: upstreamUrl, type: 1, key: UPSTREAM_KEY });
    expect(direct.data).toEqual(["m-a", "m-b"]);
    const bad = await admin.client.post("/api/channel/fetch_models", { base_url: upstreamUrl, type: 1, key: "wrong" });
    expect(bad.success).toBe(false);
    expect(bad.message).toContain("HTTP 401");
    expect(bad.message).not.toContain("wrong");
  });

  it("updates an OpenAI-style balance and refuses types without a billing endpoint", async () => {
    const c = await create({ name: "billing", base_url: upstreamUrl });
    const r = await admin.client.get<{ balance: number }>(`/api/channel/update_balance/${c.id}/`);
    expect(r.success, r.message).toBe(true);
    expect(r.data.balance).toBeCloseTo(99.5);
    const [row] = await query(server, 'SELECT "balance", "balance_updated_time" FROM "channels" WHERE "id" = $1', [c.id]);
    expect(Number(row.balance)).toBeCloseTo(99.5);
    expect(Number(row.balance_updated_time)).toBeGreaterThan(0);
    const claude = await create({ name: "claude", type: 14 });
    const no = await admin.client.get(`/api/channel/update_balance/${claude.id}`);
    expect(no.success).toBe(false);
    expect(no.message).toBe("Balance query is not supported for this channel type");
  });
});

describe("the list after channel writes", () => {
  // The list reads an index kept in memory and updated in place from the ids each write names
  // (lib/channels/list-index.ts): after every kind of write, both orders, the filters and the
  // tag rows must equal what the table holds.
  type Row = Ch & { name: string; priority: number; status: number; tag: string | null };
  const list = async (extra: string) => {
    const r = await admin.client.get<{ items: Row[]; total: number }>(`/api/channel/search?keyword=lw-&page_size=100&p=1${extra}`);
    expect(r.success, r.message).toBe(true);
    return r.data;
  };
  const fromTable = async (order: string) =>
    (await query(server, `SELECT "id", "name", "priority", "status", "tag" FROM "channels" WHERE "name" LIKE 'lw-%' ORDER BY ${order}`)).map(
      (c) => `${c.id}:${c.name}:${c.priority}:${c.status}:${c.tag ?? ""}`,
    );
  const label = (c: Row) => `${c.id}:${c.name}:${c.priority}:${c.status}:${c.tag ?? ""}`;
  const expectCurrent = async (step: string) => {
    const byId = await list("&id_sort=true");
    expect(byId.items.map(label), step).toEqual(await fromTable('"id" DESC'));
    expect(byId.total, step).toBe(byId.items.length);
    const byPriority = await list("");
    expect(byPriority.items.map(label), step).toEqual(await fromTable('"priority" DESC, "id" DESC'));
  };

  it("equals the table after create, update, copy, tags, status, batch and deletes", async () => {
    await list(""); // the index is loaded before the first write
    const a = await create({ name: "lw-a", priority: 1 });
    const b = await create({ name: "lw-b", priority: 5 });
    await expectCurrent("create");
    const batch = await admin.client.post<Ch[]>("/api/channel/", {
      mode: "batch",
      type: 1,
      name: "lw-batch",
      key: "sk-lw-1\nsk-lw-2\nsk-lw-3",
      models: "gpt-4o",
      priority: 3,
    });
    expect(batch.success, batch.message).toBe(true);
    await expectCurrent("batch create");
    // a write that moves a channel in the priority order, renames it and changes its model
    expect((await admin.client.put("/api/channel/", { id: a.id, name: "lw-a2", priority: 9, models: "lw-only-model" })).success).toBe(true);
    await expectCurrent("update");
    expect((await list("&model=lw-only-model")).items.map((c) => c.id)).toEqual([a.id]);
    expect((await admin.client.get<{ items: Row[] }>("/api/channel/search?keyword=lw-a&page_size=100")).data.items.map((c) => c.name)).toEqual(["lw-a2"]);
    const copy = await admin.client.post<Ch>(`/api/channel/copy/${b.id}?suffix=-copy`);
    expect(copy.success, copy.message).toBe(true);
    await expectCurrent("copy");
    const ids = (await list("&id_sort=true")).items.map((c) => c.id);
    expect((await admin.client.post<number>("/api/channel/batch/tag", { ids: ids.slice(0, 3), tag: "lwtag" })).data).toBe(3);
    await expectCurrent("batch tag");
    const tagged = await list("&tag_mode=true&id_sort=true");
    expect(tagged.items.filter((r) => r.is_tag).map((r) => [r.tag, (r.children as Ch[]).length])).toEqual([["lwtag", 3]]);
    expect((await admin.client.post("/api/channel/tag/disabled", { tag: "lwtag" })).success).toBe(true);
    await expectCurrent("tag disabled");
    expect((await list("&statuses=2")).items).toHaveLength(3);
    expect((await admin.client.put("/api/channel/tag", { tag: "lwtag", new_tag: "lwtag2", priority: 7 })).success).toBe(true);
    await expectCurrent("tag edited");
    expect((await list("&tags=lwtag")).items).toHaveLength(0);
    expect((await list("&tags=lwtag2")).items).toHaveLength(3);
    expect((await admin.client.del(`/api/channel/${b.id}/`)).success).toBe(true);
    await expectCurrent("delete");
    expect((await admin.client.post<number>("/api/channel/batch", { ids: [batch.data[0].id, 424243] })).data).toBe(1);
    await expectCurrent("batch delete");
    expect((await admin.client.del<number>("/api/channel/disabled")).success).toBe(true);
    await expectCurrent("delete disabled");
    // channels written by SQL behind the server's back are seen after a repair, which reloads the whole index
    await query(server, `UPDATE "channels" SET "name" = 'lw-sql' WHERE "id" = $1`, [a.id]);
    expect((await admin.client.post<number>("/api/channel/fix")).success).toBe(true);
    await expectCurrent("fix");
    const rest = (await list("")).items.map((c) => c.id);
    expect(rest.length).toBeGreaterThan(0);
    expect((await admin.client.post<number>("/api/channel/batch", { ids: rest })).data).toBe(rest.length);
    await expectCurrent("all gone");
  });
});
describe("deletion and repair", () => {
  it("deletes one, a batch, the disabled ones, and rebuilds the index", async () => {
    const a = await create({ name: "del-a" });
    const b = await create({ name: "del-b" });
    const c = await create({ name: "del-c" });
    const d = await create({ name: "del-d", status: 3 });
    expect((await admin.client.del(`/api/channel/${a.id}/`)).success).toBe(true);
    expect(await abilities(a.id)).toHaveLength(0);
    const batch = await admin.client.post<number>("/api/channel/batch", { ids: [b.id, 424242] });
    expect(batch.data).toBe(1);
    await admin.client.put("/api/channel/", { id: c.id, status: 2 });
    const disabledBefore = await query(server, 'SELECT COUNT(*) AS n FROM "channels" WHERE "status" <> 1');
    const dis = await admin.client.del<number>("/api/channel/disabled");
    expect(dis.data).toBe(Number(disabledBefore[0].n));
    expect(dis.data).toBeGreaterThanOrEqual(2);
    expect(await query(server, 'SELECT "id" FROM "channels" WHERE "id" IN ($1, $2)', [c.id, d.id])).toHaveLength(0);
    await query(server, 'DELETE FROM "abilities"');
    const fix = await admin.client.post<number>("/api/channel/fix");
    const channels = await query(server, 'SELECT COUNT(*) AS n FROM "channels"');
    expect(fix.data).toBe(Number(channels[0].n));
    const ab = await query(server, 'SELECT COUNT(*) AS n FROM "abilities"');
    expect(Number(ab[0].n)).toBeGreaterThan(0);
  });
});

describe("copy", () => {
  it("copies a channel server-side with its sealed key; the copy serves relay calls", async () => {
    const mock = await startMockUpstream("openai");
    try {
      const r = await admin.client.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ "copy-model": 1 }) });
      expect(r.success, r.message).toBe(true);
      await query(server, 'UPDATE "users" SET "quota" = 1000000 WHERE "id" = $1', [admin.id]);
      const origin = await create({
        name: "copy-src",
        key: mock.key,
        base_url: mock.url,
        models: "copy-model",
        group: "default,vip",
        priority: 3,
        weight: 7,
        tag: "copies",
      });
      await query(server, 'UPDATE "channels" SET "used_quota" = 500, "balance" = 12.5, "response_time" = 321 WHERE "id" = $1', [origin.id]);

      // Only admins; a missing channel is a message.
      expect((await user.client.post(`/api/channel/copy/${origin.id}`)).status).toBe(403);
      const missing = await admin.client.post("/api/channel/copy/424242");
      expect(missing.success).toBe(false);
      expect(missing.message).toBe("Channel not found, please refresh the page and retry");

      const copied = await admin.client.post<Ch>(`/api/channel/copy/${origin.id}`);
      expect(copied.success, copied.message).toBe(true);
      const copy = copied.data;
      expect(copy.id).not.toBe(origin.id);
      expect(copy).not.toHaveProperty("key");
      expect(copy).toMatchObject({
        name: "copy-src_copy",
        key_set: true,
        status: 1,
        priority: 3,
        weight: 7,
        tag: "copies",
        models: "copy-model",
        group: "default,vip",
        base_url: mock.url,
        used_quota: 0,
        balance: 0,
        response_time: 0,
      });
      const [a, b] = await query(server, 'SELECT "key" FROM "channels" WHERE "id" IN ($1, $2) ORDER BY "id"', [origin.id, copy.id]);
      expect(String(b.key)).toMatch(/^v1\./);
      expect(String(b.key)).not.toContain(mock.key);
      expect((await abilities(copy.id)).map((x) => `${x.group}/${x.model}/${x.enabled ? 1 : 0}`)).toEqual(["default/copy-model/1", "vip/copy-model/1"]);
      expect(a.key).toBeTruthy();

      // reset_balance=false keeps the counters; a suffix may be given; the status is the original's.
      await admin.client.put("/api/channel/", { id: origin.id, status: 2 });
      const kept = await admin.client.post<Ch>(`/api/channel/copy/${origin.id}?reset_balance=false&suffix=-2`);
      expect(kept.success, kept.message).toBe(true);
      expect(kept.data).toMatchObject({ name: "copy-src-2", status: 2, used_quota: 500, balance: 12.5 });
      expect((await abilities(kept.data.id)).every((x) => !x.enabled)).toBe(true);

      // The original and the second copy are disabled: a relay call must be served by the
      // first copy, with the key it inherited (the routing cache saw the writes).
      const t = await admin.client.post<{ key: string }[]>("/api/token/", { name: "copy-test", unlimited_quota: true });
      expect(t.success, t.message).toBe(true);
      const res = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.data[0].key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "copy-model", messages: [{ role: "user", content: "hi copy" }] }),
      });
      const body = (await res.json()) as { choices?: { message: { content: string } }[] };
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.choices?.[0].message.content).toBe("echo: hi copy");
      expect(mock.requests.at(-1)!.headers.authorization).toBe(`Bearer ${mock.key}`);
      await expect
        .poll(async () => Number((await query(server, 'SELECT "used_quota" FROM "channels" WHERE "id" = $1', [copy.id]))[0].used_quota))
        .toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });
});
