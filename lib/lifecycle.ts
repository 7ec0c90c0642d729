// Orderly shutdown: stop accepting requests, flush what is queued (usage logs and other
// batched writes register flushers here), close the database.
import "server-only";
import { db } from "@/lib/db/client";
import { stopWalCheckpointer } from "@/lib/db/wal-checkpointer";
import { describeError } from "@/lib/errors";
import { flushLog, logger } from "@/lib/log";

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

export function registerShutdown(stopServer: () => Promise<void>): void {
  const stop = async (signal: string) => {
    if (draining) return;
    draining = true;
    log.info({ signal }, "shutting down");
    const timer = setTimeout(() => exit(1), 10_000);
    timer.unref();
    await stopServer().catch(() => {});
    await stopWalCheckpointer().catch(() => {});
    await db()
      .$disconnect()
      .catch(() => {});
    exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
