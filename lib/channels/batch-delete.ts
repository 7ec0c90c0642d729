// POST /api/channel/batch: deletes the given channels; answers how many went.
import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { channelsChanged, removeChannels } from "@/lib/channels/shared";
import { recordAudit } from "@/lib/audit/record";

export async function batchDelete({ ctx, input: ids }: { ctx: UserCtx; input: number[] }): Promise<number> {
  if (!ids.length) throw new AppError("INVALID_INPUT", "select_channels_first");
  const n = await db().$transaction((tx) => removeChannels(tx, ids));
  await channelsChanged(ids);
  if (n > 0) await recordAudit(ctx, { action: "channel_delete", detail: { ids: ids.slice(0, 1000), count: n } });
  return n;
}
