// Logs at scale (docs/operations.md), over HTTP against the built server, with small data.
// The server runs with LOG_DATABASE_URL (a second SQLite file, or a second PostgreSQL
// database); every other test file runs without it (the logs in the main database):
//   - the logs land in the log database (a relay call's, through the batch writer; an admin's
//     quota change, after its transaction), none in the main one; the console and the
//     dashboard's rollups read them there;
//   - the usage-log lists (GET /api/log/ and /api/log/self) count at most COUNT_BEYOND rows
//     past the page: past the bound, total is the bound and total_exact is false; under it,
//     the exact count; pages come newest first, and every filter still applies;
//   - searches by a filter no index serves read the newest SCAN_WINDOW rows at most, and so do
//     the stats of a filter no rollup holds; both say where the window starts;
//   - log retention (LogRetentionDays): once set, the logs created before the start of the
//     UTC day N days ago go, newer ones stay, and the rollup rows of those days go with them
//     (every rollup table);
//     on PostgreSQL the month partitions wholly before the cut are dropped, and the months
//     ahead are made;
//   - /readyz checks the log database beside the main one.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { execDb, queryDb } from "../support/db";
import { createPgDatabase, startServer, takeDatabaseAway, type TestServer } from "../support/server";

const DAY = 86_400;
const BOUND = 10_000; // lib/logs/query.ts COUNT_BEYOND

type Row = { user_id: number; username: string; type: number; created_at: number; model_name: string; token_name: string; quota: number };
const COLS = ["user_id", "username", "type", "created_at", "model_name", "token_name", "quota"] as const;

let server: TestServer;
let logs: TestServer; // the same server, with the log database's URL: for queryDb and execDb
let dropLogDb: (() => Promise<void>) | undefined;
let upstream: http.Server;
let root: ApiClient;
let alice: { id: number; client: ApiClient };
let now: number;

async function insertLogs(rows: Row[]): Promise<void> {
  const head = `INSERT INTO "logs" (${COLS.map((c) => `"${c}"`).join(", ")}) VALUES `;
  if (logs.dbKind === "postgresql") {
    const c = new pg.Client({ connectionString: logs.databaseUrl });
    await c.connect();
    try {
      for (let i = 0; i < rows.length; i += 1000) {
        const params: unknown[] = [];
        const tuples = rows.slice(i, i + 1000).map((r) => `(${COLS.map((col) => (params.push(r[col]), `$${params.length}`)).join(", ")})`);
        await c.query(head + tuples.join(", "), params);
      }
    } finally {
      await c.end();
    }
    return;
  }
  const conn = new Database(logs.databaseUrl.replace(/^file:/, ""));
  try {
    conn.pragma("busy_timeout = 5000");
    const stmt = conn.prepare(head + `(${COLS.map(() => "?").join(", ")})`);
    conn.transaction(() => {
      for (const r of rows) stmt.run(...COLS.map((c) => r[c]));
    })();
  } finally {
    conn.close();
  }
}

type Page = {
  items: { id: number; created_at: number; model_name: string; user_id: number }[];
  page: number;
  page_size: number;
  total: number;
  total_exact: boolean;
};

const count = async (db: TestServer, sql: string, params: unknown[] = []) => Number((await queryDb<{ n: unknown }>(db, sql, params))[0].n);

