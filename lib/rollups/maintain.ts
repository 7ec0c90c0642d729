// Keeping the rollups (log_rollups, log_model_rollups, log_user_day_rollups, the tables of
// DIM_ROLLUPS: log_token_rollups, log_channel_rollups, and the performance buckets of
// lib/rollups/perf.ts) equal to the logs
// when logs are deleted or rewritten (docs/dashboard.md):
// the log clean-up and an account's erasure change the logs and the rollups in one
// transaction, with the state row locked so that a job step cannot interleave, and the
// rebuild (`npm run rollups:rebuild`) writes every row afresh.
import "server-only";
import { logDb, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isAdmin } from "@/lib/auth/roles";
import type { UserCtx } from "@/lib/ctx";
import { LOG_TYPE } from "@/lib/logs/writer";
import { logPgPool } from "@/lib/db/raw";
import { asBig, isSqlite, pgExec, pgRun, pgStep, sqliteAll, sqliteExec, sqliteRun, sqliteStep, txAll, txExec, txRun } from "@/lib/rollups/store";
import { daysFromHours, deleteBefore, foldSteps, PERF_TABLES, runAsync, runSync } from "@/lib/rollups/perf";
import { backfillOf, CHANNEL_ROLLUPS, DIM_ROLLUPS, pgSafeMaxId, summarizeInto, TOKEN_ROLLUPS, type HourlyDims } from "@/lib/rollups/job";
import { LOCK_IDS } from "@/lib/db/lease";
import { DAY, HOUR } from "@/lib/rollups/usage";
import { nowSeconds } from "@/lib/time";

const KEYS = '"hour", "user_id", "username", "model_name"';
const SUMS = '"count", "prompt_tokens", "completion_tokens", "quota"';
const SUMMARIZE_SELECT = `INSERT INTO "log_rollups" (${KEYS}, ${SUMS})
SELECT "created_at" - ("created_at" % 3600), "user_id", "username", "model_name", COUNT(*), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "logs" WHERE "id" <= ? AND +"type" = ${LOG_TYPE.consume} AND `;
const GROUP = ' GROUP BY "created_at" - ("created_at" % 3600), "user_id", "username", "model_name"';
const MODEL_SUMMARIZE_SELECT = `INSERT INTO "log_model_rollups" ("hour", "model_name", ${SUMS})
SELECT "created_at" - ("created_at" % 3600), "model_name", COUNT(*), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "logs" WHERE "id" <= ? AND +"type" = ${LOG_TYPE.consume} AND `;
const MODEL_GROUP = ' GROUP BY "created_at" - ("created_at" % 3600), "model_name"';
// log_model_rollups from log_rollups, written in full (the rebuild): the same logs, summed
// again per hour and model, from a table already grouped by hour.
const MODELS_FROM_USERS = `INSERT INTO "log_model_rollups" ("hour", "model_name", ${SUMS})
SELECT "hour", "model_name", SUM("count"), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "log_rollups" GROUP BY "hour", "model_name"`;
// log_user_day_rollups from log_rollups: the same logs, summed again per UTC day, user and
// username from a table already grouped by hour (a day is 24 whole hours). Written in full
// by the rebuild; the clean-up and an account's deletion add a WHERE (their transaction has
// already made the log_rollups rows it reads equal to the logs).
const DAYS_FROM_HOURS_SELECT = `INSERT INTO "log_user_day_rollups" ("day", "user_id", "username", ${SUMS})
SELECT "hour" - ("hour" % ${DAY}), "user_id", "username", SUM("count"), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "log_rollups"`;
const DAYS_GROUP = ` GROUP BY "hour" - ("hour" % ${DAY}), "user_id", "username"`;
const DAYS_FROM_HOURS = DAYS_FROM_HOURS_SELECT + DAYS_GROUP;

