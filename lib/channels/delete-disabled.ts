// DELETE /api/channel/disabled: removes manually and automatically disabled channels.
import "server-only";
import { db } from "@/lib/db/client";
import { channelsChanged, removeChannels } from "@/lib/channels/shared";
import type { UserCtx } from "@/lib/ctx";
import { CHANNEL_STATUS } from "@/lib/statuses";

export async function deleteDisabled(_args: { ctx: UserCtx }): Promise<number> {
  const ids = await db().$transaction(async (tx) => {
    const ids = (await tx.channel.findMany({ where: { status: { not: CHANNEL_STATUS.enabled } }, select: { id: true } })).map((c) => c.id);
    if (ids.length) await removeChannels(tx, ids);
    return ids;
  });
  await channelsChanged(ids);
  return ids.length;
}