beforeAll(async () => {
  const kind = process.env.TEST_DB === "postgresql" ? "postgresql" : "sqlite";
  let logUrl: string;
  if (kind === "postgresql") {
    const made = await createPgDatabase();
    logUrl = made.url;
    dropLogDb = made.drop;
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), "gw-logs-"));
    logUrl = `file:${path.join(dir, "logs.db")}`;
    dropLogDb = async () => rmSync(dir, { recursive: true, force: true });
  }
  upstream = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "c1",
          object: "chat.completion",
          created: 1,
          model: "echo-model",
          choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        }),
      );
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  server = await startServer({ env: { LOG_DATABASE_URL: logUrl } });
  logs = { ...server, databaseUrl: logUrl };
  root = await setupRoot(server);
  alice = await makeUser(server, root, "alice");
  now = Math.floor(Date.now() / 1000);
  // alice: BOUND + 50 consumption rows over the last hours, one model in 100 "rare-model";
  // root: 30 rows
  const rows: Row[] = [];
  for (let i = 0; i < BOUND + 50; i++) {
    rows.push({
      user_id: alice.id,
      username: "alice",
      type: 2,
      created_at: now - 3600 - i,
      model_name: i % 100 === 0 ? "rare-model" : "gpt-4o-mini",
      token_name: "t-a",
      quota: 10,
    });
  }
  for (let i = 0; i < 30; i++)
    rows.push({ user_id: 1, username: "root", type: 2, created_at: now - 7200 - i, model_name: "gpt-4o-mini", token_name: "t-r", quota: 5 });
  await insertLogs(rows);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await dropLogDb?.();
  await new Promise<void>((r) => (upstream ? upstream.close(() => r()) : r()));
});

describe("bounded counts of the usage-log lists", () => {
  it("past the bound: total is the bound, total_exact false; the first page is the newest rows", async () => {
    const r = await root.get<Page>("/api/log/?p=1&page_size=10");
    expect(r.success).toBe(true);
    expect(r.data.total).toBe(BOUND);
    expect(r.data.total_exact).toBe(false);
    expect(r.data.items).toHaveLength(10);
    const times = r.data.items.map((x) => x.created_at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times[0]).toBe(now - 3600); // alice's newest
    const self = await alice.client.get<Page>("/api/log/self?p=1&page_size=10");
    expect(self.data.total).toBe(BOUND);
    expect(self.data.total_exact).toBe(false);
    expect(self.data.items.every((x) => x.user_id === alice.id)).toBe(true);
  });

  it("a deep page counts further: the bound moves with the page, and the total becomes exact", async () => {
    // skip 9990 rows: the bound is 9990 + BOUND, above the 10,080 rows
    const r = await root.get<Page>("/api/log/?p=1000&page_size=10");
    expect(r.data.total).toBe(BOUND + 80);
    expect(r.data.total_exact).toBe(true);
    expect(r.data.items).toHaveLength(10);
    const last = await root.get<Page>(`/api/log/?p=${Math.ceil((BOUND + 80) / 100)}&page_size=100`);
    expect(last.data.items).toHaveLength(80);
    expect(last.data.items.at(-1)!.created_at).toBe(now - 3600 - (BOUND + 49)); // the oldest row of all (alice's)
  });

  it("refuses a page that starts past the millionth row, and says how to reach older logs", async () => {
    // 1,000,000 rows skipped is the deepest start (MAX_LOG_OFFSET)
    expect((await root.get<Page>("/api/log/?p=100001&page_size=10")).success).toBe(true);
    const deep = await root.get<Page>("/api/log/?p=100002&page_size=10");
    expect(deep.success).toBe(false);
    expect(deep.message).toMatch(/narrow the time range|缩小时间范围/);
    expect((await alice.client.get<Page>("/api/log/self?p=10002&page_size=100")).success).toBe(false);
  });

  it("under the bound the count is exact, for each filter", async () => {
    const byModel = await root.get<Page>("/api/log/?p=1&page_size=10&model_name=rare");
    expect([byModel.data.total, byModel.data.total_exact]).toEqual([101, true]);
    expect(byModel.data.items.every((x) => x.model_name === "rare-model")).toBe(true);
    const byUser = await root.get<Page>("/api/log/?p=1&page_size=10&username=root");
    expect([byUser.data.total, byUser.data.total_exact]).toEqual([30, true]);
    const byToken = await root.get<Page>("/api/log/?p=1&page_size=10&token_name=t-r");
    expect(byToken.data.total).toBe(30);
    const byTime = await root.get<Page>(`/api/log/?p=1&page_size=10&start_timestamp=${now - 3600 - 99}&end_timestamp=${now - 3600}`);
    expect([byTime.data.total, byTime.data.total_exact]).toEqual([100, true]);
    const byType = await alice.client.get<Page>("/api/log/self?p=1&page_size=10&type=1");
    expect([byType.data.total, byType.data.total_exact]).toEqual([0, true]);
    const selfRare = await alice.client.get<Page>("/api/log/self?p=2&page_size=100&model_name=rare");
    expect([selfRare.data.total, selfRare.data.total_exact, selfRare.data.items.length]).toEqual([101, true, 1]);
  });
});

