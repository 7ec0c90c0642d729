// The statement and the ledger check (docs/statement.md) over real HTTP against the built server:
// real activity (register with a bonus, an admin adjustment, a check-in, relay calls against a
// local mock upstream), then the statement's paging, filters and scoping, its CSV export, and
// the ledger check (endpoint and `npm run ledger:check`) green, then red after a balance and a
// token's usage are tampered with directly in the database.
import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { loginAs, makeUser, setOptions, setupRoot } from "../support/accounts";
import { execDb, queryDb } from "../support/db";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";

type Row = { id: number; created_at: number; kind: string; delta: number; balance_after: number; ref: string; token_id: number; token_name: string };
type Page = { items: Row[]; page: number; page_size: number; total: number };
type Check = {
  ok: boolean;
  users_checked: number;
  tokens_checked: number;
  users: { user_id: number; username: string; balance: number; ledger_sum: number; difference: number }[];
  tokens: { token_id: number; user_id: number; name: string; used_quota: number; relay_spent: number; difference: number }[];
};

let server: TestServer;
let mock: MockUpstream;
let root: ApiClient;
let alice: { id: number; client: ApiClient };
let bob: { id: number; client: ApiClient };
let admin: { id: number; client: ApiClient };
let otherAdmin: { id: number; client: ApiClient };
let tokenId: number;
const TOKEN_NAME = '=sum,"测试"';
const requestIds: string[] = [];

async function chat(key: string): Promise<void> {
  const r = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }], max_tokens: 50 }),
  });
  expect(r.status, await r.clone().text()).toBe(200);
  await r.json();
}

const statement = (c: ApiClient, query = "", userId?: number) =>
  c.get<Page>(`${userId === undefined ? "/api/user/ledger/self" : `/api/user/${userId}/ledger`}?${query}`);

function runLedgerCheck(): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", "ledger:check"],
      { env: { ...process.env, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, NODE_ENV: "production" }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 99) : 0, out: stdout + stderr }),
    );
  });
}

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify({ "gpt-4o-mini": 1.5 }),
    CompletionRatio: JSON.stringify({ "gpt-4o-mini": 4 }),
    QuotaForNewUser: "250000",
    CheckInEnabled: "true",
    CheckInQuota: "1000",
    CheckInMaxQuota: "1000",
  });
  const ch = await root.post("/api/channel/", { name: "mock", type: 1, key: mock.key, base_url: mock.url, models: "gpt-4o-mini", group: "default" });
  expect(ch.success, ch.message).toBe(true);

  // alice registers (the sign-up bonus), is adjusted by the root, checks in, and makes calls
  const reg = await new ApiClient(server.url).post<{ id: number }>("/api/user/register", { username: "alice", password: "alice-pass-1" });
  expect(reg.success, reg.message).toBe(true);
  alice = { id: reg.data.id, client: await loginAs(server, "alice", "alice-pass-1") };
  expect((await root.put("/api/user/", { id: alice.id, quota: 1_000_000 })).success).toBe(true);
  expect((await alice.client.post("/api/user/check_in")).success).toBe(true);
  const t = await alice.client.post<{ id: number; key: string }[]>("/api/token/", { name: TOKEN_NAME, unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  tokenId = t.data[0].id;
  for (let i = 0; i < 3; i++) await chat(t.data[0].key);

  bob = await makeUser(server, root, "bob");
  expect((await root.put("/api/user/", { id: bob.id, quota: 777 })).success).toBe(true);
  admin = await makeUser(server, root, "admin1", 10);
  otherAdmin = await makeUser(server, root, "admin2", 10);
  const rows = await queryDb<{ ref: string }>(server, "SELECT DISTINCT ref FROM quota_ledger WHERE kind = 'relay_reserve' AND user_id = $1", [alice.id]);
  requestIds.push(...rows.map((r) => r.ref));
});

afterAll(async () => {
  await server?.stop();
  await mock?.close();
});

