// The data dashboard (docs/dashboard.md) over real HTTP against the built server: relay calls
// through a local mock upstream plus usage logs written into the database across hours, days
// and weeks (other log types, other users and "late" logs among them), then:
//   - /api/data/self and /api/data/ answer exactly the sums of the consumption logs, hour by
//     hour, and grouped into days and weeks (the page's arithmetic) bucket by bucket;
//   - the same before the job ran (all from the logs), after it (rollups), and after logs
//     written late into hours already summed;
//   - the rollups (per hour, user and model; per hour and model; per day and user) equal a
//     GROUP BY of the logs, and `npm run rollups:rebuild` writes the same rows;
//   - the top users of all users (whole days from the daily rollups, the hours around them
//     from the hourly ones) equal the logs' sums, for ranges cutting days at both ends;
//   - /api/log/stat and /api/log/self/stat equal the logs' sums under every filter they take;
//   - the log clean-up and an account's deletion keep the rollups equal to the logs;
//   - validation, the role checks, and the option switch.
process.env.TZ = "Asia/Shanghai"; // days and weeks of a zone other than UTC

import { execFile } from "node:child_process";
import Database from "better-sqlite3";
import pg from "pg";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { execDb, queryDb } from "../support/db";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import { bucketStarts, buildSeries, hourRange, totals, type DataRow, type Granularity } from "@/lib/client/dashboard";

const HOUR = 3600;
const DAY = 86_400;

type LogFixture = {
  user_id: number;
  username: string;
  type: number;
  created_at: number;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  token_name: string;
  channel_id: number;
  group: string;
};

let server: TestServer;
let mock: MockUpstream;
let root: ApiClient;
let alice: { id: number; client: ApiClient };
let bob: { id: number; client: ApiClient };
let carol: { id: number; client: ApiClient };
let now: number;
let base: number; // a whole hour, about 20 days ago

async function insertLogs(rows: LogFixture[]): Promise<void> {
  const cols = [
    "user_id",
    "username",
    "type",
    "created_at",
    "model_name",
    "quota",
    "prompt_tokens",
    "completion_tokens",
    "token_name",
    "channel_id",
    "group",
  ] as const;
  const head = `INSERT INTO "logs" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES `;
  if (server.dbKind === "postgresql") {
    const c = new pg.Client({ connectionString: server.databaseUrl });
    await c.connect();
    try {
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const params: unknown[] = [];
        const tuples = chunk.map((r) => `(${cols.map((col) => (params.push(r[col]), `$${params.length}`)).join(", ")})`);
        await c.query(head + tuples.join(", "), params);
      }
    } finally {
      await c.end();
    }
    return;
  }
  const conn = new Database(server.databaseUrl.replace(/^file:/, ""));
  try {
    conn.pragma("busy_timeout = 5000");
    const stmt = conn.prepare(head + `(${cols.map(() => "?").join(", ")})`);
    conn.transaction(() => {
      for (const r of rows) stmt.run(...cols.map((c) => r[c]));
    })();
  } finally {
    conn.close();
  }
}

// A small deterministic generator, so that a failure can be replayed.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const MODELS = ["gpt-4o-mini", "claude-3-5-sonnet", "gemini-1.5-pro", "gpt_4o%odd"];

function fixtures(seed: number, from: number, span: number, n: number): LogFixture[] {
  const r = rng(seed);
  const users = [alice, bob];
  return Array.from({ length: n }, () => {
    const u = users[Math.floor(r() * users.length)];
    const type = r() < 0.85 ? 2 : [1, 3, 5, 6][Math.floor(r() * 4)];
    return {
      user_id: u.id,
      username: u === alice ? "alice" : "bob",
      type,
      created_at: from + Math.floor(r() * span),
      model_name: MODELS[Math.floor(r() * MODELS.length)],
      quota: Math.floor(r() * 50_000),
      prompt_tokens: Math.floor(r() * 4000),
      completion_tokens: Math.floor(r() * 1000),
      token_name: r() < 0.5 ? "tok-a" : "tok-b",
      channel_id: r() < 0.5 ? 1 : 2,
      group: r() < 0.7 ? "default" : "vip",
    };
  });
}

type Sums = { c: number; q: number; p: number; cp: number };
const num = (v: unknown) => Number(v ?? 0);

// The sums of the consumption logs for a condition, straight from the table.
async function logSums(where: string, params: unknown[]): Promise<Sums> {
  const [r] = await queryDb<Record<string, unknown>>(
    server,
    `SELECT COUNT(*) AS c, COALESCE(SUM(quota), 0) AS q, COALESCE(SUM(prompt_tokens), 0) AS p, COALESCE(SUM(completion_tokens), 0) AS cp FROM logs WHERE ${where}`,
    params,
  );
  return { c: num(r.c), q: num(r.q), p: num(r.p), cp: num(r.cp) };
}

async function expectedHourly(userId: number | null, start: number, end: number) {
  const rows = await queryDb<Record<string, unknown>>(
    server,
    `SELECT created_at - (created_at % 3600) AS h, model_name AS m, COUNT(*) AS c, SUM(quota) AS q, SUM(prompt_tokens) AS p, SUM(completion_tokens) AS cp
     FROM logs WHERE type = 2 AND created_at >= $1 AND created_at < $2 ${userId === null ? "" : "AND user_id = $3"} GROUP BY h, m ORDER BY h, m`,
    userId === null ? [start, end + HOUR] : [start, end + HOUR, userId],
  );
  return rows.map((r) => ({ created_at: num(r.h), model_name: String(r.m), count: num(r.c), quota: num(r.q), token_used: num(r.p) + num(r.cp) }));
}

