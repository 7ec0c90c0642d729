// GET /api/channel/test/progress: the counts of the running (or last) "test all" job
// (the cluster's with Redis, else this node's)
import { route } from "@/lib/http/route";
import { testAllProgress } from "@/lib/relay/test-all-job";

export const GET = route({ access: "admin", gate: "GET /api/channel/test/progress" }, async ({ ctx }) => testAllProgress({ ctx }));
