// One holder per cluster for a periodic job: the one lock mechanism of the project.
//
// API (for every periodic job, the task poller and the rollup job included):
//   const ran = await withClusterLease("task-poller", 30_000, async (lease) => {
//     for (const part of work) {
//       if (!(await lease.renew())) return; // lost it: stop the round, another node goes on
//       await doOne(part);
//     }
//   });
//   // ran === false: another node holds it; nothing was run.
// The lease is taken for one round and released when `fn` settles (even when it throws).
// `fn` calls lease.renew() between steps of a long round; renew() is false once the lease is
// lost (Redis key expired and taken by another node, database connection gone), and the
// round should then stop.
//
// - Redis (REDIS_URL, multi-node mode): a key `lease:{name}` set with NX and a time to live
//   (ttlMs), extended by renew(), deleted at the end if still ours.
// - PostgreSQL without Redis, or while Redis cannot be reached: a session advisory lock (its
//   fixed id in LOCK_IDS) on a pool connection taken for the round only, unlocked and given
//   back at the end; the database frees the lock by itself if the connection dies.
// - SQLite: one node by construction; the lease is always held.
import "server-only";
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { env } from "@/lib/env";
import { redis, redisKey } from "@/lib/cache/redis";
import { pgPool } from "@/lib/db/raw";

// The fixed PostgreSQL advisory lock ids of the project, in one place. lib/db/migrate.ts holds
// the migrations' id as a constant of its own; it is listed here so that no new id collides.
export const LOCK_IDS = {
  migrate: 4_242_001,
  rollups: 4_242_010,
  "task-poller": 4_242_020,
  "hold-sweeper": 4_242_030,
  "log-retention": 4_242_040,
  "channel-test": 4_242_050,
  "channel-balance": 4_242_060,
  plans: 4_242_070,
  "audit-retention": 4_242_080,
} as const;

export type LeaseName = keyof typeof LOCK_IDS;
export type LeaseHandle = { renew(): Promise<boolean> };

const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const DROP = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

// Runs fn while holding the cluster lease `name`; false (fn not run) when another node holds it.
export async function withClusterLease(name: LeaseName, ttlMs: number, fn: (lease: LeaseHandle) => Promise<void>): Promise<boolean> {
  const r = redis();
  if (r) {
    const held = await redisLease(r, name, ttlMs, fn);
    if (held !== "unreachable") return held;
    // Redis is down: the database's lock keeps the jobs going (once per cluster among the nodes
    // that see the same outage; the jobs are correct without the lease, it only saves work)
  }
  if (env().databaseKind === "postgresql") return pgLease(name, fn);
  await fn({ renew: async () => true });
  return true;
}

async function redisLease(
  r: NonNullable<ReturnType<typeof redis>>,
  name: LeaseName,
  ttlMs: number,
  fn: (lease: LeaseHandle) => Promise<void>,
): Promise<boolean | "unreachable"> {
  const key = redisKey(`lease:${name}`);
  const me = randomUUID();
  try {
    if ((await r.set(key, me, "PX", ttlMs, "NX")) !== "OK") return false;
  } catch {
    return "unreachable";
  }
  try {
    await fn({
      renew: async () => {
        try {
          return (await r.eval(RENEW, 1, key, me, String(ttlMs))) === 1;
        } catch {
          return false;
        }
      },
    });
  } finally {
    await r.eval(DROP, 1, key, me).catch(() => {});
  }
  return true;
}

async function pgLease(name: LeaseName, fn: (lease: LeaseHandle) => Promise<void>): Promise<boolean> {
  let c: pg.PoolClient;
  try {
    c = await pgPool().connect();
  } catch {
    return false;
  }
  let broken = false;
  try {
    const [row] = (await c.query("SELECT pg_try_advisory_lock($1) AS ok", [LOCK_IDS[name]])).rows as { ok: boolean }[];
    if (!row?.ok) return false;
    try {
      await fn({
        renew: async () => {
          try {
            await c.query("SELECT 1");
            return true;
          } catch {
            broken = true;
            return false;
          }
        },
      });
    } finally {
      await c.query("SELECT pg_advisory_unlock($1)", [LOCK_IDS[name]]).catch(() => {
        broken = true;
      });
    }
    return true;
  } catch (err) {
    broken = true;
    throw err;
  } finally {
    c.release(broken);
  }
}
