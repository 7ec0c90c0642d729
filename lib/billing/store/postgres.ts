// PostgreSQL: one pooled connection per movement, in a transaction of plain statements.
// The conditional updates are re-checked by PostgreSQL against the latest row version when
// two transactions race for one balance, so no balance goes below zero.
import "server-only";
import type pg from "pg";
import { AppError } from "@/lib/errors";
import { noteBalance } from "@/lib/notify/quota-watch";
import { env } from "@/lib/env";
import { metrics } from "@/lib/metrics";
import { HoldGone, planExhausted, SWEEP_TEXT, sweepLogOther, type BillingStore, type ReserveInput, type SettleInput } from "@/lib/billing/store/types";
import { nowSeconds } from "@/lib/time";

type Q = (sql: string, params: unknown[]) => Promise<Record<string, string>[]>;

export function postgresBillingStore(pool: pg.Pool, nodeId: string): BillingStore {
  const { logsSeparate } = env();
  // Movements whose transaction has begun and not yet ended: a console request waits for
  // them (flushSoon), so that a balance read right after a relay call includes its settlement.
  const running = new Set<Promise<unknown>>();

  function inTransaction(work: (q: Q) => Promise<bigint | null>): Promise<bigint | null> {
    const done = transaction(work);
    const forget = (): void => void running.delete(tracked);
    const tracked: Promise<void> = done.then(forget, forget);
    running.add(tracked);
    return done;
  }

  // A movement that ends can start the next one of its call in the same turn of the event
  // loop: a reservation's commit may land after the client already has its answer (the
  // commit overlaps with the upstream call), and its settlement starts as soon as it does.
  // So the wait goes on while movements are under way, a few rounds at most (under load
  // there always are some; the console's wait is bounded anyway, lib/billing/store/index.ts).
  const IDLE_ROUNDS = 3;
  function untilIdle(rounds: number): Promise<void> {
    return Promise.all(running)
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => (running.size && rounds > 1 ? untilIdle(rounds - 1) : undefined));
  }

  const commitSeconds = metrics().billingCommit;
  // One movement's transaction, timed from the wait for a pooled connection to the COMMIT
  // (gateway_billing_commit_seconds, as the SQLite store times a batch).
  async function transaction(work: (q: Q) => Promise<bigint | null>): Promise<bigint | null> {
    const started = performance.now();
    const client = await pool.connect();
    const q: Q = async (sql, params) =>
      (
        await client.query(
          sql,
          params.map((p) => (typeof p === "bigint" ? p.toString() : p)),
        )
      ).rows;
    try {
      await client.query("BEGIN");
      const out = await work(q);
      await client.query("COMMIT");
      commitSeconds.observe((performance.now() - started) / 1000);
      return out;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  const userChange = async (q: Q, userId: number, tokenId: number, delta: bigint, kind: string, ref: string) => {
    const [row] = await q('UPDATE "users" SET "quota" = "quota" + $1 WHERE "id" = $2 RETURNING "quota"', [delta, userId]);
    if (!row) throw new AppError("NOT_FOUND", "user_not_found");
    await q('INSERT INTO "quota_ledger" ("user_id", "token_id", "delta", "balance_after", "kind", "ref", "created_at") VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      userId,
      tokenId,
      delta,
      row.quota,
      kind,
      ref,
      nowSeconds(),
    ]);
  };

  // The conditional delete of the reservation's hold and the user's balance change in one
  // statement (no round trip more than before holds): the update applies only when this
  // transaction deleted the hold. Throws HoldGone (nothing moved) when it was closed already.
  // A settlement also counts the usage and the request; a refund sets only the balance.
  const CLOSE_SETTLE = `WITH h AS (DELETE FROM "quota_holds" WHERE "ref" = $1 RETURNING 1),
       u AS (UPDATE "users" SET "quota" = "quota" + $2, "used_quota" = "used_quota" + $4, "request_count" = "request_count" + 1
             WHERE "id" = $3 AND EXISTS (SELECT 1 FROM h) RETURNING "quota")
       SELECT (SELECT count(*) FROM h) AS held, (SELECT "quota" FROM u) AS quota`;
  const CLOSE_REFUND = `WITH h AS (DELETE FROM "quota_holds" WHERE "ref" = $1 RETURNING 1),
       u AS (UPDATE "users" SET "quota" = "quota" + $2 WHERE "id" = $3 AND EXISTS (SELECT 1 FROM h) RETURNING "quota")
       SELECT (SELECT count(*) FROM h) AS held, (SELECT "quota" FROM u) AS quota`;
  const closeHold = async (q: Q, ref: string, userId: number, quotaDelta: bigint, used: bigint | null): Promise<bigint> => {
    const [row] = await q(used === null ? CLOSE_REFUND : CLOSE_SETTLE, used === null ? [ref, quotaDelta, userId] : [ref, quotaDelta, userId, used]);
    if (row.held === "0") throw new HoldGone(ref);
    if (row.quota === null) throw new AppError("NOT_FOUND", "user_not_found");
    return BigInt(row.quota);
  };
  const ledgerRow = (q: Q, userId: number, tokenId: number, delta: bigint, balance: bigint, kind: string, ref: string, sub = 0) =>
    q(
      'INSERT INTO "quota_ledger" ("user_id", "token_id", "delta", "balance_after", "kind", "ref", "created_at", "subscription_id") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [userId, tokenId, delta, balance, kind, ref, nowSeconds(), sub],
    );

  // A subscription's pot (docs/plans.md, "Charging"): remaining = period_quota + carried - period_used.
  const REMAIN = `"period_quota" + "carried" - "period_used"`;
  const debitPot = async (q: Q, sub: number, amount: bigint): Promise<bigint | undefined> => {
    const [row] = await q(
      `UPDATE "subscriptions" SET "period_used" = "period_used" + $1 WHERE "id" = $2 AND "status" = 'active' AND "ends_at" > $3 AND ${REMAIN} >= $1 RETURNING ${REMAIN} AS remain`,
      [amount, sub, nowSeconds()],
    );
    return row ? BigInt(row.remain) : undefined;
  };
  // Gives `amount` back to the pot. A pot that has ended, or whose period was renewed under
  // the call, cannot take it: the row says it came back and a plan_expire row writes it off.
  const potGiveBack = async (q: Q, userId: number, tokenId: number, sub: number, amount: bigint, kind: string, ref: string) => {
    const [row] = await q(
      `UPDATE "subscriptions" SET "period_used" = "period_used" - $1 WHERE "id" = $2 AND "status" = 'active' AND "period_used" >= $1 RETURNING ${REMAIN} AS remain`,
      [amount, sub],
    );
    if (row) return void (await ledgerRow(q, userId, tokenId, amount, BigInt(row.remain), kind, ref, sub));
    const [cur] = await q(`SELECT ${REMAIN} AS remain FROM "subscriptions" WHERE "id" = $1 AND "status" = 'active'`, [sub]);
    const remain = cur ? BigInt(cur.remain) : 0n;
    await ledgerRow(q, userId, tokenId, amount, remain + amount, kind, ref, sub);
    await ledgerRow(q, userId, 0, -amount, remain, "plan_expire", ref, sub);
  };
  // Takes up to `want` from the pot, never below 0 (the row is locked while read); answers what it took.
  const potTake = async (q: Q, userId: number, tokenId: number, sub: number, want: bigint, ref: string): Promise<bigint> => {
    const [row] = await q(
      `WITH o AS (SELECT "id", LEAST($1::bigint, GREATEST(${REMAIN}, 0)) AS take FROM "subscriptions" WHERE "id" = $2 AND "status" = 'active' FOR UPDATE)
       UPDATE "subscriptions" s SET "period_used" = s."period_used" + o.take FROM o WHERE s."id" = o."id"
       RETURNING o.take AS take, s."period_quota" + s."carried" - s."period_used" AS remain`,
      [want, sub],
    );
    const take = row ? BigInt(row.take) : 0n;
    if (take > 0n) await ledgerRow(q, userId, tokenId, -take, BigInt(row.remain), "relay_settle", ref, sub);
    return take;
  };

  const tokenAdjust = async (q: Q, r: ReserveInput, delta: bigint): Promise<bigint | null> => {
    if (r.unlimitedToken || delta === 0n) return null;
    if (delta < 0n) {
      const [row] = await q('UPDATE "tokens" SET "remain_quota" = "remain_quota" + $1 WHERE "id" = $2 RETURNING "remain_quota"', [-delta, r.tokenId]);
      return row ? BigInt(row.remain_quota) : null;
    }
    let [row] = await q('UPDATE "tokens" SET "remain_quota" = "remain_quota" - $1 WHERE "id" = $2 AND "remain_quota" >= $1 RETURNING "remain_quota"', [
      delta,
      r.tokenId,
    ]);
    row ??= (await q('UPDATE "tokens" SET "remain_quota" = 0 WHERE "id" = $1 RETURNING "remain_quota"', [r.tokenId]))[0];
    return row ? BigInt(row.remain_quota) : null;
  };

  return {
    reserve: (r) =>
      inTransaction(async (q) => {
        let remain: bigint | null = null;
        if (!r.unlimitedToken) {
          const [t] = await q('UPDATE "tokens" SET "remain_quota" = "remain_quota" - $1 WHERE "id" = $2 AND "remain_quota" >= $1 RETURNING "remain_quota"', [
            r.amount,
            r.tokenId,
          ]);
          if (!t) throw new AppError("QUOTA_EXCEEDED", "quota_insufficient_token");
          remain = BigInt(t.remain_quota);
        }
        const wallet = async () => {
          const [u] = await q('UPDATE "users" SET "quota" = "quota" - $1 WHERE "id" = $2 AND "quota" >= $1 RETURNING "quota"', [r.amount, r.userId]);
          return u ? BigInt(u.quota) : undefined;
        };
        // the plan's pots in order (docs/plans.md, "Charging"); a failed conditional update moves nothing
        const plan = r.plan;
        let pot = 0;
        const fromPots = async () => {
          for (const p of plan!.pots) {
            const remain = await debitPot(q, p.id, r.amount);
            if (remain !== undefined) {
              pot = p.id;
              return remain;
            }
          }
          return undefined;
        };
        let after: bigint | undefined;
        if (!plan?.pots.length) after = await wallet();
        else if (plan.walletFirst) after = (await wallet()) ?? (await fromPots());
        else {
          after = await fromPots();
          if (after === undefined && plan.fallback) after = await wallet();
        }
        if (after === undefined) {
          if (plan?.pots.length && (plan.walletFirst || !plan.fallback)) throw planExhausted(plan);
          throw new AppError("QUOTA_EXCEEDED", "quota_insufficient_user");
        }
        r.subscriptionId = pot;
        // the ledger row and the hold in one statement
        await q(
          `WITH h AS (INSERT INTO "quota_holds" ("ref", "user_id", "token_id", "unlimited_token", "amount", "node_id", "started_at", "request_id", "subscription_id") VALUES ($6, $1, $2, $8, $9, $10, $7, $11, $12))
           INSERT INTO "quota_ledger" ("user_id", "token_id", "delta", "balance_after", "kind", "ref", "created_at", "subscription_id") VALUES ($1, $2, $3, $4, $5, $6, $7, $12)`,
          [r.userId, r.tokenId, -r.amount, after, "relay_reserve", r.ref, nowSeconds(), r.unlimitedToken, r.amount, nodeId, r.requestId ?? null, pot],
        );
        r.beforeCommit?.(); // the COMMIT's round trip overlaps with the upstream call
        return remain;
      }),
    // Row locks are taken in one order by every movement: the token, then the hold, then the
    // user (a reservation: token, user, and a new hold row no one else can lock). Two orders
    // would deadlock a reservation against a settlement of the same token and user.
    settle: (r: SettleInput) =>
      inTransaction(async (q) => {
        const delta = r.actual - r.amount;
        const remain = await tokenAdjust(q, r, delta);
        if (r.tokenId > 0)
          await q('UPDATE "tokens" SET "used_quota" = "used_quota" + $1, "accessed_time" = $2 WHERE "id" = $3', [r.actual, nowSeconds(), r.tokenId]);
        // a plan's call settles in its pot; what the pot cannot cover goes to the balance
        // (the pot's row is locked after the user's, as by every movement that takes both)
        const sub = r.subscriptionId ?? 0;
        let walletDelta = sub > 0 ? 0n : delta;
        let quota = await closeHold(q, r.ref, r.userId, -walletDelta, r.actual);
        if (sub > 0 && delta < 0n) await potGiveBack(q, r.userId, r.tokenId, sub, -delta, "relay_settle", r.ref);
        else if (sub > 0 && delta > 0n) {
          walletDelta = delta - (await potTake(q, r.userId, r.tokenId, sub, delta, r.ref));
          if (walletDelta !== 0n)
            quota = BigInt((await q('UPDATE "users" SET "quota" = "quota" - $1 WHERE "id" = $2 RETURNING "quota"', [walletDelta, r.userId]))[0].quota);
        }
        if (walletDelta !== 0n) await ledgerRow(q, r.userId, r.tokenId, -walletDelta, quota, "relay_settle", r.ref);
        noteBalance(r.userId, quota); // quota warnings: a Map lookup (lib/notify/quota-watch.ts)
        if (r.channelId > 0) await q('UPDATE "channels" SET "used_quota" = "used_quota" + $1 WHERE "id" = $2', [r.actual, r.channelId]);
        return remain;
      }),
    refund: (r) =>
      inTransaction(async (q) => {
        const remain = await tokenAdjust(q, r, -r.amount);
        const sub = r.subscriptionId ?? 0;
        const quota = await closeHold(q, r.ref, r.userId, sub > 0 ? 0n : r.amount, null);
        if (sub > 0) await potGiveBack(q, r.userId, r.tokenId, sub, r.amount, "relay_refund", r.ref);
        else await ledgerRow(q, r.userId, r.tokenId, r.amount, quota, "relay_refund", r.ref);
        return remain;
      }),
    sweep: ({ ref, reason }) =>
      inTransaction(async (q) => {
        // the hold as written (a hold never changes), to lock the token first; the delete
        // below decides whether this sweep refunds it
        const [h] = await q('SELECT "user_id", "token_id", "unlimited_token", "amount", "request_id", "subscription_id" FROM "quota_holds" WHERE "ref" = $1', [
          ref,
        ]);
        if (!h) throw new HoldGone(ref);
        const userId = Number(h.user_id);
        const tokenId = Number(h.token_id);
        const amount = BigInt(h.amount);
        let remain: bigint | null = null;
        if (!(h.unlimited_token as unknown as boolean) && tokenId > 0) {
          const [row] = await q('UPDATE "tokens" SET "remain_quota" = "remain_quota" + $1 WHERE "id" = $2 RETURNING "remain_quota"', [amount, tokenId]);
          remain = row ? BigInt(row.remain_quota) : null;
        }
        if (!(await q('DELETE FROM "quota_holds" WHERE "ref" = $1 RETURNING 1', [ref])).length) throw new HoldGone(ref);
        // back to the pot it was reserved from
        const sub = Number(h.subscription_id);
        if (sub > 0) await potGiveBack(q, userId, tokenId, sub, amount, "relay_refund", ref);
        else await userChange(q, userId, tokenId, amount, "relay_refund", ref);
        // with LOG_DATABASE_URL the caller queues the log row after the commit (lib/billing/holds.ts)
        if (!logsSeparate)
          await q(
            `INSERT INTO "logs" ("user_id", "created_at", "type", "content", "username", "token_name", "token_id", "quota", "request_id", "other")
           SELECT "id", $1, 6, $2, "username", COALESCE((SELECT "name" FROM "tokens" WHERE "id" = $3), ''), $3, 0, $4, $5 FROM "users" WHERE "id" = $6`,
            [nowSeconds(), SWEEP_TEXT[reason], tokenId, (h.request_id as string | null) ?? ref, sweepLogOther(reason), userId],
          );
        return remain;
      }),
    // every movement has its own transaction, committed at once: wait for those under way
    flushSoon: () => (running.size ? untilIdle(IDLE_ROUNDS) : undefined),
    pending: () => running.size,
  };
}
