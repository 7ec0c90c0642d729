// GET /api/user/ledger/self and GET /api/user/{id}/ledger: one page of a user's quota ledger,
// newest first, raw rows (docs/statement.md: every row, so that the balance reconciles).
import "server-only";
import { db } from "@/lib/db/client";
import type { UserCtx } from "@/lib/ctx";
import { statementOwner, statementWhere, tokenNames, type StatementQuery } from "@/lib/billing/statement-query";

// The total is counted up to this many rows (an index range of at most that length): a user with
// millions of relay rows gets `total_capped: true` and narrows the time range for older rows.
export const STATEMENT_COUNT_CAP = 10_000;

export async function listStatement({ ctx, input }: { ctx: UserCtx; input: { query: StatementQuery; userId?: number } }) {
  const q = input.query;
  const userId = await statementOwner(ctx, input.userId);
  const where = statementWhere(userId, q);
  const [rows, total] = await Promise.all([
    db().quotaLedger.findMany({ where, orderBy: { id: "desc" }, skip: (q.p - 1) * q.page_size, take: q.page_size }),
    // newest first, like the page: a recent time range is counted without walking older rows
    db().quotaLedger.count({ where, orderBy: { id: "desc" }, take: STATEMENT_COUNT_CAP + 1 }),
  ]);
  const names = await tokenNames(rows.map((r) => r.token_id));
  const items = rows.map((r) => ({
    id: r.id,
    created_at: r.created_at,
    kind: r.kind,
    delta: r.delta,
    balance_after: r.balance_after,
    ref: r.ref,
    token_id: r.token_id,
    token_name: names.get(r.token_id) ?? "",
  }));
  const capped = total > STATEMENT_COUNT_CAP;
  return { items, page: q.p, page_size: q.page_size, total: capped ? STATEMENT_COUNT_CAP : total, total_capped: capped };
}
