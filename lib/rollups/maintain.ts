// Keeping the rollups (log_rollups, log_model_rollups, log_user_day_rollups and the tables of
// DIM_ROLLUPS: log_token_rollups, log_channel_rollups) equal to the logs
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
import { asBig, isSqlite, pgRun, pgStep, sqliteAll, sqliteRun, sqliteStep, txAll, txRun } from "@/lib/rollups/store";
import { DIM_ROLLUPS, pgSafeMaxId, summarizeInto, SUMMARIZE_RANGE, type HourlyDims } from "@/lib/rollups/job";
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

// The watermark, with the state row locked until the transaction ends (PostgreSQL; a SQLite
// transaction holds the whole database).
async function lockedWatermark(tx: Tx): Promise<number> {
  const rows = await txAll(tx, `SELECT "last_log_id" AS "w" FROM "log_rollup_state" WHERE "id" = 1${isSqlite() ? "" : " FOR UPDATE"}`);
  return Number(asBig(rows[0]?.w));
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
      const w = await lockedWatermark(tx);
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
          await txRun(tx, summarizeInto(t, '"id" <= ? AND "created_at" >= ? AND "created_at" < ?', false), [w, cut, cut + HOUR]);
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
  const w = await lockedWatermark(tx);
  await txRun(tx, 'DELETE FROM "log_rollups" WHERE "user_id" = ?', [userId]);
  await txRun(tx, SUMMARIZE_SELECT + '"user_id" = ?' + GROUP, [w, userId]);
  await txRun(tx, 'DELETE FROM "log_user_day_rollups" WHERE "user_id" = ?', [userId]);
  await txRun(tx, DAYS_FROM_HOURS_SELECT + ' WHERE "user_id" = ?' + DAYS_GROUP, [userId]);
  for (const t of DIM_ROLLUPS) {
    if (!t.keys.includes("username")) continue; // no user in its rows: its sums do not change
    await txRun(tx, `DELETE FROM "${t.table}" WHERE "user_id" = ?`, [userId]);
    await txRun(tx, summarizeInto(t, '"id" <= ? AND "user_id" = ?', false), [w, userId]);
  }
}

/**
 * Rebuilds log_rollups from the logs, and log_model_rollups and log_user_day_rollups from it,
 * and the tables of DIM_ROLLUPS from the logs, in one transaction; answers the watermark and the per-user hourly rows written.
 */
export async function rebuildRollups(): Promise<{ last_log_id: number; rows: number }> {
  if (isSqlite()) {
    return sqliteStep(true, (conn) => {
      const max = Number(asBig(sqliteAll(conn, 'SELECT MAX("id") AS "m" FROM "logs"')[0]?.m));
      sqliteRun(conn, 'DELETE FROM "log_rollups"');
      sqliteRun(conn, 'DELETE FROM "log_model_rollups"');
      sqliteRun(conn, 'DELETE FROM "log_user_day_rollups"');
      const rows = sqliteRun(conn, SUMMARIZE_RANGE, [0, max]);
      sqliteRun(conn, MODELS_FROM_USERS);
      sqliteRun(conn, DAYS_FROM_HOURS);
      for (const t of DIM_ROLLUPS) {
        sqliteRun(conn, `DELETE FROM "${t.table}"`);
        sqliteRun(conn, REBUILD_DIMS(t), [max]);
      }
      sqliteRun(conn, 'UPDATE "log_rollup_state" SET "last_log_id" = ?, "last_run_at" = ? WHERE "id" = 1', [max, nowSeconds()]);
      return { last_log_id: max, rows };
    });
  }
  const max = await pgSafeMaxId();
  const out = await pgStep("read committed", async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [LOCK_IDS.rollups]); // no job run meanwhile (without Redis, a run holds this lock)
    await client.query('SELECT "last_log_id" FROM "log_rollup_state" WHERE "id" = 1 FOR UPDATE');
    await pgRun(client, 'DELETE FROM "log_rollups"');
    await pgRun(client, 'DELETE FROM "log_model_rollups"');
    await pgRun(client, 'DELETE FROM "log_user_day_rollups"');
    const rows = await pgRun(client, SUMMARIZE_RANGE, [0, max]);
    await pgRun(client, MODELS_FROM_USERS);
    await pgRun(client, DAYS_FROM_HOURS);
    for (const t of DIM_ROLLUPS) {
      await pgRun(client, `DELETE FROM "${t.table}"`);
      await pgRun(client, REBUILD_DIMS(t), [max]);
    }
    await pgRun(client, 'UPDATE "log_rollup_state" SET "last_log_id" = ?, "last_run_at" = ? WHERE "id" = 1', [max, nowSeconds()]);
    return { last_log_id: max, rows };
  });
  // every row was rewritten: fresh statistics for the planner now, not when autovacuum gets to it
  await logPgPool().query(`ANALYZE "log_rollups", "log_model_rollups", "log_user_day_rollups", ${DIM_ROLLUPS.map((t) => `"${t.table}"`).join(", ")}`);
  return out;
}
