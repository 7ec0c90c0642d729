// The relay benchmark: what our gateway adds to a chat completion, beside Portkey's
// gateway, against the same mock upstream, in one run on this machine.
//
//   npm run bench [-- --rounds=1 --duration=10 --warmup=2 --stream-n=300 --no-build --only=direct,floor,gateway,portkey --profile --no-write
//                    --node-args="--trace-gc" --gateway-log=FILE --sensitive-words=10000 --limits --redis-url=redis://127.0.0.1:6379]
//   npm run bench -- --report-only   (re-render RESULTS.md from results.json)
//
// For each target (direct to the mock; a bare node:http proxy, the floor of any Node
// gateway; our gateway with billing and logging on; Portkey):
//   - latency p50/p99 at 1 connection, non-streaming (wrk --latency, fixed duration);
//   - time to the first byte of a streaming answer (N sequential requests, node:http);
//   - requests/s at 64 connections, non-streaming (wrk, fixed duration);
//   - the target process's CPU time per call in both wrk runs (/proc/<pid>/stat), a figure
//     that other load on the machine disturbs far less than latency.
// Every load loop is bounded in time and count, on loopback only. Nothing printed is
// estimated: every figure comes from a measurement of this run. Writes bench/results.json
// and bench/RESULTS.md, and stops everything it started.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseWrk, postScript } from "./wrk.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
const PORTKEY_DIR = process.env.PORTKEY_DIR ?? "/tmp/portkey-bench";
const PORTKEY_VERSION = "1.15.2";
const MODEL = "gpt-bench";
const ROOT_PASSWORD = "bench-root-pass-1";
const USER_PASSWORD = "bench-user-pass-1";

// ---------- options ----------
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a}`);
    return [m[1], m[2] ?? "true"];
  }),
);
const DURATION = Math.min(120, Math.max(1, Number(args.duration ?? 10)));
const WARMUP = Math.min(30, Math.max(0, Number(args.warmup ?? 2)));
const STREAM_N = Math.min(5000, Math.max(10, Number(args["stream-n"] ?? 300)));
const STREAM_MAX_SECONDS = 60;
const HIGH_CONNECTIONS = 64;
const ONLY = new Set((args.only ?? "direct,floor,gateway,portkey").split(","));
const BUILD = args["no-build"] !== "true";
const PROFILE = args.profile === "true";
// e.g. --node-args="--trace-gc" --gateway-log=/tmp/gw.log: extra node flags for the gateway, and
// where to write everything it printed once it has stopped
const NODE_ARGS = (args["node-args"] ?? "").split(/\s+/).filter(Boolean);
const GATEWAY_LOG = args["gateway-log"];
const ROUNDS = Math.min(10, Math.max(1, Number(args.rounds ?? 1)));
// --sensitive-words=N: the gateway runs with the word filter on (CheckSensitiveEnabled and
// CheckSensitiveOnPromptEnabled) and N generated words, none of which the bench prompt holds,
// so every call is scanned in full and passes (docs/relay-options.md, "Sensitive words")
const SENSITIVE_WORDS = Math.min(1_000_000, Math.max(0, Math.floor(Number(args["sensitive-words"] ?? 0))));
// --limits: the bench token carries every usage limit (docs/usage-limits.md), each far above
// what the run uses, so that every call is admitted and corrected by the limits engine without
// being refused; --redis-url=redis://...: the gateway counts them (and its rate limits) in that
// Redis, under a prefix of its own, instead of its memory
const LIMITS = args.limits === "true";
// --tracing: the gateway runs with OpenTelemetry tracing on (docs/tracing.md), every call
// sampled, its spans exported over OTLP/HTTP (protobuf) to bench/otlp-receiver.mjs
const TRACING = args.tracing === "true";
const REDIS_URL = args["redis-url"];
const BENCH_LIMITS = {
  rpm_limit: 2_000_000_000,
  tpm_limit: 2_000_000_000,
  concurrency_limit: 1_000_000,
  quota_5h: 9_000_000_000_000_000,
  quota_day: 9_000_000_000_000_000,
  quota_week: 9_000_000_000_000_000,
  quota_month: 9_000_000_000_000_000,
};

// the line the gateway writes once it listens (lib/logger's JSON: {...,"msg":"ready on http://..."})
const READY_LINE = '"msg":"ready on ';
const CHAT = { model: MODEL, messages: [{ role: "user", content: "Say hello." }], max_tokens: 16 };
const CHAT_STREAM = { ...CHAT, stream: true, stream_options: { include_usage: true } };

// ---------- processes we start (and must stop) ----------
const children = new Set();
const tempDirs = new Set();

function start(name, cmd, argv, opts) {
  const child = spawn(cmd, argv, { stdio: ["ignore", "pipe", "pipe"], ...opts });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  children.add(child);
  child.on("exit", () => children.delete(child));
  return { name, child, output: () => output };
}

async function stop(proc, graceMs = 8000) {
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(graceMs)]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGKILL");
    await exited;
  }
}

function stopAllSync() {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
}
process.on("exit", stopAllSync);
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    console.error(`\n${sig}: stopping`);
    process.exit(130);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, check, timeoutMs, proc) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (proc && proc.child.exitCode !== null) throw new Error(`${what}: the process exited:\n${proc.output()}`);
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs} ms${proc ? `:\n${proc.output()}` : ""}`);
    await sleep(100);
  }
}

