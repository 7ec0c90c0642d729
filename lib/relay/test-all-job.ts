// "Test all" (GET /api/channel/test) as a background job of this node: the call starts it
// and answers at once; GET /api/channel/test/progress reads its counts, which the channels
// page polls. One job at a time per node: a call while one runs answers its progress. The
// counts of the last job stay readable until the next one starts (docs/console-ui.md).
import "server-only";
import { logger } from "@/lib/log";
import type { UserCtx } from "@/lib/ctx";
import { channelsToTest, testChannel } from "@/lib/relay/test-channel";
import { nowSeconds } from "@/lib/billing/ledger";

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

// On globalThis: route handlers may be bundled in more than one chunk, the job is one per process.
const state = globalThis as unknown as { __gatewayTestAll?: TestAllProgress };

function current(): TestAllProgress {
  state.__gatewayTestAll ??= { running: false, total: 0, tested: 0, passed: 0, failed: 0, started_at: 0, finished_at: 0 };
  return state.__gatewayTestAll;
}

// GET /api/channel/test/progress (any admin).
export function testAllProgress(_args: { ctx: UserCtx }): TestAllProgress {
  return snapshot();
}

// A copy, so that a caller serialising it never sees the counts move under it.
function snapshot(): TestAllProgress {
  const p = current();
  return { running: p.running, total: p.total, tested: p.tested, passed: p.passed, failed: p.failed, started_at: p.started_at, finished_at: p.finished_at };
}

// Starts a job unless one is running; `started` says which. The job never rejects: a test
// that throws counts as failed.
export function startTestAll({ ctx }: { ctx: UserCtx }): { started: boolean; progress: TestAllProgress } {
  const p = current();
  if (p.running) return { started: false, progress: snapshot() };
  const job: TestAllProgress = { running: true, total: 0, tested: 0, passed: 0, failed: 0, started_at: nowSeconds(), finished_at: 0 };
  state.__gatewayTestAll = job;
  void run(ctx, job);
  return { started: true, progress: snapshot() };
}

async function run(ctx: UserCtx, job: TestAllProgress): Promise<void> {
  try {
    const ids = await channelsToTest();
    job.total = ids.length;
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++];
        let passed = false;
        try {
          passed = (await testChannel({ ctx, input: { id } }))?.success === true;
        } catch (e) {
          log.error({ channelId: id, error: (e as Error).name }, "channel test failed");
        }
        if (passed) job.passed++;
        else job.failed++;
        job.tested++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } catch (e) {
    log.error({ error: (e as Error).name }, "test all stopped");
  } finally {
    job.running = false;
    job.finished_at = nowSeconds();
  }
}