// A table of DIM_ROLLUPS written in full from the logs up to the watermark (the rebuild).
const REBUILD_DIMS = (t: HourlyDims) => summarizeInto(t, '"id" <= ?', false);
// log_rollups from log_token_rollups, written in full (the rebuild): its keys (hour, user,
// username, model) are a part of the token table's, which sums the same logs, so the logs
// are read twice (the token and the channel tables) instead of three times.
const USERS_FROM_TOKENS = `INSERT INTO "log_rollups" (${KEYS}, ${SUMS})
SELECT ${KEYS}, SUM("count"), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "log_token_rollups" GROUP BY ${KEYS}`;
// The rebuild's statements in order, after the tables are emptied: every one sums the logs
// with id <= ? (its only parameter, when it has one) or a table written before it.
const REBUILD: { sql: string; params: boolean; counts?: true }[] = [
  { sql: REBUILD_DIMS(TOKEN_ROLLUPS), params: true },
  { sql: USERS_FROM_TOKENS, params: false, counts: true },
  { sql: MODELS_FROM_USERS, params: false },
  { sql: DAYS_FROM_HOURS, params: false },
  { sql: REBUILD_DIMS(CHANNEL_ROLLUPS), params: true },
];
const REBUILT = ["log_rollups", "log_model_rollups", "log_user_day_rollups", ...DIM_ROLLUPS.map((t) => t.table), ...PERF_TABLES];
// The performance buckets are folded in JavaScript (their sketches): the rebuild reads the logs
// in ranges of this many ids, each added to the buckets written before it.
const PERF_REBUILD_IDS = 50_000;
const perfChunks = (max: number) => {
  const out: [number, number][] = [];
  for (let lo = 0; lo < max; lo += PERF_REBUILD_IDS) out.push([lo, Math.min(max, lo + PERF_REBUILD_IDS)]);
  return out;
};
const PERF_ID_RANGE = '"id" > ? AND "id" <= ?';
// the backfill of DIM_ROLLUPS (lib/rollups/job.ts) has nothing left to do after a rebuild
const REBUILT_STATE = 'UPDATE "log_rollup_state" SET "last_log_id" = ?, "last_run_at" = ?, "dims_backfilled" = 0, "dims_backfill_to" = 0 WHERE "id" = 1';

// The watermark, with the state row locked until the transaction ends (PostgreSQL; a SQLite
// transaction holds the whole database), and what the tables of DIM_ROLLUPS hold below it:
// `dims` selects those logs (the ids in (dims_backfilled, dims_backfill_to] are not in them
// yet while the backfill runs: lib/rollups/job.ts), with `dimsParams` after the watermark.
async function lockedWatermark(tx: Tx): Promise<{ w: number; dims: string; dimsParams: number[] }> {
  const rows = await txAll(
    tx,
    `SELECT "last_log_id" AS "w", "dims_backfilled" AS "d", "dims_backfill_to" AS "t" FROM "log_rollup_state" WHERE "id" = 1${isSqlite() ? "" : " FOR UPDATE"}`,
  );
  const w = Number(asBig(rows[0]?.w));
  const b = backfillOf(rows[0]);
  return b ? { w, dims: '"id" <= ? AND ("id" <= ? OR "id" > ?)', dimsParams: [w, b.done, b.to] } : { w, dims: '"id" <= ?', dimsParams: [w] };
}

