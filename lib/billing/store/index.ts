// The billing store of the configured database, created once per process.
import "server-only";
import { env } from "@/lib/env";
import { sqliteConnection } from "@/lib/db/client";
import { pgPool } from "@/lib/db/raw";
import { registerFlusher } from "@/lib/lifecycle";
import { postgresBillingStore } from "@/lib/billing/store/postgres";
import { sqliteBillingStore } from "@/lib/billing/store/sqlite";
import type { BillingStore } from "@/lib/billing/store/types";
import { nodeId } from "@/lib/billing/node";

const holder = globalThis as unknown as { __gatewayBilling?: Promise<BillingStore>; __gatewayBillingReady?: BillingStore };

export function billingStore(): Promise<BillingStore> {
  const e = env();
  holder.__gatewayBilling ??= (
    e.databaseKind === "postgresql"
      ? Promise.resolve(postgresBillingStore(pgPool(), nodeId()))
      : sqliteConnection().then((conn) => sqliteBillingStore(conn, nodeId()))
  ).then((store) => {
    holder.__gatewayBillingReady = store;
    // Before the usage logs: a settlement queues its log row once it has committed, a few
    // promise steps later, all taken by the next turn of the event loop.
    registerFlusher(
      async () => {
        await store.flushSoon();
        await new Promise((resolve) => setImmediate(resolve));
      },
      { first: true },
    );
    return store;
  });
  return holder.__gatewayBilling;
}

// Commits the quota movements still waiting and resolves once every movement under way has
// ended, or after a second at most (one stuck on a lock must not stall the console);
// undefined when there is none (a console request is about to read balances).
const CONSOLE_WAIT_MS = 1000;
export function flushBillingSoon(): Promise<void> | undefined {
  const flushed = holder.__gatewayBillingReady?.flushSoon();
  if (!flushed) return undefined;
  return new Promise((resolve) => {
    const bound = setTimeout(resolve, CONSOLE_WAIT_MS);
    const done = () => {
      clearTimeout(bound);
      resolve();
    };
    flushed.then(done, done);
  });
}

// Quota movements waiting for their commit, for GET /metrics (0 before the store exists).
export function billingQueueDepth(): number {
  return holder.__gatewayBillingReady?.pending() ?? 0;
}