const sortRows = (rows: { created_at: number; model_name: string }[]) =>
  [...rows].sort((a, b) => a.created_at - b.created_at || (a.model_name < b.model_name ? -1 : a.model_name > b.model_name ? 1 : 0));

async function dataRows(c: ApiClient, path: string): Promise<DataRow[]> {
  const r = await c.get<DataRow[]>(path);
  expect(r.success, r.message).toBe(true);
  return r.data;
}

// The hourly rows equal the logs, and the day and week buckets the page draws equal the
// sums of the logs between each bucket's bounds.
async function checkUser(user: { id: number; client: ApiClient }, start: number, end: number): Promise<void> {
  const { start: hs, end: he } = hourRange(start, end);
  // the page sends whole hours (hourRange); an hour row counts when its hour starts within the range
  const rows = await dataRows(user.client, `/api/data/self?start_timestamp=${hs}&end_timestamp=${he}`);
  const inner = await dataRows(user.client, `/api/data/self?start_timestamp=${hs + 1}&end_timestamp=${he}`);
  expect(inner).toEqual(rows.filter((r) => r.created_at > hs));
  const want = await expectedHourly(user.id, hs, he);
  expect(sortRows(rows.map((r) => ({ created_at: r.created_at, model_name: r.model_name, count: r.count, quota: r.quota, token_used: r.token_used })))).toEqual(
    want,
  );
  for (const g of ["hour", "day", "week"] as Granularity[]) {
    const series = buildSeries(rows, hs, he, g);
    const starts = bucketStarts(hs, he, g);
    expect(series.buckets).toEqual(starts);
    for (let i = 0; i < starts.length; i++) {
      const from = Math.max(starts[i], hs);
      const to = Math.min(i + 1 < starts.length ? starts[i + 1] : he + HOUR, he + HOUR);
      const s = await logSums("type = 2 AND user_id = $1 AND created_at >= $2 AND created_at < $3", [user.id, from, to]);
      expect({ g, t: starts[i], q: series.quota[i].total, c: series.calls[i].total, tok: series.tokens[i].total }).toEqual({
        g,
        t: starts[i],
        q: s.q,
        c: s.c,
        tok: s.p + s.cp,
      });
    }
    if (g !== "hour") continue;
    const all = await logSums("type = 2 AND user_id = $1 AND created_at >= $2 AND created_at < $3", [user.id, hs, he + HOUR]);
    const tt = totals(rows, hs, he, now);
    expect({ q: tt.quota, c: tt.count, tok: tt.tokens }).toEqual({ q: all.q, c: all.c, tok: all.p + all.cp });
  }
  // The day and week views ask for the rows summed per day of the browser's zone: the same
  // buckets. In another zone, the hourly rows summed per that zone's date.
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const daily = await dataRows(user.client, `/api/data/self?start_timestamp=${hs}&end_timestamp=${he}&tz=${encodeURIComponent(zone)}`);
  for (const g of ["day", "week"] as Granularity[]) expect(buildSeries(daily, hs, he, g)).toEqual(buildSeries(rows, hs, he, g));
  for (const tz of ["Asia/Kolkata", "America/New_York"]) {
    const got = await dataRows(user.client, `/api/data/self?start_timestamp=${hs}&end_timestamp=${he}&tz=${encodeURIComponent(tz)}`);
    // and the page, in a browser of that zone, draws the same days and weeks from them as from the hourly rows
    const zoneBefore = process.env.TZ;
    process.env.TZ = tz;
    try {
      for (const g of ["day", "week"] as Granularity[]) expect(buildSeries(got, hs, he, g)).toEqual(buildSeries(rows, hs, he, g));
    } finally {
      if (zoneBefore === undefined) delete process.env.TZ;
      else process.env.TZ = zoneBefore;
    }
    const date = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" });
    const want = new Map<string, { created_at: number; model_name: string; count: number; quota: number; token_used: number }>();
    for (const r of rows) {
      const key = `${date.format(r.created_at * 1000)}|${r.model_name}`;
      const w = want.get(key);
      if (!w) want.set(key, { created_at: r.created_at, model_name: r.model_name, count: r.count, quota: r.quota, token_used: r.token_used });
      else
        Object.assign(w, {
          created_at: Math.min(w.created_at, r.created_at),
          count: w.count + r.count,
          quota: w.quota + r.quota,
          token_used: w.token_used + r.token_used,
        });
    }
    expect(
      sortRows(got.map((r) => ({ created_at: r.created_at, model_name: r.model_name, count: r.count, quota: r.quota, token_used: r.token_used }))),
    ).toEqual(sortRows([...want.values()]));
  }
}