describe("the statement", () => {
  it("shows the caller's own rows, newest first, and they reconcile to the balance", async () => {
    const all = await statement(alice.client, "page_size=100");
    expect(all.success, all.message).toBe(true);
    const kinds = all.data.items.map((r) => r.kind);
    expect(kinds.at(-1)).toBe("register_bonus");
    expect(kinds).toContain("admin_adjust");
    expect(kinds).toContain("check_in");
    expect(kinds.filter((k) => k === "relay_reserve")).toHaveLength(3);
    expect(kinds.filter((k) => k === "relay_settle").length).toBeGreaterThan(0);
    expect(all.data.total).toBe(all.data.items.length);
    const ids = all.data.items.map((r) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    // oldest first: every balance after is the previous one plus the amount
    const up = [...all.data.items].reverse();
    expect(up[0]).toMatchObject({ kind: "register_bonus", delta: 250000, balance_after: 250000 });
    for (let i = 1; i < up.length; i++) expect(up[i].balance_after).toBe(up[i - 1].balance_after + up[i].delta);
    const self = await alice.client.get<{ quota: number }>("/api/user/self");
    expect(all.data.items[0].balance_after).toBe(self.data.quota);
    expect(up.reduce((s, r) => s + r.delta, 0)).toBe(self.data.quota);
    // relay rows carry the token and its name; the others none
    for (const r of all.data.items) {
      if (r.kind.startsWith("relay_")) expect(r).toMatchObject({ token_id: tokenId, token_name: TOKEN_NAME });
      else expect(r).toMatchObject({ token_id: 0, token_name: "" });
    }
    // never another user's rows
    expect(all.data.items.every((r) => r.kind !== "admin_adjust" || r.delta !== 777)).toBe(true);
    const bobs = await statement(bob.client);
    expect(bobs.data.total).toBe(1);
    expect(bobs.data.items[0]).toMatchObject({
      kind: "admin_adjust",
      delta: 777,
      balance_after: 777,
      ref: `admin:${(await root.get<{ id: number }>("/api/user/self")).data.id}`,
    });
  });

  it("pages with p and page_size, without gaps or repeats", async () => {
    const all = (await statement(alice.client, "page_size=100")).data.items.map((r) => r.id);
    const seen: number[] = [];
    for (let p = 1; p <= Math.ceil(all.length / 3); p++) {
      const page = await statement(alice.client, `p=${p}&page_size=3`);
      expect(page.data).toMatchObject({ page: p, page_size: 3, total: all.length, total_capped: false });
      seen.push(...page.data.items.map((r) => r.id));
    }
    expect(seen).toEqual(all);
    expect((await statement(alice.client, "p=999&page_size=3")).data.items).toEqual([]);
    // out-of-range sizes are clamped as in the other lists
    expect((await statement(alice.client, "page_size=100000")).data.page_size).toBe(100);
  });

  it("counts at most 10000 rows, saying so, and shows a kind it does not know as it is", async () => {
    const dave = await makeUser(server, root, "dave");
    // 10001 rows of a kind no code writes, each moving nothing (the balance stays consistent)
    await execDb(
      server,
      "WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 10001) " +
        "INSERT INTO quota_ledger (user_id, token_id, delta, balance_after, kind, ref, created_at) SELECT CAST($1 AS INTEGER), 0, 0, 0, 'test_bulk', 'bulk', 1700000000 FROM s",
      [dave.id],
    );
    const first = await statement(dave.client, "page_size=5");
    expect(first.data).toMatchObject({ total: 10000, total_capped: true, page: 1, page_size: 5 });
    expect(first.data.items).toHaveLength(5);
    expect(first.data.items[0]).toMatchObject({ kind: "test_bulk", delta: 0, ref: "bulk" });
    expect((await statement(dave.client, "kind=test_bulk&start_timestamp=1700000001")).data).toMatchObject({ total: 0, total_capped: false });
  });

  it("filters by kind, reference, token and time range", async () => {
    const settled = await statement(alice.client, "kind=relay_reserve");
    expect(settled.data.total).toBe(3);
    expect(settled.data.items.every((r) => r.kind === "relay_reserve" && r.delta < 0)).toBe(true);
    const one = await statement(alice.client, `ref=${encodeURIComponent(requestIds[0])}`);
    expect(one.data.items.map((r) => r.kind).sort()).toEqual(one.data.total === 1 ? ["relay_reserve"] : ["relay_reserve", "relay_settle"]);
    const byToken = await statement(alice.client, `token_id=${tokenId}`);
    expect(byToken.data.items.every((r) => r.token_id === tokenId && r.kind.startsWith("relay_"))).toBe(true);
    const now = Math.floor(Date.now() / 1000);
    expect((await statement(alice.client, `start_timestamp=${now + 3600}`)).data.total).toBe(0);
    expect((await statement(alice.client, `end_timestamp=${now - 3600}`)).data.total).toBe(0);
    const all = (await statement(alice.client, "page_size=100")).data.total;
    expect((await statement(alice.client, `start_timestamp=${now - 3600}&end_timestamp=${now + 3600}`)).data.total).toBe(all);
    // an unknown kind is no error, it matches nothing
    expect((await statement(alice.client, "kind=not_a_kind")).data.total).toBe(0);
    // a bad number is refused, naming the parameter
    const bad = await statement(alice.client, "start_timestamp=yesterday");
    expect(bad.status).toBe(400);
    expect(bad.message).toBe("Invalid parameter: start_timestamp");
  });

  it("admins read users below them only; users cannot read anyone else's", async () => {
    const mine = await statement(alice.client, "page_size=100");
    const byRoot = await statement(root, "page_size=100", alice.id);
    expect(byRoot.data).toEqual(mine.data);
    const byAdmin = await statement(admin.client, "kind=check_in", alice.id);
    expect(byAdmin.data.total).toBe(1);
    expect(byAdmin.data.items[0]).toMatchObject({ kind: "check_in", delta: 1000 });
    const rootId = (await root.get<{ id: number }>("/api/user/self")).data.id;
    for (const target of [otherAdmin.id, rootId, admin.id]) {
      const r = await statement(admin.client, "", target);
      expect(r.success).toBe(false);
      expect(r.message).toBe("You cannot read, update or delete users of the same or higher level");
      expect(r.data).toBeFalsy();
    }
    // the root reads anyone, other admins included
    expect((await statement(root, "", otherAdmin.id)).success).toBe(true);
    const refused = await statement(alice.client, "", bob.id);
    expect(refused.status).toBe(403);
    expect(refused.success).toBe(false);
    const missing = await statement(root, "", 999_999);
    expect(missing.success).toBe(false);
    expect(missing.message).toBe("User not found");
    expect((await statement(root, "", 0)).status).toBe(400);
    // no session, no statement
    expect((await new ApiClient(server.url).get("/api/user/ledger/self")).status).toBe(401);
  });
});

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell || row.length) throw new Error("the CSV does not end with CRLF");
  return rows;
}

