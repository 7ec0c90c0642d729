// GET /api/channel/test/progress: the counts of the running (or last) "test all" job of this node
import { route } from "@/lib/http/route";
import { testAllProgress } from "@/lib/channels/test-all-job";

export const GET = route({ access: "admin" }, async () => testAllProgress());
