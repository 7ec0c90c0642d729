// The PostgreSQL schema is derived from prisma/schema.prisma: only the datasource provider
// and the generated client's folder differ. Used by generate-clients and new-migration.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";

export const PG_SCHEMA = "generated/schema.postgresql.prisma";

export function toPostgresSchema(sqliteSchemaText) {
  const out = sqliteSchemaText
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('output     = "../generated/sqlite"', 'output     = "./postgresql"')
    .replace('url      = "file:./dev.db"', 'url      = "postgresql://localhost/unused"');
  if (out.includes('"sqlite"') || !out.includes('output     = "./postgresql"')) {
    throw new Error("prisma/schema.prisma no longer matches the patterns scripts/prisma-variants.mjs rewrites");
  }
  return out;
}

export function writePostgresSchema(from = "prisma/schema.prisma", to = PG_SCHEMA) {
  mkdirSync("generated", { recursive: true });
  writeFileSync(to, toPostgresSchema(readFileSync(from, "utf8")));
  return to;
}
