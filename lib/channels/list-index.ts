// The console's channel list index (docs/channels-tokens-billing.md, "The channel list at
// scale"): every channel's list columns, in the two orders of the list, kept in memory. It is
// loaded whole on first use, then updated in place after each channel write: the writer (this
// node, or another one through Redis: lib/cache/invalidate.ts) names the channel ids it wrote,
// and the next read of the index reads those rows alone and puts them in their places. A
// write that names no ids (a repair, a message lost while Redis was away) makes the next read
// load the index whole again.
import "server-only";
import { db } from "@/lib/db/client";
import { onInvalidate } from "@/lib/cache/invalidate";
import { splitList } from "@/lib/channels/split-list";

// What the filters and the orders read of every channel; the text fields lower-cased once.
const LIST_COLUMNS = {
  id: true,
  name: true,
  base_url: true,
  tag: true,
  remark: true,
  group: true,
  models: true,
  type: true,
  status: true,
  priority: true,
} as const;

export type ListRow = {
  id: number;
  type: number;
  status: number;
  priority: number;
  tag: string | null;
  groups: string[];
  models: string[]; // lower case
  texts: string[]; // name, base URL, tag and remark, lower case
};
export type ListIndex = { byPriority: ListRow[]; byId: ListRow[] };

/** The written channels of one write: their ids, or "all" when they are not known. */
export type WrittenChannels = readonly number[] | "all";

/** Past this many ids a write is published as "all" (one message stays small). */
export const MAX_PUBLISHED_IDS = 1000;

type Selected = {
  id: number;
  name: string;
  base_url: string;
  tag: string | null;
  remark: string;
  group: string;
  models: string;
  type: number;
  status: number;
  priority: number;
};

const toRow = (c: Selected): ListRow => ({
  id: c.id,
  type: c.type,
  status: c.status,
  priority: c.priority,
  tag: c.tag,
  groups: splitList(c.group),
  models: splitList(c.models).map((m) => m.toLowerCase()),
  texts: [c.name, c.base_url, c.tag ?? "", c.remark].map((t) => t.toLowerCase()),
});

// The two orders of the list: id descending, and priority descending then id descending.
const byIdDesc = (a: ListRow, b: ListRow) => b.id - a.id;
const byPriorityDesc = (a: ListRow, b: ListRow) => b.priority - a.priority || b.id - a.id;

async function loadWhole(): Promise<ListIndex> {
  const byId = (await db().channel.findMany({ select: LIST_COLUMNS, orderBy: { id: "desc" } })).map(toRow);
  return { byId, byPriority: [...byId].sort(byPriorityDesc) };
}

// `sorted` without the rows of `ids`, with `rows` put in their places (both in `order`).
function merge(sorted: ListRow[], ids: Set<number>, rows: ListRow[], order: (a: ListRow, b: ListRow) => number): ListRow[] {
  const kept = sorted.filter((r) => !ids.has(r.id));
  if (!rows.length) return kept;
  const added = [...rows].sort(order);
  const out: ListRow[] = new Array<ListRow>(kept.length + added.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) out[k] = j >= added.length || (i < kept.length && order(kept[i], added[j]) <= 0) ? kept[i++] : added[j++];
  return out;
}

/** The index with the channels of `ids` read again (gone from the table: gone from the index). */
export async function patchIndex(li: ListIndex, ids: Set<number>): Promise<ListIndex> {
  const rows = (await db().channel.findMany({ select: LIST_COLUMNS, where: { id: { in: [...ids] } } })).map(toRow);
  return { byId: merge(li.byId, ids, rows, byIdDesc), byPriority: merge(li.byPriority, ids, rows, byPriorityDesc) };
}

// `current` is the index as of the writes seen before `pending` started to collect; each read
// chains the patch of what was collected since onto it, so patches apply in write order.
type Held = { current?: Promise<ListIndex>; pending: Set<number> | "all" };
const state = globalThis as unknown as { __gatewayChannelListIndex?: Held };
const held = (): Held => (state.__gatewayChannelListIndex ??= { pending: new Set() });

/** After a committed channel write (on this node, or another one): what to read again. */
export function channelsWritten(written: WrittenChannels): void {
  const h = held();
  if (!h.current) return; // nothing loaded: the first read loads the whole index
  if (written === "all" || h.pending === "all") h.pending = "all";
  else for (const id of written) h.pending.add(id);
}

/** The index, current as of every write reported before this call. */
export function listIndex(): Promise<ListIndex> {
  const h = held();
  const pending = h.pending;
  h.pending = new Set();
  let next: Promise<ListIndex>;
  if (!h.current || pending === "all") next = loadWhole();
  else if (!pending.size) return h.current;
  else next = h.current.then((li) => patchIndex(li, pending));
  h.current = next;
  // a failed load or patch is forgotten: the next read loads the whole index
  next.catch(() => {
    if (h.current === next) h.current = undefined;
  });
  return next;
}

/** The ids a channels message carries (lib/cache/invalidate.ts): "1,2,3", or none for all. */
export const encodeWritten = (written: WrittenChannels): string | undefined =>
  written === "all" || written.length > MAX_PUBLISHED_IDS ? undefined : written.join(",");

export function decodeWritten(id: string | undefined): WrittenChannels {
  if (id === undefined) return "all";
  const ids = id === "" ? [] : id.split(",").map(Number);
  return ids.every((n) => Number.isSafeInteger(n) && n > 0) ? ids : "all";
}

onInvalidate((topic, id) => (topic === "channels" ? channelsWritten(decodeWritten(id)) : undefined));