// DELETE /api/log/?target_timestamp=: the logs created before the target go, and with them
// the rollup rows of the hours and days they filled; the hour the target cuts is summed again
// from the logs that stay, and the day it cuts from that day's hourly rows (made exact just
// before, in the same transaction).
export async function deleteLogsBefore({ ctx, input: target }: { ctx: UserCtx; input: number | undefined }): Promise<number> {
  if (!isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  if (!target || target <= 0) throw new AppError("INVALID_INPUT", "log_target_required");
  const cut = Math.floor(target / HOUR) * HOUR;
  const dayCut = Math.floor(target / DAY) * DAY;
  return logDb().$transaction(
    async (tx) => {
      const { w, dims, dimsParams } = await lockedWatermark(tx);
      const n = (await tx.log.deleteMany({ where: { created_at: { lt: BigInt(target) } } })).count;
      await txRun(tx, 'DELETE FROM "log_rollups" WHERE "hour" < ?', [cut]);
      await txRun(tx, 'DELETE FROM "log_model_rollups" WHERE "hour" < ?', [cut]);
      if (cut < target) {
        await txRun(tx, 'DELETE FROM "log_rollups" WHERE "hour" = ?', [cut]);
        await txRun(tx, 'DELETE FROM "log_model_rollups" WHERE "hour" = ?', [cut]);
        await txRun(tx, SUMMARIZE_SELECT + '"created_at" >= ? AND "created_at" < ?' + GROUP, [w, cut, cut + HOUR]);
        await txRun(tx, MODEL_SUMMARIZE_SELECT + '"created_at" >= ? AND "created_at" < ?' + MODEL_GROUP, [w, cut, cut + HOUR]);
      }
      for (const t of DIM_ROLLUPS) {
        await txRun(tx, `DELETE FROM "${t.table}" WHERE "hour" < ?`, [cut]);
        if (cut < target) {
          await txRun(tx, `DELETE FROM "${t.table}" WHERE "hour" = ?`, [cut]);
          await txRun(tx, summarizeInto(t, `${dims} AND "created_at" >= ? AND "created_at" < ?`, false), [...dimsParams, cut, cut + HOUR]);
        }
      }
      // the days: those wholly before the target go; the day it cuts (which may hold hours
      // before and after the cut hour) is summed again from its log_rollups rows, which are
      // now the logs that stay (hours before `cut` deleted, the cut hour summed again)
      await txRun(tx, 'DELETE FROM "log_user_day_rollups" WHERE "day" < ?', [dayCut]);
      if (dayCut < target) {
        await txRun(tx, 'DELETE FROM "log_user_day_rollups" WHERE "day" = ?', [dayCut]);
        await txRun(tx, DAYS_FROM_HOURS_SELECT + ' WHERE "hour" >= ? AND "hour" < ?' + DAYS_GROUP, [dayCut, dayCut + DAY]);
      }
      // the performance buckets the same way: the cut hour folded again from the logs that
      // stay (up to the watermark), the cut day merged again from its hours
      const perf = txExec(tx);
      await runAsync(deleteBefore(HOUR, cut, cut < target ? cut : undefined), perf);
      if (cut < target) await runAsync(foldSteps('"id" <= ? AND "created_at" >= ? AND "created_at" < ?', [w, cut, cut + HOUR], [HOUR]), perf);
      await runAsync(deleteBefore(DAY, dayCut), perf);
      if (dayCut < target) await runAsync(daysFromHours(dayCut, dayCut + DAY), perf);
      return n;
    },
    { maxWait: 30_000, timeout: 30 * 60_000 },
  );
}

// An erased account's logs take a new username (lib/users/erase-account.ts): its rollup rows
// are summed again from its logs, inside the same transaction, and its daily rows from its
// hourly ones just written, and so are its rows of log_token_rollups. log_model_rollups and
// log_channel_rollups hold no user: their hours, keys and sums do not change.
export async function resummarizeUser(tx: Tx, userId: number): Promise<void> {
  const { w, dims, dimsParams } = await lockedWatermark(tx);
  await txRun(tx, 'DELETE FROM "log_rollups" WHERE "user_id" = ?', [userId]);
  await txRun(tx, SUMMARIZE_SELECT + '"user_id" = ?' + GROUP, [w, userId]);
  await txRun(tx, 'DELETE FROM "log_user_day_rollups" WHERE "user_id" = ?', [userId]);
  await txRun(tx, DAYS_FROM_HOURS_SELECT + ' WHERE "user_id" = ?' + DAYS_GROUP, [userId]);
  for (const t of DIM_ROLLUPS) {
    if (!t.keys.includes("username")) continue; // no user in its rows: its sums do not change
    await txRun(tx, `DELETE FROM "${t.table}" WHERE "user_id" = ?`, [userId]);
    await txRun(tx, summarizeInto(t, `${dims} AND "user_id" = ?`, false), [...dimsParams, userId]);
  }
}

/**
 * Rebuilds every rollup table in one transaction: log_token_rollups and log_channel_rollups
 * from the logs, log_rollups from log_token_rollups, log_model_rollups and
 * log_user_day_rollups from log_rollups; answers the watermark and the per-user hourly rows
 * written.
 */
export async function rebuildRollups(): Promise<{ last_log_id: number; rows: number }> {
  if (isSqlite()) {
    return sqliteStep(true, (conn) => {
      const max = Number(asBig(sqliteAll(conn, 'SELECT MAX("id") AS "m" FROM "logs"')[0]?.m));
      for (const table of REBUILT) sqliteRun(conn, `DELETE FROM "${table}"`);
      let rows = 0;
      for (const r of REBUILD) {
        const n = sqliteRun(conn, r.sql, r.params ? [max] : []);
        if (r.counts) rows = n;
      }
      for (const [lo, hi] of perfChunks(max)) runSync(foldSteps(PERF_ID_RANGE, [lo, hi]), sqliteExec(conn));
      sqliteRun(conn, REBUILT_STATE, [max, nowSeconds()]);
      return { last_log_id: max, rows };
    });
  }
  const max = await pgSafeMaxId();
  const out = await pgStep("read committed", async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [LOCK_IDS.rollups]); // no job run meanwhile (without Redis, a run holds this lock)
    await client.query('SELECT "last_log_id" FROM "log_rollup_state" WHERE "id" = 1 FOR UPDATE');
    // DELETE, not TRUNCATE: readers keep the old rows until the commit instead of waiting on a lock
    for (const table of REBUILT) await pgRun(client, `DELETE FROM "${table}"`);
    let rows = 0;
    for (const r of REBUILD) {
      const n = await pgRun(client, r.sql, r.params ? [max] : []);
      if (r.counts) rows = n;
    }
    for (const [lo, hi] of perfChunks(max)) await runAsync(foldSteps(PERF_ID_RANGE, [lo, hi]), pgExec(client));
    await pgRun(client, REBUILT_STATE, [max, nowSeconds()]);
    return { last_log_id: max, rows };
  });
  // every row was rewritten: fresh statistics for the planner now, not when autovacuum gets to it
  await logPgPool().query(`ANALYZE ${REBUILT.map((t) => `"${t}"`).join(", ")}`);
  return out;
}
