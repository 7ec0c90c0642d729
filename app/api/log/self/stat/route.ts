// GET /api/log/self/stat: quota, rpm and tpm over the caller's filtered logs
import { route } from "@/lib/http/route";
import { logQuery } from "@/lib/logs/query";
import { logStat } from "@/lib/rollups/log-stat";

export const GET = route({ access: "user", query: logQuery }, async ({ ctx, query }) => logStat({ ctx, input: { query, all: false } }));
