// Summarises a V8 CPU profile of the gateway (written by `npm run bench -- --profile`, i.e.
// node --cpu-prof on dist/server.mjs) into where the time goes: self and inclusive time per
// function, mapped back to the TypeScript sources through dist/server.mjs.map, and per area
// (our lib/ folders, Node's HTTP internals, Prisma, Next, GC, idle).
//
//   node bench/profile-summary.mjs [profile.cpuprofile] [--last=SECONDS | --window=FROM,TO] [--calls=N] [--top=25]
//
// --last keeps only the samples of the final SECONDS of the profile; --window=FROM,TO the
// samples between FROM and TO seconds before the profile's end (run.mjs passes the window
// of the measurement, leaving out start-up, setup and the billing check). --calls: the
// relayed calls in that window, to print the CPU time per call.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);

const argv = process.argv.slice(2);
const opt = Object.fromEntries(argv.filter((a) => a.startsWith("--")).map((a) => a.slice(2).split("=")));
let file = argv.find((a) => !a.startsWith("--"));
if (!file) {
  const dir = path.join(HERE, "profiles");
  const all = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(dir, f));
  if (!all.length) throw new Error(`no .cpuprofile in ${dir}`);
  file = all.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}
const TOP = Number(opt.top ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8"));

let sourceMap = null;
try {
  sourceMap = new SourceMap(JSON.parse(readFileSync(path.join(ROOT, "dist/server.mjs.map"), "utf8")));
} catch {}

// A readable location: bundled frames mapped to their source file and line.
function where(cf) {
  const url = cf.url || "";
  if (url.endsWith("/dist/server.mjs") && sourceMap) {
    const e = sourceMap.findEntry(cf.lineNumber, cf.columnNumber);
    if (e && e.originalSource) {
      const src = e.originalSource.replace(/^.*?\/(lib|app|server\.ts|generated)\b/, "$1");
      return { file: src, line: e.originalLine + 1 };
    }
  }
  const short = url
    .replace(/^file:\/\//, "")
    .replace(/^.*\/node_modules\//, "node_modules/")
    .replace(ROOT + "/", "");
  return { file: short || "(native)", line: cf.lineNumber + 1 };
}

function area(loc, fn) {
  const f = loc.file;
  if (fn === "(idle)") return "idle";
  if (fn === "(garbage collector)") return "garbage collector";
  if (fn === "(program)") return "(program: V8/native, unattributed)";
  if (fn === "(root)") return "(root)";
  if (f.startsWith("lib/")) return f.split("/").slice(0, 2).join("/").replace(/\.ts$/, "");
  if (f === "server.ts") return "server.ts";
  if (f.startsWith("generated/")) return "generated (Prisma client)";
  if (f.startsWith("node_modules/")) {
    const parts = f.split("/");
    return parts[1].startsWith("@") ? `${parts[1]}/${parts[2]}` : parts[1];
  }
  if (f.startsWith("node:")) {
    // node:_http_server -> node:http, node:internal/streams/... -> node:streams
    const first = f
      .replace(/^node:(internal\/)?/, "")
      .split("/")[0]
      .replace(/\.js$/, "")
      .replace(/^_/, "");
    return `node:${first.split("_")[0]}`;
  }
  // builtins and native calls (writev, JSON.parse, ...) by name
  return f === "(native)" ? `native: ${fn}` : f;
}

const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const info = new Map();
for (const n of profile.nodes) {
  const loc = where(n.callFrame);
  const fn = n.callFrame.functionName || "(anonymous)";
  info.set(n.id, { key: `${fn}  ${loc.file}:${loc.line}`, area: area(loc, fn), fn });
}

// Sample timestamps: startTime + cumulative timeDeltas (microseconds).
const times = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));
const last = opt.last ? Number(opt.last) * 1e6 : null;
const windowSec = opt.window ? opt.window.split(",").map(Number) : null;
const from = windowSec ? profile.endTime - windowSec[0] * 1e6 : last ? profile.endTime - last : -Infinity;
const to = windowSec ? profile.endTime - windowSec[1] * 1e6 : Infinity;

const self = new Map();
const inclusive = new Map();
const areas = new Map();
const areasInclusive = new Map();
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  if (times[i] < from || times[i] > to) continue;
  const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i]) / 1000; // ms until the next sample
  const id = profile.samples[i];
  const me = info.get(id);
  total += dt;
  self.set(me.key, (self.get(me.key) ?? 0) + dt);
  areas.set(me.area, (areas.get(me.area) ?? 0) + dt);
  const seen = new Set();
  const seenArea = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = info.get(cur);
    if (!seen.has(k.key)) {
      seen.add(k.key);
      inclusive.set(k.key, (inclusive.get(k.key) ?? 0) + dt);
    }
    if (!seenArea.has(k.area)) {
      seenArea.add(k.area);
      areasInclusive.set(k.area, (areasInclusive.get(k.area) ?? 0) + dt);
    }
  }
}

const idle = areas.get("idle") ?? 0;
const busy = total - idle;
const pct = (v, of) => `${((100 * v) / of).toFixed(1)}%`.padStart(6);
const ms = (v) => `${v.toFixed(0)} ms`.padStart(9);
const topOf = (m, n, filter = () => true) =>
  [...m]
    .filter(([k]) => filter(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n);

const span = windowSec ? ` (from ${windowSec[0]} s to ${windowSec[1]} s before the end)` : last ? ` (last ${opt.last} s)` : "";
console.log(
  `profile ${path.relative(process.cwd(), file)}: ${(total / 1000).toFixed(1)} s sampled${span}, busy ${(busy / 1000).toFixed(1)} s (${pct(busy, total).trim()}), idle ${(idle / 1000).toFixed(1)} s`,
);
if (opt.calls) console.log(`${opt.calls} relayed calls in the window: ${(busy / Number(opt.calls)).toFixed(2)} ms of the gateway's CPU per call`);
console.log("\nself time by area (share of busy time):");
for (const [k, v] of topOf(areas, 30, (k) => k !== "idle")) console.log(`  ${ms(v)} ${pct(v, busy)}  ${k}`);
console.log("\ninclusive time by area (a sample counts once per area on its stack):");
for (const [k, v] of topOf(areasInclusive, 30, (k) => k !== "idle" && k !== "(root)")) console.log(`  ${ms(v)} ${pct(v, busy)}  ${k}`);
console.log(`\ntop ${TOP} functions by self time:`);
for (const [k, v] of topOf(self, TOP, (k) => !k.startsWith("(idle)"))) console.log(`  ${ms(v)} ${pct(v, busy)}  ${k}`);
console.log(`\ntop ${TOP} of our functions (lib/, server.ts) by inclusive time:`);
for (const [k, v] of topOf(inclusive, TOP, (k) => / (lib\/|server\.ts)/.test(k))) console.log(`  ${ms(v)} ${pct(v, busy)}  ${k}`);
