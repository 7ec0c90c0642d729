// node deploy/check-layout.mjs [--keep]   (as root, after `npm ci && npm run build`)
//
// The Dockerfile's runtime stage, checked on a machine without a Docker engine (docs/deploy.md,
// "Checking the image without Docker"). It reads the Dockerfile and does what the stage does,
// with this checkout standing in for the build stage's /app:
//   - the build stage's last step (scripts/image-files.mjs: the files the server loads at run
//     time), then each `COPY --from=build` of the runtime stage into a fresh folder, owned by
//     the stage's user id (the stage's `--chown`);
//   - the stage's ENV, with HOSTNAME and PORT changed to a free loopback port, DATA_DIR to a
//     fresh folder owned by that user; its CMD run under that user id (setpriv), nothing else
//     of this checkout reachable from the process's working directory;
//   - its HEALTHCHECK command run as the engine would, until it passes;
//   - then: /readyz 200, / sends to /setup, /api/status answers; SIGTERM (its STOPSIGNAL):
//     /readyz 503 while the node drains, exit 0 within the drain delay and the grace;
//   - when Debian's nginx is installed: deploy/nginx.conf, its upstreams pointed at that
//     node and its listen at a loopback port, passes `nginx -t` and serves /api/status.
// What it cannot check: the base image (node:20-bookworm-slim) and the engine's own steps.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, statSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const KEEP = process.argv.includes("--keep");
const checks = [];
const ok = (what) => {
  checks.push(what);
  console.log(`ok  ${what}`);
};
const fail = (what) => {
  console.error(`FAIL ${what}`);
  process.exitCode = 1;
  throw new Error(what);
};

// ---- the runtime stage, as written
const lines = readFileSync(path.join(ROOT, "Dockerfile"), "utf8")
  .replace(/\\\n\s*/g, " ") // continuation lines joined
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith("#"));
const from = lines.findIndex((l) => /^FROM \S+ AS runtime$/i.test(l));
if (from < 0) fail("the Dockerfile has a stage named runtime");
const stage = lines.slice(from + 1);
const instr = (name) => stage.filter((l) => l.toUpperCase().startsWith(name + " ")).map((l) => l.slice(name.length + 1).trim());

