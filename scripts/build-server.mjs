// Bundles server.ts (and the lib/ code it imports) into dist/server.mjs for `npm start`.
// Packages stay external and load from node_modules; the generated Prisma clients and the
// @/ aliases are bundled in.
import { build } from "esbuild";

await build({
  entryPoints: ["server.ts"],
  outfile: "dist/server.mjs",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  tsconfig: "tsconfig.json",
  sourcemap: true,
  banner: {
    js: 'process.env.NODE_ENV = process.env.NODE_ENV || "production"; process.env.NEXT_TELEMETRY_DISABLED = "1";',
  },
  logLevel: "warning",
});
console.log("built dist/server.mjs");
