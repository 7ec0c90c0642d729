// The audit log's reads (docs/audit.md, "API"): the query of GET /api/audit/ and
// /api/audit/self, its filters as a where clause, and a row as the API shows it.
import "server-only";
import { z } from "zod";
import type { AuditLog, Prisma } from "@/generated/sqlite/client";
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from "@/lib/audit/actions";
import { db } from "@/lib/db/client";
import { MAX_TIMESTAMP, page, pageSize, queryInt } from "@/lib/http/params";

const blank = (v: unknown) => (v === "" ? undefined : v);

// target: a type ("channel") or a type and an id ("user:12", "option:SMTPToken")
const TARGET = new RegExp(`^(${AUDIT_TARGET_TYPES.join("|")})(?::(.{1,128}))?$`);

export const auditQuery = z.object({
  p: page,
  page_size: pageSize(20),
  // a user id (0: nobody signed in) or a username
  actor: z.preprocess(blank, z.string().trim().max(64).optional()),
  action: z.preprocess(blank, z.enum(AUDIT_ACTIONS).optional()),
  target: z.preprocess(blank, z.string().trim().regex(TARGET).optional()),
  start_timestamp: queryInt(MAX_TIMESTAMP),
  end_timestamp: queryInt(MAX_TIMESTAMP),
  format: z.preprocess(blank, z.enum(["json", "csv"]).optional()),
});
export type AuditQuery = z.infer<typeof auditQuery>;

/** The where clause of a query; userId set: the self view (the caller's events only). */
export async function auditWhere(q: AuditQuery, userId: number | null): Promise<Prisma.AuditLogWhereInput> {
  const w: Prisma.AuditLogWhereInput = {};
  if (userId !== null) w.user_id = userId;
  if (q.actor !== undefined) {
    if (/^\d{1,10}$/.test(q.actor)) w.actor_id = Number(q.actor);
    else {
      // a username: its account's id (the name is kept in each row as it was then, and a
      // renamed account is found by its id); an unknown name matches nothing
      const user = await db().user.findUnique({ where: { username: q.actor }, select: { id: true } });
      w.actor_id = user?.id ?? -1;
    }
  }
  if (q.action) w.action = q.action;
  if (q.target) {
    const [, type, id] = TARGET.exec(q.target)!;
    w.target_type = type;
    if (id !== undefined) w.target_id = id;
  }
  if (q.start_timestamp || q.end_timestamp) {
    const range: Prisma.BigIntFilter = {};
    if (q.start_timestamp) range.gte = BigInt(q.start_timestamp);
    if (q.end_timestamp) range.lte = BigInt(q.end_timestamp);
    w.created_at = range;
    w.id = await idRange(q.start_timestamp, q.end_timestamp);
  }
  return w;
}

// Rows are appended in time order, so a time range is an id range too, found with one step on
// the created_at index at each end; the list and its count then walk the page's own index
// ((filter, id), or the primary key) within those ids instead of the whole range of times
// (bench/README.md, "Audit log at scale"). The ends are widened by ID_RANGE_SLACK_SECONDS so
// that a row written a little out of order (two nodes' clocks) is still inside, and the
// created_at condition beside them keeps the answer exact.
const ID_RANGE_SLACK_SECONDS = 300;
async function idRange(start: number | undefined, end: number | undefined): Promise<Prisma.IntFilter> {
  const ids: Prisma.IntFilter = {};
  if (start) {
    const first = await db().auditLog.findFirst({
      where: { created_at: { gte: BigInt(start - ID_RANGE_SLACK_SECONDS) } },
      orderBy: [{ created_at: "asc" }, { id: "asc" }],
      select: { id: true },
    });
    ids.gte = first?.id ?? 2_147_483_647; // no row that late: nothing (the largest id an INTEGER column holds)
  }
  if (end) {
    const last = await db().auditLog.findFirst({
      where: { created_at: { lte: BigInt(end + ID_RANGE_SLACK_SECONDS) } },
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    ids.lte = last?.id ?? -1;
  }
  return ids;
}

export type AuditView = {
  id: number;
  created_at: number;
  actor_id: number;
  actor_name: string;
  user_id: number;
  action: string;
  target_type: string;
  target_id: string;
  detail: Record<string, unknown>;
  ip: string;
  user_agent: string;
  request_id: string;
  /** self view: an admin acted on the caller's account (their name, address and browser are not shown) */
  by_admin?: boolean;
};

function parseDetail(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A row as the API shows it. In the self view (selfId set) a row of another user's act on the
 * caller's account (an admin's) shows neither that user's name, nor their address, nor their
 * browser; a refused sign-in (nobody signed in) shows the address it came from.
 */
export function auditView(row: AuditLog, selfId: number | null): AuditView {
  const view: AuditView = {
    id: row.id,
    created_at: Number(row.created_at),
    actor_id: row.actor_id,
    actor_name: row.actor_name,
    user_id: row.user_id,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    detail: parseDetail(row.detail),
    ip: row.ip,
    user_agent: row.user_agent,
    request_id: row.request_id,
  };
  if (selfId !== null && row.actor_id !== 0 && row.actor_id !== selfId) {
    view.actor_id = 0;
    view.actor_name = "";
    view.ip = "";
    view.user_agent = "";
    view.request_id = "";
    view.by_admin = true;
  }
  return view;
}
