// The statement's filters (docs/statement.md), shared by the list and the CSV export, for
// the caller's own rows and for an admin reading another user's.
import "server-only";
import { z } from "zod";
import type { Prisma } from "@/generated/sqlite/client";
import { canManage } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { MAX_INT32, MAX_TIMESTAMP, page, pageSize, queryInt } from "@/lib/http/params";
import type { UserCtx } from "@/lib/ctx";

const optStr = (max: number) => z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string().max(max).optional());

export const statementFilters = z.object({
  kind: optStr(40),
  ref: optStr(200),
  token_id: queryInt(MAX_INT32),
  start_timestamp: queryInt(MAX_TIMESTAMP),
  end_timestamp: queryInt(MAX_TIMESTAMP),
});
export const statementQuery = statementFilters.extend({ p: page, page_size: pageSize(20) });
export type StatementFilters = z.infer<typeof statementFilters>;
export type StatementQuery = z.infer<typeof statementQuery>;

// Every condition is on top of user_id, so that the index (user_id, id) bounds every read
// to the one user's rows.
export function statementWhere(userId: number, f: StatementFilters): Prisma.QuotaLedgerWhereInput {
  const w: Prisma.QuotaLedgerWhereInput = { user_id: userId };
  if (f.kind) w.kind = f.kind;
  if (f.ref) w.ref = f.ref;
  if (f.token_id) w.token_id = f.token_id;
  if (f.start_timestamp || f.end_timestamp) {
    const range: Prisma.BigIntFilter = {};
    if (f.start_timestamp) range.gte = BigInt(f.start_timestamp);
    if (f.end_timestamp) range.lte = BigInt(f.end_timestamp);
    w.created_at = range;
  }
  return w;
}

// Whose statement: the caller's own (userId absent), or, for an admin, a user strictly
// below them (the root: anyone), the rule of the user editor (lib/users/get-user.ts).
export async function statementOwner(ctx: UserCtx, userId: number | undefined): Promise<number> {
  if (userId === undefined) return ctx.user.id;
  const target = await db().user.findUnique({ where: { id: userId }, select: { role: true } });
  if (!target) throw new AppError("NOT_FOUND", "user_not_found");
  if (!canManage(ctx.user.role, target.role)) throw new AppError("RULE", "cannot_manage_equal_or_higher");
  return userId;
}

// Names of the tokens cited by some rows (deleted tokens included: a row keeps its token).
export async function tokenNames(ids: Iterable<number>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)].filter((id) => id > 0);
  if (!wanted.length) return new Map();
  const rows = await db().token.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true } });
  return new Map(rows.map((r) => [r.id, r.name]));
}
