// Log retention (docs/operations.md, "Logs at scale"): with the option LogRetentionDays = N
// (0, the default, keeps everything), the usage logs created before the start of the UTC day
// N days ago are deleted, and with them the dashboard's rollup rows of those days (the
// rollups stay equal to the logs, as after the manual clean-up: docs/dashboard.md).
//
// The logs go in small batches, each its own short transaction, with a pause between them,
// so that the relay's log batches and billing never wait behind a long delete: on SQLite a
// batch runs synchronously on the (log) database's one connection and is sized to take about BATCH_BUDGET_MS;
// on PostgreSQL a batch of BATCH_MAX rows takes row locks on the deleted rows only. The cut
// is a whole UTC day, so the rollup rows before it are deleted whole (no hour to sum again),
// after the last batch of logs (deleteRollupsBefore). It lives beside the rollups because it
// changes them too.
//
// On PostgreSQL, where "logs" is partitioned by month (lib/logs/partitions.ts), the months
// wholly before the cut are dropped as whole partitions first; the batches then delete what
// remains before the cut (the start of the boundary month, and logs_default's rows).
//
// One run per cluster (withClusterLease "log-retention"): hourly, at start-up, and soon after
// the option changes; each run also makes the month partitions ahead on PostgreSQL.
import "server-only";
import { logger } from "@/lib/logger";
import { withClusterLease } from "@/lib/db/lease";
import { optionJob } from "@/lib/options/option-job";
import { getNumber } from "@/lib/options/store";
import { BatchSizer, isSqlite, pgRun, pgStep, sqliteRun, sqliteStep } from "@/lib/rollups/store";
import { describeError } from "@/lib/errors";
import { dropLogPartitionsBefore, ensureLogPartitions } from "@/lib/logs/partitions";
import { DIM_ROLLUPS } from "@/lib/rollups/job";
import { PERF_TABLES } from "@/lib/rollups/perf";
import { nowSeconds } from "@/lib/time";

const log = logger("logs");

const DAY = 86_400;
const TICK_MS = 60 * 60_000;
const LEASE_MS = 60_000;
// SQLite: a batch is sized to hold the connection about this long (from the last batches' time per row).
const BATCH_BUDGET_MS = 20;
const BATCH_MIN = 100;
const BATCH_MAX = 5_000;
// between batches: the relay's queued log batches and billing run here
const PAUSE_MS = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The cut for `days` of retention at `now` (unix seconds): the start of the UTC day `days` days ago. */
export function retentionCut(days: number, now: number): number {
  return Math.floor((now - days * DAY) / DAY) * DAY;
}

const DELETE_BATCH = 'DELETE FROM "logs" WHERE "id" IN (SELECT "id" FROM "logs" WHERE "created_at" < ? ORDER BY "created_at" LIMIT ?)';

export type RetentionResult = { ran: boolean; cut: number; deleted: number; batches: number; dropped: string[] };

type Batches = { deleted: number; batches: number; complete: boolean };

// Runs `sql` (a delete of at most `?2` rows before the cut `?1`) until it deletes fewer than
// asked, pausing and renewing the lease between batches.
async function deleteBatches(sql: string, cut: number, renew: () => Promise<boolean>): Promise<Batches> {
  let deleted = 0;
  let batches = 0;
  const sizer = new BatchSizer({ budgetMs: BATCH_BUDGET_MS, min: BATCH_MIN, max: BATCH_MAX, first: isSqlite() ? 500 : BATCH_MAX });
  for (;;) {
    if (batches > 0) {
      if (!(await renew())) return { deleted, batches, complete: false };
      await sleep(PAUSE_MS);
    }
    const size = sizer.size;
    let started = 0;
    const n = isSqlite()
      ? await sqliteStep(true, (conn) => {
          started = performance.now();
          return sqliteRun(conn, sql, [cut, size]);
        })
      : await pgStep("read committed", (c) => pgRun(c, sql, [cut, size]));
    batches++;
    deleted += n;
    if (n < size) return { deleted, batches, complete: true };
    if (isSqlite()) sizer.record(performance.now() - started, n);
  }
}