describe("CSV export", () => {
  it("streams the filtered statement with a BOM, escaped cells, integer units and USD", async () => {
    const res = await alice.client.raw("GET", "/api/user/ledger/self/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="statement-${alice.id}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    expect(res.headers.get("x-statement-rows-capped")).toBe("0");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual([
      "id",
      "time_utc",
      "created_at",
      "kind",
      "kind_label",
      "delta",
      "delta_usd",
      "balance_after",
      "balance_after_usd",
      "ref",
      "token_id",
      "token_name",
    ]);
    const api = (await statement(alice.client, "page_size=100")).data.items;
    expect(rows).toHaveLength(api.length);
    rows.forEach((cells, i) => {
      const r = api[i];
      expect(cells[0]).toBe(String(r.id));
      expect(cells[1]).toBe(new Date(r.created_at * 1000).toISOString().replace(".000Z", "Z"));
      expect(cells[3]).toBe(r.kind);
      expect(cells[5]).toBe(String(r.delta));
      expect(Number(cells[6])).toBeCloseTo(r.delta / 500000, 6);
      expect(cells[6]).toMatch(/^-?\d+\.\d{6}$/);
      expect(cells[7]).toBe(String(r.balance_after));
      // the formula guard: a cell starting with = gets an apostrophe; commas and quotes are quoted
      expect(cells[11]).toBe(r.token_id ? `'${TOKEN_NAME}` : "");
    });
    expect(text).toContain(`"'=sum,""测试"""`);
    expect(rows.find((c) => c[3] === "register_bonus")).toMatchObject({ 4: "Sign-up bonus", 5: "250000", 6: "0.500000" });
    // amounts are signed; a debit's USD too
    const reserve = rows.find((c) => c[3] === "relay_reserve")!;
    expect(reserve[5]).toMatch(/^-\d+$/);
    expect(reserve[6].startsWith("-0.")).toBe(true);
  });

  it("applies the filters, the caller's language, and the admin's scope", async () => {
    const zh = await loginAs(server, "alice", "alice-pass-1", "zh");
    const text = await (await zh.raw("GET", "/api/user/ledger/self/export?kind=check_in")).text();
    const rows = parseCsv(text.slice(1));
    expect(rows).toHaveLength(2);
    expect(rows[1].slice(3, 7)).toEqual(["check_in", "签到", "1000", "0.002000"]);
    const byAdmin = await admin.client.raw("GET", `/api/user/${alice.id}/ledger/export?kind=admin_adjust`);
    const adminRows = parseCsv((await byAdmin.text()).slice(1));
    expect(adminRows).toHaveLength(2);
    expect(adminRows[1][3]).toBe("admin_adjust");
    const refused = await admin.client.raw("GET", `/api/user/${otherAdmin.id}/ledger/export`);
    expect(refused.headers.get("content-type")).toContain("application/json");
    expect(((await refused.json()) as { message: string }).message).toBe("You cannot read, update or delete users of the same or higher level");
    expect((await alice.client.raw("GET", `/api/user/${bob.id}/ledger/export`)).status).toBe(403);
  });
});

describe("the ledger check", () => {
  it("is green after real activity, and the npm script agrees (exit 0)", async () => {
    const r = await root.get<Check>("/api/ledger/check");
    expect(r.success, r.message).toBe(true);
    expect(r.data).toMatchObject({ ok: true, users: [], tokens: [], subscriptions: [], subscriptions_checked: 0 });
    expect(r.data.users_checked).toBe(6);
    expect(r.data.tokens_checked).toBe(1);
    // the token's usage is exactly what its relay movements took
    const used = await queryDb<{ used_quota: unknown }>(server, "SELECT used_quota FROM tokens WHERE id = $1", [tokenId]);
    expect(Number(used[0].used_quota)).toBeGreaterThan(0);
    const script = await runLedgerCheck();
    expect(script.out).toContain("OK: every balance and every plan's remaining quota equals its ledger");
    expect(script.code).toBe(0);
  });

  it("is for the root only", async () => {
    const r = await admin.client.get("/api/ledger/check");
    expect(r.status).toBe(403);
    expect((await alice.client.get("/api/ledger/check")).status).toBe(403);
  });

  it("reports a balance and a token usage tampered with in the database, and the script exits 1", async () => {
    await execDb(server, "UPDATE users SET quota = quota + 4321 WHERE id = $1", [bob.id]);
    await execDb(server, "UPDATE tokens SET used_quota = used_quota - 5 WHERE id = $1", [tokenId]);
    const r = await root.get<Check>("/api/ledger/check");
    expect(r.data.ok).toBe(false);
    expect(r.data.users).toEqual([{ user_id: bob.id, username: "bob", balance: 777 + 4321, ledger_sum: 777, difference: 4321 }]);
    expect(r.data.tokens).toHaveLength(1);
    const t = r.data.tokens[0];
    expect(t).toMatchObject({ token_id: tokenId, user_id: alice.id, name: TOKEN_NAME, difference: -5 });
    expect(t.relay_spent - t.used_quota).toBe(5);
    const script = await runLedgerCheck();
    expect(script.code).toBe(1);
    expect(script.out).toContain(`user ${bob.id} bob: balance ${777 + 4321}, ledger sum 777, difference 4321`);
    expect(script.out).toContain(`token ${tokenId} (user ${alice.id})`);
    expect(script.out).toContain("DIFFERENCES: 1 user(s), 1 token(s)");
    // put back: green again
    await execDb(server, "UPDATE users SET quota = quota - 4321 WHERE id = $1", [bob.id]);
    await execDb(server, "UPDATE tokens SET used_quota = used_quota + 5 WHERE id = $1", [tokenId]);
    expect((await root.get<Check>("/api/ledger/check")).data.ok).toBe(true);
  });
});
