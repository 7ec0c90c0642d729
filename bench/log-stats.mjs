// node bench/log-stats.mjs [--rows=10000000] [--db=sqlite,postgresql] [--runs=15] [--keep] [--out=FILE]
// The dashboard and usage-log stat calls at scale (docs/dashboard.md, bench/README.md): for each
// database, a fresh built server (dist/server.mjs) is set up through the API (root, one user
// "bench"), stopped, and its logs table filled with --rows rows spread over 90 days ending now
// (2,000 other users with a skewed share of the calls, 12 models, 5% error logs), written by
// SQL inside the database. Then `npm run rollups:rebuild` (timed), the server again, and each
// call is timed over loopback HTTP: 3 warm-ups, then --runs runs; p50, p95 and max in ms.
// Also: an incremental job run after 50,000 new logs (POST /api/data/refresh). PostgreSQL is
// reached at TEST_PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres); a
// database bench_log_stats is created and dropped. Results: bench/log-stats-results.json.
import { spawn, execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import net from "node:net";
import Database from "better-sqlite3";
import pg from "pg";

// the line the gateway writes once it listens (lib/log's JSON: {...,"msg":"ready on http://..."})
const READY_LINE = '"msg":"ready on ';

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? dflt;
const ROWS = Number(arg("rows", "10000000"));
const DBS = arg("db", "sqlite,postgresql").split(",");
const RUNS = Number(arg("runs", "15"));
const KEEP = process.argv.includes("--keep");
const PG_ADMIN = process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const SPAN = 90 * 86_400;
const CHUNK = 1_000_000;

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function startServer(env) {
  const port = await freePort();
  let out = "";
  const child = spawn(process.execPath, ["dist/server.mjs"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOSTNAME: "127.0.0.1", CRITICAL_RATE_LIMIT: "100000", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error("server did not start:\n" + out)), 120_000);
    const iv = setInterval(() => {
      if (out.includes(READY_LINE)) {
        clearTimeout(t);
        clearInterval(iv);
        resolve();
      }
    }, 50);
    child.on("exit", (c) => reject(new Error(`server exited ${c}:\n${out}`)));
  });
  child.removeAllListeners("exit");
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}

class Client {
  constructor(base) {
    this.base = base;
    this.cookie = "";
    this.user = null;
  }
  async call(method, p, body) {
    const headers = { cookie: `NEXT_LOCALE=en${this.cookie ? "; " + this.cookie : ""}` };
    if (this.user) headers["new-api-user"] = String(this.user);
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(this.base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie?.() ?? []) if (c.startsWith("session=")) this.cookie = c.split(";")[0];
    const json = await res.json();
    if (!json.success) throw new Error(`${method} ${p}: ${json.message}`);
    return json.data;
  }
  async login(username, password) {
    const d = await this.call("POST", "/api/user/login", { username, password });
    this.user = d.id;
    return d;
  }
}

const run = (cmd, args, env) =>
  new Promise((resolve, reject) =>
    execFile(cmd, args, { env: { ...process.env, ...env }, maxBuffer: 1 << 24, timeout: 3_600_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(stdout + stderr)) : resolve(stdout + stderr),
    ),
  );

// The row numbers g of `src` with three random numbers r1, r2 (0..999999) and r3 (0..999); rnd(n)
// is the database's expression for one in 0..n-1.
const randomsSql = (rnd, src) => `SELECT g, ${rnd(1000000)} AS r1, ${rnd(1000000)} AS r2, ${rnd(1000)} AS r3 FROM ${src}`;

