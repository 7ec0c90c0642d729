// GET /api/log/stat and /api/log/self/stat (docs/dashboard.md, "Usage-log stats"): quota is
// the sum over the filtered logs (consumption logs unless a type is chosen); rpm and tpm count
// the consumption logs of the last 60 seconds under the same filters (the time range aside).
// The filters the rollups hold (rollupsHold: the user, the username, the model, a token name or
// a group with a user, a channel or a group without one) read them for whole hours. Any other
// filter (an admin's token name alone, a channel with a user or token name, a request id) or
// another log type sums the logs themselves, over the newest SCAN_WINDOW rows of the range at
// most, as the list searches do: searched_from then says where that window starts (null when
// the sum covers the whole range). Until the backfill of log_token_rollups and
// log_channel_rollups is done (an install upgraded past migration 0025), their filters sum
// the logs that way too.
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import { logDb } from "@/lib/db/client";
import { isAdmin } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { logWhere, scanWindowStart, type LogQuery } from "@/lib/logs/query";
import { LOG_TYPE } from "@/lib/logs/writer";
import { rollupsHold, rollupTable, usageTotals, type UsageFilter } from "@/lib/rollups/usage";
import { DIM_ROLLUPS, dimRollupsComplete } from "@/lib/rollups/job";
import { nowSeconds } from "@/lib/time";

const DIM_TABLES = DIM_ROLLUPS.map((t) => `"${t.table}"`);

// The filters of the query as the rollups hold them, or null when one of them is not held.
export function rollupFilter(q: LogQuery, userId: number | null): UsageFilter | null {
  if (q.request_id?.trim()) return null;
  const f: UsageFilter = {};
  if (userId !== null) f.userId = userId;
  else {
    if (q.username?.trim()) f.username = q.username.trim();
    if (q.channel) f.channelId = q.channel;
  }
  if (q.model_name?.trim()) f.model = q.model_name.trim();
  if (q.token_name?.trim()) f.tokenName = q.token_name.trim();
  if (q.group?.trim()) f.group = q.group.trim();
  return rollupsHold(f) ? f : null;
}

// The quota of the filtered logs of the range, read from the logs within the scan window.
async function windowedQuota(q: LogQuery, userId: number | null): Promise<{ quota: bigint; searchedFrom: bigint | null }> {
  const typed: LogQuery = q.type ? q : Object.assign({}, q, { type: LOG_TYPE.consume });
  const w = logWhere(typed, userId);
  const from = await scanWindowStart(typed, userId);
  if (from !== null) w.created_at = Object.assign({}, w.created_at as Prisma.BigIntFilter | undefined, { gte: from });
  const s = await logDb().log.aggregate({ where: w, _sum: { quota: true } });
  return { quota: s._sum.quota ?? 0n, searchedFrom: from };
}

export async function logStat({ ctx, input: { query: q, all } }: { ctx: UserCtx; input: { query: LogQuery; all: boolean } }) {
  if (all && !isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  const userId = all ? null : ctx.user.id;
  let f = rollupFilter(q, userId);
  // log_token_rollups and log_channel_rollups still being backfilled (an upgraded install,
  // lib/rollups/job.ts): their filters read the logs meanwhile
  if (f && DIM_TABLES.includes(rollupTable(f)) && !(await dimRollupsComplete())) f = null;
  const since = nowSeconds() - 60;
  const consumeOnly = !q.type || q.type === LOG_TYPE.consume;
  const [sum, last] = await Promise.all([
    f && consumeOnly
      ? usageTotals(f, { start: q.start_timestamp || undefined, end: q.end_timestamp || undefined }).then((t) => ({ quota: t.quota, searchedFrom: null }))
      : windowedQuota(q, userId),
    f
      ? usageTotals(f, { start: since }).then((t) => ({ count: Number(t.count), tokens: Number(t.prompt_tokens + t.completion_tokens) }))
      : logDb()
          .log.aggregate({
            where: Object.assign({}, logWhere(q, userId), { type: LOG_TYPE.consume, created_at: { gte: BigInt(since) } }) as Prisma.LogWhereInput,
            _count: { _all: true },
            _sum: { prompt_tokens: true, completion_tokens: true },
          })
          .then((s) => ({ count: s._count._all, tokens: (s._sum.prompt_tokens ?? 0) + (s._sum.completion_tokens ?? 0) })),
  ]);
  return { quota: sum.quota, rpm: last.count, tpm: last.tokens, searched_from: sum.searchedFrom === null ? null : Number(sum.searchedFrom) };
}
