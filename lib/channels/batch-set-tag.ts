// POST /api/channel/batch/tag: set (or clear, with an empty tag) the tag of the given channels.
import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { channelsChanged, rebuildMany } from "@/lib/channels/shared";

export async function batchSetTag({ input: { ids, tag } }: { ctx: UserCtx; input: { ids: number[]; tag: string | null | undefined } }): Promise<number> {
  if (!ids.length) throw new AppError("INVALID_INPUT", "select_channels_first");
  const value = tag?.trim() ? tag.trim() : null;
  const written = await db().$transaction(async (tx) => {
    await tx.channel.updateMany({ where: { id: { in: ids } }, data: { tag: value } });
    return rebuildMany(tx, { id: { in: ids } });
  });
  await channelsChanged(written);
  return written.length;
}
