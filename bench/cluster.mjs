// Requests/s of 1, 2 and 3 gateway nodes on one PostgreSQL database and one Redis, behind
// the local round-robin balancer (tests/support/balancer.mjs), against the mock upstream
// (bench/mock-upstream.mjs). Method and figures: bench/README.md, "Several nodes".
//
//   node bench/cluster.mjs [--duration=S] [--warmup=S] [--connections=N] [--nodes=1,2,3] [--unlimited-token]
//
// Needs `npm run build` first (dist/server.mjs), wrk on PATH, PostgreSQL at
// 127.0.0.1:5432 (user postgres, trust; BENCH_PG_ADMIN_URL to change) and Redis at
// 127.0.0.1:6379 (BENCH_REDIS_URL). Each node count gets a fresh database and Redis prefix;
// both are dropped at the end. Loopback only; every load loop is bounded in time.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startBalancer } from "../tests/support/balancer.mjs";
import { parseWrk, postScript } from "./wrk.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k, v ?? "true"];
  }),
);
const DURATION = Math.min(120, Math.max(1, Number(args.duration ?? 10)));
const WARMUP = Math.min(30, Math.max(0, Number(args.warmup ?? 2)));
const CONNECTIONS = Math.min(512, Math.max(1, Number(args.connections ?? 64)));
const COUNTS = (args.nodes ?? "1,2,3")
  .split(",")
  .map(Number)
  .filter((n) => n >= 1 && n <= 8);
// The calls' token has a quota of its own (as in run.mjs), so every call also debits the
// token's row; --unlimited-token leaves that row alone (the user's quota is still reserved and
// settled). bench/README.md, "Several nodes".
const LIMITED_TOKEN = args["unlimited-token"] !== "true";
const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const MODEL = "gpt-bench";
const ROOT_PASSWORD = "bench-root-pass-1";
const USER_PASSWORD = "bench-user-pass-1";
const CHAT = { model: MODEL, messages: [{ role: "user", content: "Say hello." }], max_tokens: 16 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const children = new Set();
const cleanups = [];
process.on("exit", () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(130));

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function start(argv, env) {
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  children.add(child);
  child.on("exit", () => children.delete(child));
  return { child, output: () => output };
}

async function waitFor(what, check, proc, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (proc.child.exitCode !== null) throw new Error(`${what} exited:\n${proc.output()}`);
    if (Date.now() > deadline) throw new Error(`${what} not ready after ${timeoutMs} ms:\n${proc.output()}`);
    await sleep(100);
  }
}

