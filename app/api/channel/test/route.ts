// GET /api/channel/test: start testing every enabled (and system-disabled) channel in the
// background; answers at once with the job's progress {running, total, tested, passed,
// failed, started_at, finished_at}, and says whether it started or was already running
import { Reply, route } from "@/lib/http/route";
import { startTestAll } from "@/lib/relay/test-all-job";

export const GET = route({ access: "admin", gate: "GET /api/channel/test" }, async ({ ctx }) => {
  const { started, progress } = await startTestAll({ ctx });
  return new Reply({ data: progress, message: ctx.t(started ? "channel_test_all_started" : "channel_test_all_running") });
});
