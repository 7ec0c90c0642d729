// node bench/channels-scale.mjs [--channels=10000] [--db=sqlite,postgresql] [--runs=15] [--keep] [--out=FILE] [--pg-db=NAME]
// The admin's channel list and search at scale (docs/channels-tokens-billing.md, "The channel
// list at scale"; bench/README.md): for each database, a fresh built server (dist/server.mjs)
// set up through the API (log-fill.mjs's freshGateway), stopped, and its channels table filled
// by SQL inside the database with --channels channels: 8 types, 1 in 10 disabled, 20 models
// out of 200 each, groups "default" and 1 in 4 also "vip", 1 in 3 in one of 300 tags, a
// 200-character key, a model mapping and a remark. Then the server again, and each call the
// channels page makes is timed over loopback HTTP: 3 warm-ups, then --runs runs; p50, p95 and
// max in ms. Last, page 1 just after a channel write (the written channel read again into the list index), 10 times. Results: bench/channels-scale-results.json.
import path from "node:path";
import { arg, Client, eachDatabase, freshGateway, load, printTable, sql, startServer, summary, time } from "./log-fill.mjs";

const CHANNELS = Number(arg("channels", "10000"));
const DBS = arg("db", "sqlite,postgresql").split(",");
const RUNS = Number(arg("runs", "15"));
const KEEP = process.argv.includes("--keep");
const TYPES = [1, 3, 8, 14, 20, 24, 40, 43];

// The channels as one INSERT ... SELECT over a generated series (the database's own).
function fillSql(kind) {
  const series = kind === "sqlite" ? "s" : `generate_series(1, ${CHANNELS}) AS s(i)`;
  const cat = (...parts) => (kind === "sqlite" ? parts.join(" || ") : `CONCAT(${parts.join(", ")})`);
  const models = Array.from({ length: 20 }, (_, k) => cat(`'model-'`, `((i * 7 + ${k * 10}) % 200)`)).join(kind === "sqlite" ? " || ',' || " : ", ',', ");
  const select = `SELECT
      CASE ${TYPES.map((t, k) => `WHEN i % ${TYPES.length} = ${k} THEN ${t}`).join(" ")} END,
      ${cat(`'channel-'`, "i")},
      ${cat(`'sk-'`, `repeat('x', 197)`)},
      CASE WHEN i % 10 = 0 THEN 2 ELSE 1 END,
      i % 5,
      i % 7,
      CASE WHEN i % 4 = 0 THEN 'default,vip' ELSE 'default' END,
      ${kind === "sqlite" ? models : `CONCAT(${models})`},
      CASE WHEN i % 3 = 0 THEN ${cat(`'tag-'`, "(i % 300)")} ELSE NULL END,
      ${cat(`'https://upstream-'`, "(i % 50)", `'.example/v1'`)},
      '{"gpt-4o":"gpt-4o-2024-08-06"}',
      ${cat(`'remark for channel '`, "i")}`;
  const insert = `INSERT INTO "channels" ("type", "name", "key", "status", "weight", "priority", "group", "models", "tag", "base_url", "model_mapping", "remark")`;
  if (kind === "sqlite") {
    const repeat = (x, n) => `replace(hex(zeroblob(${n})), '00', ${x})`;
    return `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${CHANNELS}) ${insert} ${select.replace(`repeat('x', 197)`, repeat("'x'", 197))} FROM ${series}`;
  }
  return `${insert} ${select} FROM ${series}`;
}

async function benchDb(kind) {
  const { url, env, cleanup } = await freshGateway(kind, arg("pg-db", "bench_channels_scale"), "channels-scale-");
  const result = { db: kind, channels: CHANNELS, calls: {}, load: {} };
  try {
    console.log(`[${kind}] filling ${CHANNELS.toLocaleString()} channels`);
    await sql(kind, url, fillSql(kind));
    const s = await startServer(env);
    const r = new Client(s.url);
    await r.login("root", "root-pass-123");
    const list = "/api/channel/?page_size=20";
    const calls = [
      ["list, page 1", `${list}&p=1`],
      ["list, page 250", `${list}&p=250`],
      ["list, id order, page 1", `${list}&p=1&id_sort=true`],
      ["list, tag mode, page 1", `${list}&p=1&tag_mode=true`],
      ["list, tag mode, page 100", `${list}&p=100&tag_mode=true`],
      ["list, one type", `${list}&p=1&types=14`],
      ["list, disabled", `${list}&p=1&statuses=2`],
      ["search, keyword (name, many matches)", "/api/channel/search?keyword=channel-1&page_size=20&p=1"],
      ["search, keyword (no match)", "/api/channel/search?keyword=nothing-here&page_size=20&p=1"],
      ["search, model", "/api/channel/search?model=model-42&page_size=20&p=1"],
      ["search, group", "/api/channel/search?group=vip&page_size=20&p=1"],
      ["search, tag mode + model", "/api/channel/search?model=model-42&tag_mode=true&page_size=20&p=1"],
    ];
    const first = await r.call("GET", `${list}&p=1`);
    if (first.total !== CHANNELS) throw new Error(`the list counts ${first.total} channels, not ${CHANNELS}`);
    result.load.before_calls = load();
    for (const [name, p] of calls) {
      result.calls[name] = await time(() => r.call("GET", p), RUNS);
      console.log(`  ${name}: p50 ${result.calls[name].p50} ms, p95 ${result.calls[name].p95} ms`);
    }
    // The first list after a channel write loads the routing cache again (every channel, its key
    // opened): the write is not timed, the list after it is.
    const afterWrite = [];
    for (let i = 0; i < Math.min(RUNS, 10); i++) {
      await r.call("PUT", "/api/channel/", { id: 1, priority: i % 5 });
      const t = performance.now();
      await r.call("GET", `${list}&p=1`);
      afterWrite.push(performance.now() - t);
    }
    result.calls["list, page 1, just after a channel write"] = summary(afterWrite);
    console.log(`  list, page 1, just after a channel write: p50 ${result.calls["list, page 1, just after a channel write"].p50} ms`);
    result.load.after_calls = load();
    console.log(`  load average (1, 5, 15 min) before the calls ${result.load.before_calls.join(", ")}, after ${result.load.after_calls.join(", ")}`);
    await s.stop();
  } finally {
    await cleanup(KEEP);
  }
  return result;
}

const results = await eachDatabase(DBS, arg("out", path.join("bench", "channels-scale-results.json")), { channels: CHANNELS, runs: RUNS }, benchDb);
printTable(results);