// The rollup tables, row by row: log_rollups ("u|" rows), log_model_rollups ("m|" rows),
// log_user_day_rollups ("d|" rows), log_token_rollups ("t|" rows) and log_channel_rollups
// ("c|" rows).
async function rollupRows(): Promise<string[]> {
  const rows = await queryDb<Record<string, unknown>>(
    server,
    "SELECT hour, user_id, username, model_name, count, prompt_tokens, completion_tokens, quota FROM log_rollups ORDER BY hour, user_id, username, model_name",
  );
  const models = await queryDb<Record<string, unknown>>(
    server,
    "SELECT hour, model_name, count, prompt_tokens, completion_tokens, quota FROM log_model_rollups ORDER BY hour, model_name",
  );
  const days = await queryDb<Record<string, unknown>>(
    server,
    "SELECT day, user_id, username, count, prompt_tokens, completion_tokens, quota FROM log_user_day_rollups ORDER BY day, user_id, username",
  );
  const tokens = await queryDb<Record<string, unknown>>(
    server,
    `SELECT hour, user_id, username, token_name, "group" AS g, model_name, count, prompt_tokens, completion_tokens, quota FROM log_token_rollups
     ORDER BY hour, user_id, username, token_name, "group", model_name`,
  );
  const channels = await queryDb<Record<string, unknown>>(
    server,
    `SELECT hour, channel_id, "group" AS g, model_name, count, prompt_tokens, completion_tokens, quota FROM log_channel_rollups ORDER BY hour, channel_id, "group", model_name`,
  );
  return [
    ...rows.map((r) => ["u", r.hour, r.user_id, r.username, r.model_name, r.count, r.prompt_tokens, r.completion_tokens, r.quota].map(String).join("|")),
    ...models.map((r) => ["m", r.hour, r.model_name, r.count, r.prompt_tokens, r.completion_tokens, r.quota].map(String).join("|")),
    ...days.map((r) => ["d", r.day, r.user_id, r.username, r.count, r.prompt_tokens, r.completion_tokens, r.quota].map(String).join("|")),
    ...tokens.map((r) =>
      ["t", r.hour, r.user_id, r.username, r.token_name, r.g, r.model_name, r.count, r.prompt_tokens, r.completion_tokens, r.quota].map(String).join("|"),
    ),
    ...channels.map((r) => ["c", r.hour, r.channel_id, r.g, r.model_name, r.count, r.prompt_tokens, r.completion_tokens, r.quota].map(String).join("|")),
  ];
}

// The consumption logs up to the watermark, grouped as each rollup table groups them.
async function groupedLogs(): Promise<string[]> {
  const [{ w }] = await queryDb<{ w: number }>(server, "SELECT last_log_id AS w FROM log_rollup_state WHERE id = 1");
  const rows = await queryDb<Record<string, unknown>>(
    server,
    `SELECT created_at - (created_at % 3600) AS hour, user_id, username, model_name, COUNT(*) AS count, SUM(prompt_tokens) AS p, SUM(completion_tokens) AS cp, SUM(quota) AS q
     FROM logs WHERE type = 2 AND id <= $1 GROUP BY hour, user_id, username, model_name ORDER BY hour, user_id, username, model_name`,
    [num(w)],
  );
  const models = await queryDb<Record<string, unknown>>(
    server,
    `SELECT created_at - (created_at % 3600) AS hour, model_name, COUNT(*) AS count, SUM(prompt_tokens) AS p, SUM(completion_tokens) AS cp, SUM(quota) AS q
     FROM logs WHERE type = 2 AND id <= $1 GROUP BY hour, model_name ORDER BY hour, model_name`,
    [num(w)],
  );
  const days = await queryDb<Record<string, unknown>>(
    server,
    `SELECT created_at - (created_at % 86400) AS day, user_id, username, COUNT(*) AS count, SUM(prompt_tokens) AS p, SUM(completion_tokens) AS cp, SUM(quota) AS q
     FROM logs WHERE type = 2 AND id <= $1 GROUP BY day, user_id, username ORDER BY day, user_id, username`,
    [num(w)],
  );
  const tokens = await queryDb<Record<string, unknown>>(
    server,
    `SELECT created_at - (created_at % 3600) AS hour, user_id, username, token_name, "group" AS g, model_name, COUNT(*) AS count, SUM(prompt_tokens) AS p,
       SUM(completion_tokens) AS cp, SUM(quota) AS q
     FROM logs WHERE type = 2 AND id <= $1 GROUP BY hour, user_id, username, token_name, "group", model_name ORDER BY hour, user_id, username, token_name, "group", model_name`,
    [num(w)],
  );
  const channels = await queryDb<Record<string, unknown>>(
    server,
    `SELECT created_at - (created_at % 3600) AS hour, channel_id, "group" AS g, model_name, COUNT(*) AS count, SUM(prompt_tokens) AS p, SUM(completion_tokens) AS cp, SUM(quota) AS q
     FROM logs WHERE type = 2 AND id <= $1 GROUP BY hour, channel_id, "group", model_name ORDER BY hour, channel_id, "group", model_name`,
    [num(w)],
  );
  return [
    ...rows.map((r) => ["u", r.hour, r.user_id, r.username, r.model_name, r.count, r.p, r.cp, r.q].map(String).join("|")),
    ...models.map((r) => ["m", r.hour, r.model_name, r.count, r.p, r.cp, r.q].map(String).join("|")),
    ...days.map((r) => ["d", r.day, r.user_id, r.username, r.count, r.p, r.cp, r.q].map(String).join("|")),
    ...tokens.map((r) => ["t", r.hour, r.user_id, r.username, r.token_name, r.g, r.model_name, r.count, r.p, r.cp, r.q].map(String).join("|")),
    ...channels.map((r) => ["c", r.hour, r.channel_id, r.g, r.model_name, r.count, r.p, r.cp, r.q].map(String).join("|")),
  ];
}

type TopUser = { user_id: number; username: string; count: number; token_used: number; quota: number };

// Ranges for the top users: partial days (and partial hours) at both ends, whole days only,
// no whole day, and up to now. `day0` is the first UTC midnight after base.
function topRanges(): [number, number][] {
  const day0 = Math.ceil(base / DAY) * DAY;
  return [
    [day0 + 2 * DAY - 5 * HOUR + 17, day0 + 9 * DAY + 7 * HOUR + 100],
    [day0 + 5 * DAY + 23 * HOUR, day0 + 7 * DAY],
    [day0 + DAY, day0 + 5 * DAY - 1],
    [day0 + 3 * DAY + 2 * HOUR, day0 + 3 * DAY + 20 * HOUR],
    [base + 1234, now],
  ];
}

