// Applies the SQL migrations in prisma/migrations/<provider>/ that have not run yet, in
// name order, each in its own transaction, and records them in _migrations. Runs at
// start-up before the server listens. On PostgreSQL an advisory lock keeps several nodes
// starting at once from applying the same file twice.
import "server-only";
import { readdirSync, readFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { env } from "@/lib/env";
import { sqlitePath } from "@/lib/db/client";
import { nowSeconds } from "@/lib/time";

const LOCK_ID = 4_242_001;

function pending(dir: string, applied: Set<string>) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .filter((f) => !applied.has(f))
    .map((f) => ({ name: f, sql: readFileSync(path.join(dir, f), "utf8") }));
}

export const SQLITE_PAGE_SIZE = 1024;

// The main database, and the log database when LOG_DATABASE_URL names one: the same
// migrations make the same tables there, of which the logs and their rollups are used
// (docs/operations.md, "Logs at scale"). Answers the files applied (to the log database: "log:" and the name).
export async function migrate(): Promise<string[]> {
  const e = env();
  const applied = await migrateOne(e.DATABASE_URL);
  if (e.logsSeparate) applied.push(...(await migrateOne(e.logDatabaseUrl)).map((n) => `log:${n}`));
  return applied;
}

async function migrateOne(url: string): Promise<string[]> {
  const e = env();
  const dir = path.resolve(e.MIGRATIONS_DIR, e.databaseKind);
  const now = nowSeconds();
  if (e.databaseKind === "sqlite") {
    const file = sqlitePath(url);
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const conn = new Database(file);
    try {
      // A new database gets 1 KiB pages (SQLite's default is 4 KiB; an existing file keeps
      // its own). Every commit appends each page it changed to the WAL, whole, and a relay
      // call changes about six: with 4 KiB pages that was 60 MB/s of WAL at one connection,
      // all of it fsynced by the checkpoints (docs/relay.md has the measurements). It must be
      // set before the first table and before WAL.
      conn.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
      // WAL lets readers proceed while a writer commits; it is a property of the file.
      conn.pragma("journal_mode = WAL");
      conn.pragma("secure_delete = ON"); // on every connection (docs/secrets.md)
      conn.exec('CREATE TABLE IF NOT EXISTS "_migrations" ("name" TEXT PRIMARY KEY, "applied_at" BIGINT NOT NULL)');
      const applied = new Set(conn.prepare('SELECT "name" FROM "_migrations"').pluck().all() as string[]);
      const toApply = pending(dir, applied);
      for (const m of toApply) {
        conn.transaction(() => {
          conn.exec(m.sql);
          conn.prepare('INSERT INTO "_migrations" ("name", "applied_at") VALUES (?, ?)').run(m.name, now);
        })();
      }
      return toApply.map((m) => m.name);
    } finally {
      conn.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_ID]);
    await client.query('CREATE TABLE IF NOT EXISTS "_migrations" ("name" TEXT PRIMARY KEY, "applied_at" BIGINT NOT NULL)');
    const rows = await client.query<{ name: string }>('SELECT "name" FROM "_migrations"');
    const toApply = pending(dir, new Set(rows.rows.map((r) => r.name)));
    for (const m of toApply) {
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO "_migrations" ("name", "applied_at") VALUES ($1, $2)', [m.name, now]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
      }
    }
    return toApply.map((m) => m.name);
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_ID]).catch(() => {});
    await client.end();
  }
}
