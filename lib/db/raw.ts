// Driver-level access for the two hot paths that an ORM makes too slow (relay billing and
// usage-log batches): the SQLite connection under Prisma, and a PostgreSQL pool.
import "server-only";
import { logger } from "@/lib/logger";
import type BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { env } from "@/lib/env";
import { walWritesHeld } from "@/lib/db/wal-checkpointer";

const log = logger("db");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WAIT_FOR_MS = 10_000;

// A billing transaction the relay left open until the next turn of the event loop, so that
// its COMMIT runs while the upstream works on the call (lib/billing/store/sqlite.ts). Until
// it settles, nothing else may use the connection: whenSqliteIdle and Prisma's queries
// (lib/db/client.ts) wait for it.
let openTransaction: Promise<void> | null = null;

export function holdSqliteUntil(done: Promise<void>): void {
  openTransaction = done;
  const clear = () => {
    if (openTransaction === done) openTransaction = null;
  };
  done.then(clear, clear);
}

// The billing transaction left open, if any: what Prisma's statements wait for.
export function sqliteTransactionOpen(): Promise<void> | null {
  return openTransaction;
}

// Runs synchronous work on the SQLite connection that Prisma also uses, at a moment when no
// Prisma interactive transaction is open on it (those span awaits; ours end within a turn).
// The check and the work happen in the same turn of the event loop, so nothing can slip
// between. It also waits while the WAL checkpointer holds writes to restart the WAL.
export async function whenSqliteIdle<T>(conn: BetterSqlite3.Database, work: () => T): Promise<T> {
  const busy = () => walWritesHeld() ?? openTransaction;
  for (let wait = busy(); wait; wait = busy()) await wait.catch(() => {});
  const deadline = Date.now() + WAIT_FOR_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 20)) {
    if (!conn.inTransaction) return work();
    if (Date.now() > deadline) throw new Error("the database connection stayed inside a transaction");
    await sleep(pause);
  }
}

const holder = globalThis as unknown as {
  __gatewayPgPool?: pg.Pool;
  __gatewayPrismaPool?: pg.Pool;
  __gatewayLogPgPool?: pg.Pool;
  __gatewayLogPrismaPool?: pg.Pool;
};

// The most connections each of the two PostgreSQL pools opens.
export const PG_POOL_MAX = 10;

// A PostgreSQL pool. An idle connection the server closes (restart, failover) must not crash
// the process: the pool drops it and opens another on the next call.
export function newPgPool(name: string, connectionString: string = env().DATABASE_URL): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: PG_POOL_MAX });
  pool.on("error", (err) => log.error({ pool: name, error: err.message }, "idle PostgreSQL connection closed"));
  return pool;
}

// One pool per process for the driver-level statements (Prisma's client has the other one,
// made by lib/db/client.ts through prismaPgPool()).
export function pgPool(): pg.Pool {
  return (holder.__gatewayPgPool ??= newPgPool("driver"));
}

export function prismaPgPool(): pg.Pool {
  return (holder.__gatewayPrismaPool ??= newPgPool("prisma"));
}

// The log database's pools (LOG_DATABASE_URL; docs/operations.md, "Logs at scale"): the
// driver's (pgPool() when the logs share the main database) and its Prisma client's.
export function logPgPool(): pg.Pool {
  const e = env();
  if (!e.logsSeparate) return pgPool();
  return (holder.__gatewayLogPgPool ??= newPgPool("log-driver", e.logDatabaseUrl));
}
export function logPrismaPgPool(): pg.Pool {
  return (holder.__gatewayLogPrismaPool ??= newPgPool("log-prisma", env().logDatabaseUrl));
}

// GET /metrics' pool gauges: the pools opened so far (none on SQLite; docs/operations.md).
export function pgPoolStats(): { pool: string; total: number; idle: number; waiting: number; max: number }[] {
  const out = [];
  for (const [name, p] of [
    ["prisma", holder.__gatewayPrismaPool],
    ["driver", holder.__gatewayPgPool],
    ["log-prisma", holder.__gatewayLogPrismaPool],
    ["log-driver", holder.__gatewayLogPgPool],
  ] as const) {
    if (p) out.push({ pool: name, total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount, max: PG_POOL_MAX });
  }
  return out;
}
