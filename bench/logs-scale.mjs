// node bench/logs-scale.mjs [--rows=10000000] [--db=sqlite,postgresql] [--runs=15] [--keep] [--out=FILE]
// The console's usage-log lists at scale (docs/operations.md "Logs at scale", bench/README.md):
// for each database, a fresh built server (dist/server.mjs) is set up through the API (root,
// one user "bench"), stopped, and its logs table filled with --rows rows spread over 90 days
// ending now, written by SQL inside the database (the same data as bench/log-stats.mjs: 2,000
// users with a skewed share plus "bench" with 10%, 12 models, 5% error logs; on PostgreSQL
// the month partitions of the span are made first, as the log maintenance job would have).
// Then the server again, and each list call (GET /api/log/ for the admin, /api/log/self for
// "bench", with the console's filters) is timed over loopback HTTP: 3 warm-ups, then --runs
// runs; p50, p95 and max in ms, with the total each answered (exact or bounded). PostgreSQL
// is reached at TEST_PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres); a
// database bench_logs_scale is created and dropped. Results: bench/logs-scale-results.json.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import net from "node:net";
import Database from "better-sqlite3";
import pg from "pg";

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
      if (out.includes('"msg":"ready on ')) {
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

// PostgreSQL: the month partitions of the span (the migration made this month's and two
// ahead; the log maintenance job makes each next one as time passes).
async function monthPartitions(url, start) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const d = new Date(start * 1000);
    for (
      let m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
      m.getTime() <= Date.now();
      m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1))
    ) {
      const name = `logs_p${m.getUTCFullYear()}${String(m.getUTCMonth() + 1).padStart(2, "0")}`;
      const to = Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1) / 1000;
      await c.query(`CREATE TABLE IF NOT EXISTS "${name}" PARTITION OF "logs" FOR VALUES FROM (${m.getTime() / 1000}) TO (${to})`);
    }
  } finally {
    await c.end();
  }
}

async function benchDb(kind) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "logs-scale-"));
  let url = `file:${path.join(dataDir, "gateway.db")}`;
  let admin;
  if (kind === "postgresql") {
    admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query("DROP DATABASE IF EXISTS bench_logs_scale WITH (FORCE)");
    await admin.query("CREATE DATABASE bench_logs_scale");
    url = PG_ADMIN.replace(/\/[^/]*$/, "/bench_logs_scale");
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
    const t = performance.now();
    if (kind === "sqlite") await fillSqlite(url.replace(/^file:/, ""), start, bench.id, 1, ROWS);
    else {
      await monthPartitions(url, start);
      await fillPostgres(url, start, bench.id, 1, ROWS);
    }
    result.fill_seconds = +((performance.now() - t) / 1000).toFixed(1);
    console.log(`  filled in ${result.fill_seconds} s`);

    s = await startServer(env);
    const r = new Client(s.url);
    await r.login("root", "root-pass-123");
    const b = new Client(s.url);
    await b.login("bench", "bench-pass-1");
    const n = Math.floor(Date.now() / 1000);
    const day = 86_400;
    // the console's default range is today (components/logs/log-filters.tsx); also longer ones
    const range = (d) => `start_timestamp=${n - d * day}&end_timestamp=${n}`;
    const page = "p=1&page_size=10";
    const calls = [
      ["admin: no filter", r, `/api/log/?${page}`],
      ["admin: no filter, page 100", r, `/api/log/?p=100&page_size=10`],
      ["admin: today (1 day)", r, `/api/log/?${page}&${range(1)}`],
      ["admin: 7 days", r, `/api/log/?${page}&${range(7)}`],
      ["admin: 30 days", r, `/api/log/?${page}&${range(30)}`],
      ["admin: username (heavy user), 1 day", r, `/api/log/?${page}&username=bench&${range(1)}`],
      ["admin: username (light user), no range", r, `/api/log/?${page}&username=u2900`],
      ["admin: username (light user), 7 days", r, `/api/log/?${page}&username=u1900&${range(7)}`],
      ["admin: model_name, 1 day", r, `/api/log/?${page}&model_name=model-3&${range(1)}`],
      ["admin: model_name, no range", r, `/api/log/?${page}&model_name=model-3`],
      ["admin: token_name, 1 day", r, `/api/log/?${page}&token_name=tok-1&${range(1)}`],
      ["admin: token_name, no range", r, `/api/log/?${page}&token_name=tok-1`],
      ["admin: type=6 (errors), 1 day", r, `/api/log/?${page}&type=6&${range(1)}`],
      ["admin: type=6 (errors), no range", r, `/api/log/?${page}&type=6`],
      ["admin: channel, 1 day", r, `/api/log/?${page}&channel=2&${range(1)}`],
      ["admin: group, 1 day", r, `/api/log/?${page}&group=vip&${range(1)}`],
      ["admin: username + model + 7 days", r, `/api/log/?${page}&username=bench&model_name=model-5&${range(7)}`],
      ["admin: no match (model), 1 day", r, `/api/log/?${page}&model_name=no-such-model&${range(1)}`],
      ["self: no filter", b, `/api/log/self?${page}`],
      ["self: today (1 day)", b, `/api/log/self?${page}&${range(1)}`],
      ["self: 30 days", b, `/api/log/self?${page}&${range(30)}`],
      ["self: model_name, 1 day", b, `/api/log/self?${page}&model_name=model-3&${range(1)}`],
      ["self: token_name, 7 days", b, `/api/log/self?${page}&token_name=tok-1&${range(7)}`],
      ["self: type=6, no range", b, `/api/log/self?${page}&type=6`],
    ];
    result.load.before_calls = loadavg().map((x) => +x.toFixed(2));
    for (const [name, c, p] of calls) {
      let last;
      result.calls[name] = await time(async () => (last = await c.call("GET", p)));
      Object.assign(result.calls[name], { total: last.total, exact: last.total_exact });
      const x = result.calls[name];
      console.log(`  ${name}: p50 ${x.p50} ms, p95 ${x.p95} ms (total ${x.total}${x.exact ? "" : "+"})`);
    }
    result.load.after_calls = loadavg().map((x) => +x.toFixed(2));
    console.log(`  load average (1, 5, 15 min) before the calls ${result.load.before_calls.join(", ")}, after ${result.load.after_calls.join(", ")}`);
    await s.stop();
  } finally {
    if (!KEEP) {
      if (admin) await admin.query("DROP DATABASE IF EXISTS bench_logs_scale WITH (FORCE)").catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    } else console.log(`kept: ${url}`);
    await admin?.end();
  }
  return result;
}

const results = [];
const file = arg("out", path.join("bench", "logs-scale-results.json"));
for (const kind of DBS) {
  results.push(await benchDb(kind));
  // written after each database, so that a run stopped midway keeps what it measured
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), rows: ROWS, runs: RUNS, results }, null, 2) + "\n");
  console.log(`\nwrote ${file}`);
}
const names = Object.keys(results[0].calls);
console.log(`\n| call | ${results.map((r) => `${r.db} p50 / p95 (ms)`).join(" | ")} | total |`);
console.log(`|---|${results.map(() => "---:").join("|")}|---:|`);
for (const n of names) {
  const c = results[0].calls[n];
  console.log(`| ${n} | ${results.map((r) => `${r.calls[n].p50} / ${r.calls[n].p95}`).join(" | ")} | ${c.total}${c.exact ? "" : "+"} |`);
}