// The generated columns, as SQL over the relation RND (g, r1, r2, r3): see the header for the
// distribution. RND must hold its random numbers fixed: SQLite evaluates random() again at
// every reference to a column of a flattened subquery (user_id and username would then come
// from different draws), so the SQLite fill reads them from a MATERIALIZED CTE.
function rowSql(start, heavyId) {
  const x = "(r1 / 1000000.0)";
  const u = `(CASE WHEN r3 < 100 THEN ${heavyId} ELSE 1000 + CAST(2000 * ${x} * ${x} * ${x} * ${x} AS INTEGER) END)`;
  return `SELECT u AS user_id, ${start} + (g * ${SPAN}) / ${ROWS} AS created_at, CASE WHEN r2 % 100 < 95 THEN 2 ELSE 6 END AS type,
      CASE WHEN u = ${heavyId} THEN 'bench' ELSE 'u' || u END AS username,
      'tok-' || (u % 5) AS token_name,
      'model-' || (CASE WHEN r2 % 10 < 7 THEN u % 12 ELSE (u * 7 + r2) % 12 END) AS model_name,
      100 + r2 % 20000 AS quota, r1 % 3000 AS prompt_tokens, r2 % 800 AS completion_tokens,
      1 + r3 % 4 AS channel_id, CASE WHEN r3 % 10 = 0 THEN 'vip' ELSE 'default' END AS grp
    FROM (SELECT g, r1, r2, r3, ${u} AS u FROM RND) b`;
}
const COLS = '"user_id", "created_at", "type", "username", "token_name", "model_name", "quota", "prompt_tokens", "completion_tokens", "channel_id", "group"';
const SEL = "user_id, created_at, type, username, token_name, model_name, quota, prompt_tokens, completion_tokens, channel_id, grp";

// The first fill (from = 1) drops the logs' secondary indexes, writes the rows, then builds the
// indexes again from their own definitions (as the migrations wrote them): one sort per index
// instead of millions of random B-tree inserts. Later fills (the incremental run) keep them.
async function fillSqlite(file, start, heavyId, from, to) {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -1000000"); // 1 GB for the fill and the index sorts
  db.pragma("temp_store = MEMORY");
  const indexes = from === 1 ? db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'logs' AND sql IS NOT NULL").all() : [];
  for (const i of indexes) db.exec(`DROP INDEX "${i.name}"`);
  const sql = rowSql(start, heavyId).replace("RND", "rnd");
  const randoms = randomsSql((n) => `abs(random()) % ${n}`, "s");
  for (let a = from; a <= to; a += CHUNK) {
    const b = Math.min(to, a + CHUNK - 1);
    db.prepare(
      `INSERT INTO "logs" (${COLS}) WITH RECURSIVE s(g) AS (SELECT ${a} UNION ALL SELECT g + 1 FROM s WHERE g < ${b}), rnd AS MATERIALIZED (${randoms}) SELECT ${SEL} FROM (${sql})`,
    ).run();
    process.stdout.write(`\r  sqlite: ${b.toLocaleString()} rows`);
  }
  process.stdout.write("\n");
  const t = performance.now();
  for (const i of indexes) db.exec(i.sql);
  if (indexes.length) console.log(`  sqlite: ${indexes.length} indexes built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

// PostgreSQL: one connection fills the chunks in order (ids follow created_at, as the relay
// writes them), then the indexes are built two at a time, then VACUUM ANALYZE.
async function fillPostgres(url, start, heavyId, from, to) {
  const open = async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query("SET synchronous_commit = off");
    await c.query("SET maintenance_work_mem = '1GB'");
    return c;
  };
  const conns = [await open(), await open()];
  const indexes =
    from === 1
      ? (await conns[0].query("SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = 'logs' AND indexname NOT LIKE '%_pkey'")).rows
      : [];
  for (const i of indexes) await conns[0].query(`DROP INDEX "${i.name}"`);
  const sql = rowSql(start, heavyId);
  const pgRnd = (n) => `floor(random() * ${n})::bigint`;
  for (let a = from; a <= to; a += CHUNK) {
    const b = Math.min(to, a + CHUNK - 1);
    await conns[0].query(
      `INSERT INTO "logs" (${COLS}) SELECT ${SEL} FROM (${sql.replace("RND", `(${randomsSql(pgRnd, `generate_series(${a}::bigint, ${b}::bigint) AS t(g)`)}) a`)}) z`,
    );
    process.stdout.write(`\r  postgresql: ${b.toLocaleString()} rows`);
  }
  process.stdout.write("\n");
  const t = performance.now();
  const queue = [...indexes];
  await Promise.all(
    conns.map(async (c) => {
      // a partitioned table's index is defined "ON ONLY logs" (the parent alone): built again
      // without ONLY, so that it is made on every partition
      for (let i = queue.shift(); i; i = queue.shift()) await c.query(i.sql.replace(" ON ONLY ", " ON "));
    }),
  );
  if (indexes.length) console.log(`  postgresql: ${indexes.length} indexes built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await conns[0].query('VACUUM ANALYZE "logs"');
  await Promise.all(conns.map((c) => c.end()));
}

async function time(fn) {
  for (let i = 0; i < 3; i++) await fn();
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  return { p50: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), max: +ms.at(-1).toFixed(1) };
}

