// node bench/log-stats.mjs [--rows=10000000] [--db=sqlite,postgresql] [--runs=15] [--keep] [--out=FILE] [--pg-db=NAME]
//   [--calls=TEXT] [--no-rollups]
// The dashboard and usage-log stat calls at scale (docs/dashboard.md, bench/README.md): for each
// database, a fresh built server (dist/server.mjs) is set up through the API (root, one user
// "bench"), stopped, and its logs table filled with --rows rows spread over 90 days ending now
// (2,000 other users with a skewed share of the calls, 12 models, 5% error logs), written by
// SQL inside the database. Then `npm run rollups:rebuild` (timed), the server again, and each
// call is timed over loopback HTTP: 3 warm-ups, then --runs runs; p50, p95 and max in ms.
// Also: an incremental job run after 50,000 new logs (POST /api/data/refresh). PostgreSQL is
// reached at TEST_PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres); a
// database bench_log_stats is created and dropped. Results: bench/log-stats-results.json.
// --calls=TEXT times only the calls whose name holds TEXT; --no-rollups skips the rebuild and
// the incremental run (for the calls that read the logs themselves: the scan-window sums).
import { execFile } from "node:child_process";
import path from "node:path";
import { arg, clients, eachDatabase, fillLogs, freshGateway, load, printTable, SPAN, sql, startServer, time } from "./log-fill.mjs";

const ROWS = Number(arg("rows", "10000000"));
const DBS = arg("db", "sqlite,postgresql").split(",");
const RUNS = Number(arg("runs", "15"));
const KEEP = process.argv.includes("--keep");
const ONLY = arg("calls", "");
const ROLLUPS = !process.argv.includes("--no-rollups");

const run = (cmd, args, env) =>
  new Promise((resolve, reject) =>
    execFile(cmd, args, { env: { ...process.env, ...env }, maxBuffer: 1 << 24, timeout: 3_600_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(stdout + stderr)) : resolve(stdout + stderr),
    ),
  );

