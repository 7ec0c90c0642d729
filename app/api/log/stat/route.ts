// GET /api/log/stat: quota, rpm and tpm over the filtered logs of every user (admin)
import { route } from "@/lib/http/route";
import { logQuery } from "@/lib/logs/query";
import { logStat } from "@/lib/rollups/log-stat";

export const GET = route({ access: "admin", gate: "GET /api/log/stat", query: logQuery }, async ({ ctx, query }) =>
  logStat({ ctx, input: { query, all: true } }),
);
