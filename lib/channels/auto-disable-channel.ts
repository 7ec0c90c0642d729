// Used by the relay when auto-ban decides a channel must stop: status 3 with why and when.
import "server-only";
import { db } from "@/lib/db/client";
import { channelsChanged, parseObject, rebuildAbilities } from "@/lib/channels/shared";
import { logger } from "@/lib/logger";
import { metrics } from "@/lib/metrics";
import { nowSeconds } from "@/lib/time";
import { CHANNEL_STATUS } from "@/lib/statuses";

const log = logger("channels");

export async function autoDisableChannel(id: number, reason: string): Promise<boolean> {
  const changed = await db().$transaction(async (tx) => {
    const c = await tx.channel.findUnique({ where: { id } });
    if (!c || c.status !== CHANNEL_STATUS.enabled) return false;
    const info = { ...(parseObject(c.other_info) ?? {}), status_reason: reason.slice(0, 500), status_time: nowSeconds() };
    const u = await tx.channel.update({ where: { id }, data: { status: CHANNEL_STATUS.autoDisabled, other_info: JSON.stringify(info) } });
    await rebuildAbilities(tx, u);
    return true;
  });
  if (changed) {
    // GET /metrics and the server log (docs/operations.md)
    metrics().channelStatusChanged(id, "auto_disabled");
    log.warn({ channelId: id, reason: reason.slice(0, 500) }, "channel auto-disabled");
    await channelsChanged([id]);
  }
  return changed;
}
