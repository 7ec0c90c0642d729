// GET /api/audit/self: the caller's own security events, newest first, with filters; format=csv answers them as a CSV file
import { route } from "@/lib/http/route";
import { listAudit } from "@/lib/audit/list-audit";
import { auditQuery } from "@/lib/audit/query";

export const GET = route({ access: "user", query: auditQuery }, async ({ ctx, query }) => listAudit({ ctx, input: { query, all: false } }));
