// DELETE /api/channel/{id}: the channel and its routing rows.
import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { channelsChanged, removeChannels } from "@/lib/channels/shared";
import { recordAudit } from "@/lib/audit/record";

export async function deleteChannel({ ctx, input: id }: { ctx: UserCtx; input: number }) {
  const n = await db().$transaction((tx) => removeChannels(tx, [id]));
  if (n === 0) throw new AppError("NOT_FOUND", "channel_not_found");
  await channelsChanged([id]);
  await recordAudit(ctx, { action: "channel_delete", target: { type: "channel", id } });
}
