// The rollup job (docs/dashboard.md, "Keeping the rollups exact"): folds the consumption logs
// written since the last run into log_rollups (per hour, user and model), log_model_rollups
// (per hour and model, all users together), log_user_day_rollups (per day and user),
// log_token_rollups (per hour, user, token name, group and model) and log_channel_rollups
// (per hour, channel, group and model), by a watermark over log ids; and the performance
// buckets of the same logs (lib/rollups/perf.ts, docs/performance.md).
//
// Each step takes the logs with last_log_id < id <= to, adds their sums to their hours' and
// days' rows and moves last_log_id to `to`, all in one transaction: the five tables are
// always exactly the sums of the consumption logs with id <= last_log_id. A log the relay's batched writer
// inserts late (created_at in an hour already summed) has a larger id than every row
// summed before it, so the next run adds it to its hour. What the watermark needs is that no
// log with id <= `to` can appear after the step:
//   - SQLite: the connection writes one transaction at a time and ids grow with commits;
//     MAX(id) read inside the step's write transaction is final.
//   - PostgreSQL: ids come from a sequence when an INSERT runs, and commits may land out of
//     order. The job first takes LOCK TABLE logs IN SHARE MODE for an instant: it waits for
//     every transaction that is writing logs to end, so MAX(id) read under it is a bound
//     below which nothing can still commit.
// The backfill: logs summed into log_rollups before log_token_rollups and log_channel_rollups
// existed (an install upgraded past migration 0025) are added to those two tables by the same
// runs, after the new logs, in steps of the same size: the ids in
// (dims_backfilled, dims_backfill_to] of the state row are the ones still to add (migration
// 0029 sets dims_backfill_to; nothing to add when the two are equal). The start-up does not
// wait for it; until it is done the stats read the logs for those filters (dimRollupsComplete).
// Runs every DataExportInterval minutes whether or not the dashboard is shown (the usage-log
// stats read the rollups too); the cluster lease (lib/db/lease.ts) and the last_run_at of the
// state row make it run on one node of a cluster per interval.
import "server-only";
import { logger } from "@/lib/logger";
import { getNumber } from "@/lib/options/store";
import { describeError } from "@/lib/errors";
import { logPgPool } from "@/lib/db/raw";
import { withClusterLease } from "@/lib/db/lease";
import { asBig, BatchSizer, isSqlite, pgAll, pgExec, pgRun, pgStep, sqliteAll, sqliteExec, sqliteRun, sqliteStep, type Row } from "@/lib/rollups/store";
import { LOG_TYPE } from "@/lib/logs/writer";
import { DAY } from "@/lib/rollups/usage";
import { nowSeconds } from "@/lib/time";
import { foldSteps, runAsync, runSync } from "@/lib/rollups/perf";

const log = logger("rollups");

/** Log ids summed per step at most (PostgreSQL's every step). */
export const STEP_IDS = 20_000;
// SQLite: a step runs synchronously on the connection and holds the event loop, so its ids are
// sized from the last steps' time per id to take about this long (BatchSizer). With logs that
// each make a rollup row of their own, 20,000 ids took 300 to 700 ms at ten million logs.
const SQLITE_STEP_BUDGET_MS = 20;
const SQLITE_STEP_MIN = 200;
const TICK_MS = 30_000;
/** The lease of a run, renewed between steps. */
const LEASE_MS = 60_000;

const KEYS = '"hour", "user_id", "username", "model_name"';
const SUMS = '"count", "prompt_tokens", "completion_tokens", "quota"';

/**
 * Adds the consumption logs with lo < id <= hi to their hours' rows. The unary "+" keeps
 * SQLite (no statistics) off the (type, created_at) index, which would read every
 * consumption log of the table for one step: the primary key reads just the step's ids.
 */
export const SUMMARIZE_RANGE = `INSERT INTO "log_rollups" (${KEYS}, ${SUMS})
SELECT "created_at" - ("created_at" % 3600), "user_id", "username", "model_name", COUNT(*), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "logs" WHERE "id" > ? AND "id" <= ? AND +"type" = ${LOG_TYPE.consume}
GROUP BY "created_at" - ("created_at" % 3600), "user_id", "username", "model_name"
ON CONFLICT (${KEYS}) DO UPDATE SET "count" = "log_rollups"."count" + excluded."count",
  "prompt_tokens" = "log_rollups"."prompt_tokens" + excluded."prompt_tokens",
  "completion_tokens" = "log_rollups"."completion_tokens" + excluded."completion_tokens",
  "quota" = "log_rollups"."quota" + excluded."quota"`;

const MODEL_KEYS = '"hour", "model_name"';

