// A channel the system disabled (status 3) passed a test: enable it again (only status 3;
// a channel an admin disabled stays disabled).
import "server-only";
import { db } from "@/lib/db/client";
import { channelsChanged, parseObject, rebuildAbilities } from "@/lib/channels/shared";
import { logger } from "@/lib/logger";
import { metrics } from "@/lib/metrics";
import { nowSeconds } from "@/lib/time";
import { CHANNEL_STATUS } from "@/lib/statuses";

const log = logger("channels");

export async function autoEnableChannel(id: number): Promise<boolean> {
  const changed = await db().$transaction(async (tx) => {
    const c = await tx.channel.findUnique({ where: { id } });
    if (!c || c.status !== CHANNEL_STATUS.autoDisabled) return false;
    const info = { ...(parseObject(c.other_info) ?? {}), status_reason: "", status_time: nowSeconds() };
    const u = await tx.channel.update({ where: { id }, data: { status: CHANNEL_STATUS.enabled, other_info: JSON.stringify(info) } });
    await rebuildAbilities(tx, u);
    return true;
  });
  if (changed) {
    // GET /metrics and the server log (docs/operations.md)
    metrics().channelStatusChanged(id, "auto_enabled");
    log.info({ channelId: id }, "channel auto-enabled");
    await channelsChanged([id]);
  }
  return changed;
}
