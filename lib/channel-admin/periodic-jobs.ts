// The two optional periodic channel jobs of new-api (docs/operations.md, "Periodic jobs and
// their leases"), each off unless its variable is set:
//   - CHANNEL_TEST_FREQUENCY (minutes): every channel tested by the "test all" job
//     (lib/relay/test-all-job.ts runTestAll: the same job, its "already running" guard and its
//     progress), whose results drive the automatic disabling and enabling as a manual "test
//     all" does (lib/relay/test-channel.ts);
//   - CHANNEL_UPDATE_FREQUENCY (minutes): every enabled channel's balance refreshed by
//     "update all balances" (lib/channel-admin/upstream.ts updateAllBalances).
//
// Once per cluster per period. Every node's timer fires at the same instants, the multiples of
// the period since the epoch (a period is a slot). A round takes the job's cluster lease
// (withClusterLease: no two rounds at once, and the advisory lock while Redis is down), then,
// with Redis, claims its slot (`{REDIS_PREFIX}periodic:{name}:{slot}`, NX): a node whose timer
// fires after the winner's round has already ended and released the lease still finds the slot
// taken. Without Redis (SQLite, one node; or PostgreSQL while Redis cannot be reached) the
// lease alone decides. A round that outlasts its period makes the next slots skip on every
// node (the lease is held) until it ends.
import "server-only";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { describeError } from "@/lib/errors";
import { redis, redisKey } from "@/lib/cache/redis";
import { withClusterLease, type LeaseName } from "@/lib/db/lease";
import { runTestAll } from "@/lib/relay/test-all-job";
import { updateAllBalances } from "@/lib/channel-admin/upstream";

const log = logger("channels");

// A round renews its lease before each channel; one channel's call is bounded by the test's
// 30 s timeout (the balance's: 15 s), well inside this.
const LEASE_MS = 60_000;
// How long the shutdown waits for a round to end after telling it to stop (it stops before
// its next channel; the calls under way finish or time out).
const STOP_WAIT_MS = 5_000;

type Job = {
  name: LeaseName;
  periodMs: number;
  round: (keepGoing: () => Promise<boolean>) => Promise<void>;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  stopping: boolean;
};

// On globalThis, as the other jobs: one set of timers per process.
const holder = globalThis as unknown as { __gatewayChannelJobs?: Job[] };

/** Whether this node may run `name`'s round of `slot`: its Redis claim, or true without Redis. */
async function claimSlot(name: LeaseName, slot: number, periodMs: number): Promise<boolean> {
  const r = redis();
  if (!r) return true;
  try {
    return (await r.set(redisKey(`periodic:${name}:${slot}`), "1", "PX", Math.max(2 * periodMs, 10_000), "NX")) === "OK";
  } catch {
    return true; // Redis is down: the lease fell back on the database's lock, which decides alone
  }
}

async function tick(job: Job): Promise<void> {
  const slot = Math.floor(Date.now() / job.periodMs);
  await withClusterLease(job.name, LEASE_MS, async (lease) => {
    if (!(await claimSlot(job.name, slot, job.periodMs))) return;
    await job.round(async () => !job.stopping && (await lease.renew()));
  });
}

function schedule(job: Job): void {
  const delay = job.periodMs - (Date.now() % job.periodMs);
  job.timer = setTimeout(() => {
    if (job.stopping) return;
    schedule(job);
    if (job.running) return; // this node's previous round still runs (and holds the lease)
    job.running = tick(job)
      .catch((err) => log.error({ job: job.name, error: describeError(err) }, "periodic channel job failed, will retry next period"))
      .finally(() => {
        job.running = undefined;
      });
  }, delay);
  job.timer.unref();
}

const testRound = async (keepGoing: () => Promise<boolean>) => {
  const { started, progress } = await runTestAll(keepGoing);
  if (!started) {
    log.info("periodic channel test skipped: a channel test is already running");
    return;
  }
  log.info({ total: progress.total, tested: progress.tested, passed: progress.passed, failed: progress.failed }, "periodic channel test done");
};

const balanceRound = async (keepGoing: () => Promise<boolean>) => {
  const { updated, failed, skipped } = await updateAllBalances({ keepGoing });
  log.info({ updated, failed, skipped }, "periodic balance refresh done");
};

/** The timers of this node (server.ts), for the jobs whose frequency is set. */
export function startChannelJobs(): void {
  if (holder.__gatewayChannelJobs) return;
  const { CHANNEL_TEST_FREQUENCY: test, CHANNEL_UPDATE_FREQUENCY: update } = env();
  const jobs: Job[] = [];
  if (test > 0) jobs.push({ name: "channel-test", periodMs: Math.round(test * 60_000), round: testRound, stopping: false });
  if (update > 0) jobs.push({ name: "channel-balance", periodMs: Math.round(update * 60_000), round: balanceRound, stopping: false });
  holder.__gatewayChannelJobs = jobs;
  for (const job of jobs) {
    schedule(job);
    log.info({ job: job.name, periodMinutes: job.periodMs / 60_000 }, "periodic channel job started");
  }
}

/** The shutdown: no new round; a round under way stops before its next channel (waited for a few seconds). */
export async function stopChannelJobs(): Promise<void> {
  const jobs = holder.__gatewayChannelJobs ?? [];
  holder.__gatewayChannelJobs = undefined;
  for (const job of jobs) {
    job.stopping = true;
    clearTimeout(job.timer);
  }
  const running = jobs.map((j) => j.running).filter(Boolean);
  if (running.length) await Promise.race([Promise.all(running), new Promise((r) => setTimeout(r, STOP_WAIT_MS).unref())]);
}
