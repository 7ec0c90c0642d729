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
import path from "node:path";
import { arg, clients, eachDatabase, fillLogs, freshGateway, load, printTable, SPAN, sql, startServer, time } from "./log-fill.mjs";

const ROWS = Number(arg("rows", "10000000"));
const DBS = arg("db", "sqlite,postgresql").split(",");
const RUNS = Number(arg("runs", "15"));
const KEEP = process.argv.includes("--keep");

// the calls timed a second time while the rollup job catches up
const CATCH_UP = ["admin: no filter", "admin: today (1 day)", "self: no filter", "self: today (1 day)"];

// The rollup job's watermark (docs/dashboard.md): "MAX" moves it to the last log, 0 back to the
// start; last_run_at 0 makes the job's next tick (every 30 s) run.
const setRollupWatermark = (kind, url, to) =>
  sql(
    kind,
    url,
    `UPDATE "log_rollup_state" SET "last_log_id" = ${to === "MAX" ? '(SELECT MAX("id") FROM "logs")' : to}, "last_run_at" = ${to === "MAX" ? Math.floor(Date.now() / 1000) : 0} WHERE "id" = 1`,
  );
const rollupWatermark = async (kind, url) => Number((await sql(kind, url, 'SELECT "last_log_id" AS w FROM "log_rollup_state" WHERE "id" = 1'))[0].w);

async function benchDb(kind) {
  const { url, env, benchId, cleanup } = await freshGateway(kind, "bench_logs_scale", "logs-scale-");
  const result = { db: kind, rows: ROWS, calls: {}, load: {} };
  try {
    const start = Math.floor(Date.now() / 1000) - SPAN;
    console.log(`[${kind}] filling ${ROWS.toLocaleString()} logs`);
    const t = performance.now();
    await fillLogs(kind, url, { start, heavyId: benchId, rows: ROWS, from: 1, to: ROWS });
    result.fill_seconds = +((performance.now() - t) / 1000).toFixed(1);
    console.log(`  filled in ${result.fill_seconds} s`);
    // The lists do not read the dashboard's rollups: the rollup job's watermark is moved past
    // the filled rows, as on a node whose job keeps up, so that the timings below are the
    // lists' own. The job catching up is timed after them ("while the rollup job catches up").
    await setRollupWatermark(kind, url, "MAX");

    const s = await startServer(env);
    const { r, b } = await clients(s.url);
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
      // filters no index serves, without a range or over all 90 days: bounded by SCAN_WINDOW
      ["admin: no match (model), no range", r, `/api/log/?${page}&model_name=no-such-model`],
      ["admin: no match (model), 90 days", r, `/api/log/?${page}&model_name=no-such-model&${range(90)}`],
      ["admin: group, no range", r, `/api/log/?${page}&group=vip`],
      ["admin: no match (group), no range", r, `/api/log/?${page}&group=no-such-group`],
      ["self: no filter", b, `/api/log/self?${page}`],
      ["self: today (1 day)", b, `/api/log/self?${page}&${range(1)}`],
      ["self: 30 days", b, `/api/log/self?${page}&${range(30)}`],
      ["self: model_name, 1 day", b, `/api/log/self?${page}&model_name=model-3&${range(1)}`],
      ["self: token_name, 7 days", b, `/api/log/self?${page}&token_name=tok-1&${range(7)}`],
      ["self: type=6, no range", b, `/api/log/self?${page}&type=6`],
      ["self: token_name, no range", b, `/api/log/self?${page}&token_name=tok-1`],
      ["self: no match (token), no range", b, `/api/log/self?${page}&token_name=no-such-token`],
    ];
    result.load.before_calls = load();
    for (const [name, c, p] of calls) {
      let last;
      result.calls[name] = await time(async () => (last = await c.call("GET", p)), RUNS);
      Object.assign(result.calls[name], { total: last.total, exact: last.total_exact, searched_from: last.searched_from ?? null });
      const x = result.calls[name];
      const window = x.searched_from === null ? "" : `, searched back to ${new Date(x.searched_from * 1000).toISOString()}`;
      console.log(`  ${name}: p50 ${x.p50} ms, p95 ${x.p95} ms (total ${x.total}${x.exact ? "" : "+"}${window})`);
    }
    // The same node while its rollup job sums the 10 million logs again from the start (a
    // node restarted after a long outage of its job): on SQLite the job's steps run on the
    // event loop (docs/dashboard.md, "Keeping the rollups exact"). The rollups of this
    // throwaway database are summed twice from here on; nothing reads them.
    await setRollupWatermark(kind, url, 0);
    for (let i = 0; i < 600 && (await rollupWatermark(kind, url)) === 0; i++) await new Promise((ok) => setTimeout(ok, 100));
    for (const [name, c, p] of calls.filter(([n]) => CATCH_UP.includes(n))) {
      let last;
      const key = `${name}, while the rollup job catches up`;
      result.calls[key] = await time(async () => (last = await c.call("GET", p)), RUNS);
      Object.assign(result.calls[key], { total: last.total, exact: last.total_exact });
      console.log(`  ${key}: p50 ${result.calls[key].p50} ms, p95 ${result.calls[key].p95} ms`);
    }
    result.rollup_ids_during_catch_up = await rollupWatermark(kind, url);
    result.load.after_calls = load();
    console.log(`  load average (1, 5, 15 min) before the calls ${result.load.before_calls.join(", ")}, after ${result.load.after_calls.join(", ")}`);
    await s.stop();
  } finally {
    await cleanup(KEEP);
  }
  return result;
}

const results = await eachDatabase(DBS, arg("out", path.join("bench", "logs-scale-results.json")), { rows: ROWS, runs: RUNS }, benchDb);
printTable(results, { title: "total", value: (c) => `${c.total}${c.exact ? "" : "+"}` });
