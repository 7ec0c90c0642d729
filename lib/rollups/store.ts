// Driver-level access for the rollups (docs/dashboard.md): statements written once with "?"
// placeholders, run on the SQLite connection under Prisma (synchronously, so that a group of
// statements is one snapshot and one atomic step) or on the PostgreSQL pool (in a transaction).
// Sums come back as bigint on both databases.
import "server-only";
import type BetterSqlite3 from "better-sqlite3";
import type pg from "pg";
import { env } from "@/lib/env";
import { logSqliteConnection } from "@/lib/db/client";
import { logPgPool, whenSqliteIdle } from "@/lib/db/raw";

export type Row = Record<string, unknown>;
export type Param = string | number | bigint;

export const isSqlite = () => env().databaseKind !== "postgresql";

// "?" placeholders to PostgreSQL's numbered ones ($1, $2, ...). The statements of this folder
// never hold a "?" inside a literal.
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

const big = (v: unknown): bigint => (typeof v === "bigint" ? v : v === null || v === undefined ? 0n : BigInt(v as string | number));

/** A column read as bigint (PostgreSQL answers SUM and COUNT as text, SQLite as integers). */
export const asBig = big;
export const asNum = (v: unknown): number => Number(big(v));

/**
 * The size of the next batch of a long SQLite job (the rollup job's log ids, the retention's
 * deleted rows): a batch runs synchronously on the one connection and holds the event loop
 * while it runs, so it is sized from the last batches' time per item to take about `budgetMs`,
 * within [min, max]. The data decides the cost of an item (a log alone in its rollup row
 * costs an upsert into a table of millions of rows), not a fixed count.
 */
export class BatchSizer {
  private msPerItem = 0;
  size: number;
  constructor(private readonly o: { budgetMs: number; min: number; max: number; first: number }) {
    this.size = o.first;
  }
  record(ms: number, items: number): void {
    if (items <= 0) return;
    const per = ms / items;
    this.msPerItem = this.msPerItem ? 0.7 * this.msPerItem + 0.3 * per : per;
    this.size = Math.min(this.o.max, Math.max(this.o.min, Math.floor(this.o.budgetMs / Math.max(this.msPerItem, 1e-6))));
  }
}

// SQLite: the statements of `work` run within one synchronous call on the one connection, so
// that nothing else of this process runs between them; `write` makes it one transaction that
// takes the write lock at once (BEGIN IMMEDIATE), a read is a deferred transaction (one snapshot).
export async function sqliteStep<T>(write: boolean, work: (conn: BetterSqlite3.Database) => T): Promise<T> {
  const conn = await logSqliteConnection();
  return whenSqliteIdle(conn, () => {
    const tx = conn.transaction(() => work(conn));
    return write ? tx.immediate() : tx.deferred();
  });
}

export function sqliteAll(conn: BetterSqlite3.Database, sql: string, params: Param[] = []): Row[] {
  return conn
    .prepare(sql)
    .safeIntegers(true)
    .all(...params) as Row[];
}

export function sqliteRun(conn: BetterSqlite3.Database, sql: string, params: Param[] = []): number {
  return conn.prepare(sql).run(...params).changes;
}

// PostgreSQL: `work` runs inside BEGIN ... COMMIT on one pooled client (ROLLBACK on error).
export async function pgStep<T>(isolation: "read committed" | "repeatable read", work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await logPgPool().connect();
  try {
    await client.query(`BEGIN ISOLATION LEVEL ${isolation.toUpperCase()}`);
    try {
      const out = await work(client);
      await client.query("COMMIT");
      return out;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    }
  } finally {
    client.release();
  }
}

export async function pgAll(client: pg.PoolClient, sql: string, params: Param[] = []): Promise<Row[]> {
  return (
    await client.query(
      numbered(sql),
      params.map((p) => (typeof p === "bigint" ? p.toString() : p)),
    )
  ).rows as Row[];
}

export async function pgRun(client: pg.PoolClient, sql: string, params: Param[] = []): Promise<number> {
  return (
    (
      await client.query(
        numbered(sql),
        params.map((p) => (typeof p === "bigint" ? p.toString() : p)),
      )
    ).rowCount ?? 0
  );
}

/** The statement runners of a SQLite connection, a PostgreSQL client, a Prisma transaction. */
export const sqliteExec = (conn: BetterSqlite3.Database) => ({
  all: (sql: string, p: Param[]) => sqliteAll(conn, sql, p),
  run: (sql: string, p: Param[]) => sqliteRun(conn, sql, p),
});
export const pgExec = (client: pg.PoolClient) => ({
  all: (sql: string, p: Param[]) => pgAll(client, sql, p),
  run: (sql: string, p: Param[]) => pgRun(client, sql, p),
});

export type Stmt = { sql: string; params: Param[] };

/**
 * A consistent read: `head` runs first, `then` builds the next statements from its rows, and
 * every statement sees the same state of the database (on SQLite one read transaction within
 * one synchronous call on the one connection; on PostgreSQL a REPEATABLE READ transaction).
 */
export async function consistentRead(head: Stmt, then: (head: Row[]) => Stmt[]): Promise<Row[][]> {
  if (isSqlite()) {
    return sqliteStep(false, (conn) => {
      const first = sqliteAll(conn, head.sql, head.params);
      return [first, ...then(first).map((s) => sqliteAll(conn, s.sql, s.params))];
    });
  }
  return pgStep("repeatable read", async (client) => {
    const first = await pgAll(client, head.sql, head.params);
    const out: Row[][] = [first];
    for (const s of then(first)) out.push(await pgAll(client, s.sql, s.params));
    return out;
  });
}

type RawTx = {
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(sql: string, ...values: unknown[]): Promise<T>;
};

/** A statement with "?" placeholders inside a Prisma transaction (either database). */
export function txRun(tx: RawTx, sql: string, params: Param[] = []): Promise<number> {
  return tx.$executeRawUnsafe(isSqlite() ? sql : numbered(sql), ...params);
}

export function txAll(tx: RawTx, sql: string, params: Param[] = []): Promise<Row[]> {
  return tx.$queryRawUnsafe<Row[]>(isSqlite() ? sql : numbered(sql), ...params);
}

export const txExec = (tx: RawTx) => ({
  all: (sql: string, p: Param[]) => txAll(tx, sql, p),
  run: (sql: string, p: Param[]) => txRun(tx, sql, p),
});