// The top users of all users (GET /api/data/summary) equal the logs grouped by user over the
// hours the range holds (an hour counts when it starts within the range).
async function checkTopUsers(): Promise<void> {
  let seen = 0;
  for (const [start, end] of topRanges()) {
    const from = Math.ceil(start / HOUR) * HOUR;
    const to = Math.floor(end / HOUR) * HOUR + HOUR;
    const rows = await queryDb<Record<string, unknown>>(
      server,
      `SELECT user_id, username, COUNT(*) AS c, SUM(quota) AS q, SUM(prompt_tokens) + SUM(completion_tokens) AS t
       FROM logs WHERE type = 2 AND created_at >= $1 AND created_at < $2 GROUP BY user_id, username`,
      [from, to],
    );
    const want: TopUser[] = rows
      .map((r) => ({ user_id: num(r.user_id), username: String(r.username), count: num(r.c), token_used: num(r.t), quota: num(r.q) }))
      .sort((a, b) => b.quota - a.quota || b.count - a.count || a.user_id - b.user_id)
      .slice(0, 10);
    seen += want.length;
    const r = await root.get<{ top_users: TopUser[] }>(`/api/data/summary?start_timestamp=${start}&end_timestamp=${end}`);
    expect(r.success, r.message).toBe(true);
    expect({ start, end, top: r.data.top_users }).toEqual({ start, end, top: want });
  }
  expect(seen).toBeGreaterThan(0);
}

function rebuild(): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", "rollups:rebuild"],
      { env: { ...process.env, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, NODE_ENV: "production" }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 99) : 0, out: stdout + stderr }),
    );
  });
}

async function refresh(): Promise<{ last_log_id: number; max_log_id: number }> {
  const r = await root.post<{ last_log_id: number; max_log_id: number }>("/api/data/refresh");
  expect(r.success, r.message).toBe(true);
  return r.data;
}

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  root = await setupRoot(server);
  await setOptions(root, { ModelRatio: JSON.stringify({ "gpt-4o-mini": 1.5 }), CompletionRatio: JSON.stringify({ "gpt-4o-mini": 4 }) });
  const ch = await root.post("/api/channel/", { name: "mock", type: 1, key: mock.key, base_url: mock.url, models: "gpt-4o-mini", group: "default" });
  expect(ch.success, ch.message).toBe(true);
  alice = await makeUser(server, root, "alice");
  bob = await makeUser(server, root, "bob");
  carol = await makeUser(server, root, "carol");
  expect((await root.put("/api/user/", { id: alice.id, quota: 5_000_000 })).success).toBe(true);
  now = Math.floor(Date.now() / 1000);
  base = Math.floor((now - 20 * DAY) / HOUR) * HOUR;
  await insertLogs(fixtures(1, base, 20 * DAY, 3000));
  // three real relay calls: their logs come through the relay's batched writer
  const t = await alice.client.post<{ key: string }[]>("/api/token/", { name: "relay", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  for (let i = 0; i < 3; i++) {
    const r = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.data[0].key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], max_tokens: 20 }),
    });
    expect(r.status, await r.clone().text()).toBe(200);
    await r.json();
  }
  for (let i = 0; i < 50; i++) {
    const [{ n }] = await queryDb<{ n: number }>(server, "SELECT COUNT(*) AS n FROM logs WHERE type = 2 AND token_name = 'relay'");
    if (num(n) === 3) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await mock?.close();
});

// Every table the rollup job writes (lib/rollups/job.ts, lib/rollups/perf.ts).
const JOB_TABLES = [
  "log_rollups",
  "log_model_rollups",
  "log_user_day_rollups",
  "log_token_rollups",
  "log_channel_rollups",
  "log_perf_model_rollups",
  "log_perf_channel_rollups",
];

