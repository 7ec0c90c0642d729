// SQLite: synchronous better-sqlite3 transactions on the connection Prisma itself uses
// (lib/db/client.ts), so that the database has one writer and no transaction ever meets
// another's lock or stale snapshot. A transaction here never spans an await.
//
// Group commit: the movements requested during one turn of the event loop are applied in
// one BEGIN IMMEDIATE ... COMMIT, each inside its own savepoint (better-sqlite3 nests
// transaction functions as savepoints), so one refusal rolls back only its own statements
// and every movement keeps its meaning and its ledger row. Under load this turns hundreds of
// commits a second into a few; alone (a settlement on its timer, a direct caller), a movement
// waits only for the current turn to end, and runs without a savepoint. A batch holding a
// relay reservation commits one turn later (committedNextTurn).
//
// Settlements and refunds come after the client has its answer, so nothing waits for them:
// they join the next batch (in practice the next call's reservation, a commit the relay makes
// anyway) or are committed after LAZY_MS when no call comes. At one connection that halves
// the commits per call, and the commit no longer runs just as the client's next request
// arrives (bench/README.md). Every console request, and the shutdown, commits them first
// (flushSoon), so that the console never shows a balance without its last settlement.
import "server-only";
import type BetterSqlite3 from "better-sqlite3";
import { holdSqliteUntil, whenSqliteIdle } from "@/lib/db/raw";
import { AppError } from "@/lib/errors";
import { noteBalance } from "@/lib/notify/quota-watch";
import { env } from "@/lib/env";
import {
  HoldGone,
  planExhausted,
  SWEEP_TEXT,
  sweepLogOther,
  type BillingStore,
  type ReserveInput,
  type SettleInput,
  type SweepInput,
} from "@/lib/billing/store/types";
import { metrics } from "@/lib/metrics";
import { nowSeconds } from "@/lib/time";

// How long a settlement or refund waits for a reservation to ride with.
const LAZY_MS = 2;

