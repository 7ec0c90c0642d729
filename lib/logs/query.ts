// Usage-log reads: the admin view (every user, channel details) and the self view (the
// caller's rows only, without channel ids or names and without other.admin_info).
import "server-only";
import type { Log, Prisma } from "@/generated/sqlite/client";
import { z } from "zod";
import { logDb } from "@/lib/db/client";
import { hasPermission } from "@/lib/auth/permissions";
import { isAdmin } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import { page, pageSize } from "@/lib/http/params";
import { containsText } from "@/lib/db/like";
import { SCAN_WINDOW } from "@/lib/logs/scan-window";
import type { UserCtx } from "@/lib/ctx";
import { MAX_INT32, MAX_TIMESTAMP, queryInt } from "@/lib/http/params";

const optId = queryInt(MAX_INT32);
const optTime = queryInt(MAX_TIMESTAMP);
const optStr = z.string().max(200).optional();

export const logQuery = z.object({
  p: page,
  page_size: pageSize(10),
  type: optId,
  username: optStr,
  token_name: optStr,
  model_name: optStr,
  start_timestamp: optTime,
  end_timestamp: optTime,
  channel: optId,
  group: optStr,
  // exact match on the indexed column (docs/operations.md, "Request ids")
  request_id: optStr,
});
export type LogQuery = z.infer<typeof logQuery>;

// userId set: the self view (username and channel filters do not apply).
export function logWhere(q: LogQuery, userId: number | null): Prisma.LogWhereInput {
  const w: Prisma.LogWhereInput = {};
  if (userId !== null) w.user_id = userId;
  else {
    if (q.username?.trim()) w.username = q.username.trim();
    if (q.channel) w.channel_id = q.channel;
  }
  if (q.type) w.type = q.type;
  if (q.token_name?.trim()) w.token_name = q.token_name.trim();
  if (q.model_name?.trim()) w.model_name = containsText(q.model_name.trim());
  if (q.group?.trim()) w.group = q.group.trim();
  if (q.request_id?.trim()) w.request_id = q.request_id.trim();
  if (q.start_timestamp || q.end_timestamp) {
    const range: Prisma.BigIntFilter = {};
    if (q.start_timestamp) range.gte = BigInt(q.start_timestamp);
    if (q.end_timestamp) range.lte = BigInt(q.end_timestamp);
    w.created_at = range;
  }
  return w;
}

// The chat content a row keeps when LogChatContentEnabled is on (lib/logs/other.ts): in the
// admin view, only for the root or an admin with logs:content (docs/permissions.md).
const CONTENT_FIELDS = ["input_content", "output_content"];

function withoutFields(other: string, fields: string[]): string {
  if (!other) return other;
  try {
    const o = JSON.parse(other) as Record<string, unknown>;
    let hit = false;
    for (const f of fields) {
      if (f in o) {
        delete o[f];
        hit = true;
      }
    }
    return hit ? JSON.stringify(o) : other;
  } catch {
    return "";
  }
}

function view(row: Log, admin: boolean, content: boolean) {
  const { channel_id, channel_name, ip, ...rest } = row;
  if (admin) {
    if (!content && rest.other) rest.other = withoutFields(rest.other, CONTENT_FIELDS);
    return Object.assign(rest, { channel: channel_id, channel_name, ip, client_ip: ip });
  }
  return Object.assign(rest, { other: withoutFields(row.other, ["admin_info"]), ip, client_ip: ip });
}

// All rows (GET /api/log, admins only) or the caller's own (GET /api/log/self).
function ownerOf(ctx: UserCtx, all: boolean): number | null {
  if (!all) return ctx.user.id;
  if (!isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  return null;
}

// The total is counted up to COUNT_BEYOND rows past the page asked for, not over every
// matching row: an exact COUNT(*) over ten million rows reads them all (seconds), a bounded
// one stops after at most offset + COUNT_BEYOND + 1 index entries. When the bound is reached,
// total_exact is false and total is the bound: the console shows "10000+" and its pager keeps
// offering the next page (docs/operations.md, "Logs at scale"; docs/api-reference.md).
export const COUNT_BEYOND = 10_000;

// The deepest row a page may start at: a page reads (and the count counts) every row it skips,
// in index order; at a million rows skipped that is about 140 ms on PostgreSQL and 45 ms on
// SQLite on this machine (bench/README.md, "Usage-log lists at scale"). Deeper, the caller
// narrows the range or filters instead (docs/operations.md, "Logs at scale").
export const MAX_LOG_OFFSET = 1_000_000;

// Filters that no index serves in the page's order: the model name (a substring), the group,
// and in the self view the token name (the self view's index is (user_id, created_at)). With
// one of them, a page and its count read every row of the range that the other filters
// leave, to find the few that match: the scan is bounded instead. The newest SCAN_WINDOW rows
// that the indexed filters and the range select are searched, and the answer's
// searched_from says where that window starts (null when it covers the whole range): older
// rows are reached by an earlier end time (docs/operations.md, "Logs at scale").
function unindexedFilters(q: LogQuery, userId: number | null): boolean {
  return Boolean(q.model_name?.trim() || q.group?.trim() || (userId !== null && q.token_name?.trim()));
}

// The created_at of the oldest row of the window, or null when fewer rows are in the range.
// Walks at most SCAN_WINDOW entries of an index that serves the remaining filters. The
// usage-log stats bound the sums they read from the logs by it too (lib/rollups/log-stat.ts).
export async function scanWindowStart(q: LogQuery, userId: number | null): Promise<bigint | null> {
  const indexed: LogQuery = Object.assign({}, q, { model_name: undefined, group: undefined, token_name: userId === null ? q.token_name : undefined });
  const edge = await logDb().log.findFirst({
    where: logWhere(indexed, userId),
    orderBy: { created_at: "desc" },
    skip: SCAN_WINDOW,
    select: { created_at: true },
  });
  return edge?.created_at ?? null;
}

export async function listLogs({ ctx, input: { query: q, all } }: { ctx: UserCtx; input: { query: LogQuery; all: boolean } }) {
  const userId = ownerOf(ctx, all);
  const content = hasPermission(ctx.user, "logs:content");
  const w = logWhere(q, userId);
  const skip = (q.p - 1) * q.page_size;
  if (skip > MAX_LOG_OFFSET) throw new AppError("INVALID_INPUT", "log_page_too_deep", { max: MAX_LOG_OFFSET });
  const windowStart = unindexedFilters(q, userId) ? await scanWindowStart(q, userId) : null;
  if (windowStart !== null) w.created_at = Object.assign({}, w.created_at as Prisma.BigIntFilter | undefined, { gte: windowStart });
  const bound = skip + COUNT_BEYOND;
  const [rows, counted] = await Promise.all([
    logDb().log.findMany({ where: w, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip, take: q.page_size }),
    // ordered as the page is: Prisma's bounded count otherwise orders its subquery by id, which
    // makes the database sort every matching row (or walk the primary key) before the LIMIT;
    // in the page's order the count walks the same index as the page and stops at the bound
    logDb().log.count({ where: w, orderBy: { created_at: "desc" }, take: bound + 1 }),
  ]);
  const exact = counted <= bound;
  return {
    items: rows.map((r) => view(r, userId === null, content)),
    page: q.p,
    page_size: q.page_size,
    total: exact ? counted : bound,
    total_exact: exact,
    searched_from: windowStart === null ? null : Number(windowStart),
  };
}
