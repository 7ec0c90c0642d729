// Orderly shutdown: stop accepting requests, flush what is queued (usage logs and other
// batched writes register flushers here), close the database.
import "server-only";
import { db } from "@/lib/db/client";
import { stopWalCheckpointer } from "@/lib/db/wal-checkpointer";
import { describeError } from "@/lib/errors";
import { flushLog, logger } from "@/lib/logger";

const log = logger("server");

type Flusher = () => Promise<void>;
const holder = globalThis as unknown as { __gatewayFlushers?: { first: Set<Flusher>; then: Set<Flusher> } };
const flushers = () => (holder.__gatewayFlushers ??= { first: new Set(), then: new Set() });

// first: flushed before the others (billing movements, whose commits queue log rows).
export function registerFlusher(f: Flusher, options: { first?: boolean } = {}): void {
  flushers()[options.first ? "first" : "then"].add(f);
}

export async function flushAll(): Promise<void> {
  const { first, then } = flushers();
  for (const f of [...first, ...then]) await f().catch((err) => log.error({ error: describeError(err) }, "flush at shutdown failed"));
}

// True from the first SIGTERM/SIGINT on: GET /readyz answers 503, so that a load balancer
// stops sending new calls while the node finishes the ones under way (lib/ops/endpoints.ts).
let draining = false;
export const isDraining = (): boolean => draining;

// The log's destination writes asynchronously: what it still holds is written before the exit.
export function exit(code: number): never {
  flushLog();
  process.exit(code);
}

// Relay calls under way, from arrival to the end of their settlement (server.ts counts them):
// the connection may close before the settlement has queued its writes.
let openCalls = 0;
let allSettled: (() => void) | undefined;
export function callStarted(): void {
  openCalls++;
}
export function callEnded(): void {
  if (--openCalls === 0 && allSettled) allSettled();
}
/** Resolves once no relay call is under way. */
export function callsSettled(): Promise<void> {
  if (openCalls === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const previous = allSettled;
    allSettled = () => {
      allSettled = undefined;
      previous?.();
      resolve();
    };
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The node's shutdown, in order (docs/deploy.md, "Graceful shutdown"):
 * 1. draining: /readyz answers 503; everything else is served as before for `drainDelayMs`;
 * 2. `stopAccepting()`: the listening socket closes, idle keep-alive connections with it;
 * 3. the calls under way get `graceMs` to finish (`finished()` resolves when the last one
 *    has been settled, callsSettled()); past it `cutCalls()` ends them, and their own abort
 *    paths settle or refund them;
 * 4. the background jobs stop, the queued billing and log writes are flushed, the database
 *    is closed, and the process exits.
 * A second signal does not restart this; a hard exit guards against a step that hangs.
 */
export function registerShutdown(steps: {
  drainDelayMs: number;
  graceMs: number;
  stopAccepting(): void;
  finished(): Promise<void>;
  cutCalls(): void;
  stopJobs(): Promise<void>;
}): void {
  const stop = async (signal: string) => {
    if (draining) return;
    draining = true;
    log.info({ signal, drainDelayMs: steps.drainDelayMs, graceMs: steps.graceMs }, "shutting down: draining, then closing");
    // the flush and the database close get 10 s on top of the delay and the grace
    const timer = setTimeout(() => exit(1), steps.drainDelayMs + steps.graceMs + 10_000);
    timer.unref();
    if (steps.drainDelayMs > 0) await sleep(steps.drainDelayMs);
    steps.stopAccepting();
    const done = steps.finished();
    const inTime = await Promise.race([done.then(() => true), sleep(steps.graceMs).then(() => false)]);
    if (!inTime) {
      log.warn({ graceMs: steps.graceMs }, "calls still under way after the grace period: ending them");
      steps.cutCalls();
      // their abort paths settle or refund them; give those a moment to queue their writes
      await Promise.race([done, sleep(2_000)]);
    }
    await steps.stopJobs().catch(() => {});
    await flushAll();
    await stopWalCheckpointer().catch(() => {});
    await db()
      .$disconnect()
      .catch(() => {});
    exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
