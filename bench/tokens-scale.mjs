// node bench/tokens-scale.mjs [--tokens=10000] [--db=sqlite,postgresql] [--runs=15] [--keep] [--out=FILE]
// One user's token list and search at scale (docs/channels-tokens-billing.md, "Token search
// at scale"; bench/README.md): for each database, a fresh built server (dist/server.mjs) set up
// through the API (log-fill.mjs's freshGateway), then --tokens tokens made by the "bench" user
// through POST /api/token/ (100 per call, every key its own), and each call the tokens page
// makes timed over loopback HTTP: 3 warm-ups, then --runs runs; p50, p95 and max in ms.
// Results: bench/tokens-scale-results.json.
import path from "node:path";
import { arg, Client, eachDatabase, freshGateway, load, printTable, startServer, time } from "./log-fill.mjs";

const TOKENS = Number(arg("tokens", "10000"));
const DBS = arg("db", "sqlite,postgresql").split(",");
const RUNS = Number(arg("runs", "15"));
const KEEP = process.argv.includes("--keep");

async function benchDb(kind) {
  const { env, cleanup } = await freshGateway(kind, "bench_tokens_scale", "tokens-scale-");
  const result = { db: kind, tokens: TOKENS, calls: {}, load: {} };
  try {
    const s = await startServer(env);
    const b = new Client(s.url);
    await b.login("bench", "bench-pass-1");
    console.log(`[${kind}] making ${TOKENS.toLocaleString()} tokens`);
    let key = "";
    for (let made = 0; made < TOKENS; made += 100) {
      const batch = await b.call("POST", "/api/token/", { name: `bulk-${made}`, count: Math.min(100, TOKENS - made), unlimited_quota: true });
      if (made === 0) key = batch[0].key;
    }
    const calls = [
      ["list, page 1", "/api/token/?p=1&size=10"],
      ["list, page 500", "/api/token/?p=500&size=10"],
      ["search, key fragment (middle)", `/api/token/search?token=${key.slice(20, 36)}&p=1&size=10`],
      ["search, key fragment (no match)", "/api/token/search?token=no-such-key-part&p=1&size=10"],
      ["search, name", "/api/token/search?keyword=bulk-420&p=1&size=10"],
      ["search, name + key fragment", `/api/token/search?keyword=bulk-0&token=${key.slice(20, 36)}&p=1&size=10`],
    ];
    const hit = await b.call("GET", calls[2][1]);
    if (hit.total !== 1) throw new Error(`the key search finds ${hit.total} tokens, not 1`);
    result.load.before_calls = load();
    for (const [name, p] of calls) {
      result.calls[name] = await time(() => b.call("GET", p), RUNS);
      console.log(`  ${name}: p50 ${result.calls[name].p50} ms, p95 ${result.calls[name].p95} ms`);
    }
    result.load.after_calls = load();
    console.log(`  load average (1, 5, 15 min) before the calls ${result.load.before_calls.join(", ")}, after ${result.load.after_calls.join(", ")}`);
    await s.stop();
  } finally {
    await cleanup(KEEP);
  }
  return result;
}

const results = await eachDatabase(DBS, arg("out", path.join("bench", "tokens-scale-results.json")), { tokens: TOKENS, runs: RUNS }, benchDb);
printTable(results);
