// The monthly partitions of the usage logs on PostgreSQL (prisma/migrations/postgresql/
// 0022_logs_partitioned.sql; docs/operations.md, "Logs at scale"): "logs" is partitioned by
// range of "created_at" (unix seconds), one partition per UTC month named logs_pYYYYMM, and
// logs_default for any row outside them.
//
// - ensureLogPartitions: the current month and the next AHEAD months exist, so that the rows
//   of a new month never land in logs_default (a partition cannot be made for a range that
//   logs_default already holds rows of).
// - dropLogPartitionsBefore(cut): the partitions wholly before the cut are dropped, one at
//   a time. Dropping a partition takes a short exclusive lock on "logs": it waits at most
//   LOCK_WAIT for it (and gives up until the next run), so that the relay's log batches are
//   never queued behind it for longer.
import "server-only";
import { logger } from "@/lib/logger";
import type pg from "pg";
import { logPgPool } from "@/lib/db/raw";
import { describeError } from "@/lib/errors";
import { nowSeconds } from "@/lib/time";

const log = logger("logs");

const AHEAD = 2;
const LOCK_WAIT = "500ms";
const NAME = /^logs_p(\d{4})(\d{2})$/;

export const monthStart = (year: number, month0: number): number => Date.UTC(year, month0, 1) / 1000;

/** The partition of the UTC month holding `seconds`: its name and bounds. */
export function partitionOf(seconds: number): { name: string; from: number; to: number } {
  const d = new Date(seconds * 1000);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  return { name: `logs_p${y}${String(m + 1).padStart(2, "0")}`, from: monthStart(y, m), to: monthStart(y, m + 1) };
}

/** The month partitions that exist, with their bounds (from their names). Empty: "logs" is not partitioned. */
export async function listLogPartitions(client?: pg.PoolClient): Promise<{ name: string; from: number; to: number }[]> {
  const q = client ?? logPgPool();
  const { rows } = await q.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = to_regclass('"logs"') ORDER BY c.relname`,
  );
  const out: { name: string; from: number; to: number }[] = [];
  for (const { name } of rows) {
    const m = NAME.exec(name);
    if (m) out.push({ name, from: monthStart(Number(m[1]), Number(m[2]) - 1), to: monthStart(Number(m[1]), Number(m[2])) });
  }
  return out;
}

async function isPartitioned(): Promise<boolean> {
  const { rows } = await logPgPool().query(`SELECT 1 FROM pg_partitioned_table WHERE partrelid = to_regclass('"logs"')`);
  return rows.length > 0;
}

/** Makes the partitions of this month and the next AHEAD ones; answers the names made. */
export async function ensureLogPartitions(now = nowSeconds()): Promise<string[]> {
  if (!(await isPartitioned())) return [];
  const have = new Set((await listLogPartitions()).map((p) => p.name));
  const made: string[] = [];
  const d = new Date(now * 1000);
  for (let i = 0; i <= AHEAD; i++) {
    const p = partitionOf(monthStart(d.getUTCFullYear(), d.getUTCMonth() + i));
    if (have.has(p.name)) continue;
    const client = await logPgPool().connect();
    try {
      await client.query("BEGIN");
      await client.query(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
      await client.query(`CREATE TABLE IF NOT EXISTS "${p.name}" PARTITION OF "logs" FOR VALUES FROM (${p.from}) TO (${p.to})`);
      await client.query("COMMIT");
      made.push(p.name);
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      log.error({ partition: p.name, error: describeError(err) }, "partition not made (the next run tries again)");
    } finally {
      client.release();
    }
  }
  return made;
}

/** Drops the month partitions that end at or before `cut`; answers their names. */
export async function dropLogPartitionsBefore(cut: number, keepGoing: () => Promise<boolean>): Promise<string[]> {
  const dropped: string[] = [];
  for (const p of await listLogPartitions()) {
    if (p.to > cut) continue;
    if (!(await keepGoing())) break;
    const client = await logPgPool().connect();
    try {
      await client.query("BEGIN");
      await client.query(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
      await client.query(`DROP TABLE "${p.name}"`);
      await client.query("COMMIT");
      dropped.push(p.name);
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      log.error({ partition: p.name, error: describeError(err) }, "partition not dropped (the next run tries again)");
      break;
    } finally {
      client.release();
    }
  }
  return dropped;
}