// ---------- machine ----------
const loadavg = () => os.loadavg().map((n) => Math.round(n * 100) / 100);
function machine() {
  let nproc = os.availableParallelism?.() ?? os.cpus().length;
  try {
    nproc = Number(execFileSync("nproc", { encoding: "utf8" }).trim());
  } catch {}
  return {
    nproc,
    cpu: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    wrk: wrkVersion(),
  };
}

function wrkVersion() {
  const r = spawnSync("wrk", ["-v"], { encoding: "utf8" });
  return ((r.stdout || "") + (r.stderr || "")).split("\n")[0].trim() || null;
}

function ensureWrk() {
  if (spawnSync("wrk", ["-v"]).error === undefined) return;
  if (process.getuid?.() !== 0) throw new Error("wrk is missing and this is not root: apt-get install -y wrk");
  console.log("installing wrk from Debian (apt-get install -y wrk) ...");
  let r = spawnSync("apt-get", ["install", "-y", "wrk"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  if (r.status !== 0) {
    spawnSync("apt-get", ["update"], { stdio: "inherit" });
    r = spawnSync("apt-get", ["install", "-y", "wrk"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  }
  if (r.status !== 0) throw new Error("could not install wrk");
}

// ---------- HTTP helpers ----------
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = http.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// A console API client that keeps the session cookie and sends New-Api-User (as the browser does).
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
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${p}: HTTP ${res.status}, not JSON: ${text.slice(0, 300)}`);
    }
    if (!json.success) throw new Error(`${method} ${p}: ${json.message} (HTTP ${res.status})`);
    return json.data;
  }
  async login(username, password) {
    const d = await this.call("POST", "/api/user/login", { username, password });
    this.userId = d.id;
    return d;
  }
}

// One request with node:http on a keep-alive agent; resolves timings in milliseconds.
function timedRequest(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const payload = Buffer.from(JSON.stringify(body));
    const t0 = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": payload.length, ...headers },
      },
      (res) => {
        const headersMs = ms();
        let firstByteMs = null;
        const parts = [];
        res.on("data", (d) => {
          if (firstByteMs === null) firstByteMs = ms();
          parts.push(d);
        });
        res.on("end", () => resolve({ status: res.statusCode, headersMs, firstByteMs, totalMs: ms(), body: Buffer.concat(parts).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error("request timed out after 10 s")));
    req.on("error", reject);
    req.end(payload);
  });
}

// Nearest-rank percentile of sorted samples.
function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

// ---------- measurements ----------
let scriptDir;

// CPU seconds (user + system, every thread) a process has used so far; null off Linux.
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields 3.. of proc(5)
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime + stime
  } catch {
    return null;
  }
}

function wrk(target, connections, seconds, label) {
  const threads = connections === 1 ? 1 : 2;
  const script = path.join(scriptDir, `${target.key}.lua`);
  writeFileSync(script, postScript(CHAT, target.headers));
  const argv = [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, "--timeout", "5s", "--latency", "-s", script, target.url];
  const cpuBefore = cpuSeconds(target.pid);
  const r = spawnSync("wrk", argv, { encoding: "utf8", timeout: (seconds + 30) * 1000 });
  const cpuAfter = cpuSeconds(target.pid);
  if (r.status !== 0) throw new Error(`wrk ${label} on ${target.name} failed (${r.status}): ${r.stderr}${r.stdout}`);
  const report = parseWrk(r.stdout);
  const errors = report.non2xx3xx + report.socketErrors.connect + report.socketErrors.read + report.socketErrors.write + report.socketErrors.timeout;
  const cpuMsPerCall = cpuBefore === null || cpuAfter === null || !report.requests ? null : ((cpuAfter - cpuBefore) * 1000) / report.requests;
  return { ...report, errors, cpuMsPerCall, command: `wrk ${argv.join(" ").replace(script, `<${target.key}.lua>`)}` };
}

async function streamFirstByte(target) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = target.url;
  try {
    // warm-up: a few requests, not recorded
    for (let i = 0; i < 20; i++) await timedRequest(agent, url, target.headers, CHAT_STREAM);
    const first = [];
    const head = [];
    const total = [];
    let failures = 0;
    const deadline = Date.now() + STREAM_MAX_SECONDS * 1000;
    let i = 0;
    for (; i < STREAM_N && Date.now() < deadline; i++) {
      const r = await timedRequest(agent, url, target.headers, CHAT_STREAM);
      // a complete stream: status 200, the mock's content, and the end marker
      if (r.status !== 200 || !r.body.includes("data: [DONE]") || !r.body.includes("upstream")) {
        failures++;
        if (failures === 1) console.log(`  first failed stream from ${target.name}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
        continue;
      }
      first.push(r.firstByteMs);
      head.push(r.headersMs);
      total.push(r.totalMs);
    }
    for (const a of [first, head, total]) a.sort((x, y) => x - y);
    return {
      warmupRequests: 20,
      requests: i,
      ok: first.length,
      failures,
      firstByteMs: { p50: percentile(first, 50), p99: percentile(first, 99) },
      headersMs: { p50: percentile(head, 50), p99: percentile(head, 99) },
      completeMs: { p50: percentile(total, 50), p99: percentile(total, 99) },
    };
  } finally {
    agent.destroy();
  }
}

