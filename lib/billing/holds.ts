// The hold sweeper (docs/channels-tokens-billing.md, "Holds"): returns the reservations
// that no call will ever close, each exactly once, with a ledger row and a usage log row in
// the refund's transaction (the billing store's sweep(), whose conditional delete of the
// hold decides which of two racing sweepers, or the node itself, closes it).
//
// Which holds are dead:
//   - at start-up, every hold of this node (same NODE_ID): the process that made them is
//     gone. Swept before the server listens, so no call of the new process is among them.
//   - every sweep period, on each node, the node's own holds older than LEFT_OPEN_SECONDS
//     whose ref is not in openHolds(): reservations whose refund failed for good.
//   - every sweep period, on one node of the cluster (lease "hold-sweeper"), the holds of
//     every node that has not beaten for nodeDeadSeconds() (relay_nodes, written every
//     quarter of it by each node): a node killed and not started again. The period is
//     nodeDeadSeconds() (HOLD_NODE_DEAD_SECONDS, 60 by default).
// A live node's open calls are never swept, however long they last: after its first byte a
// stream has no time limit (docs/channels-tokens-billing.md gives the bound of the other
// phases and why an age alone cannot tell a dead call from a long stream).
import "server-only";
import { logger } from "@/lib/logger";
import { billingStore } from "@/lib/billing/store";
import { HoldGone, SWEEP_TEXT, sweepLogOther, type SweepReason } from "@/lib/billing/store/types";
import { env } from "@/lib/env";
import { enqueueLog, LOG_TYPE } from "@/lib/logs/writer";
import { nodeId, openHolds } from "@/lib/billing/node";
import { noteTokenQuota } from "@/lib/cache/token-store";
import { withClusterLease } from "@/lib/db/lease";
import { describeError } from "@/lib/errors";
import { isSqlite, txAll, txRun, type Row } from "@/lib/rollups/store";
import { db } from "@/lib/db/client";
import { nowSeconds } from "@/lib/time";

const log = logger("holds");

/** Seconds of silence after which a node is taken for dead (HOLD_NODE_DEAD_SECONDS). */
export const nodeDeadSeconds = () => env().HOLD_NODE_DEAD_SECONDS;
// A hold of this node not in openHolds() is taken for left open only past this age (a
// margin: the ref leaves openHolds() once its closing transaction has committed).
export const LEFT_OPEN_SECONDS = 60;
// Holds read per query; a round goes on until none is left (or the lease is lost).
const PAGE = 500;
const LEASE_MS = 60_000;

// The database's clock, so that nodes whose clocks differ still agree on who is dead.
const dbNow = () => (isSqlite() ? `CAST(strftime('%s', 'now') AS INTEGER)` : `CAST(EXTRACT(EPOCH FROM now()) AS BIGINT)`);

export async function heartbeat(starting = false): Promise<void> {
  const now = dbNow();
  await txRun(
    db(),
    `INSERT INTO "relay_nodes" ("node_id", "seen_at", "started_at") VALUES (?, ${now}, ${now})
     ON CONFLICT ("node_id") DO UPDATE SET "seen_at" = excluded."seen_at"${starting ? ', "started_at" = excluded."started_at"' : ""}`,
    [nodeId()],
  );
}

async function logSweepAfterCommit(userId: number, tokenId: number, requestId: string, reason: SweepReason): Promise<void> {
  const [user, token] = await Promise.all([
    db().user.findUnique({ where: { id: userId }, select: { username: true } }),
    tokenId > 0 ? db().token.findUnique({ where: { id: tokenId }, select: { name: true } }) : null,
  ]);
  enqueueLog({
    user_id: userId,
    type: LOG_TYPE.error,
    content: SWEEP_TEXT[reason],
    username: user?.username ?? "",
    token_name: token?.name ?? "",
    token_id: tokenId,
    quota: 0n,
    request_id: requestId,
    other: sweepLogOther(reason),
  });
}

// Refunds the holds `refs` (read by a query of the caller); counts those this call refunded.
async function sweepRefs(rows: Row[], reason: SweepReason): Promise<number> {
  const store = await billingStore();
  let swept = 0;
  for (const r of rows) {
    const ref = String(r.ref);
    try {
      const remain = await store.sweep({ ref, reason });
      swept++;
      if (remain !== null) noteTokenQuota(Number(r.token_id), remain);
      // with the logs in a database of their own (LOG_DATABASE_URL) the store's transaction
      // cannot write the log row: it is queued right after the commit, as every log row of a
      // money movement is then (docs/operations.md, "Logs at scale")
      if (env().logsSeparate) await logSweepAfterCommit(Number(r.user_id), Number(r.token_id), typeof r.request_id === "string" ? r.request_id : ref, reason);
    } catch (err) {
      if (err instanceof HoldGone) continue; // closed meanwhile, by its node or another sweeper
      log.error({ ref, error: describeError(err) }, "refund of a hold failed");
    }
  }
  return swept;
}

