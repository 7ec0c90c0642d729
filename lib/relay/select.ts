// Channel choice for one relay attempt: the enabled channels of the group that serve the
// model, highest priority tier first, weighted random inside a tier, skipping channels
// already tried (retries pass them in exclude) and walking down tiers when one is used up.
// On a multi-key channel the attempt's key is picked here too, among the enabled keys, at
// random or in turn (docs/channels-tokens-billing.md, "Multi-key channels"): `key` is always
// the key of this attempt, so the adapters know nothing of multi-key channels.
import "server-only";
import { AppError } from "@/lib/errors";
import { channelIndex, routeKey, type Candidate, type CachedChannel } from "@/lib/channels/channel-cache";
import { adapterFor } from "@/lib/relay/providers/registry";
import { CHANNEL_STATUS } from "@/lib/statuses";

export type SelectedChannel = {
  id: number;
  type: number;
  name: string;
  base_url: string;
  key: string;
  /** a multi-key channel: the index (line) of `key` among the channel's keys */
  keyIndex?: number;
  other: string;
  upstreamModel: string;
  setting: string;
  responsesOnly: boolean;
  auto_ban: number;
  group: string;
  priority: number;
};

// Pure choice over sorted candidates (priority descending). Inside the highest tier that
// still has a candidate not excluded, picks with probability weight/sum; weight-0
// candidates are chosen (uniformly) only when every remaining weight of the tier is 0.
export function pickCandidate(candidates: Candidate[], exclude: Set<number>, random: () => number = Math.random): Candidate | null {
  let i = 0;
  while (i < candidates.length) {
    const priority = candidates[i].priority;
    let j = i;
    while (j < candidates.length && candidates[j].priority === priority) j++;
    const tier = candidates.slice(i, j).filter((c) => !exclude.has(c.channelId));
    if (tier.length) {
      const total = tier.reduce((s, c) => s + Math.max(0, c.weight), 0);
      if (total === 0) return tier[Math.min(tier.length - 1, Math.floor(random() * tier.length))];
      let r = random() * total;
      for (const c of tier) {
        const w = Math.max(0, c.weight);
        if (w === 0) continue;
        if (r < w) return c;
        r -= w;
      }
      // floating-point edge: the last positive-weight candidate
      return [...tier].reverse().find((c) => c.weight > 0)!;
    }
    i = j;
  }
  return null;
}

// Own keys only: a requested model named "constructor", "toString" or "__proto__" must not
// read what every object inherits (it would send a function or an object upstream).
export function mapModel(channel: Pick<CachedChannel, "model_mapping">, model: string): string {
  const m = channel.model_mapping;
  return (Object.hasOwn(m, model) && m[model]) || model;
}

// Round-robin cursors of the channels in "polling" mode: per node, in memory.
const cursors = new Map<number, number>();

/** A multi-key channel's key for one attempt, among its enabled keys not in `skip`; null when none is left. */
export function pickKey(c: Pick<CachedChannel, "id" | "keys" | "multi_key_mode">, skip?: Set<number>, random: () => number = Math.random) {
  const all = c.keys ?? [];
  const pool = skip?.size ? all.filter((k) => !skip.has(k.index)) : all;
  if (!pool.length) return null;
  if (c.multi_key_mode !== "polling") return pool[Math.min(pool.length - 1, Math.floor(random() * pool.length))];
  const n = cursors.get(c.id) ?? 0;
  cursors.set(c.id, (n + 1) % 1_000_000_007);
  return pool[n % pool.length];
}

function view(c: CachedChannel, group: string, model: string, priority: number, skipKeys?: Set<number>): SelectedChannel | null {
  let key = c.key;
  let keyIndex: number | undefined;
  if (c.keys) {
    const k = pickKey(c, skipKeys);
    if (!k) return null;
    key = k.key;
    keyIndex = k.index;
  }
  return {
    id: c.id,
    type: c.type,
    name: c.name,
    base_url: c.base_url,
    key,
    keyIndex,
    other: c.other,
    upstreamModel: mapModel(c, model),
    setting: c.setting,
    responsesOnly: c.responses_only && adapterFor(c.type)?.profile.responsesOnlyOption === true,
    auto_ban: c.auto_ban,
    group,
    priority,
  };
}

// serves: a channel type filter for calls some wires cannot serve (embeddings); channels it
// refuses are passed over as if excluded, so they cost no attempt.
export async function selectChannel(input: {
  group: string;
  model: string;
  exclude?: Set<number>;
  serves?: (type: number) => boolean;
}): Promise<SelectedChannel | null> {
  const idx = await channelIndex();
  const candidates = idx.routes.get(routeKey(input.group, input.model));
  if (!candidates?.length) return null;
  let exclude = input.exclude ?? new Set<number>();
  for (;;) {
    const picked = pickCandidate(candidates, exclude);
    if (!picked) return null;
    const c = idx.channels.get(picked.channelId);
    if (!c) return null;
    if (!input.serves || input.serves(c.type)) {
      const v = view(c, input.group, input.model, picked.priority);
      if (v) return v;
    }
    if (exclude === input.exclude) exclude = new Set(exclude); // the caller's set records real attempts only
    exclude.add(c.id);
  }
}

// An admin key of the form sk-<key>-<channelId> pins the call to one channel, which must
// exist and be enabled; the model is still mapped through the channel's model_mapping.
export async function pinnedChannel(channelId: number, model: string, group: string): Promise<SelectedChannel> {
  const idx = await channelIndex();
  const c = idx.channels.get(channelId);
  if (!c) throw new AppError("NO_CHANNEL", "channel_not_found");
  if (c.status !== CHANNEL_STATUS.enabled) throw new AppError("NO_CHANNEL", "channel_disabled");
  const v = view(c, group, model, c.priority);
  if (!v) throw new AppError("NO_CHANNEL", "channel_disabled");
  return v;
}

/**
 * The same channel with another of its keys, for a call whose key the upstream refused
 * (lib/relay/handler.ts): an enabled key not in `tried`, read from the current cache (so a
 * key the relay just disabled is not picked again). Null for a single-key channel, a channel
 * no longer enabled, or when every key was tried.
 */
export async function anotherKey(ch: SelectedChannel, tried: Set<number>): Promise<SelectedChannel | null> {
  if (ch.keyIndex === undefined) return null;
  const c = (await channelIndex()).channels.get(ch.id);
  if (!c || c.status !== CHANNEL_STATUS.enabled || !c.keys) return null;
  const k = pickKey(c, tried);
  return k ? Object.assign({}, ch, { key: k.key, keyIndex: k.index }) : null;
}
