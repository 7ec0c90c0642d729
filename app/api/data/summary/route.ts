// GET /api/data/summary?start_timestamp&end_timestamp&username: balance and top users of the range (admin)
import { route } from "@/lib/http/route";
import { dataQuery, dataSummary } from "@/lib/rollups/data";

export const GET = route({ access: "admin", gate: "GET /api/data/summary", query: dataQuery }, async ({ ctx, query }) => dataSummary({ ctx, input: query }));
