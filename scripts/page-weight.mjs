// The JavaScript each console page ships on its first load, read from the production build
// (`npm run build` first; docs/console-ui.md, "Page weight"). For every app route: the root
// files every page loads (Next's runtime and React) plus the chunks of the route's layouts
// and page (the client reference manifests under .next/server/app), in bytes as stored and
// gzipped (what crosses the wire). Then the biggest chunks, named by the libraries whose
// marks they carry (Turbopack's production chunks keep no module paths).
//   node scripts/page-weight.mjs [--json] [--dir=<a built tree, default .>]
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const dirArg = process.argv.find((a) => a.startsWith("--dir="));
const NEXT = path.resolve(dirArg ? dirArg.slice("--dir=".length) : ".", ".next");
const json = process.argv.includes("--json");

// Strings that only a given library's code contains, to say what a chunk holds.
const MARKS = [
  ["recharts", /recharts/],
  ["react-markdown / remark / micromark", /micromark|mdast/],
  ["rehype-raw (parse5) / sanitize", /parse5|hast-util-raw|clobberPrefix/],
  ["highlight.js grammars", /hljs|highlight\.js/],
  ["zod", /ZodError/],
  ["react-day-picker / date-fns", /date-fns|rdp-|DayPicker/],
  ["@tanstack/react-table", /getCoreRowModel/],
  ["radix-ui", /radix/],
  ["react-hook-form", /useFormContext|shouldUnregister/],
  ["qrcode", /too big to be stored in a QR Code/],
  ["@simplewebauthn/browser", /PublicKeyCredential/],
  ["react-dom", /react-dom|__reactFiber/],
  ["Next.js app router", /next-router-state-tree/],
  ["next-intl / intl-messageformat", /IntlMessageFormat|next-intl|MISSING_MESSAGE/],
  ["swr", /swr|SWRConfig|\$inf\$/],
];

const sizes = new Map();
function size(file) {
  if (!sizes.has(file)) {
    const buf = readFileSync(path.join(NEXT, file));
    sizes.set(file, { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length });
  }
  return sizes.get(file);
}

function marksOf(file) {
  const text = readFileSync(path.join(NEXT, file), "utf8");
  return MARKS.filter(([, re]) => re.test(text)).map(([name]) => name);
}

function manifests(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) manifests(p, out);
    else if (name === "page_client-reference-manifest.js") out.push(p);
  }
  return out;
}

const build = JSON.parse(readFileSync(path.join(NEXT, "build-manifest.json"), "utf8"));
const root = build.rootMainFiles;
const rows = [];
for (const file of manifests(path.join(NEXT, "server", "app"))) {
  const g = {};
  new Function("globalThis", readFileSync(file, "utf8"))(g);
  for (const [route, m] of Object.entries(g.__RSC_MANIFEST)) {
    if (!route.endsWith("/page") || route.startsWith("/api/") || route.startsWith("/_")) continue;
    const page = `[project]/app${route}`;
    const own = new Set();
    for (const [entry, files] of Object.entries(m.entryJSFiles)) {
      if (entry === page || entry === "[project]/app/layout" || (entry.endsWith("/layout") && page.startsWith(entry.slice(0, -"layout".length)))) {
        for (const f of files) own.add(f);
      }
    }
    const all = [...new Set([...root, ...own])];
    const raw = all.reduce((n, f) => n + size(f).raw, 0);
    const gzip = all.reduce((n, f) => n + size(f).gzip, 0);
    rows.push({ route: route.replace(/\/page$/, "") || "/", chunks: all.length, raw, gzip, files: all });
  }
}
rows.sort((a, b) => b.gzip - a.gzip);

const used = new Map();
for (const r of rows) for (const f of r.files) used.set(f, (used.get(f) ?? 0) + 1);
const chunks = [...used.entries()]
  .map(([file, pages]) => ({ file: path.basename(file), pages, ...size(file), holds: marksOf(file) }))
  .sort((a, b) => b.gzip - a.gzip);

if (json) {
  console.log(JSON.stringify({ pages: rows.map(({ files: _f, ...r }) => r), chunks }, null, 2));
} else {
  const kb = (n) => (n / 1024).toFixed(1).padStart(7);
  console.log("First-load JavaScript per page (kB; root files + layouts + page)\n");
  console.log("route".padEnd(34) + "chunks" + "    raw" + "   gzip");
  for (const r of rows) console.log(r.route.padEnd(34) + String(r.chunks).padStart(6) + kb(r.raw) + kb(r.gzip));
  console.log(`\nChunks loaded by pages on first load (${chunks.length}), biggest first (kB)\n`);
  console.log("chunk".padEnd(22) + "pages" + "    raw" + "   gzip  holds");
  for (const c of chunks.slice(0, 25)) console.log(c.file.padEnd(22) + String(c.pages).padStart(5) + kb(c.raw) + kb(c.gzip) + "  " + c.holds.join(", "));
}
