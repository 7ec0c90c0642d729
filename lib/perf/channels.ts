// GET /api/perf/channels (admin; docs/performance.md, "Calls"): the performance of each channel,
// per hour, day or the whole range (the channel list's last 24 hours), each row with its
// channel's name (none for a channel deleted since).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { isAdmin } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { perfRows } from "@/lib/rollups/perf-read";
import { checkPerfRange, type PerfQuery } from "@/lib/perf/query";

export async function perfChannels({ ctx, input: q }: { ctx: UserCtx; input: PerfQuery }) {
  if (!isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  checkPerfRange(q);
  const rows = await perfRows({ dim: "channel", channelId: q.channel_id }, q.start_timestamp, q.end_timestamp, q.granularity);
  const ids = [...new Set(rows.map((r) => r.channel_id!))];
  if (!ids.length) return rows;
  const channels = await db().channel.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  const names = new Map(channels.map((c) => [c.id, c.name]));
  return rows.map((r) => ({ ...r, channel_name: names.get(r.channel_id!) }));
}