describe("the dashboard's calls", { timeout: 300_000 }, () => {
  it("answer the logs' sums before the job ran, for hour, day and week", async () => {
    // as if the job had never run, and not due for an hour: everything is read from the logs.
    // The job's own first run (5 s after the start) may be under way on a slow machine: a forced
    // run waits for it to end, and leaves the next one not due. Then the state says "never ran"
    // before every table the job writes is emptied (one left full would count its logs twice).
    await refresh();
    await execDb(server, "UPDATE log_rollup_state SET last_log_id = 0, last_run_at = $1 WHERE id = 1", [Math.floor(Date.now() / 1000) + 3600]);
    for (const table of JOB_TABLES) await execDb(server, `DELETE FROM ${table}`);
    const st = await root.get<{ last_log_id: number; max_log_id: number }>("/api/data/state");
    expect(st.data.last_log_id).toBe(0);
    expect(st.data.max_log_id).toBeGreaterThan(3000);
    await checkUser(alice, base + 1234, now);
    await checkUser(bob, base + 5 * DAY + 17, base + 16 * DAY + 3599);
    await checkTopUsers();
  });

  it("answer the same from the rollups, and the rollups are the logs grouped by hour", async () => {
    const s = await refresh();
    expect(s.last_log_id).toBe(s.max_log_id);
    expect(await rollupRows()).toEqual(await groupedLogs());
    expect((await rollupRows()).length).toBeGreaterThan(100);
    expect((await rollupRows()).filter((r) => r.startsWith("m|")).length).toBeGreaterThan(50);
    expect((await rollupRows()).filter((r) => r.startsWith("d|")).length).toBeGreaterThan(30);
    await checkUser(alice, base + 1234, now);
    await checkUser(bob, base, now);
    await checkTopUsers();
  });

  it("count logs written late into hours already summed, before and after the next run", async () => {
    // rows the batched writer would insert late: created in old hours, ids after the watermark
    await insertLogs(fixtures(2, base + 2 * DAY, 3 * DAY, 300));
    await checkUser(alice, base, now);
    await checkUser(bob, base + DAY, base + 9 * DAY);
    await checkTopUsers();
    await refresh();
    expect(await rollupRows()).toEqual(await groupedLogs());
    await checkUser(alice, base, now);
    await checkTopUsers();
  });

  it("run by themselves once due (every DataExportInterval minutes), with no forced refresh", async () => {
    await insertLogs(fixtures(3, base + 4 * DAY, DAY, 50));
    // last run an hour ago: due at the next tick of the node's timer (every 30 s)
    await execDb(server, "UPDATE log_rollup_state SET last_run_at = $1 WHERE id = 1", [Math.floor(Date.now() / 1000) - 3600]);
    const before = await root.get<{ last_log_id: number; max_log_id: number }>("/api/data/state");
    expect(before.data.last_log_id).toBeLessThan(before.data.max_log_id);
    let st = before.data;
    for (let i = 0; i < 80 && st.last_log_id < st.max_log_id; i++) {
      await new Promise((r) => setTimeout(r, 500));
      st = (await root.get<{ last_log_id: number; max_log_id: number }>("/api/data/state")).data;
    }
    expect(st.last_log_id).toBe(st.max_log_id);
    expect(await rollupRows()).toEqual(await groupedLogs());
    const [{ t }] = await queryDb<{ t: unknown }>(server, "SELECT last_run_at AS t FROM log_rollup_state WHERE id = 1");
    expect(Math.floor(Date.now() / 1000) - num(t)).toBeLessThan(60);
  });

  it("read the top users' whole days from the daily rollups and the days cut by the range from the hourly ones", async () => {
    // a day row changed by hand shows in the top users when its day is whole in the range,
    // and not when the range cuts it (its hours are read from log_rollups)
    const [[start, end]] = topRanges();
    const inner = Math.ceil(start / DAY) * DAY + DAY;
    const edge = Math.floor(start / DAY) * DAY;
    const top = async () =>
      new Map(
        (await root.get<{ top_users: TopUser[] }>(`/api/data/summary?start_timestamp=${start}&end_timestamp=${end}`)).data.top_users.map((u) => [
          u.user_id,
          u.quota,
        ]),
      );
    const before = await top();
    try {
      await execDb(server, "UPDATE log_user_day_rollups SET quota = quota + 1000000 WHERE day = $1 AND user_id = $2", [inner, alice.id]);
      await execDb(server, "UPDATE log_user_day_rollups SET quota = quota + 1000000 WHERE day = $1 AND user_id = $2", [edge, bob.id]);
      const after = await top();
      expect(after.get(alice.id)).toBe(before.get(alice.id)! + 1_000_000);
      expect(after.get(bob.id)).toBe(before.get(bob.id));
    } finally {
      await execDb(server, "UPDATE log_user_day_rollups SET quota = quota - 1000000 WHERE day = $1 AND user_id = $2", [inner, alice.id]);
      await execDb(server, "UPDATE log_user_day_rollups SET quota = quota - 1000000 WHERE day = $1 AND user_id = $2", [edge, bob.id]);
    }
    expect(await rollupRows()).toEqual(await groupedLogs());
  });

  it("admins read all users summed per hour and model, or one username, and the top users", async () => {
    const { start, end } = hourRange(base, now);
    const all = await dataRows(root, `/api/data/?start_timestamp=${start}&end_timestamp=${end}`);
    const want = await expectedHourly(null, start, end);
    expect(
      sortRows(all.map((r) => ({ created_at: r.created_at, model_name: r.model_name, count: r.count, quota: r.quota, token_used: r.token_used }))),
    ).toEqual(want);
    const one = await dataRows(root, `/api/data/?start_timestamp=${start}&end_timestamp=${end}&username=bob`);
    expect(one.every((r) => r.username === "bob")).toBe(true);
    expect(one.reduce((a, r) => a + r.quota, 0)).toBe(
      (await logSums("type = 2 AND username = $1 AND created_at >= $2 AND created_at < $3", ["bob", start, end + HOUR])).q,
    );
    const sum = await root.get<{ balance: number; top_users: { username: string; quota: number; count: number }[] }>(
      `/api/data/summary?start_timestamp=${start}&end_timestamp=${end}`,
    );
    expect(sum.success, sum.message).toBe(true);
    const users = await queryDb<Record<string, unknown>>(server, "SELECT COALESCE(SUM(quota), 0) AS q FROM users WHERE deleted_at IS NULL");
    expect(sum.data.balance).toBe(num(users[0].q));
    const top = sum.data.top_users;
    expect(top.map((u) => u.username).sort()).toEqual(["alice", "bob"]);
    expect(top[0].quota).toBeGreaterThanOrEqual(top[1].quota);
    for (const u of top)
      expect(u.quota).toBe((await logSums("type = 2 AND username = $1 AND created_at >= $2 AND created_at < $3", [u.username, start, end + HOUR])).q);
    const oneSum = await root.get<{ balance: number }>(`/api/data/summary?start_timestamp=${start}&end_timestamp=${end}&username=alice`);
    expect(oneSum.data.balance).toBe(5_000_000 - (await logSums("type = 2 AND token_name = 'relay'", [])).q);
  });

  it("refuse bad ranges, other people's data and a switched-off dashboard", async () => {
    const bad = await alice.client.get(`/api/data/self?start_timestamp=${now}&end_timestamp=${now - 10}`);
    expect(bad).toMatchObject({ success: false, message: "The end time cannot be earlier than the start time" });
    const long = await alice.client.get(`/api/data/self?start_timestamp=${now - 400 * DAY}&end_timestamp=${now}`);
    expect(long).toMatchObject({ success: false, message: "The time range cannot exceed 366 days" });
    const zone = await alice.client.get(`/api/data/self?start_timestamp=${now - 10}&end_timestamp=${now}&tz=Mars%2FOlympus`);
    expect(zone.success).toBe(false);
    expect(zone.message).toContain("Unknown time zone");
    const missing = await alice.client.get("/api/data/self?end_timestamp=1");
    expect(missing.success).toBe(false);
    expect(missing.message).toContain("start_timestamp");
    const notAdmin = await alice.client.get(`/api/data/?start_timestamp=${base}&end_timestamp=${now}`);
    expect(notAdmin.success).toBe(false);
    expect((await alice.client.post("/api/data/refresh")).success).toBe(false);
    expect((await alice.client.get(`/api/data/summary?start_timestamp=${base}&end_timestamp=${now}`)).success).toBe(false);
    // carol sees only her own (empty) usage
    expect(await dataRows(carol.client, `/api/data/self?start_timestamp=${base}&end_timestamp=${now}`)).toEqual([]);
    await setOptions(root, { DataExportEnabled: "false" });
    const off = await alice.client.get(`/api/data/self?start_timestamp=${base}&end_timestamp=${now}`);
    expect(off).toMatchObject({ success: false, message: "The admin has not enabled the data dashboard" });
    await setOptions(root, { DataExportEnabled: "true" });
  });
});

