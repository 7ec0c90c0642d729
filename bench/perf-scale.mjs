// node bench/perf-scale.mjs [--db=sqlite,postgresql] [--runs=15] [--models=300] [--channels=50] [--days=366] [--keep] [--out=FILE]
// The performance buckets' reads at scale (docs/performance.md, bench/README.md "Performance
// buckets at scale"): for each database, a fresh built server (dist/server.mjs, `npm run build`
// first) is set up through the API, stopped, and its two bucket tables filled by SQL inside the
// database with --days days of hourly and daily rows for --models models (group "default") and
// --channels channels (the indexes dropped first and built again after, as the migration
// writes them): every model and channel has calls in every hour (the worst case). The
// sketches are 24 different ones made here with the library the server uses, from 30 to 60
// lognormal times (median 400 to 1,600 ms, as a model's hour of calls spreads): 40 to 120
// bins each. Then the server again, with one channel serving the models (the status page lists
// the served ones) and StatusPageEnabled on, and each read the console makes is timed over
// loopback HTTP: 3 warm-ups, then --runs runs; p50, p95 and max in ms. Not part of the test
// suite. Results: bench/perf-scale-results.json.
import { readFileSync } from "node:fs";
import path from "node:path";
import { DDSketch } from "@datadog/sketches-js";
import { arg, Client, eachDatabase, freshGateway, load, printTable, sql, startServer, time } from "./log-fill.mjs";

const DBS = arg("db", "sqlite").split(",");
const RUNS = Number(arg("runs", "15"));
const MODELS = Number(arg("models", "300"));
const CHANNELS = Number(arg("channels", "50"));
const DAYS = Number(arg("days", "366"));
const KEEP = process.argv.includes("--keep");
const HOUR = 3600;
const DAY = 86_400;
const K = 24;

// the text form of lib/rollups/perf-sketch.ts
function sketchText(values) {
  const s = new DDSketch({ relativeAccuracy: 0.01 });
  for (const v of values) s.accept(Math.max(1, Math.round(v)));
  const st = s.store;
  const parts = [];
  for (let k = st.minKey; k <= st.maxKey; k++) parts.push(st.bins[k - st.offset] ? String(st.bins[k - st.offset]) : "");
  return `${st.minKey}:${parts.join(",")}`;
}

let seed = 42;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const gauss = () => Math.sqrt(-2 * Math.log(rnd() || 1e-9)) * Math.cos(2 * Math.PI * rnd());
const sketches = Array.from({ length: K }, (_, i) => {
  const n = 30 + (i % 4) * 10;
  const median = 400 + (i % 7) * 200;
  const ttft = Array.from({ length: n }, () => median * Math.exp(0.35 * gauss()));
  const latency = ttft.map((t) => t * (3 + rnd() * 2));
  return [sketchText(ttft), sketchText(latency)];
});

const values = sketches.map(([a, b], i) => `(${i}, '${a}', '${b}')`).join(", ");

// rows g = 0..n-1 of one table and span: key g % keys, bucket start + (g / keys) * span
function fillSql(kind, { table, span, keys, buckets, start, model }) {
  const n = keys * buckets;
  const series = kind === "sqlite" ? `s(g) AS (SELECT 0 UNION ALL SELECT g + 1 FROM s WHERE g < ${n - 1}), ` : "";
  const src = kind === "sqlite" ? "s" : `generate_series(0, ${n - 1}) AS s(g)`;
  const keyCols = model ? '"group", "model_name"' : '"channel_id"';
  const keyVals = model ? `'default', 'model-' || (g % ${keys})` : `1 + g % ${keys}`;
  const div = kind === "sqlite" ? `(g / ${keys})` : `(g / ${keys})`;
  return `WITH ${kind === "sqlite" ? "RECURSIVE " : ""}${series}sk(i, t, l) AS (VALUES ${values})
    INSERT INTO "${table}" ("span", "bucket", ${keyCols}, "calls", "successes", "ttft", "latency", "gen_tokens", "gen_ms")
    SELECT ${span}, ${start} + ${div} * ${span}, ${keyVals}, c, c - (g % 3), sk.t, sk.l, c * 300, c * 6000
    FROM (SELECT g, ${span === HOUR ? 30 : 720} + g % 50 AS c, (g * 7 + g / ${keys}) % ${K} AS k FROM ${src}) b JOIN sk ON sk.i = b.k`;
}