// At start-up, before the server listens: every hold of this node id is dead.
export async function sweepOwnHoldsAtStart(): Promise<number> {
  await heartbeat(true);
  let total = 0;
  for (;;) {
    const rows = await txAll(db(), `SELECT "ref", "token_id", "user_id", "request_id" FROM "quota_holds" WHERE "node_id" = ? LIMIT ${PAGE}`, [nodeId()]);
    if (!rows.length) break;
    const swept = await sweepRefs(rows, "node_stopped");
    total += swept;
    if (!swept) break; // every one failed: the next round tries again
  }
  if (total) log.info({ refunded: total, node: nodeId() }, "refunded the reservations left open by this node's previous run");
  return total;
}

// This node's holds that no call of this process will close.
async function sweepLeftOpen(): Promise<number> {
  const open = openHolds();
  const rows = await txAll(
    db(),
    `SELECT "ref", "token_id", "user_id", "request_id" FROM "quota_holds" WHERE "node_id" = ? AND "started_at" < ? ORDER BY "started_at" LIMIT ${PAGE}`,
    [nodeId(), nowSeconds() - LEFT_OPEN_SECONDS],
  );
  return sweepRefs(
    rows.filter((r) => !open.has(String(r.ref))),
    "left_open",
  );
}

// The holds of nodes that have stopped beating (one node of the cluster at a time).
export async function sweepDeadNodes(): Promise<number> {
  let total = 0;
  const dead = nodeDeadSeconds();
  await withClusterLease("hold-sweeper", LEASE_MS, async (lease) => {
    const seen = new Set<string>(); // a hold whose refund failed is not read again this round
    for (;;) {
      const rows = await txAll(
        db(),
        `SELECT h."ref", h."token_id", h."user_id", h."request_id" FROM "quota_holds" h LEFT JOIN "relay_nodes" n ON n."node_id" = h."node_id"
         WHERE h."node_id" <> ? AND (n."seen_at" IS NULL OR n."seen_at" < ${dbNow()} - ${dead}) AND h."started_at" < ${dbNow()} - ${dead}
         LIMIT ${PAGE}`,
        [nodeId()],
      );
      const fresh = rows.filter((r) => !seen.has(String(r.ref)));
      if (!fresh.length) break;
      for (const r of fresh) seen.add(String(r.ref));
      total += await sweepRefs(fresh, "node_stopped");
      if (!(await lease.renew())) break;
    }
    // nodes dead for a week with no hold left: forgotten
    await txRun(
      db(),
      `DELETE FROM "relay_nodes" WHERE "seen_at" < ${dbNow()} - ${7 * 86400} AND NOT EXISTS (SELECT 1 FROM "quota_holds" h WHERE h."node_id" = "relay_nodes"."node_id")`,
    );
  });
  if (total) log.info({ refunded: total }, "refunded the reservations of stopped nodes");
  return total;
}

const holder = globalThis as unknown as { __gatewayHolds?: { beat: NodeJS.Timeout; sweep: NodeJS.Timeout; running: boolean } };

// The heartbeat and the periodic sweeps (server.ts, once the start-up sweep is done).
export function startHoldSweeper(): void {
  if (holder.__gatewayHolds) return;
  const beat = setInterval(
    () => {
      heartbeat().catch((err) => log.error({ error: describeError(err) }, "heartbeat failed"));
    },
    (nodeDeadSeconds() * 1000) / 4,
  );
  beat.unref();
  const state = { beat, sweep: beat, running: false };
  state.sweep = setInterval(() => {
    if (state.running) return;
    state.running = true;
    Promise.all([sweepLeftOpen(), sweepDeadNodes()])
      .catch((err) => log.error({ error: describeError(err) }, "sweep failed"))
      .finally(() => (state.running = false));
  }, nodeDeadSeconds() * 1000);
  state.sweep.unref();
  holder.__gatewayHolds = state;
}

export function stopHoldSweeper(): void {
  const state = holder.__gatewayHolds;
  if (!state) return;
  clearInterval(state.beat);
  clearInterval(state.sweep);
  holder.__gatewayHolds = undefined;
}