async function measure(target) {
  const out = { loadBefore: loadavg(), warmups: [], phases: {} };
  if (WARMUP > 0) out.warmups.push(wrk(target, 1, WARMUP, "warm-up"));
  let t = Date.now();
  out.oneConnection = wrk(target, 1, DURATION, "1 connection");
  out.phases.oneConnection = { start: t, end: Date.now() };
  const l = out.oneConnection.latencyUs;
  console.log(
    `  1 connection:  p50 ${fmtMs(l.p50 / 1000)} ms, p99 ${fmtMs(l.p99 / 1000)} ms, ${Math.round(out.oneConnection.requestsPerSec)} req/s, CPU ${fmtMs(out.oneConnection.cpuMsPerCall)} ms/call, errors ${out.oneConnection.errors}`,
  );
  out.stream = await streamFirstByte(target);
  const s = out.stream;
  console.log(`  stream first byte: p50 ${fmtMs(s.firstByteMs.p50)} ms, p99 ${fmtMs(s.firstByteMs.p99)} ms (${s.ok}/${s.requests} complete streams)`);
  if (WARMUP > 0) out.warmups.push(wrk(target, HIGH_CONNECTIONS, WARMUP, "warm-up"));
  t = Date.now();
  out.highConcurrency = wrk(target, HIGH_CONNECTIONS, DURATION, `${HIGH_CONNECTIONS} connections`);
  out.phases.highConcurrency = { start: t, end: Date.now() };
  const h = out.highConcurrency;
  console.log(
    `  ${HIGH_CONNECTIONS} connections: ${Math.round(h.requestsPerSec)} req/s, p50 ${fmtMs(h.latencyUs.p50 / 1000)} ms, p99 ${fmtMs(h.latencyUs.p99 / 1000)} ms, CPU ${fmtMs(h.cpuMsPerCall)} ms/call, errors ${h.errors}`,
  );
  out.loadAfter = loadavg();
  return out;
}

// ---------- the targets ----------
// A node script of bench/ that prints "listening on <port>" once ready (PORT=0: a free port).
async function startScript(name, script, env) {
  const proc = start(name, process.execPath, [path.join(HERE, script)], { env: { ...process.env, PORT: "0", ...env } });
  let port = null;
  await waitFor(
    name,
    () => {
      const m = /listening on (\d+)/.exec(proc.output());
      if (m) port = Number(m[1]);
      return port !== null;
    },
    10_000,
    proc,
  );
  return { proc, port };
}

const startMock = () => startScript("mock-upstream", "mock-upstream.mjs", { HOST: "127.0.0.1" });
const startFloor = (mockPort) => startScript("bare-proxy", "bare-proxy.mjs", { UPSTREAM_PORT: String(mockPort) });

async function startGateway(mockPort) {
  const otlp = TRACING ? await startScript("otlp-receiver", "otlp-receiver.mjs", {}) : null;
  if (BUILD) {
    console.log("building (npm run build) ...");
    const r = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
    if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}\n${r.stderr}`);
  }
  if (!existsSync(path.join(ROOT, "dist/server.mjs"))) throw new Error("dist/server.mjs is missing: run npm run build");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "gw-bench-"));
  tempDirs.add(dataDir);
  const port = await freePort();
  const profileDir = path.join(HERE, "profiles");
  const nodeArgs = PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  if (PROFILE) mkdirSync(profileDir, { recursive: true });
  const proc = start("gateway", process.execPath, [...nodeArgs, ...NODE_ARGS, "dist/server.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: `file:${path.join(dataDir, "gateway.db")}`,
      CRITICAL_RATE_LIMIT: "1000",
      ...(REDIS_URL ? { REDIS_URL, REDIS_PREFIX: `gwbench:${process.pid}:${port}:` } : {}),
      ...(otlp ? { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlp.port}`, OTEL_TRACES_SAMPLER: "always_on" } : {}),
    },
  });
  await waitFor("gateway", () => proc.output().includes(READY_LINE), 60_000, proc);
  const base = `http://127.0.0.1:${port}`;

  // Set up through the real API: root, a user with quota, an OpenAI channel on the mock,
  // a price for the model, and the user's token.
  const anon = new Console(base);
  await anon.call("POST", "/api/setup", {
    username: "root",
    password: ROOT_PASSWORD,
    confirmPassword: ROOT_PASSWORD,
    SelfUseModeEnabled: false,
    DemoSiteEnabled: false,
  });
  const root = new Console(base);
  await root.login("root", ROOT_PASSWORD);
  const options = await root.call("GET", "/api/option/");
  const logConsume = (Array.isArray(options) ? options : []).find((o) => o.key === "LogConsumeEnabled")?.value;
  if (logConsume !== undefined && logConsume !== "true") await root.call("PUT", "/api/option/", { key: "LogConsumeEnabled", value: "true" });
  await root.call("PUT", "/api/option/", { key: "ModelRatio", value: JSON.stringify({ [MODEL]: 1 }) });
  await root.call("PUT", "/api/option/", { key: "CompletionRatio", value: JSON.stringify({ [MODEL]: 2 }) });
  if (SENSITIVE_WORDS > 0) {
    const words = Array.from({ length: SENSITIVE_WORDS }, (_, i) => `blocked-term-${i.toString(36)}-zq`).join("\n");
    await root.call("PUT", "/api/option/", { key: "SensitiveWords", value: words });
    await root.call("PUT", "/api/option/", { key: "CheckSensitiveEnabled", value: "true" });
    await root.call("PUT", "/api/option/", { key: "CheckSensitiveOnPromptEnabled", value: "true" });
  }
  // the mock upstream is on 127.0.0.1: loopback channels need the root's consent (docs/outbound.md)
  await root.call("PUT", "/api/option/", { key: "fetch_setting.allow_private_ip", value: "true" });
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
    unlimited_quota: false,
    expired_time: -1,
    ...(LIMITS ? BENCH_LIMITS : {}),
  });
  return { proc, otlp, base, root, bench, token, dataDir, logConsumeEnabled: logConsume ?? "default" };
}

