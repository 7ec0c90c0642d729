// node bench/audit-scale.mjs [--rows=1000000] [--db=sqlite] [--runs=15] [--keep] [--out=FILE]
// The audit log's reads at scale (docs/audit.md, bench/README.md "Audit log at scale"): for each
// database, a fresh built server (dist/server.mjs, `npm run build` first) is set up through the
// API (root, one user "bench"), stopped, and its audit_logs table filled with --rows rows spread
// over 180 days ending now, written by SQL inside the database, then its indexes built (one sort
// each). The data: 2,000 users with a skewed share, "bench" with 10% of the rows; 70% sign-ins,
// 5% refused sign-ins by nobody (actor 0) on an account, the rest spread over the other actions.
// Then the server again, and each list call (GET /api/audit/ for the root, /api/audit/self for
// "bench", with the console's filters) is timed over loopback HTTP: 3 warm-ups, then --runs
// runs; p50, p95 and max in ms. Not part of the test suite. Results: bench/audit-scale-results.json.
import path from "node:path";
import { arg, clients, eachDatabase, freshGateway, load, printTable, sql, startServer, time } from "./log-fill.mjs";

const ROWS = Number(arg("rows", "1000000"));
const DBS = arg("db", "sqlite").split(",");
const RUNS = Number(arg("runs", "15"));
const KEEP = process.argv.includes("--keep");
const SPAN = 180 * 86_400;
const OTHER = [
  "password_change",
  "token_create",
  "token_delete",
  "session_revoke",
  "option_change",
  "channel_update",
  "quota_change",
  "twofa_enable",
  "logout",
  "register",
];

const INDEXES = [
  'CREATE INDEX "audit_logs_actor_id_id_idx" ON "audit_logs"("actor_id", "id")',
  'CREATE INDEX "audit_logs_user_id_id_idx" ON "audit_logs"("user_id", "id")',
  'CREATE INDEX "audit_logs_action_id_idx" ON "audit_logs"("action", "id")',
  'CREATE INDEX "audit_logs_target_type_target_id_id_idx" ON "audit_logs"("target_type", "target_id", "id")',
  'CREATE INDEX "audit_logs_created_at_idx" ON "audit_logs"("created_at")',
];
const DROP = INDEXES.map((s) => `DROP INDEX IF EXISTS ${s.split(" ")[2]}`);

// row g (1..rows): its user u (bench for one row in ten), its action by g mod 100, its time in order
function fillSql(kind, { start, benchId, rows }) {
  const series = kind === "sqlite" ? `WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < ${rows})` : "";
  const src = kind === "sqlite" ? "s" : `generate_series(1, ${rows}) AS s(g)`;
  const x = "((g * 7919 % 1000) / 1000.0)";
  const u = `(CASE WHEN g % 10 = 0 THEN ${benchId} ELSE 1000 + CAST(2000 * ${x} * ${x} * ${x} AS INTEGER) END)`;
  const other = `(CASE (g / 100) % ${OTHER.length} ${OTHER.map((a, i) => `WHEN ${i} THEN '${a}'`).join(" ")} END)`;
  const action = `(CASE WHEN g % 100 < 70 THEN 'login' WHEN g % 100 < 75 THEN 'login_failed' ELSE ${other} END)`;
  const cat = kind === "sqlite" ? (a, b) => `${a} || ${b}` : (a, b) => `${a} || ${b}::text`;
  return `${series}
    INSERT INTO "audit_logs" ("created_at", "actor_id", "actor_name", "user_id", "action", "target_type", "target_id", "detail", "ip", "user_agent", "request_id")
    SELECT ${start} + (g * ${SPAN}) / ${rows}, CASE WHEN a = 'login_failed' THEN 0 ELSE u END,
      CASE WHEN a = 'login_failed' THEN '' WHEN u = ${benchId} THEN 'bench' ELSE ${cat("'u'", "u")} END, u, a, 'user', ${kind === "sqlite" ? "CAST(u AS TEXT)" : "u::text"},
      CASE WHEN a = 'login_failed' THEN '{"method":"password","reason":"wrong_password"}' ELSE '{"method":"password"}' END,
      ${cat("'10.0.'", "(g % 250)")} || '.1', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36', ${cat("'req-'", "g")}
    FROM (SELECT g, ${u} AS u, ${action} AS a FROM ${src}) b`;
}

async function benchDb(kind) {
  const { url, env, benchId, cleanup } = await freshGateway(kind, "bench_audit_scale", "audit-scale-");
  const result = { db: kind, rows: ROWS, calls: {}, load: {} };
  try {
    const start = Math.floor(Date.now() / 1000) - SPAN;
    console.log(`[${kind}] filling ${ROWS.toLocaleString()} audit rows`);
    const t = performance.now();
    for (const d of DROP) await sql(kind, url, d);
    await sql(kind, url, fillSql(kind, { start, benchId, rows: ROWS }));
    for (const c of INDEXES) await sql(kind, url, c);
    await sql(kind, url, kind === "sqlite" ? "ANALYZE" : 'ANALYZE "audit_logs"');
    result.fill_seconds = +((performance.now() - t) / 1000).toFixed(1);
    console.log(`  filled in ${result.fill_seconds} s`);

    const s = await startServer(env);
    const { r, b } = await clients(s.url);
    const n = Math.floor(Date.now() / 1000);
    const day = 86_400;
    const page = "p=1&page_size=20";
    const calls = [
      ["root: no filter (first page)", r, `/api/audit/?${page}`],
      ["root: no filter, page 100", r, `/api/audit/?p=100&page_size=20`],
      ["root: action=login_failed", r, `/api/audit/?${page}&action=login_failed`],
      ["root: action=quota_change (rare)", r, `/api/audit/?${page}&action=quota_change`],
      ["root: actor=bench (by name)", r, `/api/audit/?${page}&actor=bench`],
      ["root: actor=1500 (by id)", r, `/api/audit/?${page}&actor=1500`],
      ["root: target=user:bench", r, `/api/audit/?${page}&target=user:${benchId}`],
      ["root: today (1 day)", r, `/api/audit/?${page}&start_timestamp=${n - day}&end_timestamp=${n}`],
      ["root: one day 90 days ago", r, `/api/audit/?${page}&start_timestamp=${n - 91 * day}&end_timestamp=${n - 90 * day}`],
      ["root: action=login_failed, 7 days", r, `/api/audit/?${page}&action=login_failed&start_timestamp=${n - 7 * day}&end_timestamp=${n}`],
      ["self (bench): no filter", b, `/api/audit/self?${page}`],
      ["self (bench): action=login_failed", b, `/api/audit/self?${page}&action=login_failed`],
      ["self (bench): 30 days", b, `/api/audit/self?${page}&start_timestamp=${n - 30 * day}&end_timestamp=${n}`],
    ];
    result.load.before = load();
    for (const [name, client, p] of calls) {
      const data = await client.call("GET", p);
      result.calls[name] = Object.assign(await time(() => client.call("GET", p), RUNS), { total: data.total, total_exact: data.total_exact });
      console.log(`  ${name}: p50 ${result.calls[name].p50} ms, p95 ${result.calls[name].p95} ms (total ${data.total}${data.total_exact ? "" : "+"})`);
    }
    result.load.after = load();
    await s.stop();
  } finally {
    await cleanup(KEEP);
  }
  return result;
}

const out = arg("out", path.join("bench", "audit-scale-results.json"));
const results = await eachDatabase(DBS, out, { rows: ROWS, runs: RUNS }, benchDb);
printTable(results, { title: "total", value: (c) => `${c.total}${c.total_exact ? "" : "+"}` });