const env = {};
for (const e of instr("ENV")) for (const m of e.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[m[1]] = m[2].replace(/^"|"$/g, "");
const uid = Number(/--uid (\d+)/.exec(instr("RUN").join(" "))?.[1]);
const gid = Number(/--gid (\d+)/.exec(instr("RUN").join(" "))?.[1]);
if (!uid || !gid) fail("the runtime stage makes a user and a group with fixed ids");
if (instr("USER")[0] !== "gateway") fail("the runtime stage runs as the user gateway");
const workdir = instr("WORKDIR")[0];
const copies = instr("COPY").map((c) => {
  const parts = c.split(/\s+/).filter((p) => !p.startsWith("--"));
  if (!/--from=build/.test(c)) fail(`COPY from the build stage only: ${c}`);
  return { sources: parts.slice(0, -1), dest: parts.at(-1) };
});
const cmd = JSON.parse(instr("CMD")[0]);
const health = /CMD (.+)$/.exec(instr("HEALTHCHECK")[0] ?? "")?.[1];
if (!health) fail("the runtime stage has a HEALTHCHECK");
const startPeriod = Number(/--start-period=(\d+)s/.exec(instr("HEALTHCHECK")[0])?.[1] ?? 30);
if ((instr("STOPSIGNAL")[0] ?? "SIGTERM") !== "SIGTERM") fail("STOPSIGNAL is SIGTERM");
ok(`Dockerfile read: ${copies.length} copies, user ${uid}:${gid}, CMD ${cmd.join(" ")}`);

// ---- the image's /app, from this checkout
if (!existsSync(path.join(ROOT, "dist/server.mjs")) || !existsSync(path.join(ROOT, ".next/BUILD_ID"))) fail("built first: npm run build");
const tmp = mkdtempSync(path.join(tmpdir(), "gateway-image-"));
chmodSync(tmp, 0o755); // mkdtemp makes it 0700: the image's user must reach /app and /data below it
const app = path.join(tmp, "app");
const data = path.join(tmp, "data");
mkdirSync(app);
mkdirSync(data);
// the build stage's last step gathers the run-time files into a folder (scripts/image-files.mjs)
const buildStage = lines.slice(0, from);
const gather = buildStage.map((l) => /node (scripts\/image-files\.mjs) (\S+)/.exec(l)).find(Boolean);
if (!gather) fail("the build stage gathers the image's files with scripts/image-files.mjs");
const gathered = path.join(tmp, "build", gather[2]);
execFileSync(process.execPath, [path.join(ROOT, gather[1]), gathered], { cwd: ROOT, stdio: "inherit" });
const fromBuild = (src) => (src.startsWith(gather[2]) ? path.join(gathered, path.relative(gather[2], src)) : path.join(ROOT, path.relative(workdir, src)));
for (const { sources, dest } of copies) {
  const target = path.resolve(app, dest);
  for (const src of sources) {
    const s = fromBuild(src);
    if (!existsSync(s)) fail(`COPY source exists: ${src}`);
    // "src/" copies the folder's contents, as COPY does
    const d = src.endsWith("/") ? target : dest.endsWith("/") || sources.length > 1 ? path.join(target, path.basename(s)) : target;
    cpSync(s, d, { recursive: true, verbatimSymlinks: true });
  }
}
rmSync(path.join(tmp, "build"), { recursive: true, force: true });
for (const dev of ["vitest", "typescript", "prisma", "eslint"])
  if (existsSync(path.join(app, "node_modules", dev))) fail(`the image has no dev packages (${dev} found)`);
if (existsSync(path.join(app, "data")) || existsSync(path.join(app, ".next/cache"))) fail("the image has no local data folder and no build cache");
ok("image tree made: no dev packages, no local data, no build cache");
execFileSync("chown", ["-R", `${uid}:${gid}`, app, data]);
const size = execFileSync("du", ["-sh", app], { encoding: "utf8" }).split("\t")[0];
ok(`/app is ${size}`);

// ---- the container's process
const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const port = await freePort();
const runEnv = { ...env, PATH: process.env.PATH, HOME: app, HOSTNAME: "127.0.0.1", PORT: String(port), DATA_DIR: data };
const asUser = ["--reuid", String(uid), "--regid", String(gid), "--clear-groups"];
let out = "";
const child = spawn("setpriv", [...asUser, ...cmd], { cwd: app, env: runEnv, stdio: ["ignore", "pipe", "pipe"] });
child.stdout.on("data", (d) => (out += d));
child.stderr.on("data", (d) => (out += d));
const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
const base = `http://127.0.0.1:${port}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let nginx;
try {
  const deadline = Date.now() + startPeriod * 1000 * 2;
  for (;;) {
    const r = spawnSync("setpriv", [...asUser, "sh", "-c", health], { cwd: app, env: runEnv });
    if (r.status === 0) break;
    if (Date.now() > deadline || child.exitCode !== null) fail(`the HEALTHCHECK passed in time; server output:\n${out}`);
    await sleep(500);
  }
  ok(`HEALTHCHECK passed (the server runs as uid ${uid} from ${app})`);
  const ready = await fetch(`${base}/readyz`);
  if (ready.status !== 200) fail(`/readyz 200 (got ${ready.status})`);
  const home = await fetch(`${base}/`, { redirect: "manual" });
  if (!(home.status >= 300 && home.status < 400) || !home.headers.get("location")?.includes("/setup")) fail(`/ sends to /setup (got ${home.status})`);
  const status = await (await fetch(`${base}/api/status`)).json();
  if (!status.success) fail("/api/status answers");
  if (!existsSync(path.join(data, "gateway.db"))) fail("the database is made under DATA_DIR");
  if (statSync(path.join(data, "gateway.db")).uid !== uid) fail("the database belongs to the image's user");
  ok("/readyz 200, / sends to /setup, /api/status answers, the database is under DATA_DIR");

  if (spawnSync("nginx", ["-v"]).status === 0) {
    const lbPort = await freePort();
    const conf = readFileSync(path.join(ROOT, "deploy/nginx.conf"), "utf8")
      .replace(/gateway-\d+:3000/g, `127.0.0.1:${port}`)
      // An address needs no lookup, and Debian's nginx predates `resolve` (1.27.3).
      .replace(/^resolver .*$/m, "")
      .replace(/ resolve;/g, ";")
      .replace(/listen 80;/, `listen 127.0.0.1:${lbPort};`);
    const dir = path.join(tmp, "nginx");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "site.conf"), conf);
    writeFileSync(
      path.join(dir, "nginx.conf"),
      `daemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  include ${dir}/site.conf;\n}\n`,
    );
    const t = spawnSync("nginx", ["-t", "-c", path.join(dir, "nginx.conf")], { encoding: "utf8" });
    if (t.status !== 0) fail(`nginx -t on deploy/nginx.conf:\n${t.stderr}`);
    nginx = spawn("nginx", ["-c", path.join(dir, "nginx.conf")], { stdio: "ignore" });
    let via;
    for (let i = 0; i < 50 && !via; i++) {
      via = await fetch(`http://127.0.0.1:${lbPort}/api/status`).catch(() => null);
      if (!via) await sleep(100);
    }
    if (!via || !(await via.json()).success) fail("deploy/nginx.conf serves /api/status");
    ok("deploy/nginx.conf passes nginx -t and serves the node");
  } else console.log("     (nginx not installed: deploy/nginx.conf not checked; apt-get install nginx)");

  // ---- the engine's stop: STOPSIGNAL, then the node drains and exits on its own
  const drain = Number(env.SHUTDOWN_DRAIN_DELAY_MS ?? 0);
  const grace = Number(env.SHUTDOWN_GRACE_MS ?? 0);
  const stopAt = Date.now();
  child.kill("SIGTERM");
  await sleep(Math.min(1000, drain / 2));
  const draining = await fetch(`${base}/readyz`).catch(() => null);
  if (drain > 0 && draining?.status !== 503) fail(`/readyz 503 while draining (got ${draining?.status})`);
  const bound = drain + grace + 5000;
  const end = await Promise.race([exited, sleep(bound).then(() => null)]);
  if (!end) fail(`exit within the drain delay and the grace (${bound} ms)`);
  if (end.code !== 0) fail(`exit 0 after SIGTERM (got ${end.code ?? end.signal}):\n${out}`);
  ok(`SIGTERM: /readyz 503 while draining, exit 0 after ${Date.now() - stopAt} ms`);
  console.log(`\n${checks.length} checks passed`);
} finally {
  nginx?.kill("SIGQUIT");
  if (child.exitCode === null) child.kill("SIGKILL");
  if (KEEP) console.log(`kept: ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
