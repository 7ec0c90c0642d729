// The usage log's `other` JSON (docs/product-rules.md, "Prices, quota of a call, usage logs"), built in one place so that every relay
// path writes the same names. Absent figures are left out rather than written as zero.
// admin_info is stripped from the self view (lib/logs/query.ts).
import "server-only";
import { getBool } from "@/lib/options/store";

// The price figures the log records. Structural, so that logs do not import billing (billing
// writes logs); lib/billing/pricing.ts's ResolvedPrice fits it.
type LoggedPrice = {
  modelRatio: number;
  modelPrice: number;
  completionRatio: number;
  groupRatio: number;
  cacheRatio: number;
  createCacheRatio?: number;
  createCache1hRatio?: number;
};

/** Characters kept of each chat content field when LogChatContentEnabled (lib/relay/content-log.ts). */
export const MAX_LOGGED_CONTENT = 16_384;

export type LogOtherInput = {
  price: LoggedPrice;
  userGroupRatio?: number;
  cacheTokens?: number;
  cacheCreationTokens?: number; // every prompt-cache write
  cacheCreation1hTokens?: number; // the 1-hour writes among them
  audioInputTokens?: number;
  audioOutputTokens?: number;
  audioRatio?: number;
  audioCompletionRatio?: number;
  requestModel: string;
  upstreamModel: string;
  virtualModel?: string; // the virtual model the client named, when requestModel is one of its actual models
  virtualPriced?: boolean; // the virtual model's own price applied, not the served model's
  billedModel?: string; // the model whose price billed the call (redirect billing: the channel's upstream model)
  frtMs?: number; // first-token time of a stream, ms
  channelIds: number[]; // every channel tried, in order (retries)
  systemPrompt?: string;
  context?: unknown;
  inputContent?: string;
  outputContent?: string;
  errorType?: string;
  errorCode?: string;
  statusCode?: number;
  reasoningEffort?: string;
  claude?: boolean;
  retryCount?: number; // attempts after the first (written when > 0)
  audioSeconds?: number; // a transcription's duration
  usageEstimated?: boolean; // the upstream sent no usage: the tokens are our estimate
  usageBounded?: boolean; // a usage figure or the charge was cut to its per-call bound (lib/billing/bounds.ts)
};

export function logOther(i: LogOtherInput): Record<string, unknown> {
  const o: Record<string, unknown> = {
    model_ratio: i.price.modelRatio,
    model_price: i.price.modelPrice,
    completion_ratio: i.price.completionRatio,
    group_ratio: i.price.groupRatio,
  };
  const put = (k: string, v: unknown) => {
    if (v !== undefined && v !== null && v !== "") o[k] = v;
  };
  put("user_group_ratio", i.userGroupRatio);
  if (i.cacheTokens) {
    o.cache_tokens = i.cacheTokens;
    o.cache_ratio = i.price.cacheRatio;
  }
  // prompt-cache writes (docs/pricing.md, "Prompt-cache writes"): the total and the 5-minute
  // ratio, then each lifetime's tokens and ratio (new-api's names)
  if (i.cacheCreationTokens) {
    const hour = Math.min(i.cacheCreation1hTokens ?? 0, i.cacheCreationTokens);
    const five = i.cacheCreationTokens - hour;
    o.cache_creation_tokens = i.cacheCreationTokens;
    put("cache_creation_ratio", i.price.createCacheRatio);
    if (five > 0) {
      o.cache_creation_tokens_5m = five;
      put("cache_creation_ratio_5m", i.price.createCacheRatio);
    }
    if (hour > 0) {
      o.cache_creation_tokens_1h = hour;
      put("cache_creation_ratio_1h", i.price.createCache1hRatio);
    }
  }
  if (i.audioInputTokens || i.audioOutputTokens) {
    o.audio_input = i.audioInputTokens ?? 0;
    o.audio_output = i.audioOutputTokens ?? 0;
    put("audio_ratio", i.audioRatio);
    put("audio_completion_ratio", i.audioCompletionRatio);
  }
  if (i.upstreamModel && i.upstreamModel !== i.requestModel) {
    o.is_model_mapped = true;
    o.upstream_model_name = i.upstreamModel;
  }
  // a virtual model's call: model_name is the served actual model (docs/relay.md, "Virtual models")
  if (i.virtualModel) {
    o.virtual_model = i.virtualModel;
    if (i.virtualPriced) o.virtual_priced = true;
  }
  // redirect billing priced the model the channel sent upstream (docs/pricing.md, "Redirect
  // billing"); a virtual model's own price is marked by virtual_priced instead
  if (i.billedModel && i.billedModel !== i.requestModel && i.billedModel !== i.virtualModel) o.billed_model = i.billedModel;
  put("frt", i.frtMs);
  o.admin_info = { use_channel: i.channelIds.map(String) };
  // Chat content is kept only when the admin enabled it (docs/product-rules.md: users are told so).
  if (getBool("LogChatContentEnabled")) {
    put("system_prompt", i.systemPrompt);
    put("context", i.context);
    put("input_content", i.inputContent);
    put("output_content", i.outputContent);
  }
  // A failure writes both, error_code empty when the upstream gave none.
  if (i.errorType !== undefined) {
    o.error_type = i.errorType;
    o.error_code = i.errorCode ?? "";
  }
  put("status_code", i.statusCode);
  put("reasoning_effort", i.reasoningEffort);
  if (i.claude) o.claude = true;
  if (i.retryCount) o.retry_count = i.retryCount;
  put("audio_seconds", i.audioSeconds || undefined);
  if (i.usageEstimated) o.usage_estimated = true;
  if (i.usageBounded) o.usage_bounded = true;
  return o;
}
