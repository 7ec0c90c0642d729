// Price resolution and the quota of a call (docs/product-rules.md, "Prices, quota of a call, usage logs"). Reads the
// options cache only. 500000 quota units = 1 USD (QuotaPerUnit).
//
//   per call   (ModelPrice set):  quota = round(modelPrice × groupRatio × QuotaPerUnit)
//   per token  (ModelRatio set):  quota = round(groupRatio × modelRatio ×
//                                   (prompt − cached − written + cached × cacheRatio
//                                    + written5m × createCacheRatio + written1h × createCache1hRatio
//                                    + completion × completionRatio))
//
// prompt counts the cached prompt tokens (as OpenAI reports them) and the tokens written to the
// prompt cache (written = written5m + written1h, Anthropic's and Bedrock's cache writes), which
// are billed at cacheRatio, CreateCacheRatio and CreateCache1hRatio instead of 1; a model
// missing from one of these maps bills those tokens as plain input (docs/pricing.md,
// "Prompt-cache writes"). ModelPrice wins over ModelRatio. A model with neither is, in
// order: priced by fallback pricing when that is enabled and valid; free in self-use mode;
// billed at new-api's default ratio 37.5 when the user accepts unset-ratio models
// (setting accept_unset_model_ratio_model); otherwise refused.
import "server-only";
import { AppError } from "@/lib/errors";
import { getBool, getJson, getNumber, getOption } from "@/lib/options/store";
import type { OptionKey } from "@/lib/options/registry";
import { groupRatio as ratioOfGroup } from "@/lib/billing/groups";
import { ChargeError, checkedQuota } from "@/lib/billing/bounds";

export const DEFAULT_UNSET_MODEL_RATIO = 37.5;

export type PriceSource = "price" | "ratio" | "fallback_price" | "fallback_ratio" | "self_use" | "accept_unset";

export type ResolvedPrice = {
  model: string;
  quotaType: 0 | 1; // 0 by usage volume, 1 per call
  modelPrice: number; // USD per call (quotaType 1), else -1
  modelRatio: number;
  completionRatio: number;
  cacheRatio: number;
  createCacheRatio: number; // prompt-cache writes of five minutes (and of an unstated lifetime)
  createCache1hRatio: number; // prompt-cache writes of one hour
  groupRatio: number;
  source: PriceSource;
};

// cacheCreationTokens: every prompt-cache write; cacheCreation1hTokens: those of one hour among them.
export type Usage = { promptTokens: number; completionTokens: number; cachedTokens?: number; cacheCreationTokens?: number; cacheCreation1hTokens?: number };

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

function userAcceptsUnset(setting: string | Record<string, unknown> | undefined): boolean {
  if (!setting) return false;
  try {
    const s = typeof setting === "string" ? (JSON.parse(setting) as Record<string, unknown>) : setting;
    return s?.accept_unset_model_ratio_model === true;
  } catch {
    return false;
  }
}

// Fallback pricing is valid as a single price alone, or as both ratios without a price.
export function fallbackPricing(): { price: number } | { input: number; completion: number } | null {
  if (!getBool("fallback_pricing_enabled")) return null;
  const raw = (k: OptionKey) => getOption(k).trim();
  const price = raw("fallback_single_price"),
    input = raw("fallback_input_ratio"),
    completion = raw("fallback_completion_ratio");
  if (price && !input && !completion && finite(Number(price))) return { price: Number(price) };
  if (!price && input && completion && finite(Number(input)) && finite(Number(completion))) {
    return { input: Number(input), completion: Number(completion) };
  }
  return null;
}

function perCall(price: ResolvedPrice, modelPrice: number, source: PriceSource): ResolvedPrice {
  price.quotaType = 1;
  price.modelPrice = modelPrice;
  price.source = source;
  return price;
}

function perToken(price: ResolvedPrice, modelRatio: number, source: PriceSource): ResolvedPrice {
  price.modelRatio = modelRatio;
  price.source = source;
  return price;
}

// Whether the model has a price of its own (ModelPrice or ModelRatio), not one of the
// stand-ins below: a virtual model priced this way is billed at its own price whatever
// actual model serves it (docs/relay.md, "Virtual models").
export function hasOwnPrice(model: string): boolean {
  return finite(getJson<Record<string, number>>("ModelPrice", {})[model]) || finite(getJson<Record<string, number>>("ModelRatio", {})[model]);
}

