// POST /api/channel/fix: rebuilds the whole abilities index from the channels; answers the
// number of channels indexed.
import "server-only";
import { db } from "@/lib/db/client";
import { channelsChanged, rebuildMany } from "@/lib/channels/shared";
import type { UserCtx } from "@/lib/ctx";

export async function fixAbilities(_args: { ctx: UserCtx }): Promise<number> {
  const ids = await db().$transaction(async (tx) => {
    await tx.ability.deleteMany({});
    return rebuildMany(tx, {});
  });
  await channelsChanged("all"); // a repair: every cache built from the channels starts over
  return ids.length;
}
