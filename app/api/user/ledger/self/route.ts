// GET /api/user/ledger/self: the caller's statement (quota ledger rows), paged and filtered
import { route } from "@/lib/http/route";
import { listStatement } from "@/lib/billing/list-statement";
import { statementQuery } from "@/lib/billing/statement-query";

export const GET = route({ access: "user", query: statementQuery }, async ({ ctx, query }) => listStatement({ ctx, input: { query } }));
