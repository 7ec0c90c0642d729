// The Prisma client for the configured database. Both clients are generated from the one
// schema (prisma/schema.prisma); the program is written against the SQLite client's types,
// which the PostgreSQL client shares model for model.
import "server-only";
import type BetterSqlite3 from "better-sqlite3";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "@/generated/sqlite/client";
import { PrismaClient as PostgresClient } from "@/generated/postgresql/client";
import { env } from "@/lib/env";
import { startWalCheckpointer } from "@/lib/db/wal-checkpointer";
import { logPrismaPgPool, prismaPgPool, sqliteTransactionOpen, whenSqliteIdle } from "@/lib/db/raw";
import { escapeSqliteLikes } from "@/lib/db/like";

export type Db = SqliteClient;
export type Tx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

function sqlitePath(url: string): string {
  return url.replace(/^file:/, "");
}

// main: the database of DATABASE_URL; else the log database (LOG_DATABASE_URL), which holds
// only the usage logs and their rollups in use (docs/operations.md, "Logs at scale").
function create(main: boolean): Db {
  const { DATABASE_URL, logDatabaseUrl, databaseKind } = env();
  const url = main ? DATABASE_URL : logDatabaseUrl;
  if (databaseKind === "postgresql") {
    // The pools are made here rather than inside the adapter, so that GET /metrics can read
    // their counts (lib/db/raw.ts, pgPoolStats); $disconnect ends them as before.
    const adapter = new PrismaPg(main ? prismaPgPool() : logPrismaPgPool(), { disposeExternalPool: true });
    return new PostgresClient({ adapter }) as unknown as Db;
  }
  const adapter = new PrismaBetterSQLite3({ url: sqlitePath(url), timeout: 5000 });
  if (!main) {
    // The log database's connection: its writers are the log batches, the rollup job and the
    // retention (lib/rollups/retention.ts), each a short synchronous step (whenSqliteIdle); the
    // WAL is checkpointed by SQLite's own automatic checkpoint (the worker of
    // lib/db/wal-checkpointer.ts serves the main database).
    const connect = adapter.connect.bind(adapter);
    adapter.connect = async () => {
      const opened = await connect();
      const conn = (opened as unknown as { client: BetterSqlite3.Database }).client;
      escapeSqliteLikes(opened as unknown as Parameters<typeof escapeSqliteLikes>[0]);
      conn.pragma("synchronous = NORMAL");
      conn.pragma("secure_delete = ON");
      holder.__gatewayLogSqlite = conn;
      return opened;
    };
    return new SqliteClient({ adapter });
  }
  // Keep hold of the connection Prisma opens: the relay's billing (lib/billing/store) runs
  // its synchronous transactions on this same connection, so that SQLite has one writer.
  const connect = adapter.connect.bind(adapter);
  adapter.connect = async () => {
    const opened = await connect();
    const conn = (opened as unknown as { client: BetterSqlite3.Database }).client;
    // Prisma's statements wait while the relay's billing holds the connection for a turn.
    const queryable = opened as unknown as Record<"queryRaw" | "executeRaw" | "executeScript" | "startTransaction", (...a: unknown[]) => Promise<unknown>>;
    for (const name of ["queryRaw", "executeRaw", "executeScript", "startTransaction"] as const) {
      const run = queryable[name].bind(opened);
      queryable[name] = (...args) => {
        const busy = sqliteTransactionOpen();
        return busy ? busy.catch(() => {}).then(() => queryable[name](...args)) : run(...args);
      };
    }
    // Searches escape "%" and "_" with a backslash (lib/db/like.ts): SQLite is told so.
    escapeSqliteLikes(opened as unknown as Parameters<typeof escapeSqliteLikes>[0]);
    // WAL (set by the migrator) with NORMAL sync: durable against a crash of the process; an
    // OS crash may lose the last commits. Checkpoints run on a worker thread.
    conn.pragma("synchronous = NORMAL");
    // Deleted and overwritten content (an old secret option, a deleted row) is zeroed, free
    // pages included, instead of lingering in the file (docs/secrets.md).
    conn.pragma("secure_delete = ON");
    startWalCheckpointer(conn, sqlitePath(DATABASE_URL));
    holder.__gatewaySqlite = conn;
    return opened;
  };
  return new SqliteClient({ adapter });
}

// Kept on globalThis so that Next's route handlers and server.ts (separate module graphs in
// one process) share one client and one connection pool.
const holder = globalThis as unknown as {
  __gatewayDb?: Db;
  __gatewaySqlite?: BetterSqlite3.Database;
  __gatewayLogDb?: Db;
  __gatewayLogSqlite?: BetterSqlite3.Database;
};

// The SQLite connection under the Prisma client (SQLite mode only).
export async function sqliteConnection(): Promise<BetterSqlite3.Database> {
  if (!holder.__gatewaySqlite) await db().$connect();
  if (!holder.__gatewaySqlite) throw new Error("the SQLite connection is not open");
  return holder.__gatewaySqlite;
}
export function db(): Db {
  holder.__gatewayDb ??= create(true);
  return holder.__gatewayDb;
}

/** True when LOG_DATABASE_URL puts the usage logs in a database of their own. */
export const logsSeparate = (): boolean => env().logsSeparate;

/**
 * The client of the usage logs and their rollups: db() unless LOG_DATABASE_URL is set. A
 * query never joins logs with the main database's tables (docs/operations.md).
 */
export function logDb(): Db {
  if (!logsSeparate()) return db();
  holder.__gatewayLogDb ??= create(false);
  return holder.__gatewayLogDb;
}

/** The SQLite connection of the log database (the main one when the logs share it). */
export async function logSqliteConnection(): Promise<BetterSqlite3.Database> {
  if (!logsSeparate()) return sqliteConnection();
  if (!holder.__gatewayLogSqlite) await logDb().$connect();
  if (!holder.__gatewayLogSqlite) throw new Error("the log database's SQLite connection is not open");
  return holder.__gatewayLogSqlite;
}

// After old values were overwritten (secret options sealed at start-up, docs/secrets.md): the
// WAL is copied back and cut to nothing, so that no page image in it keeps the old bytes.
export async function truncateSqliteWal(): Promise<void> {
  if (env().databaseKind !== "sqlite") return;
  const conn = await sqliteConnection();
  await whenSqliteIdle(conn, () => conn.pragma("wal_checkpoint(TRUNCATE)"));
}

export { sqlitePath };
