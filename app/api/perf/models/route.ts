// GET /api/perf/models?start_timestamp&end_timestamp&granularity&group&model_name: each model's calls, success rate, TTFT, latency and output speed
import { route } from "@/lib/http/route";
import { perfQuery } from "@/lib/perf/query";
import { perfModels } from "@/lib/perf/models";

export const GET = route({ access: "user", query: perfQuery }, async ({ ctx, query }) => perfModels({ ctx, input: query }));
