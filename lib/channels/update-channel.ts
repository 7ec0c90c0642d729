// PUT /api/channel/: any subset of the fields; an empty or absent key keeps the stored one
// (a new one is sealed before storage).
import "server-only";
import { open, seal } from "@/lib/auth/secret-box";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { checkChannelKeys, checkChannelOther, isOfferedChannelType } from "@/lib/channels/type-profiles";
import { channelView, channelsChanged, rebuildAbilities } from "@/lib/channels/shared";
import { columns, type ChannelFields } from "@/lib/channels/schemas";

export async function updateChannel({ input }: { ctx: UserCtx; input: ChannelFields & { id: number } }) {
  const data = columns(input, { clampWeight: true });
  if (data.name !== undefined && !String(data.name)) throw new AppError("INVALID_INPUT", "channel_name_required");
  const key = (input.key ?? "").trim();
  if (key) data.key = seal(key);
  const updated = await db().$transaction(async (tx) => {
    const exists = await tx.channel.findUnique({ where: { id: input.id }, select: { id: true, type: true, key: true, other: true } });
    if (!exists) throw new AppError("NOT_FOUND", "channel_not_found");
    // A stored type this version does not serve may be kept (the editor sends it back), not chosen.
    if (data.type !== undefined && data.type !== exists.type && !isOfferedChannelType(data.type as number)) {
      throw new AppError("INVALID_INPUT", "channel_type_invalid");
    }
    // a new key is checked against the channel's type, and so is the stored key when the type changes
    const type = (data.type as number | undefined) ?? exists.type;
    if (key) checkChannelKeys(type, key);
    else if (type !== exists.type && exists.key) checkChannelKeys(type, open(exists.key));
    // and `other` by the type's own rule (Cloudflare's account id), when either changes
    if (data.type !== undefined || data.other !== undefined) checkChannelOther(type, String(data.other ?? exists.other ?? ""));
    const c = await tx.channel.update({ where: { id: input.id }, data });
    await rebuildAbilities(tx, c);
    return c;
  });
  await channelsChanged();
  return channelView(updated);
}