describe("LOG_DATABASE_URL", () => {
  it("the log database is migrated, and the logs of a relay call and of an admin's quota change land there, none in the main one", async () => {
    expect(await count(logs, 'SELECT COUNT(*) AS n FROM "_migrations"')).toBe(await count(server, 'SELECT COUNT(*) AS n FROM "_migrations"'));
    await setOptions(root, { ModelRatio: JSON.stringify({ "echo-model": 1 }), LogConsumeEnabled: "true" });
    const port = (upstream.address() as AddressInfo).port;
    const ch = await root.post("/api/channel/", {
      name: "echo",
      type: 1,
      key: "sk-upstream-1",
      base_url: `http://127.0.0.1:${port}`,
      models: "echo-model",
      group: "default",
    });
    expect(ch.success, ch.message).toBe(true);
    const bob = await makeUser(server, root, "bob");
    expect((await root.put("/api/user/", { id: bob.id, quota: 5_000_000 })).success).toBe(true);
    const t = await bob.client.post<{ key: string }[]>("/api/token/", { name: "bt", unlimited_quota: true });
    expect(t.success, t.message).toBe(true);
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.data[0].key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "echo-model", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (await count(logs, 'SELECT COUNT(*) AS n FROM "logs" WHERE "user_id" = $1 AND "type" = 2', [bob.id])) === 0) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await count(logs, 'SELECT COUNT(*) AS n FROM "logs" WHERE "user_id" = $1 AND "type" = 2', [bob.id])).toBe(1);
    expect(await count(logs, 'SELECT COUNT(*) AS n FROM "logs" WHERE "user_id" = $1 AND "type" = 3', [bob.id])).toBe(1); // the quota change
    expect(await count(server, 'SELECT COUNT(*) AS n FROM "logs"')).toBe(0);
    // the money itself is in the main database: the ledger row of the quota change
    expect(await count(server, 'SELECT COUNT(*) AS n FROM "quota_ledger" WHERE "user_id" = $1', [bob.id])).toBeGreaterThanOrEqual(2);

    // the console reads them from the log database
    const mine = await bob.client.get<Page>("/api/log/self?p=1&page_size=10");
    expect(mine.data.items.map((x) => x.model_name).sort()).toEqual(["", "echo-model"]);
    expect([mine.data.total, mine.data.total_exact]).toEqual([2, true]);
    const stat = await root.get<{ quota: number }>(`/api/log/stat?type=2&username=bob`);
    expect(Number(stat.data.quota)).toBeGreaterThan(0);
    // the dashboard's rollups are made and kept there too
    expect((await root.post("/api/data/refresh", {})).success).toBe(true);
    expect(await count(logs, 'SELECT COUNT(*) AS n FROM "log_rollups" WHERE "user_id" = $1', [bob.id])).toBe(1);
    expect(await count(server, 'SELECT COUNT(*) AS n FROM "log_rollups"')).toBe(0);
  });

  it("/readyz checks the log database too: 503 naming it while it is gone, 200 once it is back", async () => {
    const ready = async () => {
      const r = await fetch(`${server.url}/readyz`);
      return { status: r.status, body: (await r.json()) as { checks: Record<string, string>; failed?: string[] } };
    };
    const before = await ready();
    expect(before.status).toBe(200);
    expect(before.body.checks).toMatchObject({ database: "ok", migrations: "ok", log_database: "ok", log_migrations: "ok" });
    const restore = await takeDatabaseAway(logs);
    try {
      const gone = await ready();
      expect(gone.status, JSON.stringify(gone.body)).toBe(503);
      expect(gone.body.failed?.sort()).toEqual(["log_database", "log_migrations"]);
      expect(gone.body.checks.database).toBe("ok");
    } finally {
      await restore();
    }
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await ready()).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});

