// GET /api/perf/channels?start_timestamp&end_timestamp&granularity&channel_id: each channel's calls, success rate, TTFT, latency and output speed (admin)
import { route } from "@/lib/http/route";
import { perfQuery } from "@/lib/perf/query";
import { perfChannels } from "@/lib/perf/channels";

export const GET = route({ access: "admin", gate: "GET /api/perf/channels", query: perfQuery }, async ({ ctx, query }) => perfChannels({ ctx, input: query }));
