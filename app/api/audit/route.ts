// GET /api/audit/: every audit row, newest first, with filters; format=csv answers the filtered rows as a CSV file (root, or an admin with audit:read)
import { route } from "@/lib/http/route";
import { listAudit } from "@/lib/audit/list-audit";
import { auditQuery } from "@/lib/audit/query";

export const GET = route({ access: "admin", gate: "GET /api/audit", query: auditQuery }, async ({ ctx, query }) =>
  listAudit({ ctx, input: { query, all: true } }),
);
