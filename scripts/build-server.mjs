// Bundles server.ts (and the lib/ code it imports) into dist/server.mjs for `npm start`.
// Packages stay external and load from node_modules; the generated Prisma clients and the
// @/ aliases are bundled in. tsconfig.server.json also maps `server-only` to its empty module:
// the package throws unless it is resolved for React Server Components, which Next does for
// app/ but nothing does for this plain node:http server (docs/conventions.md).
import { build } from "esbuild";

await build({
  entryPoints: ["server.ts"],
  outfile: "dist/server.mjs",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  tsconfig: "tsconfig.server.json",
  sourcemap: true,
  banner: {
    js: 'process.env.NODE_ENV = process.env.NODE_ENV || "production"; process.env.NEXT_TELEMETRY_DISABLED = "1";',
  },
  logLevel: "warning",
});
console.log("built dist/server.mjs");
