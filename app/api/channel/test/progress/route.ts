// GET /api/channel/test/progress: the counts of the running (or last) "test all" job of this node
import { route } from "@/lib/http/route";
import { testAllProgress } from "@/lib/relay/test-all-job";

export const GET = route({ access: "admin" }, async ({ ctx }) => testAllProgress({ ctx }));