describe("log retention (LogRetentionDays)", () => {
  it("deletes the logs and rollup rows before the cut, keeps the newer ones", async () => {
    const cut = Math.floor((now - 30 * DAY) / DAY) * DAY;
    const old: Row[] = [];
    // PostgreSQL: a month partition wholly before the cut, with rows in it: dropped whole
    let oldPartition = "";
    if (logs.dbKind === "postgresql") {
      const d = new Date((cut - 40 * DAY) * 1000);
      const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
      const to = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
      oldPartition = `logs_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
      await execDb(logs, `CREATE TABLE "${oldPartition}" PARTITION OF "logs" FOR VALUES FROM (${from}) TO (${to})`);
      for (let i = 0; i < 50; i++)
        old.push({ user_id: alice.id, username: "alice", type: 2, created_at: from + i, model_name: "old-model", token_name: "t-a", quota: 1 });
    }
    for (let i = 0; i < 1200; i++)
      old.push({ user_id: alice.id, username: "alice", type: 2, created_at: cut - 1 - i * 60, model_name: "old-model", token_name: "t-a", quota: 1 });
    // on the cut's day, kept: the cut is the start of the UTC day 30 days ago
    for (let i = 0; i < 20; i++)
      old.push({ user_id: alice.id, username: "alice", type: 2, created_at: cut + i, model_name: "edge-model", token_name: "t-a", quota: 1 });
    await insertLogs(old);
    const oldCount = old.length - 20;
    const sums = '"count", "prompt_tokens", "completion_tokens", "quota"';
    for (const hour of [cut - 2 * 3600, cut]) {
      await execDb(logs, `INSERT INTO "log_rollups" ("hour", "user_id", "username", "model_name", ${sums}) VALUES ($1, $2, 'alice', 'x', 1, 0, 0, 1)`, [
        hour,
        alice.id,
      ]);
      await execDb(logs, `INSERT INTO "log_model_rollups" ("hour", "model_name", ${sums}) VALUES ($1, 'x', 1, 0, 0, 1)`, [hour]);
    }
    // more old rollup rows than one SQLite batch deletes (lib/rollups/retention.ts)
    const many = Array.from({ length: 1200 }, (_, i) => `(${cut - 3 * 3600}, ${alice.id}, 'alice', 'm${i}', 1, 0, 0, 1)`).join(", ");
    await execDb(logs, `INSERT INTO "log_rollups" ("hour", "user_id", "username", "model_name", ${sums}) VALUES ${many}`);
    for (const day of [cut - DAY, cut]) {
      await execDb(logs, `INSERT INTO "log_user_day_rollups" ("day", "user_id", "username", ${sums}) VALUES ($1, $2, 'alice', 1, 0, 0, 1)`, [day, alice.id]);
    }
    await execDb(
      logs,
      `INSERT INTO "log_token_rollups" ("hour", "user_id", "username", "token_name", "group", "model_name", ${sums}) VALUES ($1, $2, 'alice', 't-a', 'default', 'x', 1, 0, 0, 1)`,
      [cut - 2 * 3600, alice.id],
    );
    await execDb(logs, `INSERT INTO "log_channel_rollups" ("hour", "channel_id", "group", "model_name", ${sums}) VALUES ($1, 1, 'default', 'x', 1, 0, 0, 1)`, [
      cut - 2 * 3600,
    ]);
    const n = (sql: string, params: unknown[] = []) => count(logs, sql, params);
    const before = await n('SELECT COUNT(*) AS n FROM "logs"');

    // off by default: nothing goes
    expect(await n('SELECT COUNT(*) AS n FROM "logs" WHERE "created_at" < $1', [cut])).toBe(oldCount);
    await setOptions(root, { LogRetentionDays: "30" });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (await n('SELECT COUNT(*) AS n FROM "logs" WHERE "created_at" < $1', [cut])) > 0) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await n('SELECT COUNT(*) AS n FROM "logs" WHERE "created_at" < $1', [cut])).toBe(0);
    expect(await n('SELECT COUNT(*) AS n FROM "logs"')).toBe(before - oldCount);
    expect(await n('SELECT COUNT(*) AS n FROM "logs" WHERE "model_name" = $1', ["edge-model"])).toBe(20);
    // the rollup rows go once the last batch is done
    const rollupsLeft = async () => [
      await n('SELECT COUNT(*) AS n FROM "log_rollups" WHERE "hour" < $1', [cut]),
      await n('SELECT COUNT(*) AS n FROM "log_model_rollups" WHERE "hour" < $1', [cut]),
      await n('SELECT COUNT(*) AS n FROM "log_user_day_rollups" WHERE "day" < $1', [cut]),
      await n('SELECT COUNT(*) AS n FROM "log_token_rollups" WHERE "hour" < $1', [cut]),
      await n('SELECT COUNT(*) AS n FROM "log_channel_rollups" WHERE "hour" < $1', [cut]),
    ];
    const deadline2 = Date.now() + 10_000;
    while (Date.now() < deadline2 && (await rollupsLeft()).some((n) => n > 0)) await new Promise((r) => setTimeout(r, 200));
    expect(await rollupsLeft()).toEqual([0, 0, 0, 0, 0]);
    // (the rollup job may have summed the edge rows meanwhile: at least the fixture row stays)
    expect(await n('SELECT COUNT(*) AS n FROM "log_rollups" WHERE "hour" = $1', [cut])).toBeGreaterThanOrEqual(1);
    expect(await n('SELECT COUNT(*) AS n FROM "log_user_day_rollups" WHERE "day" = $1', [cut])).toBeGreaterThanOrEqual(1);
    if (logs.dbKind === "postgresql") {
      const parts = (
        await queryDb<{ name: string }>(
          logs,
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"logs"'::regclass`,
        )
      ).map((r) => r.name);
      expect(parts).not.toContain(oldPartition);
      const ahead = new Date();
      for (let i = 0; i <= 2; i++) {
        const m = new Date(Date.UTC(ahead.getUTCFullYear(), ahead.getUTCMonth() + i, 1));
        expect(parts).toContain(`logs_p${m.getUTCFullYear()}${String(m.getUTCMonth() + 1).padStart(2, "0")}`);
      }
      expect(parts).toContain("logs_default");
    }
    // the console reads what is left
    const r = await root.get<Page>("/api/log/?p=1&page_size=10&model_name=old-model");
    expect([r.data.total, r.data.total_exact]).toEqual([0, true]);
  }, 60_000);

  it("refuses a negative number of days", async () => {
    const r = await root.put("/api/option/", { key: "LogRetentionDays", value: "-1" });
    expect(r.success).toBe(false);
  });
});