type Stat = { quota: number; rpm: number; tpm: number; searched_from: number | null };

describe("the usage-log stats", { timeout: 300_000 }, () => {
  // each filter of /api/log/stat and the condition it stands for on the logs
  const cases = (): { query: string; where: string; params: unknown[] }[] => {
    const s = base + 3 * DAY + 1799; // mid-hour edges
    const e = base + 11 * DAY + 2345;
    return [
      { query: "", where: "type = 2", params: [] },
      { query: `start_timestamp=${s}&end_timestamp=${e}`, where: "type = 2 AND created_at >= $1 AND created_at <= $2", params: [s, e] },
      { query: `start_timestamp=${s}`, where: "type = 2 AND created_at >= $1", params: [s] },
      { query: `end_timestamp=${e}`, where: "type = 2 AND created_at <= $1", params: [e] },
      {
        query: `start_timestamp=${base + DAY}&end_timestamp=${base + 2 * DAY - 1}`,
        where: "type = 2 AND created_at >= $1 AND created_at <= $2",
        params: [base + DAY, base + 2 * DAY - 1],
      },
      { query: `start_timestamp=${s}&end_timestamp=${s + 100}`, where: "type = 2 AND created_at >= $1 AND created_at <= $2", params: [s, s + 100] },
      {
        query: `username=bob&start_timestamp=${s}&end_timestamp=${e}`,
        where: "type = 2 AND username = 'bob' AND created_at >= $1 AND created_at <= $2",
        params: [s, e],
      },
      { query: `model_name=claude&start_timestamp=${s}`, where: "type = 2 AND model_name LIKE '%claude%' AND created_at >= $1", params: [s] },
      // "%" and "_" in the model filter are literal
      { query: `model_name=${encodeURIComponent("_4o%")}`, where: "type = 2 AND model_name = 'gpt_4o%odd'", params: [] },
      { query: `model_name=${encodeURIComponent("4o_")}`, where: "type = 2 AND model_name = '4o_' ", params: [] },
      {
        query: `token_name=tok-a&start_timestamp=${s}&end_timestamp=${e}`,
        where: "type = 2 AND token_name = 'tok-a' AND created_at >= $1 AND created_at <= $2",
        params: [s, e],
      },
      { query: `channel=2&end_timestamp=${e}`, where: "type = 2 AND channel_id = 2 AND created_at <= $1", params: [e] },
      { query: `group=vip`, where: "type = 2 AND \"group\" = 'vip'", params: [] },
      { query: `type=2&username=alice`, where: "type = 2 AND username = 'alice'", params: [] },
      // from log_token_rollups (with a user) and log_channel_rollups (without one), edges mid-hour
      {
        query: `username=bob&token_name=tok-b&start_timestamp=${s}&end_timestamp=${e}`,
        where: "type = 2 AND username = 'bob' AND token_name = 'tok-b' AND created_at >= $1 AND created_at <= $2",
        params: [s, e],
      },
      {
        query: `username=alice&group=vip&model_name=gpt`,
        where: "type = 2 AND username = 'alice' AND \"group\" = 'vip' AND model_name LIKE '%gpt%'",
        params: [],
      },
      { query: `token_name=tok-a&group=vip`, where: "type = 2 AND token_name = 'tok-a' AND \"group\" = 'vip'", params: [] },
      {
        query: `channel=1&group=default&model_name=claude&start_timestamp=${s}&end_timestamp=${e}`,
        where: "type = 2 AND channel_id = 1 AND \"group\" = 'default' AND model_name LIKE '%claude%' AND created_at >= $1 AND created_at <= $2",
        params: [s, e],
      },
      {
        query: `group=vip&start_timestamp=${s}&end_timestamp=${e}`,
        where: "type = 2 AND \"group\" = 'vip' AND created_at >= $1 AND created_at <= $2",
        params: [s, e],
      },
      // no rollup holds these: the logs, under the scan window's size here
      { query: `channel=2&username=bob`, where: "type = 2 AND channel_id = 2 AND username = 'bob'", params: [] },
      {
        query: `channel=2&token_name=tok-a&start_timestamp=${s}`,
        where: "type = 2 AND channel_id = 2 AND token_name = 'tok-a' AND created_at >= $1",
        params: [s],
      },
      { query: `type=1`, where: "type = 1", params: [] },
      { query: `type=6&start_timestamp=${s}`, where: "type = 6 AND created_at >= $1", params: [s] },
    ];
  };

  it("/api/log/stat equals the logs' sums under every filter, from rollups and logs alike", async () => {
    for (const round of ["rolled up", "with late logs"]) {
      if (round === "with late logs") await insertLogs(fixtures(3, base + 4 * DAY, 5 * DAY, 200));
      for (const c of cases()) {
        const r = await root.get<Stat>(`/api/log/stat?${c.query}`);
        expect(r.success, r.message).toBe(true);
        expect({ round, q: c.query, quota: r.data.quota }).toEqual({ round, q: c.query, quota: (await logSums(c.where, c.params)).q });
      }
    }
  });

  it("an upgraded install's token and channel rollups are backfilled by the job in steps; the stats read the logs meanwhile", async () => {
    await refresh();
    const before = await rollupRows();
    expect(before).toEqual(await groupedLogs());
    const dimRows = (rows: string[]) => rows.filter((r) => r.startsWith("t|") || r.startsWith("c|"));
    expect(dimRows(before).length).toBeGreaterThan(50);
    // as migration 0025 now leaves an install that had logs: both tables empty; then 0029's own statement
    await execDb(server, "DELETE FROM log_token_rollups");
    await execDb(server, "DELETE FROM log_channel_rollups");
    const kind = server.dbKind === "postgresql" ? "postgresql" : "sqlite";
    const migration = readFileSync(path.join("prisma/migrations", kind, "0029_dims_backfill.sql"), "utf8");
    const backfillStatement = migration.slice(migration.indexOf("UPDATE"), migration.indexOf(";", migration.indexOf("UPDATE")) + 1);
    await execDb(server, backfillStatement);
    const state = async () =>
      (await queryDb<Record<string, unknown>>(server, "SELECT last_log_id, dims_backfilled, dims_backfill_to FROM log_rollup_state"))[0];
    const pending = await state();
    expect([num(pending.dims_backfilled), num(pending.dims_backfill_to)]).toEqual([0, num(pending.last_log_id)]);
    await server.kill("SIGTERM");
    await server.restart(); // a process that has not seen the tables complete yet
    // while the backfill is pending, every filter equals the logs (the two tables are empty)
    for (const c of cases()) {
      const r = await root.get<Stat>(`/api/log/stat?${c.query}`);
      expect(r.success, r.message).toBe(true);
      expect({ q: c.query, quota: r.data.quota }).toEqual({ q: c.query, quota: (await logSums(c.where, c.params)).q });
    }
    expect(dimRows(await rollupRows())).toEqual([]);
    const run = await root.post<{ steps: number }>("/api/data/refresh");
    expect(run.success, run.message).toBe(true);
    const done = await state();
    expect(num(done.dims_backfilled)).toBe(num(done.dims_backfill_to));
    expect(await rollupRows()).toEqual(before);
    // the migration's statement finds the tables filled: no second backfill
    await execDb(server, backfillStatement);
    const again = await state();
    expect(num(again.dims_backfilled)).toBe(num(again.dims_backfill_to));
    for (const c of cases()) expect((await root.get<Stat>(`/api/log/stat?${c.query}`)).data.quota).toBe((await logSums(c.where, c.params)).q);
  });

  it("the filters the rollups hold are read from them for whole hours, the others from the logs", async () => {
    await refresh();
    const hours = [base + 3 * DAY, base + 10 * DAY]; // whole hours inside the range below
    const q = `start_timestamp=${base + 2 * DAY + 1799}&end_timestamp=${base + 11 * DAY + 2345}`;
    const bump = 1_000_003;
    const read = async (c: ApiClient, path: string) => {
      const r = await c.get<Stat>(path);
      expect(r.success, r.message).toBe(true);
      expect(r.data.searched_from).toBeNull();
      return r.data.quota;
    };
    const paths: [ApiClient, string, string][] = [
      [
        bob.client,
        `/api/log/self/stat?token_name=tok-a&${q}`,
        `UPDATE log_token_rollups SET quota = quota + ${bump} WHERE id = (SELECT MIN(id) FROM log_token_rollups WHERE hour >= $1 AND hour < $2 AND user_id = ${bob.id} AND token_name = 'tok-a')`,
      ],
      [
        root,
        `/api/log/stat?channel=1&${q}`,
        `UPDATE log_channel_rollups SET quota = quota + ${bump} WHERE id = (SELECT MIN(id) FROM log_channel_rollups WHERE hour >= $1 AND hour < $2 AND channel_id = 1)`,
      ],
    ];
    for (const [c, path, garble] of paths) {
      const before = await read(c, path);
      await execDb(server, garble, hours);
      expect({ path, quota: await read(c, path) }).toEqual({ path, quota: before + bump });
    }
    // the admin's token name alone is every user's: read from the logs
    const tok = await read(root, `/api/log/stat?token_name=tok-a&${q}`);
    expect(tok).toBe(
      (await logSums("type = 2 AND token_name = 'tok-a' AND created_at >= $1 AND created_at <= $2", [base + 2 * DAY + 1799, base + 11 * DAY + 2345])).q,
    );
    const r = await rebuild();
    expect(r.code, r.out).toBe(0);
    expect(await rollupRows()).toEqual(await groupedLogs());
  });

  it("/api/log/self/stat is the caller's own, under the same filters", async () => {
    for (const c of cases()) {
      if (c.query.includes("username") || c.query.includes("channel")) continue; // not filters of the self view
      const r = await bob.client.get<Stat>(`/api/log/self/stat?${c.query}`);
      expect(r.success, r.message).toBe(true);
      const where = c.where + ` AND user_id = ${bob.id}`;
      expect({ q: c.query, quota: r.data.quota }).toEqual({ q: c.query, quota: (await logSums(where, c.params)).q });
    }
  });

  it("rpm and tpm count the consumption logs of the last minute", async () => {
    const t = Math.floor(Date.now() / 1000);
    await insertLogs([
      {
        user_id: carol.id,
        username: "carol",
        type: 2,
        created_at: t - 5,
        model_name: "m1",
        quota: 10,
        prompt_tokens: 100,
        completion_tokens: 20,
        token_name: "x",
        channel_id: 1,
        group: "default",
      },
      {
        user_id: carol.id,
        username: "carol",
        type: 2,
        created_at: t - 2,
        model_name: "m2",
        quota: 10,
        prompt_tokens: 7,
        completion_tokens: 3,
        token_name: "x",
        channel_id: 1,
        group: "default",
      },
      {
        user_id: carol.id,
        username: "carol",
        type: 2,
        created_at: t - 600,
        model_name: "m2",
        quota: 10,
        prompt_tokens: 7,
        completion_tokens: 3,
        token_name: "x",
        channel_id: 1,
        group: "default",
      },
      {
        user_id: carol.id,
        username: "carol",
        type: 6,
        created_at: t - 1,
        model_name: "m2",
        quota: 0,
        prompt_tokens: 50,
        completion_tokens: 0,
        token_name: "x",
        channel_id: 1,
        group: "default",
      },
    ]);
    const r = await carol.client.get<Stat>("/api/log/self/stat");
    expect(r.data).toEqual({ quota: 30, rpm: 2, tpm: 130, searched_from: null });
    const m = await carol.client.get<Stat>("/api/log/self/stat?model_name=m2");
    expect(m.data).toEqual({ quota: 20, rpm: 1, tpm: 10, searched_from: null });
    const tok = await carol.client.get<Stat>("/api/log/self/stat?token_name=x");
    expect(tok.data).toEqual({ quota: 30, rpm: 2, tpm: 130, searched_from: null });
  });
});