/** The same logs added to log_model_rollups (per hour and model, all users together). */
export const SUMMARIZE_MODELS_RANGE = `INSERT INTO "log_model_rollups" (${MODEL_KEYS}, ${SUMS})
SELECT "created_at" - ("created_at" % 3600), "model_name", COUNT(*), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "logs" WHERE "id" > ? AND "id" <= ? AND +"type" = ${LOG_TYPE.consume}
GROUP BY "created_at" - ("created_at" % 3600), "model_name"
ON CONFLICT (${MODEL_KEYS}) DO UPDATE SET "count" = "log_model_rollups"."count" + excluded."count",
  "prompt_tokens" = "log_model_rollups"."prompt_tokens" + excluded."prompt_tokens",
  "completion_tokens" = "log_model_rollups"."completion_tokens" + excluded."completion_tokens",
  "quota" = "log_model_rollups"."quota" + excluded."quota"`;

const DAY_KEYS = '"day", "user_id", "username"';

/**
 * The same logs added to log_user_day_rollups (per UTC day, user and username): the top
 * users of all users read whole days from it (docs/dashboard.md, "Reading").
 */
export const SUMMARIZE_USER_DAYS_RANGE = `INSERT INTO "log_user_day_rollups" (${DAY_KEYS}, ${SUMS})
SELECT "created_at" - ("created_at" % ${DAY}), "user_id", "username", COUNT(*), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "logs" WHERE "id" > ? AND "id" <= ? AND +"type" = ${LOG_TYPE.consume}
GROUP BY "created_at" - ("created_at" % ${DAY}), "user_id", "username"
ON CONFLICT (${DAY_KEYS}) DO UPDATE SET "count" = "log_user_day_rollups"."count" + excluded."count",
  "prompt_tokens" = "log_user_day_rollups"."prompt_tokens" + excluded."prompt_tokens",
  "completion_tokens" = "log_user_day_rollups"."completion_tokens" + excluded."completion_tokens",
  "quota" = "log_user_day_rollups"."quota" + excluded."quota"`;

/**
 * A table of hourly sums keyed by the hour and some columns of the logs (docs/dashboard.md,
 * "Usage-log stats"): the stats' filters that log_rollups does not hold.
 */
export type HourlyDims = { table: string; keys: string[] };
export const TOKEN_ROLLUPS: HourlyDims = { table: "log_token_rollups", keys: ["user_id", "username", "token_name", "group", "model_name"] };
export const CHANNEL_ROLLUPS: HourlyDims = { table: "log_channel_rollups", keys: ["channel_id", "group", "model_name"] };
export const DIM_ROLLUPS = [TOKEN_ROLLUPS, CHANNEL_ROLLUPS];

/**
 * The consumption logs that `where` selects (after the type), summed into `t` per hour and
 * its keys: added to the rows already there (`upsert`), or as new rows (the table's rows of
 * those hours deleted before).
 */
export function summarizeInto(t: HourlyDims, where: string, upsert: boolean): string {
  const keys = t.keys.map((k) => `"${k}"`).join(", ");
  const hour = '"created_at" - ("created_at" % 3600)';
  const insert = `INSERT INTO "${t.table}" ("hour", ${keys}, ${SUMS})
SELECT ${hour}, ${keys}, COUNT(*), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "logs" WHERE +"type" = ${LOG_TYPE.consume} AND ${where}
GROUP BY ${hour}, ${keys}`;
  if (!upsert) return insert;
  const add = ["count", "prompt_tokens", "completion_tokens", "quota"].map((c) => `"${c}" = "${t.table}"."${c}" + excluded."${c}"`).join(", ");
  return `${insert}
ON CONFLICT ("hour", ${keys}) DO UPDATE SET ${add}`;
}

// The job's step for each of DIM_ROLLUPS: the logs with lo < id <= hi.
const SUMMARIZE_DIMS_RANGE = DIM_ROLLUPS.map((t) => summarizeInto(t, '"id" > ? AND "id" <= ?', true));

// The performance buckets' step: the same ids.
const ID_RANGE = '"id" > ? AND "id" <= ?';

export type RunResult = { ran: boolean; last_log_id: number; steps: number };

// The backfill of the state row: the ids in (done, to] are still to add to DIM_ROLLUPS, or null.
export const BACKFILL_STATE = 'SELECT "dims_backfilled" AS "d", "dims_backfill_to" AS "t" FROM "log_rollup_state" WHERE "id" = 1';
export function backfillOf(r: Row | undefined): { done: number; to: number } | null {
  const done = Number(asBig(r?.d));
  const to = Number(asBig(r?.t));
  return done < to ? { done, to } : null;
}

