// The keys of a multi-key channel (docs/channels-tokens-billing.md, "Multi-key channels"):
// the admin's actions on them (POST /api/channel/multi_key/manage) and the relay's automatic
// disabling of one key. The keys are sealed together in the channel's `key` column, one per
// line; their statuses live in `channel_info` (lib/channels/multi-key-rules.ts). Every write
// runs in one transaction and drops the routing cache on every node (channelsChanged).
import "server-only";
import { open, seal } from "@/lib/auth/secret-box";
import type { Channel } from "@/generated/sqlite/client";
import { db, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { channelView, channelsChanged, parseObject, rebuildAbilities } from "@/lib/channels/shared";
import {
  enabledKeyCount,
  keyRows,
  keyStatus,
  parseChannelInfo,
  withKeyStatus,
  withoutKeys,
  type ChannelInfo,
  type ManageKeysInput,
} from "@/lib/channels/multi-key-rules";
import { nowSeconds } from "@/lib/time";
import { CHANNEL_STATUS, KEY_STATUS } from "@/lib/statuses";

const storedKeys = (sealed: string): string[] => (sealed ? open(sealed).split("\n") : []);

// Writes of the key state are compare-and-set on (key, channel_info): two writers (the relay
// disabling keys on several nodes at once, an admin's action) never lose each other's change;
// the one that lost reads the row again and re-applies its change, a few times at most.
const ATTEMPTS = 8;

async function casUpdate(tx: Tx, c: Channel, data: Partial<Pick<Channel, "key" | "channel_info" | "status" | "other_info">>): Promise<Channel | null> {
  const n = await tx.channel.updateMany({ where: { id: c.id, key: c.key, channel_info: c.channel_info }, data });
  return n.count === 1 ? { ...c, ...data } : null;
}

export async function manageKeys({ input }: { ctx: UserCtx; input: ManageKeysInput }) {
  for (let i = 0; ; i++) {
    const updated = await manageOnce(input);
    if (updated) {
      await channelsChanged([updated.id]);
      return channelView(updated);
    }
    if (i + 1 >= ATTEMPTS) throw new AppError("RULE", "channel_busy");
  }
}

async function manageOnce(input: ManageKeysInput): Promise<Channel | null> {
  return db().$transaction(async (tx) => {
    const c = await tx.channel.findUnique({ where: { id: input.channel_id } });
    if (!c) throw new AppError("NOT_FOUND", "channel_not_found");
    const info = parseChannelInfo(c.channel_info);
    if (!info.is_multi_key) throw new AppError("INVALID_INPUT", "channel_not_multi_key");
    const one = () => {
      const i = input.key_index;
      if (i === undefined || i >= info.multi_key_size) throw new AppError("INVALID_INPUT", "channel_key_index_invalid");
      return i;
    };
    let next: ChannelInfo;
    let key: string | undefined;
    const remove = (indexes: Set<number>) => {
      if (indexes.size >= info.multi_key_size) throw new AppError("INVALID_INPUT", "channel_last_key");
      const keys = storedKeys(c.key);
      key = seal(keys.filter((_, i) => !indexes.has(i)).join("\n"));
      return withoutKeys(info, indexes);
    };
    switch (input.action) {
      case "enable_key":
        next = withKeyStatus(info, one(), KEY_STATUS.enabled, "", 0);
        break;
      case "disable_key": {
        const i = one();
        next = keyStatus(info, i) === KEY_STATUS.enabled ? withKeyStatus(info, i, KEY_STATUS.disabled, "", nowSeconds()) : info;
        break;
      }
      case "delete_key":
        next = remove(new Set([one()]));
        break;
      case "enable_all_keys":
        next = { ...info, multi_key_status_list: {}, multi_key_disabled_reason: {}, multi_key_disabled_time: {} };
        break;
      case "delete_disabled_keys":
        next = remove(
          new Set(
            keyRows(info)
              .filter((r) => r.status !== KEY_STATUS.enabled)
              .map((r) => r.index),
          ),
        );
        break;
    }
    return casUpdate(tx, c, { channel_info: JSON.stringify(next), ...(key !== undefined ? { key } : {}) });
  });
}

/**
 * The relay's verdict on one key (lib/relay/health.ts): status 3 with the reason and time.
 * The key is found by its text (the index is a hint: an admin may have removed a line since
 * the relay loaded them). When no enabled key is left the channel itself is disabled
 * (status 3, as autoDisableChannel does). Answers whether anything changed.
 */
export async function autoDisableKey(channelId: number, key: string, index: number, reason: string): Promise<boolean> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const changed = await disableOnce(channelId, key, index, reason);
    if (changed === null) continue; // another writer came first: read again
    if (changed) await channelsChanged([channelId]);
    return changed;
  }
  return false;
}

async function disableOnce(channelId: number, key: string, index: number, reason: string): Promise<boolean | null> {
  return db().$transaction(async (tx) => {
    const c = await tx.channel.findUnique({ where: { id: channelId } });
    if (!c) return false;
    const info = parseChannelInfo(c.channel_info);
    if (!info.is_multi_key) return false;
    const keys = storedKeys(c.key);
    const at = keys[index] === key ? index : keys.indexOf(key);
    if (at < 0 || keyStatus(info, at) !== KEY_STATUS.enabled) return false;
    const now = nowSeconds();
    const next = withKeyStatus(info, at, KEY_STATUS.autoDisabled, reason.slice(0, 500), now);
    const data: { channel_info: string; status?: number; other_info?: string } = { channel_info: JSON.stringify(next) };
    if (enabledKeyCount(next) === 0 && c.status === CHANNEL_STATUS.enabled) {
      data.status = CHANNEL_STATUS.autoDisabled;
      const why = `every key is disabled; the last one (#${at}): ${reason}`.slice(0, 500);
      data.other_info = JSON.stringify({ ...(parseObject(c.other_info) ?? {}), status_reason: why, status_time: now });
    }
    const u = await casUpdate(tx, c, data);
    if (!u) return null;
    if (data.status !== undefined) await rebuildAbilities(tx, u);
    return true;
  });
}
