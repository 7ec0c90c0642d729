// Writes a batch of usage-log rows through the database driver: one prepared statement in
// one transaction on SQLite, one multi-row INSERT on PostgreSQL. (Prisma's createMany cost
// more CPU than the relay calls whose logs it wrote: bench/ profile.)
import "server-only";
import { env } from "@/lib/env";
import { logSqliteConnection } from "@/lib/db/client";
import { logPgPool, whenSqliteIdle } from "@/lib/db/raw";

export type LogRow = {
  user_id: number;
  type: number;
  created_at: bigint;
  content: string;
  username: string;
  token_name: string;
  token_id: number;
  model_name: string;
  quota: bigint;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: boolean;
  channel_id: number;
  channel_name: string;
  group: string;
  ip: string;
  request_id: string;
  other: string;
  latency_ms: number;
};

const COLUMNS = [
  "user_id",
  "type",
  "created_at",
  "content",
  "username",
  "token_name",
  "token_id",
  "model_name",
  "quota",
  "prompt_tokens",
  "completion_tokens",
  "use_time",
  "is_stream",
  "channel_id",
  "channel_name",
  "group",
  "ip",
  "request_id",
  "other",
  "latency_ms",
] as const satisfies readonly (keyof LogRow)[];

const INSERT_HEAD = `INSERT INTO "logs" (${COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES `;

// SQLite has no boolean type: is_stream is stored as 0 or 1, as Prisma does.
const sqliteLogParams = (r: LogRow) => COLUMNS.map((c) => (c === "is_stream" ? (r.is_stream ? 1 : 0) : r[c]));
const postgresLogParams = (r: LogRow) => COLUMNS.map((c) => (typeof r[c] === "bigint" ? r[c].toString() : r[c]));

let sqliteInsert: ((rows: LogRow[]) => void) | undefined;

async function insertSqlite(rows: LogRow[]): Promise<void> {
  if (!sqliteInsert) {
    const conn = await logSqliteConnection();
    const stmt = conn.prepare(INSERT_HEAD + `(${COLUMNS.map(() => "?").join(", ")})`);
    sqliteInsert = conn.transaction((batch: LogRow[]) => {
      for (const r of batch) stmt.run(sqliteLogParams(r));
    });
  }
  const run = sqliteInsert;
  await whenSqliteIdle(await logSqliteConnection(), () => run(rows));
}

async function insertPostgres(rows: LogRow[]): Promise<void> {
  const params: unknown[] = [];
  const tuples = rows.map((r) => {
    const start = params.length;
    params.push(...postgresLogParams(r));
    return `(${COLUMNS.map((_, i) => `$${start + i + 1}`).join(", ")})`;
  });
  await logPgPool().query(INSERT_HEAD + tuples.join(", "), params);
}

export function insertLogRows(rows: LogRow[]): Promise<void> {
  if (!rows.length) return Promise.resolve();
  return env().databaseKind === "postgresql" ? insertPostgres(rows) : insertSqlite(rows);
}
