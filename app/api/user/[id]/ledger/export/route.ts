// GET /api/user/{id}/ledger/export: a user's filtered statement as CSV, for an admin
import { route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { exportStatement } from "@/lib/billing/export-statement";
import { statementFilters } from "@/lib/billing/statement-query";

export const GET = route(
  { access: "admin", gate: "GET /api/user/{id}/ledger/export", params: idParams, query: statementFilters },
  async ({ ctx, params, query }) => exportStatement({ ctx, input: { filters: query, userId: params.id } }),
);
