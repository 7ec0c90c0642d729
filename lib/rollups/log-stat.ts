// GET /api/log/stat and /api/log/self/stat (docs/dashboard.md, "Usage-log stats"): quota is
// the sum over the filtered logs (consumption logs unless a type is chosen); rpm and tpm count
// the consumption logs of the last 60 seconds under the same filters (the time range aside).
// The filters the rollups hold (the user, the username, the model) read them for whole hours;
// a token name, group, channel or another log type reads the logs themselves.
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import { logDb } from "@/lib/db/client";
import { isAdmin } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { logWhere, type LogQuery } from "@/lib/logs/query";
import { LOG_TYPE } from "@/lib/logs/writer";
import { usageTotals, type UsageFilter } from "@/lib/rollups/usage";

// The filters of the query as the rollups hold them, or null when one of them is not held.
export function rollupFilter(q: LogQuery, userId: number | null): UsageFilter | null {
  if (q.token_name?.trim() || q.group?.trim() || q.request_id?.trim()) return null;
  if (userId === null && q.channel) return null;
  const f: UsageFilter = {};
  if (userId !== null) f.userId = userId;
  else if (q.username?.trim()) f.username = q.username.trim();
  if (q.model_name?.trim()) f.model = q.model_name.trim();
  return f;
}

export async function logStat({ ctx, input: { query: q, all } }: { ctx: UserCtx; input: { query: LogQuery; all: boolean } }) {
  if (all && !isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  const userId = all ? null : ctx.user.id;
  const f = rollupFilter(q, userId);
  const since = Math.floor(Date.now() / 1000) - 60;
  const consumeOnly = !q.type || q.type === LOG_TYPE.consume;
  const w = f && consumeOnly ? null : logWhere(q, userId);
  const [quota, last] = await Promise.all([
    f && consumeOnly
      ? usageTotals(f, { start: q.start_timestamp || undefined, end: q.end_timestamp || undefined }).then((t) => t.quota)
      : logDb()
          .log.aggregate({ where: q.type ? w! : Object.assign({}, w, { type: LOG_TYPE.consume }), _sum: { quota: true } })
          .then((s) => s._sum.quota ?? 0n),
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
  return { quota, rpm: last.count, tpm: last.tokens };
}
