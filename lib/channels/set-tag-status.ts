// POST /api/channel/tag/enabled|disabled: the status of every channel of the tag.
import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { channelsChanged, rebuildMany } from "@/lib/channels/shared";

export async function setTagStatus({ input: { tag, status } }: { ctx: UserCtx; input: { tag: string; status: 1 | 2 } }): Promise<number> {
  if (!tag.trim()) throw new AppError("INVALID_INPUT", "tag_required");
  const written = await db().$transaction(async (tx) => {
    await tx.channel.updateMany({ where: { tag }, data: { status } });
    return rebuildMany(tx, { tag });
  });
  await channelsChanged(written);
  return written.length;
}
