// The data dashboard's calls (docs/dashboard.md, "Calls"): GET /api/data/self and, for
// admins, GET /api/data/ (optional username) answer new-api's hourly rows; GET
// /api/data/summary (admin) the balance and the top users; POST /api/data/refresh (admin)
// brings the rollups up to date at once.
import "server-only";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { isAdmin } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { getBool } from "@/lib/options/store";
import { MAX_TIMESTAMP } from "@/lib/http/params";
import { byLocalDay, canonicalZone, hourlyByModel, isTimeZone, totalsByUser, type UsageFilter } from "@/lib/rollups/usage";
import { rollupState, runRollups } from "@/lib/rollups/job";

/** The longest range one call reads (hourly rows of a year and a day). */
export const MAX_RANGE_DAYS = 366;

const stamp = z.coerce.number().int().min(0).max(MAX_TIMESTAMP);
export const dataQuery = z.object({
  start_timestamp: stamp,
  end_timestamp: stamp,
  username: z.string().trim().max(200).optional(),
  // an IANA time zone: the rows are then summed per day of that zone (the page's day and week views)
  tz: z.string().max(64).refine(isTimeZone, "msg:data_time_zone_invalid").transform(canonicalZone).optional(),
});
export type DataQuery = z.infer<typeof dataQuery>;

function checkRange(q: DataQuery): void {
  if (!getBool("DataExportEnabled")) throw new AppError("RULE", "data_export_disabled");
  if (q.end_timestamp < q.start_timestamp) throw new AppError("INVALID_INPUT", "data_range_invalid");
  if (q.end_timestamp - q.start_timestamp > MAX_RANGE_DAYS * 86_400) throw new AppError("INVALID_INPUT", "data_range_too_long", { days: MAX_RANGE_DAYS });
}

function requireAdmin(ctx: UserCtx): void {
  if (!isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
}

const rows = async (f: UsageFilter, q: DataQuery, username: string) => {
  const hourly = await hourlyByModel(f, q.start_timestamp, q.end_timestamp);
  return (q.tz ? byLocalDay(hourly, q.tz) : hourly).map((r) => ({
    created_at: r.created_at,
    model_name: r.model_name,
    username,
    count: r.count,
    token_used: r.prompt_tokens + r.completion_tokens,
    prompt_tokens: r.prompt_tokens,
    completion_tokens: r.completion_tokens,
    quota: r.quota,
  }));
};

// GET /api/data/self: the caller's hourly rows per model, hours start..end (per day with tz).
export async function selfData({ ctx, input: q }: { ctx: UserCtx; input: DataQuery }) {
  checkRange(q);
  return rows({ userId: ctx.user.id }, q, ctx.user.username);
}

// GET /api/data/: every user's (summed per hour and model) or one username's rows (admin).
export async function allData({ ctx, input: q }: { ctx: UserCtx; input: DataQuery }) {
  requireAdmin(ctx);
  checkRange(q);
  return q.username ? rows({ username: q.username }, q, q.username) : rows({}, q, "");
}

const TOP_USERS = 10;

// GET /api/data/summary: the balance (one user's, or all users' together) and the users
// who used the most quota in the range (admin).
export async function dataSummary({ ctx, input: q }: { ctx: UserCtx; input: DataQuery }) {
  requireAdmin(ctx);
  checkRange(q);
  const [balance, users] = await Promise.all([
    q.username
      ? db()
          .user.findFirst({ where: { username: q.username }, select: { quota: true } })
          .then((u) => u?.quota ?? 0n)
      : db()
          .user.aggregate({ where: { deleted_at: null }, _sum: { quota: true } })
          .then((s) => s._sum.quota ?? 0n),
    totalsByUser(q.username ? { username: q.username } : {}, q.start_timestamp, q.end_timestamp),
  ]);
  return {
    balance,
    top_users: users.slice(0, TOP_USERS).map((u) => ({
      user_id: u.user_id,
      username: u.username,
      count: u.count,
      token_used: u.prompt_tokens + u.completion_tokens,
      quota: u.quota,
    })),
  };
}

// POST /api/data/refresh: runs the rollup job now (admin); answers the state after it.
export async function refreshRollups({ ctx }: { ctx: UserCtx }) {
  requireAdmin(ctx);
  await runRollups(true);
  return rollupState();
}

// GET /api/data/state: the watermark and the last run (admin), shown under the admin's view.
export async function rollupStatus({ ctx }: { ctx: UserCtx }) {
  requireAdmin(ctx);
  return rollupState();
}
