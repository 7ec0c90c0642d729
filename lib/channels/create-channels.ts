// POST /api/channel/: one channel, or (mode "batch") one channel per non-empty key line.
// Keys are sealed before storage.
import "server-only";
import type { Channel } from "@/generated/sqlite/client";
import { seal } from "@/lib/auth/secret-box";
import { db, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { nowSeconds } from "@/lib/billing/ledger";
import { isChannelType } from "@/lib/channels/channel-types";
import { channelView, channelsChanged, rebuildAbilities } from "@/lib/channels/shared";
import { columns, type ChannelFields } from "@/lib/channels/schemas";
import { createRefusals } from "@/lib/channels/field-rules";
import { adapterFor } from "@/lib/relay/providers/registry";

type CreateInput = ChannelFields & { mode?: "single" | "batch" | "multi_to_single"; channel?: ChannelFields };

export async function createChannels({ input }: { ctx: UserCtx; input: CreateInput }) {
  const fields: ChannelFields = input.channel ? { ...input.channel } : input;
  const data = columns(fields, { clampWeight: false });
  if (data.type !== undefined && !isChannelType(data.type as number)) throw new AppError("INVALID_INPUT", "channel_type_invalid");
  const rawKey = (fields.key ?? "").trim();
  const [missing] = createRefusals({ name: String(data.name ?? ""), models: String(data.models ?? ""), key: rawKey });
  if (missing) throw new AppError("INVALID_INPUT", missing[1]);
  // the type's own rule for `other` (Cloudflare's account id: docs/providers.md)
  const otherRefusal = adapterFor(Number(data.type ?? 0))?.profile.checkOther?.(String(data.other ?? ""));
  if (otherRefusal) throw new AppError("INVALID_INPUT", "channel_other_invalid", { detail: otherRefusal });
  const keys =
    input.mode === "batch"
      ? rawKey
          .split("\n")
          .map((k) => k.trim())
          .filter(Boolean)
      : [rawKey];
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
  await channelsChanged();
  return created.map(channelView);
}