// The rollup tables and their time column: their rows of the days before the cut go (whole
// days: hours and days alike). Each has an index led by that column.
const ROLLUPS: [table: string, column: string][] = [
  ["log_rollups", "hour"],
  ["log_model_rollups", "hour"],
  ["log_user_day_rollups", "day"],
  ...DIM_ROLLUPS.map((t): [string, string] => [t.table, "hour"]),
  // the performance buckets: hours and days alike start at their bucket, the cut is a UTC day
  ...PERF_TABLES.map((t): [string, string] => [t, "bucket"]),
];

// SQLite: in batches sized like the logs' (a year of rollups is about as many rows as a
// day of logs, and one transaction over them would hold the write lock for seconds).
// PostgreSQL: one transaction that also locks the rollup state row (the rollup job's steps
// are ordered around it); its row locks do not stop the relay's log inserts.
async function deleteRollupsBefore(cut: number, renew: () => Promise<boolean>): Promise<boolean> {
  if (isSqlite()) {
    for (const [table, column] of ROLLUPS) {
      const sql = `DELETE FROM "${table}" WHERE rowid IN (SELECT rowid FROM "${table}" WHERE "${column}" < ? LIMIT ?)`;
      if (!(await deleteBatches(sql, cut, renew)).complete) return false;
    }
    return true;
  }
  await pgStep("read committed", async (c) => {
    await c.query('SELECT "last_log_id" FROM "log_rollup_state" WHERE "id" = 1 FOR UPDATE');
    for (const [table, column] of ROLLUPS) await pgRun(c, `DELETE FROM "${table}" WHERE "${column}" < ?`, [cut]);
  });
  return true;
}

/**
 * One pass of log maintenance now, unless another node runs one: on PostgreSQL the month
 * partitions ahead are made (lib/logs/partitions.ts); with LogRetentionDays set, the
 * partitions wholly before the cut are dropped, and the rows before it that remain (the
 * boundary month's, logs_default's, every row on SQLite) are deleted in batches.
 */
export async function runRetention(now = nowSeconds()): Promise<RetentionResult> {
  const days = Math.floor(getNumber("LogRetentionDays", 0));
  const cut = retentionCut(days, now);
  const result: RetentionResult = { ran: false, cut, deleted: 0, batches: 0, dropped: [] };
  await withClusterLease("log-retention", LEASE_MS, async (lease) => {
    const keepGoing = async () => !job.stopping() && (await lease.renew());
    if (!isSqlite()) await ensureLogPartitions(now);
    if (days <= 0) return;
    result.ran = true;
    if (!isSqlite()) result.dropped = await dropLogPartitionsBefore(cut, keepGoing);
    const done = await deleteBatches(DELETE_BATCH, cut, keepGoing);
    Object.assign(result, { deleted: done.deleted, batches: done.batches });
    if (done.complete) await deleteRollupsBefore(cut, keepGoing);
  });
  if (result.deleted || result.dropped.length)
    log.info(
      { cut: new Date(cut * 1000).toISOString(), deleted: result.deleted, batches: result.batches, dropped: result.dropped },
      "retention: old logs removed",
    );
  return result;
}

const job = optionJob({
  key: "__gatewayRetention",
  intervalMs: () => TICK_MS,
  firstRunMs: 10_000,
  watch: () => getNumber("LogRetentionDays", 0),
  run: () => runRetention(),
  onError: (err) => log.error({ error: describeError(err) }, "retention run failed, will retry"),
});

/** The timer of this node (server.ts): hourly, once shortly after start-up, and after the option changes. */
export const startRetentionJob = (): void => job.start();
export const stopRetentionJob = (): Promise<void> => job.stop();
