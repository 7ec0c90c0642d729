// Channel reads for the console: list and search (with optional tag aggregation), one
// channel, distinct tags. The filters, the order, the counts and the grouping by tag run in
// memory over an index of every channel's list columns (lib/channels/list-index.ts, updated
// in place from the channels each write names), so a request reads from the database only
// the rows of the page it answers (docs/channels-tokens-billing.md, "The channel list at
// scale").
import "server-only";
import type { Channel } from "@/generated/sqlite/client";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { listIndex, type ListRow } from "@/lib/channels/list-index";
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

function matcher(f: ChannelFilter): (c: ListRow) => boolean {
  const keyword = f.keyword?.toLowerCase();
  const model = f.model?.toLowerCase();
  return (c) =>
    (!keyword || String(c.id) === f.keyword || c.texts.some((t) => t.includes(keyword))) &&
    (!f.group || c.groups.includes(f.group)) &&
    (!model || c.models.some((m) => m.includes(model))) &&
    (!f.types?.length || f.types.includes(c.type)) &&
    (!f.statuses?.length || f.statuses.includes(c.status)) &&
    (!f.tags?.length || (c.tag !== null && f.tags.includes(c.tag)));
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
  const li = await listIndex();
  const filtered = (input.idSort ? li.byId : li.byPriority).filter(matcher(input.filter));
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
