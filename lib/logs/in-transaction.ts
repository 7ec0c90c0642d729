// Log rows written by a money transaction of the main database (a check-in, a top-up, a
// redemption, an admin's quota change) and the logs' rename when an account is erased.
//
// When the logs share the main database (LOG_DATABASE_URL unset, the default), the log row
// is written in that transaction, as before. When they live in their own database, one
// transaction cannot span both: the work on the logs runs right after the main transaction
// commits (and not at all when it rolls back). The quota movement itself is recorded in the
// ledger, in the main transaction, either way; the log row is the usage history of it
// (docs/operations.md, "Logs at scale").
import "server-only";
import { logger } from "@/lib/logger";
import type { Prisma } from "@/generated/sqlite/client";
import { db, logDb, logsSeparate, type Tx } from "@/lib/db/client";
import { describeError } from "@/lib/errors";
import { enqueueLog } from "@/lib/logs/writer";

const log = logger("logs");

type TxOptions = { maxWait?: number; timeout?: number };

const afterCommit = new WeakMap<object, (() => Promise<void>)[]>();

/**
 * db().$transaction(fn, options), and then, once it has committed, the log work that
 * createLogRow and afterLogCommit registered for it (when the logs have their own database).
 */
export async function transactionWithLogs<T>(fn: (tx: Tx) => Promise<T>, options?: TxOptions): Promise<T> {
  let current: Tx | undefined;
  const out = await db().$transaction(async (tx) => {
    current = tx;
    afterCommit.set(tx, []);
    return fn(tx);
  }, options);
  for (const work of (current && afterCommit.get(current)) ?? []) {
    await work().catch((err) => log.error({ error: describeError(err) }, "writing to the log database after a commit failed"));
  }
  return out;
}

/** Runs `work` on the log database after the transaction `tx` commits (transactionWithLogs). */
export function afterLogCommit(tx: Tx, work: () => Promise<void>): void {
  const list = afterCommit.get(tx);
  if (!list) throw new Error("afterLogCommit outside transactionWithLogs");
  list.push(work);
}

/** A log row of the money transaction `tx`: in it, or right after its commit (see the header). */
export async function createLogRow(tx: Tx, data: Prisma.LogUncheckedCreateInput): Promise<void> {
  if (!logsSeparate()) {
    await tx.log.create({ data });
    return;
  }
  afterLogCommit(tx, async () => {
    try {
      await logDb().log.create({ data });
    } catch (err) {
      // the log database refused it now: the batch writer keeps it and retries
      log.error({ error: describeError(err) }, "log row write failed, queued for retry");
      enqueueLog({
        user_id: data.user_id ?? 0,
        type: data.type,
        created_at: Number(data.created_at),
        content: data.content,
        username: data.username,
        quota: data.quota === undefined ? undefined : BigInt(data.quota),
        ip: data.ip,
        other: data.other,
      });
    }
  });
}