async function benchDb(kind) {
  const { url, env, cleanup } = await freshGateway(kind, "bench_perf_scale", "perf-scale-");
  const result = { db: kind, models: MODELS, channels: CHANNELS, days: DAYS, calls: {}, load: {}, rows: {} };
  try {
    const now = Math.floor(Date.now() / 1000);
    const firstDay = Math.floor(now / DAY) * DAY - (DAYS - 1) * DAY;
    const t = performance.now();
    const fills = [
      { table: "log_perf_model_rollups", span: HOUR, keys: MODELS, buckets: DAYS * 24, start: firstDay, model: true },
      { table: "log_perf_model_rollups", span: DAY, keys: MODELS, buckets: DAYS, start: firstDay, model: true },
      { table: "log_perf_channel_rollups", span: HOUR, keys: CHANNELS, buckets: DAYS * 24, start: firstDay, model: false },
      { table: "log_perf_channel_rollups", span: DAY, keys: CHANNELS, buckets: DAYS, start: firstDay, model: false },
    ];
    // the indexes go before the fill and are built again after it, from the migration's own
    // statements: one sort each instead of millions of B-tree inserts
    const indexes = readFileSync(`prisma/migrations/${kind}/0035_perf_rollups.sql`, "utf8")
      .split(";")
      .map((x) => x.replace(/--[^\n]*\n/g, "").trim())
      .filter((x) => /^CREATE (UNIQUE )?INDEX/.test(x));
    for (const c of indexes) await sql(kind, url, `DROP INDEX IF EXISTS ${c.match(/INDEX "([^"]+)"/)[1]}`);
    for (const f of fills) {
      console.log(`[${kind}] ${f.table} span ${f.span}: ${(f.keys * f.buckets).toLocaleString()} rows`);
      await sql(kind, url, fillSql(kind, f));
      result.rows[`${f.table}/${f.span}`] = f.keys * f.buckets;
    }
    for (const c of indexes) await sql(kind, url, c);
    await sql(kind, url, kind === "sqlite" ? "ANALYZE" : 'ANALYZE "log_perf_model_rollups", "log_perf_channel_rollups"');
    result.fill_seconds = +((performance.now() - t) / 1000).toFixed(1);
    console.log(`  filled in ${result.fill_seconds} s`);

    const s = await startServer(env);
    const r = new Client(s.url);
    await r.login("root", "root-pass-123");
    const models = Array.from({ length: MODELS }, (_, i) => `model-${i}`).join(",");
    await r.call("POST", "/api/channel/", { name: "served", type: 1, key: "sk-none", base_url: "https://api.openai.com", models, group: "default" });
    await r.call("PUT", "/api/option/", { key: "StatusPageEnabled", value: "true" });
    const q = (what, seconds, g, extra = "") => `/api/perf/${what}?start_timestamp=${now - seconds + 1}&end_timestamp=${now}&granularity=${g}${extra}`;
    const calls = [
      ["models: 24 h per hour, group default (perf tab)", q("models", DAY, "hour", "&group=default")],
      ["models: 24 h total, group default (perf tab table)", q("models", DAY, "total", "&group=default")],
      ["models: 7 days per day, group default", q("models", 7 * DAY, "day", "&group=default")],
      ["models: 30 days per day, group default", q("models", 30 * DAY, "day", "&group=default")],
      ["models: 30 days total, group default", q("models", 30 * DAY, "total", "&group=default")],
      ["models: one model, 366 days per day", q("models", 366 * DAY, "day", "&model_name=model-7")],
      ["models: one model, 32 days per hour", q("models", 32 * DAY, "hour", "&model_name=model-7")],
      ["models: 366 days total, every model", q("models", 366 * DAY, "total")],
      ["channels: 24 h total (channel list)", q("channels", DAY, "total")],
      ["channels: 24 h per hour", q("channels", DAY, "hour")],
      ["channels: 30 days per day", q("channels", 30 * DAY, "day")],
      ["channels: 366 days per day", q("channels", 366 * DAY, "day")],
      ["channels: 366 days total", q("channels", 366 * DAY, "total")],
    ];
    result.load.before = load();
    // the status page's data: its first read (the node then keeps it a minute), then cached
    const first = performance.now();
    const st = await r.call("GET", "/api/status/models");
    result.calls["status: first read (24 h + 7 days, 300 models)"] = {
      p50: +(performance.now() - first).toFixed(1),
      p95: null,
      max: null,
      rows: st?.models?.length,
    };
    for (const [name, p] of calls) {
      const data = await r.call("GET", p);
      result.calls[name] = Object.assign(await time(() => r.call("GET", p), RUNS), { rows: Array.isArray(data) ? data.length : 0 });
      console.log(`  ${name}: p50 ${result.calls[name].p50} ms, p95 ${result.calls[name].p95} ms (${result.calls[name].rows} rows)`);
    }
    result.load.after = load();
    await s.stop();
  } finally {
    await cleanup(KEEP);
  }
  return result;
}

const out = arg("out", path.join("bench", "perf-scale-results.json"));
const results = await eachDatabase(DBS, out, { runs: RUNS }, benchDb);
printTable(results, { title: "rows", value: (c) => c.rows });
