// PUT /api/channel/: any subset of the fields; an empty or absent key keeps the stored one
// (a new one is sealed before storage). On a multi-key channel the key lines replace every
// key (their statuses start over), or with key_mode "append" are added after the stored ones
// (a line already stored is not added twice); multi_key_mode switches random / polling
// (docs/channels-tokens-billing.md, "Multi-key channels").
import "server-only";
import { open, seal } from "@/lib/auth/secret-box";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { checkChannelKeys, checkChannelOther, isOfferedChannelType } from "@/lib/channel-admin/type-profiles";
import { channelView, channelsChanged, rebuildAbilities } from "@/lib/channels/shared";
import { columns, type ChannelFields } from "@/lib/channels/schemas";
import { multiKeyRefusal, newMultiKeyInfo, parseChannelInfo, splitKeys, type MultiKeyMode } from "@/lib/channels/multi-key-rules";
import { recordAudit } from "@/lib/audit/record";

type UpdateInput = ChannelFields & { id: number; key_mode?: "replace" | "append"; multi_key_mode?: MultiKeyMode };

export async function updateChannel({ ctx, input }: { ctx: UserCtx; input: UpdateInput }) {
  const data = columns(input, { clampWeight: true });
  if (data.name !== undefined && !String(data.name)) throw new AppError("INVALID_INPUT", "channel_name_required");
  const key = (input.key ?? "").trim();
  const updated = await db().$transaction(async (tx) => {
    const exists = await tx.channel.findUnique({ where: { id: input.id }, select: { id: true, type: true, key: true, other: true, channel_info: true } });
    if (!exists) throw new AppError("NOT_FOUND", "channel_not_found");
    // A stored type this version does not serve may be kept (the editor sends it back), not chosen.
    if (data.type !== undefined && data.type !== exists.type && !isOfferedChannelType(data.type as number)) {
      throw new AppError("INVALID_INPUT", "channel_type_invalid");
    }
    // a new key is checked against the channel's type, and so is the stored key when the type changes
    const type = (data.type as number | undefined) ?? exists.type;
    // and `other` by the type's own rule (Cloudflare's account id), when either changes
    if (data.type !== undefined || data.other !== undefined) checkChannelOther(type, String(data.other ?? exists.other ?? ""), ctx.locale);
    const info = parseChannelInfo(exists.channel_info);
    if (!key && type !== exists.type && exists.key) checkChannelKeys(type, info.is_multi_key ? open(exists.key).split("\n") : [open(exists.key)], ctx.locale);
    if (!info.is_multi_key) {
      if (input.key_mode === "append" || input.multi_key_mode) throw new AppError("INVALID_INPUT", "channel_not_multi_key");
      if (key) {
        checkChannelKeys(type, [key], ctx.locale);
        data.key = seal(key);
      }
    } else {
      let next = info;
      if (key) {
        const given = splitKeys(key);
        checkChannelKeys(type, given, ctx.locale);
        if (input.key_mode === "append") {
          const stored = exists.key ? open(exists.key).split("\n") : [];
          const added = given.filter((k) => !stored.includes(k));
          const all = [...stored, ...added];
          const refusal = multiKeyRefusal(all);
          if (refusal) throw new AppError("INVALID_INPUT", refusal);
          data.key = seal(all.join("\n"));
          next = { ...next, multi_key_size: all.length };
        } else {
          const refusal = multiKeyRefusal(given);
          if (refusal) throw new AppError("INVALID_INPUT", refusal);
          data.key = seal(given.join("\n"));
          next = newMultiKeyInfo(given.length, next.multi_key_mode);
        }
      }
      if (input.multi_key_mode) next = { ...next, multi_key_mode: input.multi_key_mode };
      if (next !== info) data.channel_info = JSON.stringify(next);
    }
    // the key state is written only over the state it was computed from (the relay may
    // have disabled a key meanwhile: lib/channels/multi-key.ts); otherwise "try again"
    if (data.channel_info !== undefined) {
      const n = await tx.channel.updateMany({ where: { id: input.id, key: exists.key, channel_info: exists.channel_info }, data });
      if (n.count !== 1) throw new AppError("RULE", "channel_busy");
    }
    const c = await tx.channel.update({ where: { id: input.id }, data });
    await rebuildAbilities(tx, c);
    return c;
  });
  await channelsChanged([updated.id]);
  // the names of the fields sent, and whether the key changed (never the key: docs/audit.md)
  const fields = Object.keys(data).filter((k) => k !== "key" && k !== "channel_info");
  await recordAudit(ctx, {
    action: "channel_update",
    target: { type: "channel", id: updated.id },
    detail: { name: updated.name, fields, key_changed: data.key !== undefined, key_mode: key ? (input.key_mode ?? "replace") : null },
  });
  return channelView(updated);
}
