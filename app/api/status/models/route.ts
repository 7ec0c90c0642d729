// GET /api/status/models: the default group's models with their 24-hour and 7-day availability and median TTFT (public when StatusPageEnabled, else 404)
import { route } from "@/lib/http/route";
import { statusModels } from "@/lib/perf/status-models";

export const GET = route({ access: "public" }, async ({ ctx }) => statusModels({ ctx }));
