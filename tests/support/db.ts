// Direct reads of a test server's database, for assertions the API does not expose (ledger
// rows, setup rows). Read-only by convention; the server owns the writes.
import Database from "better-sqlite3";
import pg from "pg";
import type { TestServer } from "./server";

export async function queryDb<T = Record<string, unknown>>(server: TestServer, sql: string, params: unknown[] = []): Promise<T[]> {
  if (server.dbKind === "postgresql") {
    const c = new pg.Client({ connectionString: server.databaseUrl });
    await c.connect();
    try {
      return (await c.query(sql, params)).rows as T[];
    } finally {
      await c.end();
    }
  }
  const conn = new Database(server.databaseUrl.replace(/^file:/, ""), { readonly: true });
  try {
    // PostgreSQL-style $1 placeholders become ? for SQLite.
    return conn.prepare(sql.replace(/\$\d+/g, "?")).all(...params) as T[];
  } finally {
    conn.close();
  }
}

// Write access for test fixtures the API cannot create yet (abilities, inbox messages).
export async function execDb(server: TestServer, sql: string, params: unknown[] = []): Promise<void> {
  if (server.dbKind === "postgresql") {
    const c = new pg.Client({ connectionString: server.databaseUrl });
    await c.connect();
    try {
      await c.query(sql, params);
    } finally {
      await c.end();
    }
    return;
  }
  const conn = new Database(server.databaseUrl.replace(/^file:/, ""));
  try {
    conn.pragma("busy_timeout = 5000");
    conn.prepare(sql.replace(/\$\d+/g, "?")).run(...params);
  } finally {
    conn.close();
  }
}