async function benchDb(kind) {
  const { url, env, benchId, cleanup } = await freshGateway(kind, arg("pg-db", "bench_log_stats"), "log-stats-");
  const result = { db: kind, rows: ROWS, calls: {}, load: {} };
  try {
    const start = Math.floor(Date.now() / 1000) - SPAN;
    console.log(`[${kind}] filling ${ROWS.toLocaleString()} logs`);
    let t = performance.now();
    await fillLogs(kind, url, { start, heavyId: benchId, rows: ROWS, from: 1, to: ROWS });
    result.fill_seconds = +((performance.now() - t) / 1000).toFixed(1);
    if (ROLLUPS) {
      console.log(`[${kind}] rollups:rebuild`);
      t = performance.now();
      const out = await run("npm", ["run", "--silent", "rollups:rebuild"], Object.assign({ NODE_ENV: "production" }, env));
      result.rebuild_seconds = +((performance.now() - t) / 1000).toFixed(1);
      result.rebuild_output = out.trim().split("\n").at(-1);
      console.log("  " + result.rebuild_output);
    }

    let s = await startServer(env);
    const { r, b } = await clients(s.url);
    const n = Math.floor(Date.now() / 1000);
    const day = 86_400;
    const range = (d) => `start_timestamp=${n - d * day}&end_timestamp=${n}`;
    const benchToken = `tok-${benchId % 5}`; // the token name of the user "bench" (log-fill.mjs)
    const calls = [
      ["GET /api/log/stat (1 day)", r, `/api/log/stat?type=0&${range(1)}`],
      ["GET /api/log/stat (7 days)", r, `/api/log/stat?type=0&${range(7)}`],
      ["GET /api/log/stat (30 days)", r, `/api/log/stat?type=0&${range(30)}`],
      ["GET /api/log/stat (no range, 90 days of logs)", r, `/api/log/stat`],
      ["GET /api/log/stat username (7 days)", r, `/api/log/stat?username=u1000&${range(7)}`],
      ["GET /api/log/stat model_name (7 days)", r, `/api/log/stat?model_name=model-3&${range(7)}`],
      // the filters of log_token_rollups and log_channel_rollups (docs/dashboard.md, "Usage-log stats")
      ["GET /api/log/self/stat token_name (30 days)", b, `/api/log/self/stat?token_name=${benchToken}&${range(30)}`],
      ["GET /api/log/self/stat group (30 days)", b, `/api/log/self/stat?group=vip&${range(30)}`],
      ["GET /api/log/stat username + token_name (30 days)", r, `/api/log/stat?username=bench&token_name=${benchToken}&${range(30)}`],
      ["GET /api/log/stat channel (100 days)", r, `/api/log/stat?channel=2&${range(100)}`],
      ["GET /api/log/stat channel + model_name (100 days)", r, `/api/log/stat?channel=2&model_name=model-3&${range(100)}`],
      ["GET /api/log/stat group (30 days)", r, `/api/log/stat?group=vip&${range(30)}`],
      // no rollup holds these: the newest SCAN_WINDOW rows of the range (searched_from)
      ["GET /api/log/stat token_name alone (1 day, scan window)", r, `/api/log/stat?token_name=tok-1&${range(1)}`],
      ["GET /api/log/stat token_name alone (30 days, scan window)", r, `/api/log/stat?token_name=tok-1&${range(30)}`],
      ["GET /api/log/stat type=6 (1 day, scan window)", r, `/api/log/stat?type=6&${range(1)}`],
      ["GET /api/log/stat type=6 (30 days, scan window)", r, `/api/log/stat?type=6&${range(30)}`],
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
    result.load.before_calls = load();
    for (const [name, c, p] of calls.filter(([name]) => name.includes(ONLY))) {
      result.calls[name] = await time(() => c.call("GET", p), RUNS);
      console.log(`  ${name}: p50 ${result.calls[name].p50} ms, p95 ${result.calls[name].p95} ms`);
    }
    result.load.after_calls = load();
    console.log(`  load average (1, 5, 15 min) before the calls ${result.load.before_calls.join(", ")}, after ${result.load.after_calls.join(", ")}`);
    await s.stop();
    if (!ROLLUPS) return result;
    // the incremental run: 50,000 more logs, then one job run
    const more = 50_000;
    await fillLogs(kind, url, { start, heavyId: benchId, rows: ROWS, from: ROWS + 1, to: ROWS + more });
    s = await startServer(env);
    const { r: r2 } = await clients(s.url);
    t = performance.now();
    const st = await r2.call("POST", "/api/data/refresh", {});
    result.incremental_50k_ms = +(performance.now() - t).toFixed(0);
    result.incremental_state = st;
    console.log(`  job run after 50,000 new logs: ${result.incremental_50k_ms} ms`);
    const [rows] = await sql(
      kind,
      url,
      'SELECT (SELECT COUNT(*) FROM "log_rollups") AS n, (SELECT COUNT(*) FROM "log_model_rollups") AS m, (SELECT COUNT(*) FROM "log_user_day_rollups") AS d, ' +
        '(SELECT COUNT(*) FROM "log_token_rollups") AS t, (SELECT COUNT(*) FROM "log_channel_rollups") AS c',
    );
    result.rollup_rows = Number(rows.n);
    result.model_rollup_rows = Number(rows.m);
    result.user_day_rollup_rows = Number(rows.d);
    result.token_rollup_rows = Number(rows.t);
    result.channel_rollup_rows = Number(rows.c);
    console.log(
      `  rollup rows: ${result.rollup_rows.toLocaleString()} per user, ${result.model_rollup_rows.toLocaleString()} per model, ${result.user_day_rollup_rows.toLocaleString()} per user and day, ` +
        `${result.token_rollup_rows.toLocaleString()} per user and token, ${result.channel_rollup_rows.toLocaleString()} per channel`,
    );
    await s.stop();
  } finally {
    await cleanup(KEEP);
  }
  return result;
}

const results = await eachDatabase(DBS, arg("out", path.join("bench", "log-stats-results.json")), { rows: ROWS, runs: RUNS }, benchDb);
printTable(results);