// The figures behind "billing and logging were on": the token's used quota and the log count.
// The count is read from the database file itself (read-only): the console's log list counts
// at most 10000 rows past its page (docs/operations.md, "Logs at scale").
async function billingSnapshot(gw) {
  const token = await gw.bench.call("GET", `/api/token/${gw.token.id}`);
  const Database = (await import("better-sqlite3")).default;
  const file = new Database(path.join(gw.dataDir, "gateway.db"), { readonly: true, fileMustExist: true });
  try {
    const { n } = file.prepare('SELECT COUNT(*) AS n FROM "logs" WHERE "type" = 2').get();
    return { tokenUsedQuota: Number(token.used_quota), tokenRemainQuota: Number(token.remain_quota), consumeLogs: Number(n) };
  } finally {
    file.close();
  }
}

async function probeRelay(target) {
  const agent = new http.Agent({ keepAlive: false });
  try {
    const r = await timedRequest(agent, target.url, target.headers, CHAT);
    let json = null;
    try {
      json = JSON.parse(r.body);
    } catch {}
    return { ok: r.status === 200 && Array.isArray(json?.choices) && json.choices.length > 0, status: r.status, body: r.body.slice(0, 300) };
  } finally {
    agent.destroy();
  }
}

async function ensurePortkey() {
  const entry = path.join(PORTKEY_DIR, "node_modules/@portkey-ai/gateway/build/start-server.js");
  const nodeServer = path.join(PORTKEY_DIR, "node_modules/@hono/node-server/package.json");
  const pinned = () => existsSync(nodeServer) && JSON.parse(readFileSync(nodeServer, "utf8")).version === "1.13.5";
  if (existsSync(entry) && pinned() && !existsSync(path.join(PORTKEY_DIR, "node_modules/@portkey-ai/gateway/node_modules/@hono/node-server"))) return entry;
  console.log(`installing Portkey's gateway ${PORTKEY_VERSION} into ${PORTKEY_DIR} (not a project dependency) ...`);
  mkdirSync(PORTKEY_DIR, { recursive: true });
  rmSync(path.join(PORTKEY_DIR, "node_modules"), { recursive: true, force: true });
  rmSync(path.join(PORTKEY_DIR, "package-lock.json"), { force: true });
  // @hono/node-server 1.19 breaks Portkey's streaming (TypeError: immutable); the override
  // pins the copy the gateway itself loads, not only a top-level one.
  writeFileSync(
    path.join(PORTKEY_DIR, "package.json"),
    JSON.stringify({
      name: "portkey-bench",
      private: true,
      dependencies: { "@portkey-ai/gateway": PORTKEY_VERSION, "@hono/node-server": "1.13.5" },
      overrides: { "@hono/node-server": "1.13.5" },
    }),
  );
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: PORTKEY_DIR, stdio: "inherit" });
  if (r.status !== 0 || !existsSync(entry) || !pinned()) throw new Error("could not install Portkey's gateway");
  return entry;
}

async function startPortkey() {
  const entry = await ensurePortkey();
  const port = await freePort();
  const proc = start("portkey", process.execPath, [entry, `--port=${port}`, "--headless"], {
    cwd: PORTKEY_DIR,
    env: { ...process.env, NODE_ENV: "production" },
  });
  await waitFor("portkey", () => proc.output().includes("Ready for connections"), 30_000, proc);
  return { proc, port };
}