const dims = globalThis as unknown as { __gatewayDimRollupsComplete?: boolean };

/**
 * Whether log_token_rollups and log_channel_rollups hold every log that log_rollups holds (the
 * backfill is done). Once true it stays true in this process: nothing starts a backfill again.
 */
export async function dimRollupsComplete(): Promise<boolean> {
  if (dims.__gatewayDimRollupsComplete) return true;
  const rows = isSqlite() ? await sqliteStep(false, (c) => sqliteAll(c, BACKFILL_STATE)) : (await logPgPool().query(BACKFILL_STATE)).rows;
  const complete = backfillOf(rows[0]) === null;
  if (complete) dims.__gatewayDimRollupsComplete = true;
  return complete;
}

/** The state row: the watermark and when the job last ran (unix seconds). */
export async function rollupState(): Promise<{ last_log_id: number; last_run_at: number; max_log_id: number }> {
  const sql = 'SELECT "last_log_id" AS "w", "last_run_at" AS "t", (SELECT MAX("id") FROM "logs") AS "m" FROM "log_rollup_state" WHERE "id" = 1';
  const rows = isSqlite() ? await sqliteStep(false, (c) => sqliteAll(c, sql)) : (await logPgPool().query(sql)).rows;
  const r = rows[0] ?? {};
  return { last_log_id: Number(asBig(r.w)), last_run_at: Number(asBig(r.t)), max_log_id: Number(asBig(r.m)) };
}

const intervalSeconds = () => Math.max(1, Math.floor(getNumber("DataExportInterval", 5))) * 60;
// A run due within this many seconds counts as due (ticks are TICK_MS apart).
const SLACK = 15;

async function runSqlite(force: boolean): Promise<RunResult> {
  let steps = 0;
  let last = 0;
  const sizer = new BatchSizer({ budgetMs: SQLITE_STEP_BUDGET_MS, min: SQLITE_STEP_MIN, max: STEP_IDS, first: 1_000 });
  for (;;) {
    let ids = 0;
    let started = 0; // inside the step: the time waiting for the connection is not the step's
    const done = await sqliteStep(true, (conn) => {
      started = performance.now();
      const r = sqliteAll(conn, 'SELECT "last_log_id" AS "w", "last_run_at" AS "t" FROM "log_rollup_state" WHERE "id" = 1')[0] ?? {};
      const w = Number(asBig(r.w));
      last = w;
      if (steps === 0 && !force && nowSeconds() - Number(asBig(r.t)) < intervalSeconds() - SLACK) return "skip" as const;
      const max = Number(asBig(sqliteAll(conn, 'SELECT MAX("id") AS "m" FROM "logs"')[0]?.m));
      const to = Math.min(w + sizer.size, max);
      if (to > w) {
        ids = to - w;
        sqliteRun(conn, SUMMARIZE_RANGE, [w, to]);
        sqliteRun(conn, SUMMARIZE_MODELS_RANGE, [w, to]);
        sqliteRun(conn, SUMMARIZE_USER_DAYS_RANGE, [w, to]);
        for (const sql of SUMMARIZE_DIMS_RANGE) sqliteRun(conn, sql, [w, to]);
        runSync(foldSteps(ID_RANGE, [w, to]), sqliteExec(conn));
        sqliteRun(conn, 'UPDATE "log_rollup_state" SET "last_log_id" = ?, "last_run_at" = ? WHERE "id" = 1', [to, nowSeconds()]);
        last = to;
        return "more" as const; // the next step finds the rest, or the backfill, or nothing
      }
      sqliteRun(conn, 'UPDATE "log_rollup_state" SET "last_run_at" = ? WHERE "id" = 1', [nowSeconds()]);
      const b = backfillOf(sqliteAll(conn, BACKFILL_STATE)[0]);
      if (!b) return "done" as const;
      const upTo = Math.min(b.done + sizer.size, b.to);
      ids = upTo - b.done;
      for (const sql of SUMMARIZE_DIMS_RANGE) sqliteRun(conn, sql, [b.done, upTo]);
      sqliteRun(conn, 'UPDATE "log_rollup_state" SET "dims_backfilled" = ? WHERE "id" = 1', [upTo]);
      return upTo >= b.to ? ("done" as const) : ("more" as const);
    });
    if (done === "skip") return { ran: false, last_log_id: last, steps };
    sizer.record(performance.now() - started, ids);
    steps++;
    if (done === "done") return { ran: true, last_log_id: last, steps };
    // relay calls run between steps: a pause as long as a step leaves them half the loop at least
    await new Promise((resolve) => setTimeout(resolve, SQLITE_STEP_BUDGET_MS));
  }
}