async function benchDb(kind) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "log-stats-"));
  let url = `file:${path.join(dataDir, "gateway.db")}`;
  let admin;
  if (kind === "postgresql") {
    admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query("DROP DATABASE IF EXISTS bench_log_stats WITH (FORCE)");
    await admin.query("CREATE DATABASE bench_log_stats");
    url = PG_ADMIN.replace(/\/[^/]*$/, "/bench_log_stats");
  }
  const env = { DATABASE_URL: url, DATA_DIR: dataDir };
  const result = { db: kind, rows: ROWS, calls: {}, load: {} };
  try {
    console.log(`[${kind}] setup`);
    let s = await startServer(env);
    const root = new Client(s.url);
    await root.call("POST", "/api/setup", {
      username: "root",
      password: "root-pass-123",
      confirmPassword: "root-pass-123",
      SelfUseModeEnabled: false,
      DemoSiteEnabled: false,
    });
    await root.login("root", "root-pass-123");
    const bench = await root.call("POST", "/api/user/", { username: "bench", password: "bench-pass-1", role: 1 });
    await s.stop();
    const now = Math.floor(Date.now() / 1000);
    const start = now - SPAN;
    console.log(`[${kind}] filling ${ROWS.toLocaleString()} logs`);
    let t = performance.now();
    if (kind === "sqlite") await fillSqlite(url.replace(/^file:/, ""), start, bench.id, 1, ROWS);
    else await fillPostgres(url, start, bench.id, 1, ROWS);
    result.fill_seconds = +((performance.now() - t) / 1000).toFixed(1);
    console.log(`[${kind}] rollups:rebuild`);
    t = performance.now();
    const out = await run("npm", ["run", "--silent", "rollups:rebuild"], Object.assign({ NODE_ENV: "production" }, env));
    result.rebuild_seconds = +((performance.now() - t) / 1000).toFixed(1);
    result.rebuild_output = out.trim().split("\n").at(-1);
    console.log("  " + result.rebuild_output);

    s = await startServer(env);
    const r = new Client(s.url);
    await r.login("root", "root-pass-123");
    const b = new Client(s.url);
    await b.login("bench", "bench-pass-1");
    const n = Math.floor(Date.now() / 1000);
    const day = 86_400;
    const range = (d) => `start_timestamp=${n - d * day}&end_timestamp=${n}`;
    const calls = [
      ["GET /api/log/stat (1 day)", r, `/api/log/stat?type=0&${range(1)}`],
      ["GET /api/log/stat (7 days)", r, `/api/log/stat?type=0&${range(7)}`],
      ["GET /api/log/stat (30 days)", r, `/api/log/stat?type=0&${range(30)}`],
      ["GET /api/log/stat (no range, 90 days of logs)", r, `/api/log/stat`],
      ["GET /api/log/stat username (7 days)", r, `/api/log/stat?username=u1000&${range(7)}`],
      ["GET /api/log/stat model_name (7 days)", r, `/api/log/stat?model_name=model-3&${range(7)}`],
      ["GET /api/log/stat token_name, from the logs (1 day)", r, `/api/log/stat?token_name=tok-1&${range(1)}`],
      ["GET /api/log/stat type=6, from the logs (1 day)", r, `/api/log/stat?type=6&${range(1)}`],
      ["GET /api/log/self/stat (1 day)", b, `/api/log/self/stat?${range(1)}`],
      ["GET /api/log/self/stat (30 days)", b, `/api/log/self/stat?${range(30)}`],
      ["GET /api/data/self (7 days)", b, `/api/data/self?${range(7)}`],
      ["GET /api/data/self (30 days)", b, `/api/data/self?${range(30)}`],
      ["GET /api/data/self (90 days)", b, `/api/data/self?${range(90)}`],
      ["GET /api/data/ all users (7 days)", r, `/api/data/?${range(7)}`],
      ["GET /api/data/ all users (30 days)", r, `/api/data/?${range(30)}`],
      ["GET /api/data/ all users (90 days)", r, `/api/data/?${range(90)}`],
      ["GET /api/data/ username (30 days)", r, `/api/data/?username=u1000&${range(30)}`],
      // as the page asks in its day and week views: the rows summed per day of the browser's zone
      ["GET /api/data/self per day (30 days)", b, `/api/data/self?${range(30)}&tz=Asia%2FShanghai`],
      ["GET /api/data/self per day (90 days)", b, `/api/data/self?${range(90)}&tz=Asia%2FShanghai`],
      ["GET /api/data/ all users per day (90 days)", r, `/api/data/?${range(90)}&tz=Asia%2FShanghai`],
      ["GET /api/data/summary all users (30 days)", r, `/api/data/summary?${range(30)}`],
    ];
    result.load.before_calls = loadavg().map((x) => +x.toFixed(2));
    for (const [name, c, p] of calls) {
      result.calls[name] = await time(() => c.call("GET", p));
      console.log(`  ${name}: p50 ${result.calls[name].p50} ms, p95 ${result.calls[name].p95} ms`);
    }
    result.load.after_calls = loadavg().map((x) => +x.toFixed(2));
    console.log(`  load average (1, 5, 15 min) before the calls ${result.load.before_calls.join(", ")}, after ${result.load.after_calls.join(", ")}`);
    await s.stop();
    // the incremental run: 50,000 more logs, then one job run
    const more = 50_000;
    if (kind === "sqlite") await fillSqlite(url.replace(/^file:/, ""), start, bench.id, ROWS + 1, ROWS + more);
    else await fillPostgres(url, start, bench.id, ROWS + 1, ROWS + more);
    s = await startServer(env);
    const r2 = new Client(s.url);
    await r2.login("root", "root-pass-123");
    t = performance.now();
    const st = await r2.call("POST", "/api/data/refresh", {});
    result.incremental_50k_ms = +(performance.now() - t).toFixed(0);
    result.incremental_state = st;
    console.log(`  job run after 50,000 new logs: ${result.incremental_50k_ms} ms`);
    const rows = await (async () => {
      if (kind === "sqlite") {
        const d = new Database(url.replace(/^file:/, ""), { readonly: true });
        const v = d
          .prepare(
            'SELECT (SELECT COUNT(*) FROM "log_rollups") AS n, (SELECT COUNT(*) FROM "log_model_rollups") AS m, (SELECT COUNT(*) FROM "log_user_day_rollups") AS d',
          )
          .get();
        d.close();
        return v;
      }
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const v = (
        await c.query(
          'SELECT (SELECT COUNT(*) FROM "log_rollups") AS n, (SELECT COUNT(*) FROM "log_model_rollups") AS m, (SELECT COUNT(*) FROM "log_user_day_rollups") AS d',
        )
      ).rows[0];
      await c.end();
      return v;
    })();
    result.rollup_rows = Number(rows.n);
    result.model_rollup_rows = Number(rows.m);
    result.user_day_rollup_rows = Number(rows.d);
    console.log(
      `  rollup rows: ${result.rollup_rows.toLocaleString()} per user, ${result.model_rollup_rows.toLocaleString()} per model, ${result.user_day_rollup_rows.toLocaleString()} per user and day`,
    );
    await s.stop();
  } finally {
    if (!KEEP) {
      if (admin) await admin.query("DROP DATABASE IF EXISTS bench_log_stats WITH (FORCE)").catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    } else console.log(`kept: ${url}`);
    await admin?.end();
  }
  return result;
}

const results = [];
const file = arg("out", path.join("bench", "log-stats-results.json"));
for (const kind of DBS) {
  results.push(await benchDb(kind));
  // written after each database, so that a run stopped midway keeps what it measured
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), rows: ROWS, runs: RUNS, results }, null, 2) + "\n");
  console.log(`\nwrote ${file}`);
}
const names = Object.keys(results[0].calls);
console.log(`\n| call | ${results.map((r) => `${r.db} p50 / p95 (ms)`).join(" | ")} |`);
console.log(`|---|${results.map(() => "---:").join("|")}|`);
for (const n of names) console.log(`| ${n} | ${results.map((r) => `${r.calls[n].p50} / ${r.calls[n].p95}`).join(" | ")} |`);
