// GET /api/log/: usage logs of every user, with filters (admin)
// DELETE /api/log/?target_timestamp=: delete the logs older than the time; answers the count (admin)
import { z } from "zod";
import { MAX_TIMESTAMP, queryInt } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { listLogs, logQuery } from "@/lib/logs/query";
import { deleteLogsBefore } from "@/lib/rollups/maintain";

export const GET = route({ access: "admin", gate: "GET /api/log", query: logQuery }, async ({ ctx, query }) => listLogs({ ctx, input: { query, all: true } }));

export const DELETE = route(
  { access: "admin", gate: "DELETE /api/log", query: z.object({ target_timestamp: queryInt(MAX_TIMESTAMP) }), demoBlocked: true },
  async ({ ctx, query }) => deleteLogsBefore({ ctx, input: query.target_timestamp }),
);
