// The audit log's retention (docs/audit.md, "Retention"): with the option
// AuditLogRetentionDays = N (180 by default; 0 keeps every row for ever), the rows created
// more than N days ago are deleted, in batches of BATCH rows with a short pause between
// them, so that the writes of the console and the relay never wait behind one long delete.
// This job is the only code that deletes audit rows (docs/audit.md, "Append-only").
//
// One run per cluster (withClusterLease "audit-retention", lib/db/lease.ts), every
// AUDIT_RETENTION_INTERVAL_SECONDS (an hour by default) on each node, and soon after the
// option changes. It lives in its own folder because it reads the options, whose verbs write
// audit rows (docs/conventions.md, "Import direction").
import "server-only";
import { db } from "@/lib/db/client";
import { withClusterLease } from "@/lib/db/lease";
import { env } from "@/lib/env";
import { describeError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { optionJob } from "@/lib/options/option-job";
import { getNumber } from "@/lib/options/store";
import { nowSeconds } from "@/lib/time";

const log = logger("audit");
const DAY = 86_400;
const LEASE_MS = 60_000;
const BATCH = 1_000;
const PAUSE_MS = 20;
export const DEFAULT_AUDIT_RETENTION_DAYS = 180;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type AuditRetentionResult = { ran: boolean; cut: number; deleted: number };

/** The retention in days as the option says (0: keep for ever). */
export function auditRetentionDays(): number {
  return Math.max(0, Math.floor(getNumber("AuditLogRetentionDays", DEFAULT_AUDIT_RETENTION_DAYS)));
}

/** One pass now, unless another node runs one: the rows older than the retention go. */
export async function runAuditRetention(now = nowSeconds()): Promise<AuditRetentionResult> {
  const days = auditRetentionDays();
  const result: AuditRetentionResult = { ran: false, cut: days > 0 ? now - days * DAY : 0, deleted: 0 };
  if (days <= 0) return result;
  await withClusterLease("audit-retention", LEASE_MS, async (lease) => {
    result.ran = true;
    for (;;) {
      // oldest first, on the created_at index
      const rows = await db().auditLog.findMany({
        where: { created_at: { lt: BigInt(result.cut) } },
        orderBy: { created_at: "asc" },
        select: { id: true },
        take: BATCH,
      });
      if (!rows.length) return;
      const { count } = await db().auditLog.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
      result.deleted += count;
      if (rows.length < BATCH || job.stopping() || !(await lease.renew())) return;
      await sleep(PAUSE_MS);
    }
  });
  if (result.deleted) log.info({ cut: new Date(result.cut * 1000).toISOString(), deleted: result.deleted }, "audit retention: old rows removed");
  return result;
}

const job = optionJob({
  key: "__gatewayAuditRetention",
  intervalMs: () => env().AUDIT_RETENTION_INTERVAL_SECONDS * 1000,
  watch: auditRetentionDays,
  run: () => runAuditRetention(),
  onError: (err) => log.error({ error: describeError(err) }, "audit retention run failed, will retry"),
});

/** The timer of this node (server.ts): every AUDIT_RETENTION_INTERVAL_SECONDS, and soon after the option changes. */
export const startAuditRetentionJob = (): void => job.start();
export const stopAuditRetentionJob = (): Promise<void> => job.stop();
