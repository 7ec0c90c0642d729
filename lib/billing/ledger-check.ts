// The ledger check (docs/statement.md): every user's quota equals the sum of its ledger
// deltas, and every token's used_quota equals what its relay movements took (minus the sum of
// its relay_reserve, relay_settle and relay_refund deltas, those of open tasks left out). One
// aggregate query per table, so that a ledger of millions of rows is read once. Used by
// GET /api/ledger/check (root) and `npm run ledger:check` (scripts/ledger-check.ts).
import "server-only";
import { db } from "@/lib/db/client";
import type { UserCtx } from "@/lib/ctx";
import { RELAY_LEDGER_KINDS } from "@/lib/billing/ledger-kinds";

export type UserDifference = { user_id: number; username: string; balance: bigint; ledger_sum: bigint; difference: bigint };
export type TokenDifference = { token_id: number; user_id: number; name: string; used_quota: bigint; relay_spent: bigint; difference: bigint };
export type LedgerCheck = {
  ok: boolean;
  users_checked: number;
  tokens_checked: number;
  subscriptions_checked: number;
  users: UserDifference[];
  tokens: TokenDifference[];
  subscriptions: PlanDifference[];
};

// The same SQL on SQLite and PostgreSQL; sums are read as text (PostgreSQL's SUM of bigint is
// numeric) and turned into bigint here. `user_id + 0` keeps SQLite from walking the index
// (user_id, id) and fetching every row in index order (random reads: 155 s for 10 million
// rows, against 7 s for one sequential scan; docs/statement.md, "Figures").
const USERS_SQL = `
SELECT u.id AS id, u.username AS username, CAST(u.quota AS TEXT) AS balance, CAST(COALESCE(l.total, 0) AS TEXT) AS ledger_sum
FROM users u LEFT JOIN (SELECT user_id + 0 AS user_id, SUM(delta) AS total FROM quota_ledger WHERE subscription_id = 0 GROUP BY user_id + 0) l ON l.user_id = u.id
WHERE u.quota <> COALESCE(l.total, 0)
ORDER BY u.id`;

// Ledger rows of a user that no longer exists (users are never deleted, only tombstoned).
const ORPHANS_SQL = `
SELECT l.user_id AS id, CAST(SUM(l.delta) AS TEXT) AS ledger_sum
FROM quota_ledger l LEFT JOIN users u ON u.id = l.user_id
WHERE u.id IS NULL AND l.subscription_id = 0
GROUP BY l.user_id
ORDER BY l.user_id`;

const RELAY_KINDS_SQL = RELAY_LEDGER_KINDS.map((k) => `'${k}'`).join(", ");
// An asynchronous task keeps its reservation open until it ends, minutes to hours later
// (docs/tasks.md, "Billing"); the token's used_quota moves only when it settles. Its
// relay_reserve row is left out while the task is open (billing_state 'reserved', a few rows
// found by the index (billing_state, next_poll_at)), so that a running task is not reported
// as a difference; once it is settled or refunded, its rows count again.
const OPEN_TASK_REFS_SQL = `SELECT billing_ref FROM image_tasks WHERE billing_state = 'reserved' UNION ALL SELECT billing_ref FROM creative_tasks WHERE billing_state = 'reserved'`;
const TOKENS_SQL = `
SELECT t.id AS id, t.user_id AS user_id, t.name AS name, CAST(t.used_quota AS TEXT) AS used_quota, CAST(COALESCE(-l.total, 0) AS TEXT) AS relay_spent
FROM tokens t LEFT JOIN (
  SELECT token_id, SUM(delta) AS total FROM quota_ledger
  WHERE token_id > 0 AND kind IN (${RELAY_KINDS_SQL}) AND ref NOT IN (${OPEN_TASK_REFS_SQL})
  GROUP BY token_id
) l ON l.token_id = t.id
WHERE t.used_quota <> COALESCE(-l.total, 0)
ORDER BY t.id`;