// ---------- report ----------
const fmtMs = (v) => (v === null || v === undefined || Number.isNaN(v) ? "—" : v < 10 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(1));
const fmtSigned = (v) => (v === null || v === undefined ? "—" : (v < 0 ? "-" : "+") + fmtMs(Math.abs(v)));
const fmtInt = (v) => (v === null || v === undefined ? "—" : String(Math.round(v)));
const median = (xs) => {
  const s = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// One round's figures of a target, in milliseconds and requests/s.
function figures(r) {
  return {
    p50: r.oneConnection.latencyUs.p50 / 1000,
    p99: r.oneConnection.latencyUs.p99 / 1000,
    firstByteP50: r.stream.firstByteMs.p50,
    firstByteP99: r.stream.firstByteMs.p99,
    rps: r.highConcurrency.requestsPerSec,
    highP99: r.highConcurrency.latencyUs.p99 / 1000,
    cpu1: r.oneConnection.cpuMsPerCall ?? null,
    cpu64: r.highConcurrency.cpuMsPerCall ?? null,
    errors: r.oneConnection.errors + r.highConcurrency.errors + r.stream.failures,
  };
}

// Across rounds: the median of each figure (errors: the sum).
function summarize(rounds) {
  const f = rounds.map(figures);
  const out = {};
  for (const k of Object.keys(f[0])) out[k] = k === "errors" ? f.reduce((n, x) => n + x.errors, 0) : median(f.map((x) => x[k]));
  return out;
}

const COLS = ["direct", "floor", "gateway", "portkey"];
const RELAYS = COLS.slice(1); // everything measured against direct
const HEADER = ["", "direct", "bare node proxy", "our gateway", `Portkey ${PORTKEY_VERSION}`];

function rows(results) {
  const s = (k) => results[k]?.summary ?? null;
  const get = (k, f) => (s(k) ? s(k)[f] : null);
  const added = (k, f) => (s(k) && s("direct") ? s(k)[f] - s("direct")[f] : null);
  return [
    ["latency p50, 1 conn (ms)", ...COLS.map((k) => fmtMs(get(k, "p50")))],
    ["latency p99, 1 conn (ms)", ...COLS.map((k) => fmtMs(get(k, "p99")))],
    ["added p50 vs direct (ms)", "", ...RELAYS.map((k) => fmtSigned(added(k, "p50")))],
    ["added p99 vs direct (ms)", "", ...RELAYS.map((k) => fmtSigned(added(k, "p99")))],
    ["stream first byte p50 (ms)", ...COLS.map((k) => fmtMs(get(k, "firstByteP50")))],
    ["stream first byte p99 (ms)", ...COLS.map((k) => fmtMs(get(k, "firstByteP99")))],
    ["added first byte p50 (ms)", "", ...RELAYS.map((k) => fmtSigned(added(k, "firstByteP50")))],
    [`requests/s, ${HIGH_CONNECTIONS} conns`, ...COLS.map((k) => fmtInt(get(k, "rps")))],
    [`latency p99, ${HIGH_CONNECTIONS} conns (ms)`, ...COLS.map((k) => fmtMs(get(k, "highP99")))],
    ["CPU per call, 1 conn (ms)", ...COLS.map((k) => fmtMs(get(k, "cpu1")))],
    [`CPU per call, ${HIGH_CONNECTIONS} conns (ms)`, ...COLS.map((k) => fmtMs(get(k, "cpu64")))],
    ["errors (non-2xx, socket, streams)", ...COLS.map((k) => (s(k) ? String(s(k).errors) : "—"))],
  ];
}

// Every round's own figures, so that the spread behind the medians is visible.
function roundRows(results) {
  const out = [];
  for (const k of COLS) {
    if (!results[k]) continue;
    results[k].rounds.forEach((r, i) => {
      const f = figures(r);
      out.push([
        `${k} #${i + 1}`,
        fmtMs(f.p50),
        fmtMs(f.p99),
        fmtMs(f.firstByteP50),
        fmtMs(f.firstByteP99),
        fmtInt(f.rps),
        fmtMs(f.cpu1),
        String(f.errors),
        r.loadBefore.join(" "),
      ]);
    });
  }
  return out;
}
const ROUND_HEADER = [
  "target, round",
  "p50 1c (ms)",
  "p99 1c (ms)",
  "first byte p50",
  "first byte p99",
  `req/s ${HIGH_CONNECTIONS}c`,
  "CPU/call 1c",
  "errors",
  "load before",
];

function textTable(header, body) {
  const all = [header, ...body];
  const widths = header.map((_, i) => Math.max(...all.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

function mdTable(header, body) {
  return [`| ${header.join(" | ")} |`, `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`, ...body.map((r) => `| ${r.join(" | ")} |`)].join(
    "\n",
  );
}

function targets(results) {
  const g = results.gateway?.summary;
  const d = results.direct?.summary;
  const p = results.portkey?.summary;
  if (!g || !d) return null;
  const addedP50 = g.p50 - d.p50;
  const addedP99 = g.p99 - d.p99;
  const ratio = p ? g.rps / p.rps : null;
  return {
    addedP50Ms: { value: addedP50, target: 0.5, met: addedP50 < 0.5 },
    addedP99Ms: { value: addedP99, target: 2, met: addedP99 < 2 },
    rpsVsPortkey: { value: ratio, target: 3, met: ratio === null ? null : ratio >= 3 },
  };
}

// ---------- main ----------
async function main() {
  if (args["report-only"] === "true") {
    // Re-renders RESULTS.md from the measured bench/results.json (no new measurement).
    const json = JSON.parse(readFileSync(path.join(HERE, "results.json"), "utf8"));
    writeFileSync(path.join(HERE, "RESULTS.md"), markdown(json, HEADER, rows(json.results)));
    console.log("rewrote bench/RESULTS.md from bench/results.json");
    return;
  }
  const startedAt = new Date();
  const info = { ...machine(), date: startedAt.toISOString(), loadBefore: loadavg() };
  console.log(`relay benchmark: ${info.nproc} cores (${info.cpu}), node ${info.node}, load ${info.loadBefore.join(" ")}`);
  console.log(
    `${ROUNDS} round(s), targets interleaved; per target and round: wrk ${DURATION} s at 1 connection and ${DURATION} s at ${HIGH_CONNECTIONS} connections (each after ${WARMUP} s of warm-up), ${STREAM_N} sequential streams`,
  );
  ensureWrk();
  info.wrk = wrkVersion();
  scriptDir = mkdtempSync(path.join(os.tmpdir(), "gw-bench-wrk-"));
  tempDirs.add(scriptDir);

  // Start everything first, then measure the targets in interleaved rounds, so that a
  // change in the machine's load (other developers' builds) hits every target alike.
  const mock = await startMock();
  const list = [];
  const notes = [];
  if (ONLY.has("direct")) {
    list.push({
      key: "direct",
      name: "direct (mock upstream)",
      url: `http://127.0.0.1:${mock.port}/v1/chat/completions`,
      headers: { Authorization: "Bearer sk-mock-upstream" },
      pid: mock.proc.child.pid,
    });
  }
  let floor = null;
  if (ONLY.has("floor")) {
    floor = await startFloor(mock.port);
    list.push({
      key: "floor",
      name: "bare node:http proxy (the floor)",
      url: `http://127.0.0.1:${floor.port}/v1/chat/completions`,
      headers: {},
      pid: floor.proc.child.pid,
    });
  }
  let gw = null;
  if (ONLY.has("gateway")) {
    gw = await startGateway(mock.port);
    const target = {
      key: "gateway",
      name: "our gateway (billing + logs on)",
      url: `${gw.base}/v1/chat/completions`,
      headers: { Authorization: `Bearer ${gw.token.key}` },
      pid: gw.proc.child.pid,
    };
    const probe = await probeRelay(target);
    if (probe.ok) list.push(target);
    else {
      const msg = `our gateway's relay route did not answer a chat completion (HTTP ${probe.status}: ${probe.body.replace(/\s+/g, " ").slice(0, 160)}); gateway not measured`;
      console.log(msg);
      notes.push(msg);
      await stop(gw.proc);
      gw = null;
    }
  }
  let pk = null;
  if (ONLY.has("portkey")) {
    pk = await startPortkey();
    const target = {
      key: "portkey",
      name: `Portkey gateway ${PORTKEY_VERSION}`,
      url: `http://127.0.0.1:${pk.port}/v1/chat/completions`,
      headers: { Authorization: "Bearer sk-mock-upstream", "x-portkey-provider": "openai", "x-portkey-custom-host": `http://127.0.0.1:${mock.port}/v1` },
      pid: pk.proc.child.pid,
    };
    const probe = await probeRelay(target);
    if (!probe.ok) throw new Error(`Portkey did not relay a chat completion: HTTP ${probe.status} ${probe.body}`);
    list.push(target);
  }

  const results = {};
  const before = gw ? await billingSnapshot(gw) : null;
  const gwMeasureStart = Date.now();
  for (let round = 0; round < ROUNDS; round++) {
    const order = list.map((_, i) => list[(i + round) % list.length]);
    for (const target of order) {
      console.log(`\n== round ${round + 1}/${ROUNDS}: ${target.name}`);
      const r = await measure(target);
      (results[target.key] ??= { name: target.name, url: target.url, rounds: [] }).rounds.push(r);
    }
  }
  const gwMeasureEnd = Date.now();
  for (const k of Object.keys(results)) results[k].summary = summarize(results[k].rounds);

  let billing = null;
  if (gw) {
    // Logs are written in batches after the answer: wait (bounded) for the flush.
    const counted = results.gateway.rounds.reduce((n, r) => n + countSuccesses(r), 0);
    let after = await billingSnapshot(gw);
    const deadline = Date.now() + 20_000;
    while (after.consumeLogs - before.consumeLogs < counted && Date.now() < deadline) {
      await sleep(500);
      after = await billingSnapshot(gw);
    }
    billing = {
      before,
      after,
      countedCalls: counted,
      usedQuotaDelta: after.tokenUsedQuota - before.tokenUsedQuota,
      remainQuotaDelta: after.tokenRemainQuota - before.tokenRemainQuota,
      consumeLogDelta: after.consumeLogs - before.consumeLogs,
    };
    billing.quotaPerLoggedCall = billing.consumeLogDelta ? billing.usedQuotaDelta / billing.consumeLogDelta : null;
    // every call the clients counted was logged, and the logged calls used quota
    billing.ok = billing.usedQuotaDelta > 0 && billing.consumeLogDelta >= counted;
    console.log(
      `\nbilling: token used quota +${billing.usedQuotaDelta} (${billing.quotaPerLoggedCall?.toFixed(2)} per logged call), consume logs +${billing.consumeLogDelta} for ${counted} successful calls counted by the clients -> ${billing.ok ? "billed and logged" : "NOT all billed and logged"}`,
    );
    await stop(gw.proc);
    if (GATEWAY_LOG) writeFileSync(GATEWAY_LOG, gw.proc.output());
    if (gw.otlp) {
      // the gateway exported its last spans when it stopped: what the receiver got
      await stop(gw.otlp.proc);
      console.log(gw.otlp.proc.output().trim().split("\n").at(-1));
    }
    // the measurement's window, in seconds before the process's (and the profile's) end
    const stoppedAt = Date.now();
    if (PROFILE) {
      notes.push(profileSummary(gw, "all", (stoppedAt - gwMeasureStart) / 1000, (stoppedAt - gwMeasureEnd) / 1000, billing.countedCalls));
      // the two wrk phases of the first round on their own: CPU per call at 1 and at 64 connections
      const r0 = results.gateway.rounds[0];
      for (const [phase, w] of Object.entries(r0.phases)) {
        notes.push(profileSummary(gw, phase, (stoppedAt - w.start) / 1000, (stoppedAt - w.end) / 1000, r0[phase].requests));
      }
    }
  }
  if (pk) await stop(pk.proc);
  if (floor) await stop(floor.proc);
  await stop(mock.proc);

  info.loadAfter = loadavg();
  info.finishedAt = new Date().toISOString();
  const header = HEADER;
  const body = rows(results);
  const verdict = targets(results);
  console.log(`\n${ROUNDS > 1 ? `medians of ${ROUNDS} rounds` : "one round"}:\n` + textTable(header, body));
  if (ROUNDS > 1) console.log("\nper round:\n" + textTable(ROUND_HEADER, roundRows(results)));
  if (verdict) console.log("\n" + verdictLines(verdict).join("\n"));
  for (const n of notes) console.log(`note: ${n}`);
  console.log(`load average before ${info.loadBefore.join(" ")}, after ${info.loadAfter.join(" ")}`);

  const settings = {
    rounds: ROUNDS,
    durationSeconds: DURATION,
    warmupSeconds: WARMUP,
    streamRequests: STREAM_N,
    highConnections: HIGH_CONNECTIONS,
    model: MODEL,
    request: CHAT,
    streamRequest: CHAT_STREAM,
  };
  const json = { machine: info, settings, results, billing, targets: verdict, notes };
  // Profiled figures are slowed by the profiler: they never replace the results.
  if (PROFILE) console.log("profile run: bench/results.json and bench/RESULTS.md left as they were");
  else if (args["no-write"] !== "true") {
    writeFileSync(path.join(HERE, "results.json"), JSON.stringify(json, null, 2) + "\n");
    writeFileSync(path.join(HERE, "RESULTS.md"), markdown(json, header, body));
    console.log("wrote bench/results.json and bench/RESULTS.md");
  }
}

function profileSummary(gw, label, fromEnd, toEnd, calls) {
  const dir = path.join(HERE, "profiles");
  const prof = readdirSync(dir).find((f) => f.includes(`.${gw.proc.child.pid}.`) && f.endsWith(".cpuprofile"));
  if (!prof) return "the gateway's CPU profile was not written";
  const file = path.join(dir, prof);
  const window = `${fromEnd.toFixed(1)},${toEnd.toFixed(1)}`;
  const summary = spawnSync(process.execPath, [path.join(HERE, "profile-summary.mjs"), file, `--window=${window}`, `--calls=${calls}`], { encoding: "utf8" });
  const out = file.replace(/\.cpuprofile$/, `.${label}.txt`);
  writeFileSync(out, summary.stdout + summary.stderr);
  console.log(`\n[profile: ${label}]\n` + (label === "all" ? summary.stdout : summary.stdout.split("\n\n").slice(0, 2).join("\n\n")) + summary.stderr);
  return `CPU profile of the gateway (node --cpu-prof), ${label}: ${path.relative(ROOT, out)} (--window=${window}, --calls=${calls})`;
}

// Successful calls wrk and the stream client counted in one round, warm-ups included.
// Requests still in flight when wrk stops are not counted by wrk but may be billed: the
// log count may exceed this number by up to the connection count per wrk run, never fall
// short of it.
function countSuccesses(r) {
  const ok = (w) => w.requests - w.non2xx3xx;
  return ok(r.oneConnection) + ok(r.highConcurrency) + r.stream.ok + r.stream.warmupRequests + r.warmups.reduce((n, w) => n + ok(w), 0);
}

// "gateway: 47 wrk timeouts (no answer within 5 s), 0 non-2xx, ..." over every round.
function errorKinds(results) {
  const parts = [];
  for (const k of COLS) {
    if (!results[k]) continue;
    const t = { timeout: 0, read: 0, write: 0, connect: 0, non2xx: 0, streams: 0 };
    for (const r of results[k].rounds) {
      for (const w of [r.oneConnection, r.highConcurrency]) {
        for (const e of ["timeout", "read", "write", "connect"]) t[e] += w.socketErrors[e];
        t.non2xx += w.non2xx3xx;
      }
      t.streams += r.stream.failures;
    }
    parts.push(
      `${k}: ${t.timeout} wrk timeouts (no answer within 5 s), ${t.non2xx} non-2xx answers, ${t.read + t.write + t.connect} socket errors, ${t.streams} failed streams`,
    );
  }
  return parts.join("; ");
}

const yesNo = (b) => (b === null ? "n/a" : b ? "MET" : "MISSED");

function verdictLines(t) {
  return [
    `added p50 at 1 connection under 0.5 ms: ${yesNo(t.addedP50Ms.met)} (${fmtSigned(t.addedP50Ms.value)} ms)`,
    `added p99 at 1 connection under 2 ms: ${yesNo(t.addedP99Ms.met)} (${fmtSigned(t.addedP99Ms.value)} ms)`,
    `requests/s at ${HIGH_CONNECTIONS} connections at least 3x Portkey: ${yesNo(t.rpsVsPortkey.met)} (${t.rpsVsPortkey.value === null ? "—" : t.rpsVsPortkey.value.toFixed(2) + "x"})`,
  ];
}

function markdown(json, header, body) {
  const { machine: m, settings: s, billing: b, targets: t, notes } = json;
  const lines = [
    "# Relay benchmark results",
    "",
    "Written by `npm run bench` (bench/run.mjs); every figure below was measured in that one run on this machine.",
    "",
    `- date: ${m.date} (finished ${m.finishedAt})`,
    `- machine: ${m.nproc} cores (\`nproc\`), ${m.cpu}, ${m.memoryGiB} GiB, ${m.platform}`,
    `- node ${m.node}, ${m.wrk ?? "wrk"}`,
    `- load average (1, 5, 15 min) before: ${m.loadBefore.join(", ")}; after: ${m.loadAfter.join(", ")}. The machine is shared with other developers; with 2 cores, anything else running shows in these figures, p99 most of all. wrk, the mock upstream and the gateway under test share the same 2 cores too.`,
    `- method: ${s.rounds} round(s), the targets interleaved (order rotated each round); per target and round: wrk -t1 -c1 for ${s.durationSeconds} s (latency), ${s.streamRequests} sequential streaming requests (node:http, keep-alive; 20 warm-up requests not counted), wrk -t2 -c${s.highConnections} for ${s.durationSeconds} s (throughput); each wrk run after a ${s.warmupSeconds} s warm-up. The table shows ${s.rounds > 1 ? "the median over the rounds of each figure" : "the figures of the one round"}. Loopback only; the mock upstream answers at once.`,
    "- direct = the mock upstream itself; bare node proxy = `bench/bare-proxy.mjs`, a node:http server that only forwards to the mock on a keep-alive agent (what two node:http hops cost here, the floor of any Node gateway); our gateway = dist/server.mjs on a fresh SQLite database, set up through the API (root, a user with quota, an OpenAI channel (type 1) on the mock, ModelRatio and CompletionRatio for the model, the user's token), billing and consume logs on; Portkey = @portkey-ai/gateway " +
      PORTKEY_VERSION +
      " (installed in a temporary folder) with x-portkey-provider: openai and x-portkey-custom-host pointing at the mock.",
    "- added = target − direct. CPU per call = the target process's own CPU time (user + system, all threads, from /proc) during the wrk run over the calls it served; the mock's CPU is not in the proxies' figures. Stream first byte = from sending the request to the first byte of the response body (the first SSE event), not only the headers.",
    "",
    mdTable(header, body),
    "",
  ];
  if (s.rounds > 1) lines.push("Per round:", "", mdTable(ROUND_HEADER, roundRows(json.results)), "");
  lines.push(`Errors by kind: ${errorKinds(json.results)}.`, "");
  if (t) lines.push("## Targets", "", ...verdictLines(t).map((l) => `- ${l.replace(/: (MET|MISSED|n\/a)/, ": **$1**")}`), "");
  if (b) {
    lines.push(
      "## Billing and logging during our runs",
      "",
      `- token used quota: ${b.before.tokenUsedQuota} → ${b.after.tokenUsedQuota} (+${b.usedQuotaDelta}; ${b.quotaPerLoggedCall?.toFixed(2)} units per logged call)`,
      `- consume log rows: ${b.before.consumeLogs} → ${b.after.consumeLogs} (+${b.consumeLogDelta}) for ${b.countedCalls} successful calls counted by wrk and the stream client, warm-ups included (requests in flight when wrk stops are billed but not counted by wrk, so the log count may be slightly higher, never lower)`,
      `- every counted call billed and logged: **${b.ok ? "yes" : "NO"}**`,
      "",
    );
  }
  if (notes.length) lines.push("## Notes", "", ...notes.map((n) => `- ${n}`), "");
  lines.push("Raw figures (every percentile, request counts, errors, wrk commands, every round): `bench/results.json`.", "");
  return lines.join("\n");
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`bench failed: ${err instanceof Error ? err.stack : err}`);
    process.exit(1);
  },
);
