// "Test all" (GET /api/channel/test) as a background job: the call starts it and answers at
// once; GET /api/channel/test/progress reads its counts, which the channels page polls. One
// job at a time: a call while one runs answers its progress. The counts of the last job stay
// readable until the next one starts (docs/console-ui.md).
//
// Several nodes (REDIS_URL): one job per cluster, and its counts in Redis, because the page's
// polls reach whichever node the balancer picks. The node that starts the job holds the key
// test-all:running (NX, a time to live renewed while it runs) and writes the counts to
// test-all:progress after each channel; any node reads them there. Counts that say "running"
// while no node holds the key belong to a node that died in the middle: read as stopped.
// Without Redis, or while it cannot be reached, the node's own job and counts are used.
//
// The periodic test (CHANNEL_TEST_FREQUENCY: lib/channel-admin/periodic-jobs.ts) runs this same job
// through runTestAll(), so a manual "test all" and a periodic one never run at once.
import "server-only";
import { randomUUID } from "node:crypto";
import { logger } from "@/lib/logger";
import { redis, redisKey } from "@/lib/cache/redis";
import type { UserCtx } from "@/lib/ctx";
import { channelsToTest, testChannel } from "@/lib/relay/test-channel";
import { nowSeconds } from "@/lib/time";

const log = logger("channel-test");

export type TestAllProgress = {
  running: boolean;
  total: number;
  tested: number;
  passed: number;
  failed: number;
  started_at: number; // unix seconds, 0 before the first job
  finished_at: number; // 0 while running
};

const CONCURRENCY = 3;
const RUNNING_KEY = "test-all:running";
const PROGRESS_KEY = "test-all:progress";
const RUNNING_TTL_MS = 30_000;
const PROGRESS_TTL_MS = 7 * 86_400_000;

// On globalThis: route handlers may be bundled in more than one chunk, the job is one per process.
const state = globalThis as unknown as { __gatewayTestAll?: TestAllProgress };

function current(): TestAllProgress {
  state.__gatewayTestAll ??= { running: false, total: 0, tested: 0, passed: 0, failed: 0, started_at: 0, finished_at: 0 };
  return state.__gatewayTestAll;
}

// GET /api/channel/test/progress (any admin).
export async function testAllProgress(_args: { ctx: UserCtx }): Promise<TestAllProgress> {
  return (await sharedProgress()) ?? snapshot();
}

// The cluster's counts (Redis), or null when there is no Redis or none is kept there yet.
async function sharedProgress(): Promise<TestAllProgress | null> {
  const r = redis();
  if (!r) return null;
  try {
    const [raw, holder] = await Promise.all([r.get(redisKey(PROGRESS_KEY)), r.get(redisKey(RUNNING_KEY))]);
    if (!raw) return null;
    const p = JSON.parse(raw) as TestAllProgress;
    return p.running && !holder ? Object.assign(p, { running: false }) : p;
  } catch {
    return null;
  }
}

// A copy, so that a caller serialising it never sees the counts move under it.
function snapshot(): TestAllProgress {
  const p = current();
  return { running: p.running, total: p.total, tested: p.tested, passed: p.passed, failed: p.failed, started_at: p.started_at, finished_at: p.finished_at };
}

// Starts a job unless one is running (on this node, or on any with Redis); `started` says
// which. The job never rejects: a test that throws counts as failed.
export async function startTestAll(_args: { ctx: UserCtx }): Promise<{ started: boolean; progress: TestAllProgress }> {
  const { started, progress } = await begin();
  return { started, progress };
}

// The periodic test (CHANNEL_TEST_FREQUENCY, lib/channel-admin/periodic-jobs.ts): the same job under
// the same "already running" guard, awaited to its end. `keepGoing` is asked before each
// channel (the periodic job's lease, and the shutdown): false ends the job there. Answers the
// final counts, or started false when a job was already running (this one's counts then).
export async function runTestAll(keepGoing: () => Promise<boolean>): Promise<{ started: boolean; progress: TestAllProgress }> {
  const { started, progress, job, done } = await begin(keepGoing);
  if (!job || !done) return { started, progress };
  await done;
  return { started, progress: { ...job } };
}

async function begin(
  keepGoing?: () => Promise<boolean>,
): Promise<{ started: boolean; progress: TestAllProgress; job?: TestAllProgress; done?: Promise<void> }> {
  const p = current();
  if (p.running) return { started: false, progress: snapshot() };
  const shared = await claimCluster();
  if (shared === "taken") return { started: false, progress: (await sharedProgress()) ?? snapshot() };
  const job: TestAllProgress = { running: true, total: 0, tested: 0, passed: 0, failed: 0, started_at: nowSeconds(), finished_at: 0 };
  state.__gatewayTestAll = job;
  const done = run(job, shared, keepGoing);
  return { started: true, progress: snapshot(), job, done };
}

type Claim = { publish: (job: TestAllProgress) => Promise<void>; release: () => Promise<void> };

// With Redis: the cluster's running key, or "taken" when another node's job holds it; null
// without Redis (or when it cannot be reached: the node runs its own job).
async function claimCluster(): Promise<Claim | "taken" | null> {
  const r = redis();
  if (!r) return null;
  const key = redisKey(RUNNING_KEY);
  const me = randomUUID();
  try {
    if ((await r.set(key, me, "PX", RUNNING_TTL_MS, "NX")) !== "OK") return "taken";
  } catch {
    return null;
  }
  const renew = setInterval(() => void r.pexpire(key, RUNNING_TTL_MS).catch(() => {}), RUNNING_TTL_MS / 3);
  renew.unref();
  return {
    publish: (job) =>
      r
        .set(redisKey(PROGRESS_KEY), JSON.stringify(job), "PX", PROGRESS_TTL_MS)
        .then(() => undefined)
        .catch(() => {}),
    release: async () => {
      clearInterval(renew);
      if ((await r.get(key).catch(() => null)) === me) await r.del(key).catch(() => {});
    },
  };
}

async function run(job: TestAllProgress, shared: Claim | null, keepGoing?: () => Promise<boolean>): Promise<void> {
  await shared?.publish(job);
  try {
    const ids = await channelsToTest();
    job.total = ids.length;
    await shared?.publish(job);
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        if (keepGoing && !(await keepGoing())) return;
        if (next >= ids.length) return; // another worker took the last one meanwhile
        const id = ids[next++];
        let passed = false;
        try {
          // no caller's context: a test does not depend on who asked for it
          passed = (await testChannel({ input: { id } }))?.success === true;
        } catch (e) {
          log.error({ channelId: id, error: (e as Error).name }, "channel test failed");
        }
        if (passed) job.passed++;
        else job.failed++;
        job.tested++;
        await shared?.publish(job);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } catch (e) {
    log.error({ error: (e as Error).name }, "test all stopped");
  } finally {
    job.running = false;
    job.finished_at = nowSeconds();
    await shared?.publish(job);
    await shared?.release();
  }
}
