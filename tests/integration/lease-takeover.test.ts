// The cluster lease of the periodic jobs (lib/db/lease.ts, docs/operations.md "Several
// nodes") survives its holder's death: a process holding it is killed with SIGKILL in the
// middle of a round, and another holder runs the job within the lease's TTL plus one period
// (Redis: the key expires), or at once (PostgreSQL: the dead connection frees the advisory
// lock); and while Redis cannot be reached, the nodes share the advisory lock instead. No
// server: the holders are tests/support/lease-holder.ts and this process.
// PostgreSQL project only (it needs PostgreSQL and Redis; SQLite is one node).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";

const enabled = process.env.TEST_DB === "postgresql";
const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const TTL_MS = 1_500;
const PERIOD_MS = 200;
const children: ChildProcess[] = [];
// set, so that neither process writes secrets of its own to a data directory
const SECRETS = { SESSION_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("hex") };
// lib/cache/redis.ts and lib/db/raw.ts keep their connections on globalThis
const globals = globalThis as unknown as { __gatewayRedis?: unknown; __gatewayPgPool?: unknown };

// Starts a holder with `env`; resolves once it holds the lease.
async function startHolder(env: Record<string, string>): Promise<ChildProcess> {
  // node itself runs the holder (tsx as a loader, not its CLI, which would fork a grandchild
  // that a SIGKILL to the child leaves alive)
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/lease-holder.ts"], {
    env: { ...process.env, ...env, LEASE_TTL_MS: String(TTL_MS), TSX_TSCONFIG_PATH: "tsconfig.server.json" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the holder did not take the lease:\n${out}`)), 30_000);
    const on = (d: Buffer) => {
      out += d;
      if (out.includes("held")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", on);
    child.stderr!.on("data", on);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the holder exited with ${code}:\n${out}`));
    });
  });
  child.removeAllListeners("exit");
  return child;
}

const kill9 = (c: ChildProcess) =>
  new Promise<void>((resolve) => {
    c.once("exit", () => resolve());
    c.kill("SIGKILL");
  });

// This process is the other node: it tries the lease every PERIOD_MS, as a job's timer does,
// and answers how long after `since` its round ran, and whether a try failed before that.
async function takeOver(since: number, withClusterLease: (n: "rollups", ttl: number, fn: () => Promise<void>) => Promise<boolean>) {
  let refused = 0;
  for (;;) {
    if (await withClusterLease("rollups", TTL_MS, async () => {})) return { after: Date.now() - since, refused };
    refused++;
    if (Date.now() - since > 10_000) throw new Error("never took the lease over");
    await new Promise((r) => setTimeout(r, PERIOD_MS));
  }
}

// A leader holding the lease through the database's advisory lock (on a database of its own)
// is refused to this process while it lives, and taken over at once after its SIGKILL.
async function advisoryTakeover(redisEnv: Record<string, string>): Promise<void> {
  const name = `gw_test_lease_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  try {
    const env = { ...SECRETS, DATABASE_URL: url, ...redisEnv };
    const leader = await startHolder(env);
    vi.resetModules();
    for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
    const { withClusterLease } = await import("@/lib/db/lease");
    expect(await withClusterLease("rollups", TTL_MS, async () => {})).toBe(false);
    const since = Date.now();
    await kill9(leader);
    const { after } = await takeOver(since, withClusterLease);
    expect(after).toBeLessThanOrEqual(TTL_MS + PERIOD_MS + 500);
    const { pgPool } = await import("@/lib/db/raw");
    await pgPool().end();
    delete globals.__gatewayPgPool;
    const { redis } = await import("@/lib/cache/redis");
    redis()?.disconnect();
    delete globals.__gatewayRedis;
    vi.unstubAllEnvs();
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

describe.skipIf(!enabled)("the cluster lease after its holder's death", () => {
  it("Redis: another node runs the job within TTL + one period of the leader's SIGKILL", async () => {
    const env = { ...SECRETS, REDIS_URL: "redis://127.0.0.1:6379", REDIS_PREFIX: `gwtest:${randomBytes(6).toString("hex")}:` };
    const leader = await startHolder(env);
    vi.resetModules();
    for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
    const { withClusterLease } = await import("@/lib/db/lease");
    // held by the living leader: refused, however long it lives (it renews)
    expect(await withClusterLease("rollups", TTL_MS, async () => {})).toBe(false);
    await new Promise((r) => setTimeout(r, TTL_MS + PERIOD_MS));
    expect(await withClusterLease("rollups", TTL_MS, async () => {})).toBe(false);
    const since = Date.now();
    await kill9(leader);
    const { after, refused } = await takeOver(since, withClusterLease);
    expect(refused).toBeGreaterThan(0); // the dead leader's key blocked it until it expired
    expect(after).toBeLessThanOrEqual(TTL_MS + PERIOD_MS + 500);
    const { redis } = await import("@/lib/cache/redis");
    redis()?.disconnect();
    delete globals.__gatewayRedis;
    vi.unstubAllEnvs();
  }, 60_000);

  it("PostgreSQL without Redis: the dead leader's advisory lock is freed with its connection", () => advisoryTakeover({ REDIS_URL: "" }), 60_000);

  // a loopback port nothing listens on: every Redis command fails at once
  it(
    "Redis unreachable: the nodes fall back on the database's advisory lock, one holder at a time",
    () => advisoryTakeover({ REDIS_URL: "redis://127.0.0.1:1", REDIS_PREFIX: "gwtest:down:" }),
    60_000,
  );
});
