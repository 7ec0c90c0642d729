// GET /api/data/?start_timestamp&end_timestamp&username: hourly usage rows per model, of every user or one username (admin)
import { route } from "@/lib/http/route";
import { allData, dataQuery } from "@/lib/rollups/data";

export const GET = route({ access: "admin", gate: "GET /api/data", query: dataQuery }, async ({ ctx, query }) => allData({ ctx, input: query }));