async function stop(proc) {
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(8_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

class Console {
  constructor(base) {
    this.base = base;
    this.cookie = "";
    this.userId = null;
  }
  async call(method, p, body) {
    const headers = { cookie: `NEXT_LOCALE=en${this.cookie ? "; " + this.cookie : ""}` };
    if (this.userId !== null) headers["new-api-user"] = String(this.userId);
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(this.base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
    for (const c of res.headers.getSetCookie?.() ?? []) {
      const [pair] = c.split(";");
      if (pair.startsWith("session=")) this.cookie = pair.endsWith("=") ? "" : pair;
    }
    const json = await res.json();
    if (!json.success) throw new Error(`${method} ${p}: ${json.message} (HTTP ${res.status})`);
    return json.data;
  }
  async login(username, password) {
    this.userId = (await this.call("POST", "/api/user/login", { username, password })).id;
  }
}

async function startMock() {
  const proc = start([path.join(HERE, "mock-upstream.mjs")], { PORT: "0", HOST: "127.0.0.1" });
  let port = null;
  await waitFor("mock upstream", () => (port = Number(/listening on (\d+)/.exec(proc.output())?.[1] ?? 0)) > 0, proc, 10_000);
  return { proc, port };
}

// n nodes on a fresh database and Redis prefix, set up through the first node's API.
async function startCluster(n, mockPort) {
  const dbName = `gw_bench_${process.pid}_${n}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const databaseUrl = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${dbName}`);
  const shared = {
    NODE_ENV: "production",
    HOSTNAME: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: `gwbench:${randomBytes(4).toString("hex")}:`,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    CRITICAL_RATE_LIMIT: "100000",
  };
  const nodes = [];
  for (let i = 0; i < n; i++) {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "gw-cluster-"));
    const proc = start(["dist/server.mjs"], { ...shared, PORT: String(port), DATA_DIR: dataDir });
    nodes.push({ proc, port, dataDir });
    await waitFor(`node ${i + 1}`, () => proc.output().includes('"msg":"ready on '), proc);
  }
  const base = `http://127.0.0.1:${nodes[0].port}`;
  await new Console(base).call("POST", "/api/setup", {
    username: "root",
    password: ROOT_PASSWORD,
    confirmPassword: ROOT_PASSWORD,
    SelfUseModeEnabled: false,
    DemoSiteEnabled: false,
  });
  const root = new Console(base);
  await root.login("root", ROOT_PASSWORD);
  for (const [key, value] of [
    ["ModelRatio", JSON.stringify({ [MODEL]: 1 })],
    ["CompletionRatio", JSON.stringify({ [MODEL]: 2 })],
    ["fetch_setting.allow_private_ip", "true"],
  ])
    await root.call("PUT", "/api/option/", { key, value });
  await root.call("POST", "/api/channel/", {
    type: 1,
    name: "bench-mock",
    key: "sk-mock-upstream",
    base_url: `http://127.0.0.1:${mockPort}`,
    models: MODEL,
    group: "default",
  });
  const user = await root.call("POST", "/api/user/", { username: "bench", password: USER_PASSWORD, role: 1 });
  await root.call("PUT", "/api/user/", { id: user.id, quota: 1_000_000_000_000 });
  const bench = new Console(base);
  await bench.login("bench", USER_PASSWORD);
  const [token] = await bench.call("POST", "/api/token/", {
    name: "bench",
    remain_quota: 1_000_000_000_000,
    unlimited_quota: !LIMITED_TOKEN,
    expired_time: -1,
  });
  const lb = await startBalancer({ targets: nodes.map((x) => ({ port: x.port })) });
  return {
    lb,
    token,
    stop: async () => {
      await lb.close();
      for (const x of [...nodes].reverse()) await stop(x.proc);
      for (const x of nodes) rmSync(x.dataDir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await c.end();
    },
  };
}

async function wrk(url, key, seconds) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gw-cluster-wrk-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const script = path.join(dir, "post.lua");
  writeFileSync(script, postScript(CHAT, { Authorization: `Bearer ${key}` }));
  const argv = ["-t2", `-c${CONNECTIONS}`, `-d${seconds}s`, "--timeout", "5s", "--latency", "-s", script, `${url}/v1/chat/completions`];
  // not spawnSync: the balancer runs in this process and must keep serving while wrk runs
  const r = await new Promise((resolve, reject) => {
    const child = spawn("wrk", argv, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), (seconds + 30) * 1000);
    child.on("error", reject);
    child.on("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
  if (r.status !== 0) throw new Error(`wrk failed (${r.status}): ${r.stderr}${r.stdout}`);
  const rep = parseWrk(r.stdout);
  const errors = rep.non2xx3xx + rep.socketErrors.connect + rep.socketErrors.read + rep.socketErrors.write + rep.socketErrors.timeout;
  return { requestsPerSec: rep.requestsPerSec, requests: rep.requests, p50ms: rep.latencyUs.p50 / 1000, p99ms: rep.latencyUs.p99 / 1000, errors };
}

async function main() {
  if (!existsSync(path.join(ROOT, "dist/server.mjs"))) throw new Error("dist/server.mjs is missing: run npm run build");
  if (spawnSync("wrk", ["-v"]).error) throw new Error("wrk is missing: apt-get install -y wrk");
  const mock = await startMock();
  const rows = [];
  try {
    for (const n of COUNTS) {
      const cluster = await startCluster(n, mock.port);
      try {
        // one call first: the chain answers, or the figures would mean nothing
        const probe = await fetch(`${cluster.lb.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${cluster.token.key}`, "content-type": "application/json" },
          body: JSON.stringify(CHAT),
        });
        const probeText = await probe.text();
        if (probe.status !== 200) throw new Error(`probe call: HTTP ${probe.status}: ${probeText.slice(0, 300)}`);
        if (WARMUP > 0) await wrk(cluster.lb.url, cluster.token.key, WARMUP);
        const load = os.loadavg()[0];
        const r = await wrk(cluster.lb.url, cluster.token.key, DURATION);
        rows.push({ nodes: n, ...r, perNode: [...cluster.lb.stats.perNode], retried: cluster.lb.stats.retried, loadavg1: Math.round(load * 100) / 100 });
        console.log(
          `${n} node(s): ${r.requestsPerSec.toFixed(0)} req/s, p50 ${r.p50ms.toFixed(1)} ms, p99 ${r.p99ms.toFixed(1)} ms, errors ${r.errors}, load ${load.toFixed(2)}`,
        );
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    await stop(mock.proc);
    for (const c of cleanups) c();
  }
  console.log(`\n| nodes | requests/s | p50 ms | p99 ms | errors | load avg (1 min) |\n|---|---|---|---|---|---|`);
  for (const r of rows)
    console.log(`| ${r.nodes} | ${r.requestsPerSec.toFixed(0)} | ${r.p50ms.toFixed(1)} | ${r.p99ms.toFixed(1)} | ${r.errors} | ${r.loadavg1} |`);
  console.log(
    `\n${os.cpus().length} CPUs, ${process.version}, ${CONNECTIONS} connections, ${DURATION} s per run (after ${WARMUP} s warm-up), ${LIMITED_TOKEN ? "limited" : "unlimited"} token`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
