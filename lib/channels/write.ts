// Channel writes. Each runs in one transaction with the rebuild of the affected abilities,
// then drops the routing cache (here and on other nodes). Keys are sealed before storage.
import type { Channel } from "@/generated/sqlite/client";
import { seal } from "@/lib/auth/secret-box";
import { db, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { nowSeconds } from "@/lib/billing/ledger";
import { isChannelType } from "@/lib/channels/channel-types";
import { CHANNEL_STATUS, channelView, channelsChanged, parseObject, rebuildAbilities, splitList } from "@/lib/channels/shared";
import { columns, type ChannelFields } from "@/lib/channels/schemas";

type CreateInput = ChannelFields & { mode?: "single" | "batch" | "multi_to_single"; channel?: ChannelFields };

// POST /api/channel/: one channel, or (mode "batch") one channel per non-empty key line.
export async function createChannels(input: CreateInput) {
  const fields: ChannelFields = input.channel ? { ...input.channel } : input;
  const data = columns(fields, { clampWeight: false });
  if (data.type !== undefined && !isChannelType(data.type as number)) throw new AppError("INVALID_INPUT", "channel_type_invalid");
  if (!String(data.name ?? "").trim()) throw new AppError("INVALID_INPUT", "channel_name_required");
  if (!String(data.models ?? "").trim()) throw new AppError("INVALID_INPUT", "channel_models_required");
  const rawKey = (fields.key ?? "").trim();
  if (!rawKey) throw new AppError("INVALID_INPUT", "channel_key_required");
  const keys =
    input.mode === "batch"
      ? rawKey.split("\n").map((k) => k.trim()).filter(Boolean)
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

// PUT /api/channel/: any subset of the fields; an empty or absent key keeps the stored one.
export async function updateChannel(input: ChannelFields & { id: number }) {
  const data = columns(input, { clampWeight: true });
  if (data.name !== undefined && !String(data.name)) throw new AppError("INVALID_INPUT", "channel_name_required");
  const key = (input.key ?? "").trim();
  if (key) data.key = seal(key);
  const updated = await db().$transaction(async (tx) => {
    const exists = await tx.channel.findUnique({ where: { id: input.id }, select: { id: true, type: true } });
    if (!exists) throw new AppError("NOT_FOUND", "channel_not_found");
    // A stored type this version does not know may be kept (the editor sends it back), not chosen.
    if (data.type !== undefined && data.type !== exists.type && !isChannelType(data.type as number)) {
      throw new AppError("INVALID_INPUT", "channel_type_invalid");
    }
    const c = await tx.channel.update({ where: { id: input.id }, data });
    await rebuildAbilities(tx, c);
    return c;
  });
  await channelsChanged();
  return channelView(updated);
}

export async function deleteChannel(id: number) {
  const n = await db().$transaction(async (tx) => {
    await tx.ability.deleteMany({ where: { channel_id: id } });
    return (await tx.channel.deleteMany({ where: { id } })).count;
  });
  if (n === 0) throw new AppError("NOT_FOUND", "channel_not_found");
  await channelsChanged();
}

export async function batchDelete(ids: number[]): Promise<number> {
  if (!ids.length) throw new AppError("INVALID_INPUT", "select_channels_first");
  const n = await db().$transaction(async (tx) => {
    await tx.ability.deleteMany({ where: { channel_id: { in: ids } } });
    return (await tx.channel.deleteMany({ where: { id: { in: ids } } })).count;
  });
  await channelsChanged();
  return n;
}

// DELETE /api/channel/disabled: removes manually and automatically disabled channels.
export async function deleteDisabled(): Promise<number> {
  const n = await db().$transaction(async (tx) => {
    const ids = (await tx.channel.findMany({ where: { status: { not: CHANNEL_STATUS.enabled } }, select: { id: true } })).map((c) => c.id);
    if (!ids.length) return 0;
    await tx.ability.deleteMany({ where: { channel_id: { in: ids } } });
    return (await tx.channel.deleteMany({ where: { id: { in: ids } } })).count;
  });
  await channelsChanged();
  return n;
}

async function rebuildMany(tx: Tx, where: Parameters<Tx["channel"]["findMany"]>[0] extends infer A ? A extends { where?: infer W } ? W : never : never) {
  const rows = await tx.channel.findMany({ where });
  for (const c of rows) await rebuildAbilities(tx, c);
  return rows.length;
}

// POST /api/channel/tag/enabled|disabled: the status of every channel of the tag.
export async function setTagStatus(tag: string, status: 1 | 2): Promise<number> {
  if (!tag.trim()) throw new AppError("INVALID_INPUT", "tag_required");
  const n = await db().$transaction(async (tx) => {
    await tx.channel.updateMany({ where: { tag }, data: { status } });
    return rebuildMany(tx, { tag });
  });
  await channelsChanged();
  return n;
}

// PUT /api/channel/tag: rename the tag and/or set model_mapping, groups, models, priority,
// weight of all its channels.
export async function editTag(input: {
  tag: string;
  new_tag?: string | null;
  model_mapping?: string | null;
  groups?: string | string[] | null;
  models?: string | string[] | null;
  priority?: unknown;
  weight?: unknown;
}): Promise<number> {
  if (!input.tag.trim()) throw new AppError("INVALID_INPUT", "tag_required");
  const data = columns(
    {
      tag: input.new_tag === undefined || input.new_tag === null || input.new_tag === "" ? undefined : input.new_tag,
      model_mapping: input.model_mapping || undefined,
      groups: input.groups ? (Array.isArray(input.groups) ? input.groups : splitList(input.groups)) : undefined,
      models: input.models || undefined,
      priority: input.priority ?? undefined,
      weight: input.weight ?? undefined,
    },
    { clampWeight: true },
  );
  const newTag = (data.tag as string | undefined) ?? input.tag;
  const n = await db().$transaction(async (tx) => {
    await tx.channel.updateMany({ where: { tag: input.tag }, data });
    return rebuildMany(tx, { tag: newTag });
  });
  await channelsChanged();
  return n;
}

// POST /api/channel/batch/tag: set (or clear, with an empty tag) the tag of the given channels.
export async function batchSetTag(ids: number[], tag: string | null | undefined): Promise<number> {
  if (!ids.length) throw new AppError("INVALID_INPUT", "select_channels_first");
  const value = tag?.trim() ? tag.trim() : null;
  const n = await db().$transaction(async (tx) => {
    await tx.channel.updateMany({ where: { id: { in: ids } }, data: { tag: value } });
    return rebuildMany(tx, { id: { in: ids } });
  });
  await channelsChanged();
  return n;
}

// POST /api/channel/fix: rebuilds the whole abilities index from the channels; answers the
// number of channels indexed.
export async function fixAbilities(): Promise<number> {
  const n = await db().$transaction(async (tx) => {
    await tx.ability.deleteMany({});
    return rebuildMany(tx, {});
  });
  await channelsChanged();
  return n;
}

// Used by the relay when auto-ban decides a channel must stop: status 3 with why and when.
export async function autoDisableChannel(id: number, reason: string): Promise<boolean> {
  const changed = await db().$transaction(async (tx) => {
    const c = await tx.channel.findUnique({ where: { id } });
    if (!c || c.status !== CHANNEL_STATUS.enabled) return false;
    const info = { ...(parseObject(c.other_info) ?? {}), status_reason: reason.slice(0, 500), status_time: nowSeconds() };
    const u = await tx.channel.update({ where: { id }, data: { status: CHANNEL_STATUS.autoDisabled, other_info: JSON.stringify(info) } });
    await rebuildAbilities(tx, u);
    return true;
  });
  if (changed) await channelsChanged();
  return changed;
}

// A channel the system disabled (status 3) passed a test: enable it again (only status 3;
// a channel an admin disabled stays disabled).
export async function autoEnableChannel(id: number): Promise<boolean> {
  const changed = await db().$transaction(async (tx) => {
    const c = await tx.channel.findUnique({ where: { id } });
    if (!c || c.status !== CHANNEL_STATUS.autoDisabled) return false;
    const info = { ...(parseObject(c.other_info) ?? {}), status_reason: "", status_time: nowSeconds() };
    const u = await tx.channel.update({ where: { id }, data: { status: CHANNEL_STATUS.enabled, other_info: JSON.stringify(info) } });
    await rebuildAbilities(tx, u);
    return true;
  });
  if (changed) await channelsChanged();
  return changed;
}

// Balance and response-time figures written back by balance queries and channel tests.
export async function recordChannelFigures(id: number, data: { balance?: number; response_time?: number }) {
  const now = BigInt(nowSeconds());
  await db().channel.update({
    where: { id },
    data: {
      ...(data.balance !== undefined ? { balance: data.balance, balance_updated_time: now } : {}),
      ...(data.response_time !== undefined ? { response_time: data.response_time, test_time: now } : {}),
    },
  });
}
