// node scripts/image-files.mjs OUT   (after `npm run build`)
//
// Copies into OUT exactly what `node dist/server.mjs` needs at run time, for the container
// image's runtime stage (Dockerfile, docs/deploy.md "The image"): the built server, Next's
// build output without its build cache, and only the files of node_modules that these load.
// Which files those are is found the way Next's own "standalone" output finds them: by
// tracing imports and file reads with @vercel/nft (the copy inside next), starting from
// dist/server.mjs, plus the traces Next wrote for its server and each route (.nft.json).
// The whole node_modules, dev packages pruned, is about 900 MB; the traced files are a
// fraction of it.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { nodeFileTrace } = require("next/dist/compiled/@vercel/nft");

const out = path.resolve(process.argv[2] ?? "");
if (!process.argv[2]) throw new Error("usage: node scripts/image-files.mjs OUT");
if (!existsSync(path.join(ROOT, "dist/server.mjs")) || !existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("run `npm run build` first");

// whole folders and files, as they are (the .next build cache is for the next build only)
// (next.config.ts is not among them: production reads the config the build resolved, server.ts)
const WHOLE = ["dist", "public", "messages", "prisma/migrations", "package.json", ".next"];
const SKIP = new Set([path.join(ROOT, ".next/cache")]);

const files = new Set();
// 1. what dist/server.mjs loads (packages stay external in it: scripts/build-server.mjs)
const traced = await nodeFileTrace([path.join(ROOT, "dist/server.mjs")], { base: ROOT, processCwd: ROOT });
for (const f of traced.fileList) files.add(path.join(ROOT, f));
// 2. what Next's server and each route load, as Next traced them at build time
const nftFiles = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (SKIP.has(p)) continue;
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith(".nft.json")) nftFiles.push(p);
  }
};
walk(path.join(ROOT, ".next"));
for (const nft of nftFiles) {
  const { files: list } = JSON.parse(readFileSync(nft, "utf8"));
  for (const f of list) files.add(path.resolve(path.dirname(nft), f));
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const w of WHOLE) {
  const src = path.join(ROOT, w);
  cpSync(src, path.join(out, w), { recursive: true, filter: (s) => !SKIP.has(s) });
}
let copied = 0;
for (const f of files) {
  const rel = path.relative(ROOT, f);
  // packages only: the traces also name sources and the local data folder (a database the
  // build machine may hold must never reach an image); what else runs is in WHOLE
  if (!rel.startsWith("node_modules" + path.sep) || !existsSync(f) || statSync(f).isDirectory()) continue;
  const dest = path.join(out, rel);
  mkdirSync(path.dirname(dest), { recursive: true });
  cpSync(f, dest, { verbatimSymlinks: true });
  copied++;
}
console.log(`image files in ${out}: ${WHOLE.join(", ")} and ${copied} traced files`);
