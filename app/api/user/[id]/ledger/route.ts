// GET /api/user/{id}/ledger: a user's statement for an admin (users strictly below the caller)
import { route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { listStatement } from "@/lib/billing/list-statement";
import { statementQuery } from "@/lib/billing/statement-query";

export const GET = route({ access: "admin", gate: "GET /api/user/{id}/ledger", params: idParams, query: statementQuery }, async ({ ctx, params, query }) =>
  listStatement({ ctx, input: { query, userId: params.id } }),
);
