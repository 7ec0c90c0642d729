// Shared pieces of the channel domain: statuses, list parsing, the public (key-free) view
// of a row, the abilities index rebuild, and cache invalidation after every write.
// Every channel write runs in one transaction with the rebuild (or removal) of the
// affected abilities, then calls channelsChanged(ids) once it has committed.
import "server-only";
import type { Channel } from "@/generated/sqlite/client";
import type { Tx } from "@/lib/db/client";
import { publishInvalidation } from "@/lib/cache/invalidate";
import { invalidateChannelCache } from "@/lib/channels/channel-cache";
import { channelsWritten, encodeWritten, type WrittenChannels } from "@/lib/channels/list-index";
import { splitList } from "@/lib/channels/split-list";
import { parseChannelInfo, type ChannelInfo } from "@/lib/channels/multi-key-rules";
import { CHANNEL_STATUS } from "@/lib/statuses";

// The JSON-object reading the channel rules use (pure, shared with the editor).
export { parseObject } from "@/lib/channels/field-rules";

// What every endpoint returns for a channel: everything but the upstream key, which is
// replaced by a marker saying whether one is stored; channel_info (a multi-key channel's
// per-key statuses, no key material: lib/channels/multi-key-rules.ts) as an object.
export type ChannelView = Omit<Channel, "key" | "channel_info"> & { key_set: boolean; channel_info: ChannelInfo };
export function channelView(c: Channel): ChannelView {
  const { key, channel_info, ...rest } = c;
  return Object.assign(rest, { key_set: key.length > 0, channel_info: parseChannelInfo(channel_info) });
}

// Rebuilds the routing rows of one channel inside the caller's transaction: one row per
// (group, model), enabled only when the channel is.
export async function rebuildAbilities(tx: Tx, c: Pick<Channel, "id" | "group" | "models" | "status" | "priority" | "weight" | "tag">) {
  await tx.ability.deleteMany({ where: { channel_id: c.id } });
  const rows = [];
  for (const group of splitList(c.group)) {
    for (const model of splitList(c.models)) {
      rows.push({
        group,
        model,
        channel_id: c.id,
        enabled: c.status === CHANNEL_STATUS.enabled,
        priority: c.priority,
        weight: c.weight,
        tag: c.tag ?? null,
      });
    }
  }
  if (rows.length) await tx.ability.createMany({ data: rows });
  return rows.length;
}

// Rebuilds the routing rows of every channel matching `where` (caller's transaction);
// answers their ids.
export async function rebuildMany(
  tx: Tx,
  where: Parameters<Tx["channel"]["findMany"]>[0] extends infer A ? (A extends { where?: infer W } ? W : never) : never,
) {
  const rows = await tx.channel.findMany({ where });
  for (const c of rows) await rebuildAbilities(tx, c);
  return rows.map((c) => c.id);
}

// Deletes channels and their routing rows (caller's transaction); answers how many channels went.
export async function removeChannels(tx: Tx, ids: number[]): Promise<number> {
  await tx.ability.deleteMany({ where: { channel_id: { in: ids } } });
  return (await tx.channel.deleteMany({ where: { id: { in: ids } } })).count;
}

// After any committed channel write: drop this node's routing cache, mark the written
// channels for the console's list index (lib/channels/list-index.ts) and tell the other
// nodes which ones they were ("all" when the writer cannot name them).
export async function channelsChanged(written: WrittenChannels): Promise<void> {
  invalidateChannelCache();
  channelsWritten(written);
  await publishInvalidation("channels", encodeWritten(written));
}
