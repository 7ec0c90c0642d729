// Channel reads for the console: list and search (with optional tag aggregation), one
// channel, distinct tags. Filtering on list columns (groups, models) and grouping by tag
// happen in memory, over the few columns they read of every channel the database query
// leaves; only the rows of the page asked for are then read whole (docs/channels-tokens-billing.md,
// "The channel list at scale": 10,000 channels read whole took most of a second).
import "server-only";
import type { Channel } from "@/generated/sqlite/client";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { channelView, type ChannelView } from "@/lib/channels/shared";
import { splitList } from "@/lib/channels/split-list";
import { dict } from "@/lib/own-keys";

export type ChannelFilter = {
  keyword?: string;
  group?: string;
  model?: string;
  types?: number[];
  statuses?: number[];
  tags?: string[];
};

export type TagRow = {
  is_tag: true;
  id: number; // the first child's id, so that rows keep a stable key
  tag: string;
  name: string;
  type: number | null; // null when the children differ
  status: number; // 1 when any child is enabled, else the children's common status (or 2)
  group: string; // union of the children's groups
  models: string; // union of the children's models
  used_quota: bigint;
  response_time: number; // average over the children
  priority: number | null; // null (blank) when the children differ
  weight: number | null;
  children: ChannelView[];
};

// What the filters, the order and the type counts read of every channel.
const LIST_COLUMNS = { id: true, name: true, base_url: true, tag: true, remark: true, group: true, models: true, type: true, status: true } as const;
type ListRow = Pick<Channel, keyof typeof LIST_COLUMNS>;

function matches(c: ListRow, f: ChannelFilter): boolean {
  if (f.keyword) {
    const k = f.keyword.toLowerCase();
    const hit =
      String(c.id) === f.keyword ||
      c.name.toLowerCase().includes(k) ||
      c.base_url.toLowerCase().includes(k) ||
      (c.tag ?? "").toLowerCase().includes(k) ||
      c.remark.toLowerCase().includes(k);
    if (!hit) return false;
  }
  if (f.group && !splitList(c.group).includes(f.group)) return false;
  if (f.model && !splitList(c.models).some((m) => m === f.model || m.toLowerCase().includes(f.model!.toLowerCase()))) return false;
  if (f.types?.length && !f.types.includes(c.type)) return false;
  if (f.statuses?.length && !f.statuses.includes(c.status)) return false;
  if (f.tags?.length && !(c.tag && f.tags.includes(c.tag))) return false;
  return true;
}

const common = <T>(values: T[]): T | null => (values.every((v) => v === values[0]) ? values[0] : null);

function aggregate(tag: string, children: Channel[]): TagRow {
  const groups: string[] = [];
  const models: string[] = [];
  for (const c of children) {
    for (const g of splitList(c.group)) if (!groups.includes(g)) groups.push(g);
    for (const m of splitList(c.models)) if (!models.includes(m)) models.push(m);
  }
  const statuses = children.map((c) => c.status);
  return {
    is_tag: true,
    id: children[0].id,
    tag,
    name: tag,
    type: common(children.map((c) => c.type)),
    status: statuses.includes(1) ? 1 : (common(statuses) ?? 2),
    group: groups.join(","),
    models: models.join(","),
    used_quota: children.reduce((s, c) => s + c.used_quota, 0n),
    response_time: Math.round(children.reduce((s, c) => s + c.response_time, 0) / children.length),
    priority: common(children.map((c) => c.priority)),
    weight: common(children.map((c) => c.weight)),
    children: children.map(channelView),
  };
}

export async function listChannels({
  input,
}: {
  ctx: UserCtx;
  input: {
    page: number;
    pageSize: number;
    idSort: boolean;
    tagMode: boolean;
    filter: ChannelFilter;
  };
}) {
  const rows = await db().channel.findMany({
    where: {
      ...(input.filter.types?.length ? { type: { in: input.filter.types } } : {}),
      ...(input.filter.statuses?.length ? { status: { in: input.filter.statuses } } : {}),
      ...(input.filter.tags?.length ? { tag: { in: input.filter.tags } } : {}),
    },
    orderBy: input.idSort ? [{ id: "desc" }] : [{ priority: "desc" }, { id: "desc" }],
    select: LIST_COLUMNS,
  });
  const filtered = rows.filter((c) => matches(c, input.filter));
  const typeCounts = dict<number>();
  for (const c of filtered) typeCounts[c.type] = (typeCounts[c.type] ?? 0) + 1;

  // The entries in order, each the ids of its channels: a tag row (tag mode) takes the place
  // of its first child, with all its children; an untagged channel is an entry of its own.
  let entries: { tag: string | null; ids: number[] }[];
  if (input.tagMode) {
    const byTag = new Map<string, { tag: string; ids: number[] }>();
    entries = [];
    for (const c of filtered) {
      if (!c.tag) entries.push({ tag: null, ids: [c.id] });
      else {
        const e = byTag.get(c.tag);
        if (e) e.ids.push(c.id);
        else {
          const first = { tag: c.tag, ids: [c.id] };
          byTag.set(c.tag, first);
          entries.push(first);
        }
      }
    }
  } else {
    entries = filtered.map((c) => ({ tag: null, ids: [c.id] }));
  }
  const start = (input.page - 1) * input.pageSize;
  const page = entries.slice(start, start + input.pageSize);
  const full = new Map((await db().channel.findMany({ where: { id: { in: page.flatMap((e) => e.ids) } } })).map((c) => [c.id, c]));
  return {
    // (a channel deleted between the two reads is left out)
    items: page.flatMap((e): Array<ChannelView | TagRow> => {
      const channels = e.ids.flatMap((id) => full.get(id) ?? []);
      if (!channels.length) return [];
      return [e.tag === null ? channelView(channels[0]) : aggregate(e.tag, channels)];
    }),
    total: entries.length,
    page: input.page,
    page_size: input.pageSize,
    type_counts: typeCounts,
  };
}

export async function getChannel({ input: id }: { ctx: UserCtx; input: number }): Promise<ChannelView> {
  const c = await db().channel.findUnique({ where: { id } });
  if (!c) throw new AppError("NOT_FOUND", "channel_not_found");
  return channelView(c);
}

export async function listTags({ input: { offset, limit } }: { ctx: UserCtx; input: { offset: number; limit: number } }): Promise<string[]> {
  const rows = await db().channel.findMany({
    where: { tag: { not: null } },
    distinct: ["tag"],
    select: { tag: true },
    orderBy: { tag: "asc" },
    skip: offset,
    take: limit,
  });
  return rows.map((r) => r.tag!).filter(Boolean);
}

// Every model named on any channel, as an OpenAI-style list (GET /api/channel/models).
export async function allChannelModels(_args: { ctx: UserCtx }) {
  const rows = await db().channel.findMany({ select: { models: true, type: true } });
  const seen = new Map<string, number>();
  for (const r of rows) for (const m of splitList(r.models)) if (!seen.has(m)) seen.set(m, r.type);
  return [...seen.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([id, type]) => ({ id, object: "model", owned_by: String(type), created: 0 }));
}
