// GET /api/user/ledger/self/export: the caller's filtered statement as CSV
import { route } from "@/lib/http/route";
import { exportStatement } from "@/lib/billing/export-statement";
import { statementFilters } from "@/lib/billing/statement-query";

export const GET = route({ access: "user", query: statementFilters }, async ({ ctx, query }) => exportStatement({ ctx, input: { filters: query } }));
