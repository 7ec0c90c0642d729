// GET /api/log/self/: the caller's own usage logs, with filters
import { route } from "@/lib/http/route";
import { listLogs, logQuery } from "@/lib/logs/query";

export const GET = route({ access: "user", query: logQuery }, async ({ ctx, query }) => listLogs({ ctx, input: { query, all: false } }));
