// GET /api/audit/ (the root: every row) and GET /api/audit/self (the caller's own security
// events): a page newest first, or with format=csv the whole filtered list as a CSV file
// (docs/audit.md, "API"). The rows are read and never changed here: the audit log has no
// route that edits or deletes a row (docs/audit.md, "Append-only").
import "server-only";
import { hasPermission } from "@/lib/auth/permissions";
import { auditView, auditWhere, type AuditQuery } from "@/lib/audit/query";
import { csvLine, csvText, isoUtc, keysetCsvResponse } from "@/lib/billing/csv";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/generated/sqlite/client";

// A bounded count, as the usage logs' (lib/logs/query.ts): at most COUNT_BEYOND rows past the
// page are counted; past it total_exact is false and the pager offers the next page.
export const AUDIT_COUNT_BEYOND = 10_000;
// the deepest row a page may start at (a page reads every row it skips); deeper, a filter or
// an earlier end time narrows the list (docs/audit.md, "API")
export const AUDIT_MAX_OFFSET = 100_000;
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

const CSV_HEADER = [
  "id",
  "time_utc",
  "created_at",
  "actor_id",
  "actor_name",
  "user_id",
  "action",
  "target_type",
  "target_id",
  "detail",
  "ip",
  "user_agent",
  "request_id",
];

function ownerOf(ctx: UserCtx, all: boolean): number | null {
  if (!all) return ctx.user.id;
  // the root, or an admin granted audit:read (docs/audit.md, "Who reads it"); route() checked
  // it too
  if (!hasPermission(ctx.user, "audit:read")) throw new AppError("FORBIDDEN", "permission_denied");
  return null;
}

export async function listAudit({ ctx, input }: { ctx: UserCtx; input: { query: AuditQuery; all: boolean } }) {
  const userId = ownerOf(ctx, input.all);
  const q = input.query;
  const where = await auditWhere(q, userId);
  if (q.format === "csv") return exportCsv(where, userId);
  const skip = (q.p - 1) * q.page_size;
  if (skip > AUDIT_MAX_OFFSET) throw new AppError("INVALID_INPUT", "audit_page_too_deep", { max: AUDIT_MAX_OFFSET });
  const bound = skip + AUDIT_COUNT_BEYOND;
  const [rows, counted] = await Promise.all([
    db().auditLog.findMany({ where, orderBy: { id: "desc" }, skip, take: q.page_size }),
    // in the page's order, so that the count walks the page's index (a time range being an id
    // range too: lib/audit/query.ts) and stops at the bound
    db().auditLog.count({ where, orderBy: { id: "desc" }, take: bound + 1 }),
  ]);
  const exact = counted <= bound;
  return {
    items: rows.map((r) => auditView(r, userId)),
    page: q.p,
    page_size: q.page_size,
    total: exact ? counted : bound,
    total_exact: exact,
  };
}

// The filtered rows as CSV, newest first, at most AUDIT_EXPORT_MAX_ROWS rows (the header
// x-audit-rows-capped says when it was cut).
async function exportCsv(where: Prisma.AuditLogWhereInput, userId: number | null): Promise<Response> {
  const truncated = (await db().auditLog.count({ where, orderBy: { id: "desc" }, take: AUDIT_EXPORT_MAX_ROWS + 1 })) > AUDIT_EXPORT_MAX_ROWS;
  const day = new Date().toISOString().slice(0, 10);
  return keysetCsvResponse({
    header: CSV_HEADER,
    max: AUDIT_EXPORT_MAX_ROWS,
    capped: truncated,
    capHeader: "x-audit-rows-capped",
    filename: `audit-${userId === null ? "all" : userId}-${day}.csv`,
    read: (beforeId, take) =>
      db().auditLog.findMany({ where: beforeId === null ? where : { AND: [where, { id: { lt: beforeId } }] }, orderBy: { id: "desc" }, take }),
    lines: (rows) => {
      let text = "";
      for (const row of rows) {
        const v = auditView(row, userId);
        text += csvLine([
          String(v.id),
          isoUtc(v.created_at),
          String(v.created_at),
          String(v.actor_id),
          csvText(v.actor_name),
          String(v.user_id),
          csvText(v.action),
          csvText(v.target_type),
          csvText(v.target_id),
          csvText(JSON.stringify(v.detail)),
          csvText(v.ip),
          csvText(v.user_agent),
          csvText(v.request_id),
        ]);
      }
      return text;
    },
  });
}
