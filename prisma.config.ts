// Prisma CLI configuration. The JS schema engine ("js") with a driver adapter keeps the CLI
// offline: the classic engines would be downloaded from a host this machine cannot reach.
// The CLI is only used to generate clients and to diff schemas into SQL migrations
// (scripts/); the program applies those migrations itself at start-up (lib/db/migrate.ts).
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

const provider = process.env.PRISMA_PROVIDER === "postgresql" ? "postgresql" : "sqlite";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: provider === "postgresql" ? "generated/schema.postgresql.prisma" : "prisma/schema.prisma",
  async adapter() {
    if (provider === "postgresql") {
      return new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" });
    }
    return new PrismaBetterSQLite3({ url: "file::memory:" });
  },
});