describe("keeping the rollups equal to the logs", { timeout: 300_000 }, () => {
  it("npm run rollups:rebuild writes the same rows the job built", async () => {
    await refresh();
    const before = await rollupRows();
    expect(before).toEqual(await groupedLogs());
    // both tables emptied and garbled first: the rebuild must write every row itself
    await execDb(server, "DELETE FROM log_model_rollups WHERE hour < $1", [base + 3 * DAY]);
    await execDb(server, "UPDATE log_model_rollups SET quota = quota + 7");
    await execDb(server, "DELETE FROM log_rollups WHERE hour > $1", [base + 15 * DAY]);
    await execDb(server, "DELETE FROM log_user_day_rollups WHERE day < $1", [base + 4 * DAY]);
    await execDb(server, "UPDATE log_user_day_rollups SET count = count + 3");
    expect(await rollupRows()).not.toEqual(before);
    const r = await rebuild();
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/rollups rebuilt \((sqlite|postgresql)\): \d+ hourly rows/);
    expect(await rollupRows()).toEqual(before);
    await checkTopUsers();
  });

  it("the log clean-up removes the rollups of the hours it empties and sums the cut hour again", async () => {
    const target = base + 6 * DAY + 1500;
    const del = await root.del<number>(`/api/log/?target_timestamp=${target}`);
    expect(del.success, del.message).toBe(true);
    expect(del.data).toBeGreaterThan(0);
    expect(await rollupRows()).toEqual(await groupedLogs());
    const r = await root.get<Stat>(`/api/log/stat?start_timestamp=${base}`);
    expect(r.data.quota).toBe((await logSums("type = 2 AND created_at >= $1", [base])).q);
    await checkUser(alice, base, now);
    await checkTopUsers();
  });

  it("deleting an account renames its rows in the rollups as in the logs", async () => {
    const r = await root.post("/api/user/manage", { id: bob.id, action: "delete" });
    expect(r.success, r.message).toBe(true);
    expect(await rollupRows()).toEqual(await groupedLogs());
    const names = await queryDb<{ username: string }>(server, "SELECT DISTINCT username FROM log_rollups WHERE user_id = $1", [bob.id]);
    expect(names.map((n) => n.username)).toEqual([`deleted-user-${bob.id}`]);
    const dayNames = await queryDb<{ username: string }>(server, "SELECT DISTINCT username FROM log_user_day_rollups WHERE user_id = $1", [bob.id]);
    expect(dayNames.map((n) => n.username)).toEqual([`deleted-user-${bob.id}`]);
    await checkTopUsers();
    const { start, end } = hourRange(base, now);
    expect(await dataRows(root, `/api/data/?start_timestamp=${start}&end_timestamp=${end}&username=bob`)).toEqual([]);
  });
});
