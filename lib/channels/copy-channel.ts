// POST /api/channel/copy/{id}: a new channel with the same settings and the same sealed key
// (the key never leaves the server, so the console cannot copy a channel by itself).
// As new-api: the name gets a suffix ("_copy" unless `suffix` is given), test time and
// response time start over, and balance and used quota start at 0 unless
// reset_balance=false. The status is the original's. Abilities are rebuilt in the same
// transaction and the routing cache is dropped, like every channel write.
import "server-only";
import type { Channel } from "@/generated/sqlite/client";
import { db, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { channelView, channelsChanged, rebuildAbilities } from "@/lib/channels/shared";
import { nowSeconds } from "@/lib/time";

export const DEFAULT_COPY_SUFFIX = "_copy";

export async function copyChannel({ input }: { ctx: UserCtx; input: { id: number; suffix?: string; resetBalance?: boolean } }) {
  const suffix = input.suffix ?? DEFAULT_COPY_SUFFIX;
  const resetBalance = input.resetBalance ?? true;
  const copy = await db().$transaction(async (tx) => {
    const origin = await tx.channel.findUnique({ where: { id: input.id } });
    // deleted since the list was loaded: the list is stale (docs/channels-tokens-billing.md)
    if (!origin) throw new AppError("NOT_FOUND", "channel_copy_not_found");
    const { id: _id, ...fields } = origin;
    const data: Omit<Channel, "id"> = {
      ...fields,
      name: origin.name + suffix,
      created_time: BigInt(nowSeconds()),
      test_time: BigInt(0),
      response_time: 0,
      ...(resetBalance ? { balance: 0, balance_updated_time: BigInt(0), used_quota: BigInt(0) } : {}),
    };
    const c = await tx.channel.create({ data: data as Parameters<Tx["channel"]["create"]>[0]["data"] });
    await rebuildAbilities(tx, c);
    return c;
  });
  await channelsChanged([copy.id]);
  return channelView(copy);
}