export function sqliteBillingStore(conn: BetterSqlite3.Database, nodeId: string): BillingStore {
  const { logsSeparate } = env();
  // Integers come back as bigint (Prisma sets that too).
  conn.defaultSafeIntegers(true);

  const s = {
    debitToken: conn.prepare('UPDATE "tokens" SET "remain_quota" = "remain_quota" - ? WHERE "id" = ? AND "remain_quota" >= ? RETURNING "remain_quota"'),
    debitUser: conn.prepare('UPDATE "users" SET "quota" = "quota" - ? WHERE "id" = ? AND "quota" >= ? RETURNING "quota"'),
    addUser: conn.prepare('UPDATE "users" SET "quota" = "quota" + ? WHERE "id" = ? RETURNING "quota"'),
    ledger: conn.prepare(
      'INSERT INTO "quota_ledger" ("user_id", "token_id", "delta", "balance_after", "kind", "ref", "created_at", "subscription_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    // a subscription's pot (docs/plans.md, "Charging"): remaining = period_quota + carried - period_used
    debitPot: conn.prepare(
      'UPDATE "subscriptions" SET "period_used" = "period_used" + ? WHERE "id" = ? AND "status" = \'active\' AND "ends_at" > ? AND "period_quota" + "carried" - "period_used" >= ? ' +
        'RETURNING "period_quota" + "carried" - "period_used" AS "remain"',
    ),
    returnPot: conn.prepare(
      'UPDATE "subscriptions" SET "period_used" = "period_used" - ? WHERE "id" = ? AND "status" = \'active\' AND "period_used" >= ? ' +
        'RETURNING "period_quota" + "carried" - "period_used" AS "remain"',
    ),
    potRemain: conn.prepare('SELECT "period_quota" + "carried" - "period_used" AS "remain" FROM "subscriptions" WHERE "id" = ? AND "status" = \'active\''),
    takePot: conn.prepare('UPDATE "subscriptions" SET "period_used" = "period_used" + ? WHERE "id" = ?'),
    addToken: conn.prepare('UPDATE "tokens" SET "remain_quota" = "remain_quota" + ? WHERE "id" = ? RETURNING "remain_quota"'),
    // settlement: one statement per row (balance and usage together); MAX(x, 0) is SQLite's
    // two-argument scalar max, so a token whose call cost more than it has left ends at 0
    settleUser: conn.prepare(
      'UPDATE "users" SET "quota" = "quota" - ?, "used_quota" = "used_quota" + ?, "request_count" = "request_count" + 1 WHERE "id" = ? RETURNING "quota"',
    ),
    settleToken: conn.prepare(
      'UPDATE "tokens" SET "remain_quota" = MAX("remain_quota" - ?, 0), "used_quota" = "used_quota" + ?, "accessed_time" = ? WHERE "id" = ? RETURNING "remain_quota"',
    ),
    channelUsage: conn.prepare('UPDATE "channels" SET "used_quota" = "used_quota" + ? WHERE "id" = ?'),
    // the reservation's hold (store/types.ts): written with its debit, deleted by whoever closes it
    holdInsert: conn.prepare(
      'INSERT INTO "quota_holds" ("ref", "user_id", "token_id", "unlimited_token", "amount", "node_id", "started_at", "request_id", "subscription_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    holdDelete: conn.prepare('DELETE FROM "quota_holds" WHERE "ref" = ?'),
    holdTake: conn.prepare(
      'DELETE FROM "quota_holds" WHERE "ref" = ? RETURNING "user_id", "token_id", "unlimited_token", "amount", "request_id", "subscription_id"',
    ),
    sweepLog: conn.prepare(
      'INSERT INTO "logs" ("user_id", "created_at", "type", "content", "username", "token_name", "token_id", "quota", "request_id", "other") ' +
        'SELECT "id", ?, 6, ?, "username", COALESCE((SELECT "name" FROM "tokens" WHERE "id" = ?), \'\'), ?, 0, ?, ? FROM "users" WHERE "id" = ?',
    ),
    begin: conn.prepare("BEGIN IMMEDIATE"),
    commit: conn.prepare("COMMIT"),
    rollback: conn.prepare("ROLLBACK"),
  };

  const userChange = (userId: number, tokenId: number, delta: bigint, kind: string, ref: string) => {
    const row = s.addUser.get(delta, userId) as { quota: bigint } | undefined;
    if (!row) throw new AppError("NOT_FOUND", "user_not_found");
    s.ledger.run(userId, tokenId, delta, row.quota, kind, ref, BigInt(nowSeconds()), 0);
  };

  // Gives `amount` back to the pot `sub`. A pot that has ended, or whose period was renewed
  // under the call (less used than what comes back), cannot take it: the row says it came
  // back and a plan_expire row writes it off, so the pot's rows still sum to its remaining.
  const potGiveBack = (userId: number, tokenId: number, sub: number, amount: bigint, kind: string, ref: string, now: bigint) => {
    const row = s.returnPot.get(amount, sub, amount) as { remain: bigint } | undefined;
    if (row) {
      s.ledger.run(userId, tokenId, amount, row.remain, kind, ref, now, sub);
      return;
    }
    const cur = (s.potRemain.get(sub) as { remain: bigint } | undefined)?.remain ?? 0n;
    s.ledger.run(userId, tokenId, amount, cur + amount, kind, ref, now, sub);
    s.ledger.run(userId, 0, -amount, cur, "plan_expire", ref, now, sub);
  };
  // Takes up to `want` from the pot `sub`, never below 0; answers what it took.
  const potTake = (userId: number, tokenId: number, sub: number, want: bigint, ref: string, now: bigint): bigint => {
    const cur = (s.potRemain.get(sub) as { remain: bigint } | undefined)?.remain ?? 0n;
    const take = cur <= 0n ? 0n : cur < want ? cur : want;
    if (take > 0n) {
      s.takePot.run(take, sub);
      s.ledger.run(userId, tokenId, -take, cur - take, "relay_settle", ref, now, sub);
    }
    return take;
  };

  const reserveTx = conn.transaction((r: ReserveInput): bigint | null => {
    let remain: bigint | null = null;
    if (!r.unlimitedToken) {
      const t = s.debitToken.get(r.amount, r.tokenId, r.amount) as { remain_quota: bigint } | undefined;
      if (!t) throw new AppError("QUOTA_EXCEEDED", "quota_insufficient_token");
      remain = t.remain_quota;
    }
    const now = BigInt(nowSeconds());
    const plan = r.plan;
    let after: bigint | undefined;
    let pot = 0;
    const wallet = () => (s.debitUser.get(r.amount, r.userId, r.amount) as { quota: bigint } | undefined)?.quota;
    // the plan's pots in order (docs/plans.md, "Charging"); a failed conditional update moves nothing
    const fromPots = () => {
      for (const p of plan!.pots) {
        const row = s.debitPot.get(r.amount, p.id, now, r.amount) as { remain: bigint } | undefined;
        if (row) {
          pot = p.id;
          return row.remain;
        }
      }
      return undefined;
    };
    if (!plan?.pots.length) after = wallet();
    else if (plan.walletFirst) after = wallet() ?? fromPots();
    else {
      after = fromPots();
      if (after === undefined && plan.fallback) after = wallet();
    }
    if (after === undefined) {
      // rolls the token back
      if (plan?.pots.length && (plan.walletFirst || !plan.fallback)) throw planExhausted(plan);
      throw new AppError("QUOTA_EXCEEDED", "quota_insufficient_user");
    }
    r.subscriptionId = pot;
    s.ledger.run(r.userId, r.tokenId, -r.amount, after, "relay_reserve", r.ref, now, pot);
    s.holdInsert.run(r.ref, r.userId, r.tokenId, r.unlimitedToken ? 1 : 0, r.amount, nodeId, now, r.requestId ?? null, pot);
    r.beforeCommit?.(); // inside the savepoint: should it throw, the debits roll back
    return remain;
  });

  // delta > 0: the call cost more than was reserved, taken from the user (the debt is a
  // ledger row) and from a limited token down to 0 at most; delta < 0: given back to both.
  const settleTx = conn.transaction((r: SettleInput): bigint | null => {
    if (s.holdDelete.run(r.ref).changes === 0) throw new HoldGone(r.ref);
    const delta = r.actual - r.amount;
    const now = BigInt(nowSeconds());
    // a plan's call settles in its pot; what the pot cannot cover goes to the balance
    const sub = r.subscriptionId ?? 0;
    let walletDelta = delta;
    if (sub > 0 && delta !== 0n) {
      if (delta < 0n) {
        potGiveBack(r.userId, r.tokenId, sub, -delta, "relay_settle", r.ref, now);
        walletDelta = 0n;
      } else walletDelta = delta - potTake(r.userId, r.tokenId, sub, delta, r.ref, now);
    }
    const user = s.settleUser.get(walletDelta, r.actual, r.userId) as { quota: bigint } | undefined;
    if (walletDelta !== 0n) {
      if (!user) throw new AppError("NOT_FOUND", "user_not_found");
      s.ledger.run(r.userId, r.tokenId, -walletDelta, user.quota, "relay_settle", r.ref, now, 0);
    }
    if (user) noteBalance(r.userId, user.quota); // quota warnings: a Map lookup (lib/notify/quota-watch.ts)
    let remain: bigint | null = null;
    if (r.tokenId > 0) {
      const token = s.settleToken.get(r.unlimitedToken ? 0n : delta, r.actual, now, r.tokenId) as { remain_quota: bigint } | undefined;
      if (!r.unlimitedToken && delta !== 0n) remain = token?.remain_quota ?? null;
    }
    if (r.channelId > 0) s.channelUsage.run(r.actual, r.channelId);
    return remain;
  });

  const refundTx = conn.transaction((r: ReserveInput): bigint | null => {
    if (s.holdDelete.run(r.ref).changes === 0) throw new HoldGone(r.ref);
    if (r.subscriptionId) potGiveBack(r.userId, r.tokenId, r.subscriptionId, r.amount, "relay_refund", r.ref, BigInt(nowSeconds()));
    else userChange(r.userId, r.tokenId, r.amount, "relay_refund", r.ref);
    if (r.unlimitedToken) return null;
    return (s.addToken.get(r.amount, r.tokenId) as { remain_quota: bigint } | undefined)?.remain_quota ?? null;
  });

  const sweepTx = conn.transaction((r: SweepInput): bigint | null => {
    const h = s.holdTake.get(r.ref) as
      { user_id: bigint; token_id: bigint; unlimited_token: bigint; amount: bigint; request_id: string | null; subscription_id: bigint } | undefined;
    if (!h) throw new HoldGone(r.ref);
    const userId = Number(h.user_id);
    const tokenId = Number(h.token_id);
    // back to the pot it was reserved from
    if (h.subscription_id > 0n) potGiveBack(userId, tokenId, Number(h.subscription_id), h.amount, "relay_refund", r.ref, BigInt(nowSeconds()));
    else userChange(userId, tokenId, h.amount, "relay_refund", r.ref);
    // with LOG_DATABASE_URL the caller queues the log row after the commit (lib/billing/holds.ts)
    if (!logsSeparate) s.sweepLog.run(BigInt(nowSeconds()), SWEEP_TEXT[r.reason], tokenId, tokenId, h.request_id ?? r.ref, sweepLogOther(r.reason), userId);
    if (h.unlimited_token || tokenId <= 0) return null;
    return (s.addToken.get(h.amount, tokenId) as { remain_quota: bigint } | undefined)?.remain_quota ?? null;
  });

  // a movement's transaction function: called inside another transaction it runs as a savepoint
  type Movement = { (input: unknown): bigint | null; immediate(input: unknown): bigint | null };
  type Job = { tx: Movement; input: unknown; resolve: (v: bigint | null) => void; reject: (e: unknown) => void };
  type Outcome = { ok: true; value: bigint | null } | { ok: false; error: unknown };
  let queue: Job[] = [];
  // `run` is the movement inside the batch's transaction (a savepoint), or alone in its own
  const outcomeOf = (run: () => bigint | null): Outcome => {
    try {
      return { ok: true, value: run() };
    } catch (error) {
      return { ok: false, error };
    }
  };
  const batchTx = conn.transaction((jobs: Job[]): Outcome[] => jobs.map((j) => outcomeOf(() => j.tx(j.input))));
  // A movement alone runs as its own transaction: the savepoint
  // pair around it would cost a third as much again (measured: 87 µs against 115 µs).
  const alone = (j: Job): Outcome[] => [outcomeOf(() => j.tx.immediate(j.input))];

  // A flush is due in this turn (setImmediate) or later (a timer, lazy movements only).
  let soon = false;
  let later: NodeJS.Timeout | undefined;
  const running = new Set<Promise<void>>();

  function flush(): void {
    soon = false;
    clearTimeout(later);
    later = undefined;
    const jobs = queue;
    queue = [];
    if (!jobs.length) return;
    const done = commit(jobs).finally(() => running.delete(done));
    running.add(done);
  }

  const commitSeconds = metrics().billingCommit;
  async function commit(jobs: Job[]): Promise<void> {
    const started = performance.now();
    try {
      const outcomes = jobs.some((j) => (j.input as ReserveInput).beforeCommit)
        ? await committedNextTurn(jobs)
        : await whenSqliteIdle(conn, () => (jobs.length === 1 ? alone(jobs[0]) : batchTx.immediate(jobs)));
      commitSeconds.observe((performance.now() - started) / 1000);
      outcomes.forEach((o, i) => (o.ok ? jobs[i].resolve(o.value) : jobs[i].reject(o.error)));
    } catch (err) {
      for (const j of jobs) j.reject(err); // the commit failed: none of them happened
    }
  }

  // A batch with a reservation whose upstream call starts once it is decided (beforeCommit):
  // the movements run now, each in its savepoint, and the COMMIT waits for the next turn of
  // the event loop. undici writes a request on a kept-alive connection in that turn's check
  // phase, ahead of this commit (both are immediates, set in that order), so the commit's
  // writes to the WAL overlap with the upstream's work instead of preceding it. The answer
  // can only be read in a later turn, after the commit: if the commit fails, the callers'
  // reservations are refused and they abort the upstream call before anything reaches their
  // client. Meanwhile the connection is held (holdSqliteUntil): no other statement runs.
  async function committedNextTurn(jobs: Job[]): Promise<Outcome[]> {
    const { outcomes, committed } = await whenSqliteIdle(conn, () => {
      s.begin.run();
      const outcomes = jobs.map((j) => outcomeOf(() => j.tx(j.input)));
      const committed = new Promise<void>((resolve, reject) =>
        setImmediate(() => {
          try {
            s.commit.run();
            resolve();
          } catch (err) {
            if (conn.inTransaction) s.rollback.run();
            reject(err);
          }
        }),
      );
      holdSqliteUntil(committed);
      return { outcomes, committed };
    });
    await committed;
    return outcomes;
  }

  // Resolves once every movement queued so far is committed (or refused). Immediates run in
  // the order they were set: the flush's first, so the wait sees its commit running.
  function flushSoon(): Promise<void> | undefined {
    if (!queue.length && !running.size) return undefined;
    flushThisTurn();
    return new Promise((resolve) => setImmediate(() => void Promise.all(running).then(() => resolve())));
  }

  function flushThisTurn(): void {
    if (soon || !queue.length) return;
    soon = true;
    setImmediate(flush);
  }

  function enqueue<I>(tx: BetterSqlite3.Transaction<(input: I) => bigint | null>, input: I, lazy: boolean): Promise<bigint | null> {
    return new Promise((resolve, reject) => {
      queue.push({ tx: tx as unknown as Movement, input, resolve, reject });
      if (!lazy) flushThisTurn();
      else if (!soon && !later) later = setTimeout(flush, LAZY_MS);
    });
  }

  return {
    reserve: (input) => enqueue(reserveTx, input, false),
    settle: (input) => enqueue(settleTx, input, true),
    refund: (input) => enqueue(refundTx, input, true),
    sweep: (input) => enqueue(sweepTx, input, false),
    flushSoon,
    pending: () => queue.length,
  };
}
