// Virtual models (docs/relay.md, "Virtual models"): the option model_mapping names models
// that no channel serves itself; a call for one is served by its actual models in turn,
// highest priority first.
//
// The relay asks actualModelsOf(model) on every call, so that a model that is not virtual
// costs one Map lookup: the mapping is compiled once per change of the option's text (any
// node's save reaches this one through lib/options/store.ts, which calls the listener below)
// and not read again until then.
import "server-only";
import { AppError } from "@/lib/errors";
import { hasOwnPrice, resolvePrice, type ResolvedPrice } from "@/lib/billing/pricing";
import { channelIndex, routeKey } from "@/lib/channels/channel-cache";
import { orderActualModels, type MappingEntry } from "@/lib/model-mapping/schema";
import { getOption, onOptionsApplied } from "@/lib/options/store";

type Compiled = { raw: string; chains: Map<string, readonly string[]> };

// The relay's reading of a stored mapping: tolerant, since the text may have been written
// outside the console (a row edited by hand). Entries without a model name are dropped, a
// priority that is not a number counts as 0, a model named twice keeps its first place, a
// virtual model never lists itself, and one left with no actual model is no virtual model.
// Actual models are not expanded again: a virtual model listed as an actual one is looked up
// as a plain model.
export function compileMapping(raw: string): Map<string, readonly string[]> {
  const chains = new Map<string, readonly string[]>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return chains;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return chains;
  for (const [rawName, list] of Object.entries(parsed as Record<string, unknown>)) {
    const name = rawName.trim();
    if (!name || !Array.isArray(list)) continue;
    const entries: MappingEntry[] = [];
    for (const e of list as unknown[]) {
      const m = e && typeof e === "object" ? (e as Record<string, unknown>) : null;
      const model = typeof m?.model === "string" ? m.model.trim() : "";
      if (!model || model === name) continue;
      const p = m!.priorities;
      entries.push({ model, priorities: typeof p === "number" && Number.isFinite(p) ? p : 0 });
    }
    const ordered = [...new Set(orderActualModels(entries))];
    if (ordered.length) chains.set(name, ordered);
  }
  return chains;
}

let compiled: Compiled | null = null;

function compile(): Compiled {
  const raw = getOption("model_mapping");
  return (compiled = { raw, chains: compileMapping(raw) });
}

// Any option applied on this node (a save here, or a reload after another node's message):
// the compiled mapping is dropped when its text changed.
onOptionsApplied(() => {
  if (compiled && compiled.raw !== getOption("model_mapping")) compiled = null;
});

/** The actual models of a virtual model, in the order they are tried; undefined for any other model. */
export function actualModelsOf(model: string): readonly string[] | undefined {
  return (compiled ?? compile()).chains.get(model);
}

/** Every virtual model with its actual models. */
export function virtualModels(): ReadonlyMap<string, readonly string[]> {
  return (compiled ?? compile()).chains;
}

/**
 * A model list (the models served in some groups) with the virtual models that at least one
 * of its models serves added, sorted: GET /v1/models and the console's GET /api/user/models
 * (the playground and the token model-limit picker). A read model, not a verb.
 */
export function withVirtualModels(served: string[]): string[] {
  const set = new Set(served);
  const out = served.slice();
  for (const [name, actual] of virtualModels()) if (!set.has(name) && actual.some((m) => set.has(m))) out.push(name);
  return out.sort();
}

export type ChainLink = { model: string; price: ResolvedPrice };

// The actual models that can serve this call, in order, each with the price it is billed at:
// the virtual model's own price when it has one (ModelPrice or ModelRatio), else the actual
// model's. An actual model that no enabled channel of the group serves is skipped, and so is
// one whose price cannot be resolved (unset, not accepted); with none left, the first such
// refusal is the answer (the price's 400), else "no channel" for the virtual model. A call
// pinned to a channel (sk-<key>-<id>) keeps one link: the first actual model that channel
// lists, else the first of the chain.
export async function planChain(input: {
  virtual: string;
  actual: readonly string[];
  group: string;
  userSetting: string;
  pinnedChannelId: number | null;
}): Promise<ChainLink[]> {
  const idx = await channelIndex();
  const own = hasOwnPrice(input.virtual) ? resolvePrice({ model: input.virtual, group: input.group, userSetting: input.userSetting }) : null;
  const links: ChainLink[] = [];
  let refusal: unknown = null;
  for (const model of input.actual) {
    if (!idx.routes.has(routeKey(input.group, model))) continue;
    let price = own;
    if (!price) {
      try {
        price = resolvePrice({ model, group: input.group, userSetting: input.userSetting });
      } catch (err) {
        refusal ??= err;
        continue;
      }
    }
    links.push({ model, price });
  }
  if (!links.length) throw refusal ?? new AppError("NO_CHANNEL", "no_channel_available", { group: input.group, model: input.virtual });
  if (input.pinnedChannelId === null) return links;
  const listed = idx.channels.get(input.pinnedChannelId)?.models;
  return [links.find((l) => listed?.includes(l.model)) ?? links[0]];
}
