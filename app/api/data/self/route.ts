// GET /api/data/self?start_timestamp&end_timestamp: the caller's hourly usage rows per model
import { route } from "@/lib/http/route";
import { dataQuery, selfData } from "@/lib/rollups/data";

export const GET = route({ access: "user", query: dataQuery }, async ({ ctx, query }) => selfData({ ctx, input: query }));