// group: the group the call is billed in (the token's group, else the user's group).
export function resolvePrice(input: { model: string; group: string; userSetting?: string | Record<string, unknown> }): ResolvedPrice {
  const { model } = input;
  const prices = getJson<Record<string, number>>("ModelPrice", {});
  const ratios = getJson<Record<string, number>>("ModelRatio", {});
  const completion = getJson<Record<string, number>>("CompletionRatio", {});
  const cache = getJson<Record<string, number>>("CacheRatio", {});
  const create = getJson<Record<string, number>>("CreateCacheRatio", {});
  const create1h = getJson<Record<string, number>>("CreateCache1hRatio", {});
  // One literal with every field, then the source's figures: an object literal that starts
  // with a spread gets a hidden class of its own on each call on Node 20 (docs/relay.md).
  const price: ResolvedPrice = {
    model,
    quotaType: 0,
    modelPrice: -1,
    modelRatio: 0,
    completionRatio: finite(completion[model]) ? completion[model] : 1,
    cacheRatio: finite(cache[model]) ? cache[model] : 1,
    createCacheRatio: finite(create[model]) ? create[model] : 1,
    createCache1hRatio: finite(create1h[model]) ? create1h[model] : 1,
    groupRatio: ratioOfGroup(input.group),
    source: "ratio",
  };
  if (finite(prices[model])) return perCall(price, prices[model], "price");
  if (finite(ratios[model])) return perToken(price, ratios[model], "ratio");
  const fb = fallbackPricing();
  if (fb && "price" in fb) return perCall(price, fb.price, "fallback_price");
  if (fb) {
    price.completionRatio = fb.completion;
    return perToken(price, fb.input, "fallback_ratio");
  }
  if (getBool("SelfUseModeEnabled")) return perToken(price, 0, "self_use");
  if (userAcceptsUnset(input.userSetting)) return perToken(price, DEFAULT_UNSET_MODEL_RATIO, "accept_unset");
  throw new AppError("RULE", "model_price_not_set", { model });
}

// Redirect billing (docs/pricing.md, "Redirect billing"; option redirect_billing_enabled): the
// price of an attempt on a channel whose own model_mapping sends `upstream` instead of the
// served model. Off (the default), or for a channel that maps nothing, the served model's
// price stands. On, the call is billed at the upstream model's own price (ModelPrice or
// ModelRatio under that name, in the same group), and at the served model's price when the
// upstream model has none (fallback pricing, self-use mode and an accepted unset ratio are no
// price of its own). A virtual model's own price (price.model is the virtual name, not the
// served one) is a fixed product price and stays (docs/relay.md, "Virtual models"). The caller
// reads the option, once per call (docs/conventions.md).
export function redirectedPrice(price: ResolvedPrice, served: string, upstream: string, group: string, enabled: boolean): ResolvedPrice {
  if (!enabled || upstream === served || price.model !== served || !hasOwnPrice(upstream)) return price;
  return resolvePrice({ model: upstream, group });
}

export const REDIRECT_BILLING_OPTION = "redirect_billing_enabled";

export const quotaPerUnit = () => getNumber("QuotaPerUnit", 500000) || 500000;

function nonNegativeInt(n: number, name: string): number {
  if (!Number.isFinite(n) || n < 0) throw new ChargeError(`${name} must be a non-negative number`);
  return Math.floor(n);
}

// The exact quota of a finished call. A token-priced call that used tokens at a non-zero
// price costs at least 1 unit (rounding never makes a paid call free). The figure is checked
// (lib/billing/bounds.ts): never above MAX_CALL_QUOTA, and a ChargeError rather than
// Infinity, NaN or a bigint that lost precision.
export function quotaFor(price: ResolvedPrice, usage: Usage): bigint {
  if (price.quotaType === 1) return checkedQuota(price.modelPrice * price.groupRatio * quotaPerUnit());
  const prompt = nonNegativeInt(usage.promptTokens, "promptTokens");
  const completionTokens = nonNegativeInt(usage.completionTokens, "completionTokens");
  const cached = Math.min(prompt, nonNegativeInt(usage.cachedTokens ?? 0, "cachedTokens"));
  // the writes are part of the prompt beside the reads, the 1-hour ones part of the writes
  const written = Math.min(prompt - cached, nonNegativeInt(usage.cacheCreationTokens ?? 0, "cacheCreationTokens"));
  const written1h = Math.min(written, nonNegativeInt(usage.cacheCreation1hTokens ?? 0, "cacheCreation1hTokens"));
  const weighted =
    prompt -
    cached -
    written +
    cached * price.cacheRatio +
    (written - written1h) * price.createCacheRatio +
    written1h * price.createCache1hRatio +
    completionTokens * price.completionRatio;
  const q = checkedQuota(price.groupRatio * price.modelRatio * weighted);
  if (q <= 0n) return price.groupRatio > 0 && price.modelRatio > 0 && prompt + completionTokens > 0 ? 1n : 0n;
  return q;
}

// The amount to reserve before the upstream call: the per-call price, or the prompt plus
// the requested completion budget (max_tokens) at the model's ratios. When the client gives
// no budget, PreConsumedQuota tokens stand in for the completion.
export function estimateQuota(price: ResolvedPrice, input: { promptTokens: number; maxTokens?: number }): bigint {
  if (price.quotaType === 1) return quotaFor(price, { promptTokens: 0, completionTokens: 0 });
  const completion = input.maxTokens && input.maxTokens > 0 ? input.maxTokens : getNumber("PreConsumedQuota", 500);
  return quotaFor(price, { promptTokens: input.promptTokens, completionTokens: completion });
}