// Plans (docs/plans.md, "Ledger"): the rows of a subscription's pot (subscription_id > 0) sum
// to its remaining quota (period_quota + carried - period_used) while it is active, and to 0
// once it has ended; rows of a pot that does not exist are differences too.
const PLANS_SQL = `
SELECT s.id AS id, s.user_id AS user_id, s.plan_name AS plan_name, s.status AS status,
  CAST(CASE WHEN s.status = 'active' THEN s.period_quota + s.carried - s.period_used ELSE 0 END AS TEXT) AS remaining,
  CAST(COALESCE(l.total, 0) AS TEXT) AS ledger_sum
FROM subscriptions s LEFT JOIN (SELECT subscription_id, SUM(delta) AS total FROM quota_ledger WHERE subscription_id > 0 GROUP BY subscription_id) l ON l.subscription_id = s.id
WHERE COALESCE(l.total, 0) <> CASE WHEN s.status = 'active' THEN s.period_quota + s.carried - s.period_used ELSE 0 END
UNION ALL
SELECT l.subscription_id AS id, MIN(l.user_id) AS user_id, '' AS plan_name, '' AS status, '0' AS remaining, CAST(SUM(l.delta) AS TEXT) AS ledger_sum
FROM quota_ledger l LEFT JOIN subscriptions s ON s.id = l.subscription_id
WHERE l.subscription_id > 0 AND s.id IS NULL
GROUP BY l.subscription_id`;

export type PlanDifference = {
  subscription_id: number;
  user_id: number;
  plan_name: string;
  status: string;
  remaining: bigint;
  ledger_sum: bigint;
  difference: bigint;
};

type Row = Record<string, unknown>;
const big = (v: unknown) => BigInt(String(v ?? "0"));

export async function ledgerDifferences(): Promise<LedgerCheck> {
  const [users, orphans, tokens, plans, counts] = await Promise.all([
    db().$queryRawUnsafe<Row[]>(USERS_SQL),
    db().$queryRawUnsafe<Row[]>(ORPHANS_SQL),
    db().$queryRawUnsafe<Row[]>(TOKENS_SQL),
    db().$queryRawUnsafe<Row[]>(PLANS_SQL),
    Promise.all([db().user.count(), db().token.count(), db().subscription.count()]),
  ]);
  const userDiffs: UserDifference[] = users.map((r) => {
    const balance = big(r.balance);
    const ledger_sum = big(r.ledger_sum);
    return { user_id: Number(r.id), username: String(r.username), balance, ledger_sum, difference: balance - ledger_sum };
  });
  for (const r of orphans) {
    const ledger_sum = big(r.ledger_sum);
    if (ledger_sum !== 0n) userDiffs.push({ user_id: Number(r.id), username: "", balance: 0n, ledger_sum, difference: -ledger_sum });
  }
  const tokenDiffs: TokenDifference[] = tokens.map((r) => {
    const used_quota = big(r.used_quota);
    const relay_spent = big(r.relay_spent);
    return { token_id: Number(r.id), user_id: Number(r.user_id), name: String(r.name), used_quota, relay_spent, difference: used_quota - relay_spent };
  });
  const planDiffs: PlanDifference[] = plans.map((r) => {
    const remaining = big(r.remaining);
    const ledger_sum = big(r.ledger_sum);
    return {
      subscription_id: Number(r.id),
      user_id: Number(r.user_id),
      plan_name: String(r.plan_name),
      status: String(r.status),
      remaining,
      ledger_sum,
      difference: remaining - ledger_sum,
    };
  });
  return {
    ok: !userDiffs.length && !tokenDiffs.length && !planDiffs.length,
    users_checked: counts[0],
    tokens_checked: counts[1],
    subscriptions_checked: counts[2],
    users: userDiffs,
    tokens: tokenDiffs,
    subscriptions: planDiffs,
  };
}

// GET /api/ledger/check (root only, checked by the route).
export async function checkLedger({ ctx }: { ctx: UserCtx }): Promise<LedgerCheck> {
  void ctx;
  return ledgerDifferences();
}
