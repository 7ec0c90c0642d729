// The routing cache: every channel (key decrypted once, at load) and the enabled abilities
// indexed by (group, model), sorted by priority. A multi-key channel brings its enabled keys
// (docs/channels-tokens-billing.md, "Multi-key channels"); one with none left is not routed to. The relay reads only this; it is dropped
// after every channel write on this node and, through Redis, on the others.
import "server-only";
import { logger } from "@/lib/logger";
import { open } from "@/lib/auth/secret-box";
import { onInvalidate } from "@/lib/cache/invalidate";
import { CHANNEL_TYPES } from "@/lib/channels/channel-types";
import { db } from "@/lib/db/client";
import { isResponsesOnly } from "@/lib/channels/responses-only";
import { keyStatus, parseChannelInfo, type MultiKeyMode } from "@/lib/channels/multi-key-rules";
import { CHANNEL_STATUS, KEY_STATUS } from "@/lib/statuses";

const log = logger("channels");

export type CachedChannel = {
  id: number;
  type: number;
  name: string;
  status: number;
  base_url: string;
  /** decrypted upstream credential: never leaves the relay (a multi-key channel: its first enabled key, "" when none) */
  key: string;
  /** a multi-key channel: its enabled keys with their index (line), and how the relay picks one (lib/relay/select.ts) */
  keys?: { index: number; key: string }[];
  multi_key_mode?: MultiKeyMode;
  other: string;
  setting: string;
  /** the setting `responses_only`, read once here (lib/channels/responses-only.ts) */
  responses_only: boolean;
  auto_ban: number;
  group: string;
  models: string[];
  priority: number;
  weight: number;
  tag: string | null;
  model_mapping: Record<string, string>;
};

export type Candidate = { channelId: number; priority: number; weight: number };

export type ChannelIndex = {
  channels: Map<number, CachedChannel>;
  // key: group + "\u0000" + model; candidates sorted by priority, highest first
  routes: Map<string, Candidate[]>;
  loadedAt: number;
};

export const routeKey = (group: string, model: string) => `${group}\u0000${model}`;

// A prototype-less map: a "__proto__" key of the channel's JSON is kept as a plain entry
// instead of being swallowed by the prototype setter (mapModel reads own keys only).
export function parseModelMapping(text: string): Record<string, string> {
  if (!text.trim()) return Object.create(null) as Record<string, string>;
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    const out = Object.create(null) as Record<string, string>;
    for (const [k, val] of Object.entries(v ?? {})) if (typeof val === "string" && val) out[k] = val;
    return out;
  } catch {
    return Object.create(null) as Record<string, string>;
  }
}

function decrypt(sealed: string, id: number): string {
  if (!sealed) return "";
  try {
    return open(sealed);
  } catch {
    log.error({ channelId: id }, "the key of a channel cannot be decrypted (ENCRYPTION_KEY changed?)");
    return "";
  }
}

export async function loadChannelIndex(): Promise<ChannelIndex> {
  const [rows, abilities] = await Promise.all([db().channel.findMany(), db().ability.findMany({ where: { enabled: true } })]);
  const channels = new Map<number, CachedChannel>();
  for (const c of rows) {
    let key = decrypt(c.key, c.id);
    let keys: CachedChannel["keys"];
    const info = c.channel_info ? parseChannelInfo(c.channel_info) : null;
    if (info?.is_multi_key) {
      keys = [];
      const lines = key ? key.split("\n") : [];
      for (let i = 0; i < lines.length; i++) if (lines[i] && keyStatus(info, i) === KEY_STATUS.enabled) keys.push({ index: i, key: lines[i] });
      key = keys[0]?.key ?? "";
    }
    channels.set(c.id, {
      id: c.id,
      type: c.type,
      name: c.name,
      status: c.status,
      base_url: c.base_url,
      key,
      ...(keys ? { keys, multi_key_mode: info!.multi_key_mode } : {}),
      other: c.other,
      setting: c.setting,
      responses_only: isResponsesOnly(c.setting),
      auto_ban: c.auto_ban,
      group: c.group,
      models: c.models
        .split(",")
        .map((m) => m.trim())
        .filter(Boolean),
      priority: c.priority,
      weight: c.weight,
      tag: c.tag,
      model_mapping: parseModelMapping(c.model_mapping),
    });
  }
  const routes = new Map<string, Candidate[]>();
  for (const a of abilities) {
    const ch = channels.get(a.channel_id);
    if (!ch || ch.status !== CHANNEL_STATUS.enabled || (ch.keys && !ch.keys.length)) continue;
    const k = routeKey(a.group, a.model);
    let list = routes.get(k);
    if (!list) routes.set(k, (list = []));
    list.push({ channelId: a.channel_id, priority: a.priority, weight: a.weight });
  }
  for (const list of routes.values()) list.sort((x, y) => y.priority - x.priority || x.channelId - y.channelId);
  return { channels, routes, loadedAt: Date.now() };
}

const state = globalThis as unknown as { __gatewayChannelIndex?: { current?: Promise<ChannelIndex>; generation: number } };
const holder = () => (state.__gatewayChannelIndex ??= { generation: 0 });

// The current index; loads it on first use or after an invalidation.
export function channelIndex(): Promise<ChannelIndex> {
  const h = holder();
  if (!h.current) {
    const gen = h.generation;
    const p = loadChannelIndex();
    h.current = p;
    p.catch(() => {
      if (h.generation === gen && h.current === p) h.current = undefined;
    });
  }
  return h.current;
}

export function invalidateChannelCache(): void {
  const h = holder();
  h.generation++;
  h.current = undefined;
}

onInvalidate((topic) => (topic === "channels" ? invalidateChannelCache() : undefined));

// Model lists served from the cache.
export async function enabledModels(groups?: string[]): Promise<string[]> {
  const idx = await channelIndex();
  const set = new Set<string>();
  for (const k of idx.routes.keys()) {
    const [group, model] = k.split("\u0000");
    if (!groups || groups.includes(group)) set.add(model);
  }
  return [...set].sort();
}

// model -> groups in which at least one enabled channel serves it
export async function modelGroups(): Promise<Map<string, string[]>> {
  const idx = await channelIndex();
  const out = new Map<string, string[]>();
  for (const k of idx.routes.keys()) {
    const [group, model] = k.split("\u0000");
    const list = out.get(model) ?? [];
    if (!list.includes(group)) list.push(group);
    out.set(model, list);
  }
  return out;
}

// channel type -> models configured on channels of that type (all statuses)
export async function modelsByType(): Promise<Record<number, string[]>> {
  const idx = await channelIndex();
  // Every known type is a key (new-api answers the same map), plus any stored unknown type.
  const out: Record<number, string[]> = Object.fromEntries(CHANNEL_TYPES.map((t) => [t.id, [] as string[]]));
  for (const c of idx.channels.values()) {
    const list = (out[c.type] ??= []);
    for (const m of c.models) if (!list.includes(m)) list.push(m);
  }
  for (const list of Object.values(out)) list.sort();
  return out;
}
