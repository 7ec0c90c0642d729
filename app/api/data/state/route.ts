// GET /api/data/state: the rollups' watermark, the newest log id and the last run (admin)
import { route } from "@/lib/http/route";
import { rollupStatus } from "@/lib/rollups/data";

export const GET = route({ access: "admin", gate: "GET /api/data/state" }, async ({ ctx }) => rollupStatus({ ctx }));
