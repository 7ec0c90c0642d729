// Substring filters that match the searched text literally. Prisma's `contains` puts the
// text into a LIKE pattern as it is, so "%" and "_" in a search would match anything: they
// (and the escape character itself) are escaped with a backslash. PostgreSQL reads a
// backslash as LIKE's escape character by default; SQLite has none unless the statement
// names one, so the SQLite connection adds ESCAPE '\' to Prisma's LIKE comparisons
// (sqliteLikeEscape, applied in lib/db/client.ts). docs/limits.md.
import "server-only";
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

export function containsText(text: string): { contains: string } {
  return { contains: escapeLike(text) };
}

// Prisma binds every LIKE pattern as a parameter, so a LIKE followed by a placeholder is
// always one of its comparisons, never text inside a literal.
const LIKE_PARAM = /\bLIKE(\s+\?\d*)(?!\d)(?!\s+ESCAPE\b)/gi;

export function sqliteLikeEscape(sql: string): string {
  return sql.includes("LIKE") ? sql.replace(LIKE_PARAM, "LIKE$1 ESCAPE '\\'") : sql;
}

type SqlQuery = { sql: string };
type Queryable = { queryRaw: (q: SqlQuery) => Promise<unknown>; executeRaw: (q: SqlQuery) => Promise<unknown> };

// Rewrites the statements of a Prisma SQLite driver-adapter connection (and of the
// transactions it opens) through sqliteLikeEscape.
export function escapeSqliteLikes(target: Queryable & { startTransaction?: (...a: unknown[]) => Promise<unknown> }): void {
  for (const name of ["queryRaw", "executeRaw"] as const) {
    const run = target[name].bind(target);
    target[name] = (q: SqlQuery) => run(q.sql.includes("LIKE") ? Object.assign({}, q, { sql: sqliteLikeEscape(q.sql) }) : q);
  }
  const start = target.startTransaction?.bind(target);
  if (start) {
    target.startTransaction = async (...a: unknown[]) => {
      const tx = (await start(...a)) as Queryable;
      escapeSqliteLikes(tx);
      return tx;
    };
  }
}
