// GET /api/user/ledger/self and GET /api/user/{id}/ledger: one page of a user's quota ledger,
// newest first, raw rows (docs/statement.md: every row, so that the balance reconciles).
import "server-only";
import { db } from "@/lib/db/client";
import type { UserCtx } from "@/lib/ctx";
import { statementOwner, statementWhere, tokenNames, type StatementQuery } from "@/lib/billing/statement-query";

export async function listStatement({ ctx, input }: { ctx: UserCtx; input: { query: StatementQuery; userId?: number } }) {
  const q = input.query;
  const userId = await statementOwner(ctx, input.userId);
  const where = statementWhere(userId, q);
  const [rows, total] = await Promise.all([
    db().quotaLedger.findMany({ where, orderBy: { id: "desc" }, skip: (q.p - 1) * q.page_size, take: q.page_size }),
    db().quotaLedger.count({ where }),
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
  return { items, page: q.p, page_size: q.page_size, total };
}
