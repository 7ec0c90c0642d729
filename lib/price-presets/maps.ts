// The price options (PRICE_MAP_KEYS) as maps: read from the options cache (saved rows over the
// defaults), and written back together (docs/pricing.md, "Fetch, reset and fill"): the
// changed options in one transaction, then this node's cache, then one invalidation message
// so that the other nodes reload their options.
import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { publishInvalidation } from "@/lib/cache/invalidate";
import { applyOption, getOption } from "@/lib/options/store";
import { modelsByType } from "@/lib/channels/channel-cache";
import { PRICE_MAP_KEYS, emptyMaps, parsePriceMap, type PriceMaps } from "@/lib/client/model-pricing";

export function currentMaps(): PriceMaps {
  const out = emptyMaps();
  for (const k of PRICE_MAP_KEYS) {
    const m = parsePriceMap(getOption(k));
    // saved values are validated (lib/options/validate.ts); never merge into a map that
    // does not read, it would be saved over
    if (!m) throw new AppError("INVALID_INPUT", "option_ratio_invalid", { key: k });
    out[k] = m;
  }
  return out;
}

/** Saves the maps that differ from the current options; returns the keys written. */
export async function saveMaps(maps: PriceMaps): Promise<string[]> {
  const changed = PRICE_MAP_KEYS.filter((k) => JSON.stringify(maps[k]) !== JSON.stringify(parsePriceMap(getOption(k))));
  if (changed.length === 0) return [];
  const values = changed.map((k) => ({ key: k, value: JSON.stringify(maps[k]) }));
  await db().$transaction(values.map(({ key, value }) => db().option.upsert({ where: { key }, create: { key, value }, update: { value } })));
  for (const { key, value } of values) applyOption(key, value);
  await publishInvalidation("options", changed[0]);
  return changed;
}

/** Every model configured on a channel, any status (as GET /api/models lists them). */
export async function servedModels(): Promise<string[]> {
  const byType = await modelsByType();
  return [...new Set(Object.values(byType).flat())];
}