// The id below which every log that will ever exist is already committed (see the header).
export async function pgSafeMaxId(): Promise<number> {
  return pgStep("read committed", async (client) => {
    // waiting on a long writer (a log clean-up) gives up: the next tick tries again
    await client.query("SET LOCAL lock_timeout = '2s'");
    await client.query('LOCK TABLE "logs" IN SHARE MODE');
    return Number(asBig((await pgAll(client, 'SELECT MAX("id") AS "m" FROM "logs"'))[0]?.m));
  });
}

async function runPostgres(force: boolean): Promise<RunResult> {
  let result: RunResult = { ran: false, last_log_id: -1, steps: 0 }; // kept when another node holds the lease
  await withClusterLease("rollups", LEASE_MS, async (lease) => {
    const state = (await logPgPool().query('SELECT "last_log_id" AS "w", "last_run_at" AS "t" FROM "log_rollup_state" WHERE "id" = 1')).rows[0] ?? {};
    result = { ran: false, last_log_id: Number(asBig(state.w)), steps: 0 };
    if (!force && nowSeconds() - Number(asBig(state.t)) < intervalSeconds() - SLACK) return;
    const max = await pgSafeMaxId();
    for (;;) {
      // a lost lease ends the run; what was summed stays summed, the next run goes on from there
      if (result.steps > 0 && !(await lease.renew())) return;
      const { to, more } = await pgStep("read committed", async (client) => {
        // the row lock orders this step after any other writer of the state (a log clean-up)
        const w = Number(asBig((await pgAll(client, 'SELECT "last_log_id" AS "w" FROM "log_rollup_state" WHERE "id" = 1 FOR UPDATE'))[0]?.w));
        const to = Math.min(w + STEP_IDS, max);
        if (to > w) {
          await pgRun(client, SUMMARIZE_RANGE, [w, to]);
          await pgRun(client, SUMMARIZE_MODELS_RANGE, [w, to]);
          await pgRun(client, SUMMARIZE_USER_DAYS_RANGE, [w, to]);
          for (const sql of SUMMARIZE_DIMS_RANGE) await pgRun(client, sql, [w, to]);
          await runAsync(foldSteps(ID_RANGE, [w, to]), pgExec(client));
        }
        await pgRun(client, 'UPDATE "log_rollup_state" SET "last_log_id" = ?, "last_run_at" = ? WHERE "id" = 1', [Math.max(w, to), nowSeconds()]);
        return { to: Math.max(w, to), more: to < max };
      });
      result = { ran: true, last_log_id: to, steps: result.steps + 1 };
      if (!more) break;
    }
    for (;;) {
      if (!(await lease.renew())) return;
      const more = await pgStep("read committed", async (client) => {
        const b = backfillOf((await pgAll(client, BACKFILL_STATE + " FOR UPDATE"))[0]);
        if (!b) return false;
        const upTo = Math.min(b.done + STEP_IDS, b.to);
        for (const sql of SUMMARIZE_DIMS_RANGE) await pgRun(client, sql, [b.done, upTo]);
        await pgRun(client, 'UPDATE "log_rollup_state" SET "dims_backfilled" = ? WHERE "id" = 1', [upTo]);
        return upTo < b.to;
      });
      result = { ...result, steps: result.steps + 1 };
      if (!more) return;
    }
  });
  return result;
}

const holder = globalThis as unknown as { __gatewayRollups?: { timer?: NodeJS.Timeout; running?: Promise<RunResult> } };
const job = () => (holder.__gatewayRollups ??= {});

/**
 * Brings the rollups up to date now (force) or when the interval has passed since the last
 * run anywhere in the cluster. One run at a time per process: a second caller shares it.
 */
export function runRollups(force: boolean): Promise<RunResult> {
  const j = job();
  if (j.running) return j.running;
  const p = (isSqlite() ? runSqlite(force) : runPostgres(force)).finally(() => {
    if (j.running === p) j.running = undefined;
  });
  j.running = p;
  return p;
}

/** The timer of this node (server.ts): every TICK_MS, a run if one is due. */
export function startRollupJob(): void {
  const j = job();
  if (j.timer) return;
  const tick = () => {
    runRollups(false).catch((err) => log.error({ error: describeError(err) }, "run failed, will retry"));
  };
  j.timer = setInterval(tick, TICK_MS);
  j.timer.unref();
  setTimeout(tick, 5_000).unref();
}

export function stopRollupJob(): void {
  const j = job();
  if (j.timer) clearInterval(j.timer);
  j.timer = undefined;
}
