// What bench/log-stats.mjs and bench/logs-scale.mjs share: a built server (dist/server.mjs) on
// a fresh database set up through the API (root, one user "bench"), its logs table filled by
// SQL inside the database, and the timing of a call. The data: `rows` logs spread over 90 days
// ending now, 2,000 users with a skewed share of the calls plus "bench" with 10 %, 12 models,
// 5 % error logs, 5 token names, 4 channels, 10 % in the group "vip".
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import net from "node:net";
import Database from "better-sqlite3";
import pg from "pg";

export const SPAN = 90 * 86_400;
const CHUNK = 1_000_000;
// the line the gateway writes once it listens (lib/logger's JSON: {...,"msg":"ready on http://..."})
const READY_LINE = '"msg":"ready on ';
const PG_ADMIN = process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? dflt;

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

export async function startServer(env) {
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

export class Client {
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

/** Logs in as the root ("r") and as "bench" ("b") on a running server. */
export async function clients(url) {
  const r = new Client(url);
  await r.login("root", "root-pass-123");
  const b = new Client(url);
  await b.login("bench", "bench-pass-1");
  return { r, b };
}

/**
 * A fresh database of `kind` ("sqlite" or "postgresql", then named `pgName`), set up through
 * the API of a server that is then stopped. `cleanup(keep)` drops it (or says where it is).
 */
export async function freshGateway(kind, pgName, prefix) {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  let url = `file:${path.join(dataDir, "gateway.db")}`;
  let admin;
  if (kind === "postgresql") {
    admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${pgName}`);
    url = PG_ADMIN.replace(/\/[^/]*$/, `/${pgName}`);
  }
  const env = { DATABASE_URL: url, DATA_DIR: dataDir };
  const cleanup = async (keep) => {
    if (!keep) {
      if (admin) await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`).catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    } else console.log(`kept: ${url}`);
    await admin?.end();
  };
  try {
    console.log(`[${kind}] setup`);
    const s = await startServer(env);
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
    return { url, env, benchId: bench.id, cleanup };
  } catch (err) {
    await cleanup(false);
    throw err;
  }
}

// The row numbers g of `src` with three random numbers r1, r2 (0..999999) and r3 (0..999); rnd(n)
// is the database's expression for one in 0..n-1.
const randomsSql = (rnd, src) => `SELECT g, ${rnd(1000000)} AS r1, ${rnd(1000000)} AS r2, ${rnd(1000)} AS r3 FROM ${src}`;

// The generated columns, as SQL over the relation RND (g, r1, r2, r3): see the header for the
// distribution; row g of `rows` is at start + g/rows of the span. RND must hold its random
// numbers fixed: SQLite evaluates random() again at every reference to a column of a flattened
// subquery (user_id and username would then come from different draws), so the SQLite fill
// reads them from a MATERIALIZED CTE.
function rowSql({ start, heavyId, rows }) {
  const x = "(r1 / 1000000.0)";
  const u = `(CASE WHEN r3 < 100 THEN ${heavyId} ELSE 1000 + CAST(2000 * ${x} * ${x} * ${x} * ${x} AS INTEGER) END)`;
  return `SELECT u AS user_id, ${start} + (g * ${SPAN}) / ${rows} AS created_at, CASE WHEN r2 % 100 < 95 THEN 2 ELSE 6 END AS type,
      CASE WHEN u = ${heavyId} THEN 'bench' ELSE 'u' || u END AS username,
      'tok-' || (u % 5) AS token_name,
      'model-' || (CASE WHEN r2 % 10 < 7 THEN u % 12 ELSE (u * 7 + r2) % 12 END) AS model_name,
      100 + r2 % 20000 AS quota, r1 % 3000 AS prompt_tokens, r2 % 800 AS completion_tokens,
      1 + r3 % 4 AS channel_id, CASE WHEN r3 % 10 = 0 THEN 'vip' ELSE 'default' END AS grp
    FROM (SELECT g, r1, r2, r3, ${u} AS u FROM RND) b`;
}
const COLS = '"user_id", "created_at", "type", "username", "token_name", "model_name", "quota", "prompt_tokens", "completion_tokens", "channel_id", "group"';
const SEL = "user_id, created_at, type, username, token_name, model_name, quota, prompt_tokens, completion_tokens, channel_id, grp";

