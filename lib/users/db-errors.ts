// Database error helpers shared by the account verbs. Prisma reports a unique-constraint
// violation as P2002 on both providers (through the driver adapters too).
import "server-only";
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "P2002";
}

// Interactive transactions that may queue behind others (SQLite serializes them; the
// PostgreSQL pool has 10 connections): wait longer than Prisma's 2 s default to start.
export const TX_OPTIONS = { maxWait: 15_000, timeout: 15_000 } as const;