describe("searches by a filter no index serves (model name, group), and stats no rollup holds", () => {
  it("read the newest SCAN_WINDOW rows of the range at most, and say where they start", async () => {
    const WINDOW = 30_000; // lib/logs/scan-window.ts
    const rows = WINDOW + 100;
    const top = now - 3 * 3600;
    // "scanuser": WINDOW + 100 rows, one a second going back from `top`; the 50 oldest are "deep-model"
    const model = `CASE WHEN i >= ${WINDOW + 50} THEN 'deep-model' ELSE 'near-model' END`;
    const insert = `INSERT INTO "logs" ("user_id", "username", "type", "created_at", "model_name", "token_name", "quota")`;
    const select = `SELECT 999999, 'scanuser', 2, ${top} - i, ${model}, 't-s', 1`;
    await execDb(
      logs,
      logs.dbKind === "postgresql"
        ? `${insert} ${select} FROM generate_series(0, ${rows - 1}) AS i`
        : `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${rows - 1}) ${insert} ${select} FROM s`,
    );
    const base = "/api/log/?p=1&page_size=10&username=scanuser";

    // indexed filters only: no window
    const plain = await root.get<Page & { searched_from: number | null }>(base);
    expect(plain.data.searched_from).toBeNull();

    // by model name: the window is the newest WINDOW rows of scanuser (the row WINDOW places back
    // starts it), which leaves the deep rows out
    const near = await root.get<Page & { searched_from: number | null }>(`${base}&model_name=deep`);
    expect(near.success, near.message).toBe(true);
    expect([near.data.total, near.data.total_exact, near.data.searched_from]).toEqual([0, true, top - WINDOW]);
    const grouped = await root.get<Page & { searched_from: number | null }>(`${base}&group=default`);
    expect(grouped.data.searched_from).toBe(top - WINDOW);

    // an earlier end time reaches them: fewer rows than the window in the range, all searched
    const deep = await root.get<Page & { searched_from: number | null }>(`${base}&model_name=deep&end_timestamp=${top - WINDOW - 1}`);
    expect([deep.data.total, deep.data.total_exact, deep.data.searched_from]).toEqual([50, true, null]);
    expect(deep.data.items.every((x) => x.model_name === "deep-model")).toBe(true);

    // the stats of a filter no rollup holds (an admin's token name alone) sum the same window:
    // every row of scanuser is worth 1, the window's oldest row included
    type Stat = { quota: number; searched_from: number | null };
    const stat = await root.get<Stat>("/api/log/stat?token_name=t-s");
    expect(stat.success, stat.message).toBe(true);
    expect([stat.data.quota, stat.data.searched_from]).toEqual([WINDOW + 1, top - WINDOW]);
    const older = await root.get<Stat>(`/api/log/stat?token_name=t-s&end_timestamp=${top - WINDOW - 1}`);
    expect([older.data.quota, older.data.searched_from]).toEqual([99, null]);

    // and read that window from the index (token_name, created_at, type, quota) alone: where it
    // starts and its sum, as the stat asks for them, touch no table row
    const window = [
      `SELECT "created_at" FROM "logs" WHERE "token_name" = $1 AND "type" = 2 ORDER BY "created_at" DESC LIMIT 1 OFFSET ${WINDOW}`,
      `SELECT SUM("quota") FROM "logs" WHERE "token_name" = $1 AND "type" = 2 AND "created_at" >= $2`,
    ];
    for (const sql of window) {
      const params = ["t-s", top - WINDOW].slice(0, sql.includes("$2") ? 2 : 1);
      if (logs.dbKind === "postgresql") {
        const c = new pg.Client({ connectionString: logs.databaseUrl });
        await c.connect();
        try {
          await c.query("SET enable_seqscan = off");
          await c.query("SET enable_bitmapscan = off");
          // one scan per month partition, each on that partition's copy of the index
          const plan = (await c.query(`EXPLAIN ${sql}`, params)).rows.map((r: Record<string, string>) => r["QUERY PLAN"]);
          const scans = plan.filter((line) => line.includes("Scan"));
          expect(scans.length, plan.join("\n")).toBeGreaterThan(0);
          for (const line of scans) expect(line, plan.join("\n")).toMatch(/Index Only Scan (Backward )?using \S*token_name_created_at_type_quota_idx/);
        } finally {
          await c.end();
        }
      } else {
        const plan = (await queryDb<{ detail: string }>(logs, `EXPLAIN QUERY PLAN ${sql}`, params)).map((r) => r.detail).join("\n");
        expect(plan, plan).toMatch(/USING COVERING INDEX logs_token_name_created_at_type_quota_idx/);
      }
    }
  }, 60_000);
});