/**
 * Rows from..to (1-based) of the data of `rows` logs starting at `start`, into the gateway's
 * logs table. The first fill (from = 1) drops the logs' secondary indexes, writes the rows,
 * then builds the indexes again from their own definitions (as the migrations wrote them): one
 * sort per index instead of millions of random B-tree inserts. Later fills keep them. On
 * PostgreSQL the month partitions of the span are made first, as the log maintenance job
 * would have (lib/logs/partitions.ts).
 */
export async function fillLogs(kind, url, o) {
  if (kind === "sqlite") return fillSqlite(url.replace(/^file:/, ""), o);
  await monthPartitions(url, o.start);
  return fillPostgres(url, o);
}

async function fillSqlite(file, o) {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -1000000"); // 1 GB for the fill and the index sorts
  db.pragma("temp_store = MEMORY");
  const indexes = o.from === 1 ? db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'logs' AND sql IS NOT NULL").all() : [];
  for (const i of indexes) db.exec(`DROP INDEX "${i.name}"`);
  const sql = rowSql(o).replace("RND", "rnd");
  const randoms = randomsSql((n) => `abs(random()) % ${n}`, "s");
  for (let a = o.from; a <= o.to; a += CHUNK) {
    const b = Math.min(o.to, a + CHUNK - 1);
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
async function fillPostgres(url, o) {
  const open = async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query("SET synchronous_commit = off");
    await c.query("SET maintenance_work_mem = '1GB'");
    return c;
  };
  const conns = [await open(), await open()];
  const indexes =
    o.from === 1
      ? (await conns[0].query("SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = 'logs' AND indexname NOT LIKE '%_pkey'")).rows
      : [];
  for (const i of indexes) await conns[0].query(`DROP INDEX "${i.name}"`);
  const sql = rowSql(o);
  const pgRnd = (n) => `floor(random() * ${n})::bigint`;
  for (let a = o.from; a <= o.to; a += CHUNK) {
    const b = Math.min(o.to, a + CHUNK - 1);
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

// The month partitions from `start` to now (the migration made this month's and two ahead).
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

/** One statement on the gateway's database, its rows back (SQLite: "?" placeholders unused). */
export async function sql(kind, url, text) {
  if (kind === "sqlite") {
    const db = new Database(url.replace(/^file:/, ""));
    try {
      const st = db.prepare(text);
      return st.reader ? st.all() : (st.run(), []);
    } finally {
      db.close();
    }
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

/** `fn` 3 times to warm up, then `runs` times timed: p50, p95 and max in ms. */
export async function time(fn, runs) {
  for (let i = 0; i < 3; i++) await fn();
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return summary(ms);
}

/** p50, p95 and max in ms of timings taken elsewhere. */
export function summary(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), max: +sorted.at(-1).toFixed(1) };
}

/** The load average (1, 5, 15 min) now, which the figures were measured beside. */
export const load = () => loadavg().map((x) => +x.toFixed(2));

/**
 * benchDb(kind) for each database, writing `file` after each (so that a run stopped midway
 * keeps what it measured), then the p50 / p95 table of every call. Answers the results.
 */
export async function eachDatabase(dbs, file, meta, benchDb) {
  const results = [];
  for (const kind of dbs) {
    results.push(await benchDb(kind));
    writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), ...meta, results }, null, 2) + "\n");
    console.log(`\nwrote ${file}`);
  }
  return results;
}

/** The markdown table of every call's p50 / p95 per database (`extra` adds a column from the first result). */
export function printTable(results, extra) {
  const names = Object.keys(results[0].calls);
  console.log(`\n| call | ${results.map((r) => `${r.db} p50 / p95 (ms)`).join(" | ")} |${extra ? ` ${extra.title} |` : ""}`);
  console.log(`|---|${results.map(() => "---:").join("|")}|${extra ? "---:|" : ""}`);
  for (const n of names)
    console.log(
      `| ${n} | ${results.map((r) => `${r.calls[n].p50} / ${r.calls[n].p95}`).join(" | ")} |${extra ? ` ${extra.value(results[0].calls[n])} |` : ""}`,
    );
}
