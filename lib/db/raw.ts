// Driver-level access for the two hot paths that an ORM makes too slow (relay billing and
// usage-log batches): the SQLite connection under Prisma, and a PostgreSQL pool.
import "server-only";
import type BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { env } from "@/lib/env";
import { walWritesHeld } from "@/lib/db/wal-checkpointer";

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

const holder = globalThis as unknown as { __gatewayPgPool?: pg.Pool; __gatewayLogPgPool?: pg.Pool };

// One pool per process for the driver-level statements (Prisma keeps its own).
export function pgPool(): pg.Pool {
  if (!holder.__gatewayPgPool) {
    const pool = new pg.Pool({ connectionString: env().DATABASE_URL, max: 10 });
    // An idle connection the server closes (restart, failover) must not crash the process:
    // the pool drops it and opens another on the next call.
    pool.on("error", (err) => console.error("[db] idle PostgreSQL connection closed:", err.message));
    holder.__gatewayPgPool = pool;
  }
  return holder.__gatewayPgPool;
}

// The pool of the log database (LOG_DATABASE_URL): pgPool() when the logs share the main one.
export function logPgPool(): pg.Pool {
  const e = env();
  if (!e.logsSeparate) return pgPool();
  if (!holder.__gatewayLogPgPool) {
    const pool = new pg.Pool({ connectionString: e.logDatabaseUrl, max: 10 });
    pool.on("error", (err) => console.error("[db] idle PostgreSQL connection to the log database closed:", err.message));
    holder.__gatewayLogPgPool = pool;
  }
  return holder.__gatewayLogPgPool;
}
