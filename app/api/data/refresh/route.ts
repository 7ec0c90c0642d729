// POST /api/data/refresh: bring the hourly rollups up to date now; answers the watermark (admin)
import { route } from "@/lib/http/route";
import { refreshRollups } from "@/lib/rollups/data";

export const POST = route({ access: "admin", gate: "POST /api/data/refresh" }, async ({ ctx }) => refreshRollups({ ctx }));
