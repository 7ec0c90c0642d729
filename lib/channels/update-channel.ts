// PUT /api/channel/: any subset of the fields; an empty or absent key keeps the stored one
// (a new one is sealed before storage).
import "server-only";
import { seal } from "@/lib/auth/secret-box";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { isChannelType } from "@/lib/channels/channel-types";
import { channelView, channelsChanged, rebuildAbilities } from "@/lib/channels/shared";
import { columns, type ChannelFields } from "@/lib/channels/schemas";
import { adapterFor } from "@/lib/relay/providers/registry";

export async function updateChannel({ input }: { ctx: UserCtx; input: ChannelFields & { id: number } }) {
  const data = columns(input, { clampWeight: true });
  if (data.name !== undefined && !String(data.name)) throw new AppError("INVALID_INPUT", "channel_name_required");
  const key = (input.key ?? "").trim();
  if (key) data.key = seal(key);
  const updated = await db().$transaction(async (tx) => {
    const exists = await tx.channel.findUnique({ where: { id: input.id }, select: { id: true, type: true, other: true } });
    if (!exists) throw new AppError("NOT_FOUND", "channel_not_found");
    // A stored type this version does not know may be kept (the editor sends it back), not chosen.
    if (data.type !== undefined && data.type !== exists.type && !isChannelType(data.type as number)) {
      throw new AppError("INVALID_INPUT", "channel_type_invalid");
    }
    // the type's own rule for `other` (Cloudflare's account id: docs/providers.md), when either changes
    if (data.type !== undefined || data.other !== undefined) {
      const refusal = adapterFor(Number(data.type ?? exists.type))?.profile.checkOther?.(String(data.other ?? exists.other ?? ""));
      if (refusal) throw new AppError("INVALID_INPUT", "channel_other_invalid", { detail: refusal });
    }
    const c = await tx.channel.update({ where: { id: input.id }, data });
    await rebuildAbilities(tx, c);
    return c;
  });
  await channelsChanged();
  return channelView(updated);
}
