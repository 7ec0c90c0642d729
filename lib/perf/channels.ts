// GET /api/perf/channels (admin; docs/performance.md, "Calls"): the performance of each channel,
// per hour, day or the whole range (the channel list's last 24 hours).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { isAdmin } from "@/lib/auth/roles";
import { perfRows } from "@/lib/rollups/perf-read";
import { checkPerfRange, type PerfQuery } from "@/lib/perf/query";

export async function perfChannels({ ctx, input: q }: { ctx: UserCtx; input: PerfQuery }) {
  if (!isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  checkPerfRange(q);
  return perfRows({ dim: "channel", channelId: q.channel_id }, q.start_timestamp, q.end_timestamp, q.granularity);
}
