// POST /api/channel/: one channel, or (mode "batch") one channel per non-empty key line, or
// (mode "multi_to_single") one multi-key channel holding every key line, sealed together
// (docs/channels-tokens-billing.md, "Multi-key channels"). Keys are sealed before storage.
import "server-only";
import type { Channel } from "@/generated/sqlite/client";
import { seal } from "@/lib/auth/secret-box";
import { db, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { checkChannelKeys, checkChannelOther, isOfferedChannelType } from "@/lib/channel-admin/type-profiles";
import { channelView, channelsChanged, rebuildAbilities } from "@/lib/channels/shared";
import { columns, type ChannelFields } from "@/lib/channels/schemas";
import { createRefusals } from "@/lib/channels/field-rules";
import { multiKeyRefusal, newMultiKeyInfo, splitKeys, type MultiKeyMode } from "@/lib/channels/multi-key-rules";
import { nowSeconds } from "@/lib/time";
import { recordAudit } from "@/lib/audit/record";

type CreateInput = ChannelFields & { mode?: "single" | "batch" | "multi_to_single"; multi_key_mode?: MultiKeyMode; channel?: ChannelFields };

export async function createChannels({ ctx, input }: { ctx: UserCtx; input: CreateInput }) {
  const fields: ChannelFields = input.channel ? { ...input.channel } : input;
  const data = columns(fields, { clampWeight: false });
  const type = (data.type as number | undefined) ?? 1;
  if (!isOfferedChannelType(type)) throw new AppError("INVALID_INPUT", "channel_type_invalid");
  const rawKey = (fields.key ?? "").trim();
  const [missing] = createRefusals({ name: String(data.name ?? ""), models: String(data.models ?? ""), key: rawKey });
  if (missing) throw new AppError("INVALID_INPUT", missing[1]);
  checkChannelOther(type, String(data.other ?? ""), ctx.locale);
  let keys =
    input.mode === "batch"
      ? rawKey
          .split("\n")
          .map((k) => k.trim())
          .filter(Boolean)
      : [rawKey];
  if (input.mode === "multi_to_single") {
    const all = splitKeys(rawKey);
    const refusal = multiKeyRefusal(all);
    if (refusal) throw new AppError("INVALID_INPUT", refusal);
    checkChannelKeys(type, all, ctx.locale);
    keys = [all.join("\n")];
    data.channel_info = JSON.stringify(newMultiKeyInfo(all.length, input.multi_key_mode ?? "random"));
  } else checkChannelKeys(type, keys, ctx.locale);
  if (!data.group) data.group = "default";
  const created = await db().$transaction(async (tx) => {
    const out: Channel[] = [];
    for (const key of keys) {
      const c = await tx.channel.create({
        data: { ...(data as object), key: seal(key), created_time: BigInt(nowSeconds()) } as Parameters<Tx["channel"]["create"]>[0]["data"],
      });
      await rebuildAbilities(tx, c);
      out.push(c);
    }
    return out;
  });
  await channelsChanged(created.map((c) => c.id));
  // one row per channel made; the keys are never written (docs/audit.md)
  for (const c of created) {
    await recordAudit(ctx, {
      action: "channel_create",
      target: { type: "channel", id: c.id },
      detail: { name: c.name, type: c.type, mode: input.mode ?? "single" },
    });
  }
  return created.map(channelView);
}
