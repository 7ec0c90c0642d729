// npm run db:migration -- <name>
// Writes prisma/migrations/{sqlite,postgresql}/NNNN_<name>.sql: the SQL that takes the schema
// of the last migration (prisma/migrations/schema.prisma, a copy kept for this diff) to the
// current prisma/schema.prisma. The program applies these files itself at start-up.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { writePostgresSchema } from "./prisma-variants.mjs";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]+/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(2);
}
const LAST = "prisma/migrations/schema.prisma";
const env = { ...process.env, CHECKPOINT_DISABLE: "1" };

function diff(provider, fromSchema, toSchema) {
  const from = fromSchema ? ["--from-schema-datamodel", fromSchema] : ["--from-empty"];
  return execFileSync(process.execPath, ["node_modules/prisma/build/index.js", "migrate", "diff", ...from, "--to-schema-datamodel", toSchema, "--script"], {
    env: { ...env, PRISMA_PROVIDER: provider },
    encoding: "utf8",
  });
}

const hasLast = existsSync(LAST);
const outputs = {
  sqlite: diff("sqlite", hasLast ? LAST : null, "prisma/schema.prisma"),
  postgresql: diff("postgresql", hasLast ? writePostgresSchema(LAST, "generated/last.postgresql.prisma") : null, writePostgresSchema()),
};
if (!outputs.sqlite.match(/^\s*[A-Z]/m)) {
  console.log("The schema has not changed since the last migration.");
  process.exit(0);
}
for (const [provider, sql] of Object.entries(outputs)) {
  const dir = `prisma/migrations/${provider}`;
  mkdirSync(dir, { recursive: true });
  // one past the highest number (numbers have gaps where merged branches' migrations were renumbered)
  const highest = Math.max(0, ...readdirSync(dir).map((f) => Number(/^(\d+)_.*\.sql$/.exec(f)?.[1] ?? 0)));
  const next = String(highest + 1).padStart(4, "0");
  writeFileSync(`${dir}/${next}_${name}.sql`, sql);
  console.log(`wrote ${dir}/${next}_${name}.sql`);
}
copyFileSync("prisma/schema.prisma", LAST);
