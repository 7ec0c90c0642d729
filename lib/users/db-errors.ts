// Database helpers shared by the account verbs. The unique-violation test lives with the
// database layer (lib/db/errors.ts), where every folder may import it.
import "server-only";
export { isUniqueViolation } from "@/lib/db/errors";

// Interactive transactions that may queue behind others (SQLite serializes them; the
// PostgreSQL pool has 10 connections): wait longer than Prisma's 2 s default to start.
export const TX_OPTIONS = { maxWait: 15_000, timeout: 15_000 } as const;
