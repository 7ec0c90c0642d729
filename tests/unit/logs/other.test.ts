import { afterEach, describe, expect, it } from "vitest";
import { applyOption } from "@/lib/options/store";
import { logOther } from "@/lib/logs/other";
import type { ResolvedPrice } from "@/lib/billing/pricing";

const price: ResolvedPrice = {
  model: "m",
  quotaType: 0,
  modelPrice: -1,
  modelRatio: 2,
  completionRatio: 3,
  cacheRatio: 0.5,
  createCacheRatio: 1.25,
  createCache1hRatio: 2,
  groupRatio: 1,
  source: "ratio",
};

afterEach(() => applyOption("LogChatContentEnabled", "false"));

describe("logOther", () => {
  it("writes ratios, mapping, cache figures and the channels tried", () => {
    const o = logOther({
      price,
      requestModel: "gpt-4",
      upstreamModel: "gpt-4-turbo",
      channelIds: [3, 7],
      cacheTokens: 10,
      frtMs: 420,
      inputContent: "secret prompt",
    });
    expect(o).toEqual({
      model_ratio: 2,
      model_price: -1,
      completion_ratio: 3,
      group_ratio: 1,
      cache_tokens: 10,
      cache_ratio: 0.5,
      is_model_mapped: true,
      upstream_model_name: "gpt-4-turbo",
      frt: 420,
      admin_info: { use_channel: ["3", "7"] },
    });
  });

  it("writes the prompt-cache writes, in all and by lifetime, with the ratios that priced them", () => {
    const o = logOther({ price, requestModel: "m", upstreamModel: "m", channelIds: [1], cacheCreationTokens: 300, cacheCreation1hTokens: 200 });
    expect(o).toMatchObject({
      cache_creation_tokens: 300,
      cache_creation_ratio: 1.25,
      cache_creation_tokens_5m: 100,
      cache_creation_ratio_5m: 1.25,
      cache_creation_tokens_1h: 200,
      cache_creation_ratio_1h: 2,
    });
    // writes of five minutes only: no 1-hour figures; no writes: none at all
    const five = logOther({ price, requestModel: "m", upstreamModel: "m", channelIds: [1], cacheCreationTokens: 40 });
    expect(five).toMatchObject({ cache_creation_tokens: 40, cache_creation_tokens_5m: 40 });
    expect(five).not.toHaveProperty("cache_creation_tokens_1h");
    expect(logOther({ price, requestModel: "m", upstreamModel: "m", channelIds: [1] })).not.toHaveProperty("cache_creation_tokens");
  });

  it("keeps chat content only when LogChatContentEnabled", () => {
    applyOption("LogChatContentEnabled", "true");
    const o = logOther({ price, requestModel: "m", upstreamModel: "m", channelIds: [1], inputContent: "hi", outputContent: "yo" });
    expect(o).toMatchObject({ input_content: "hi", output_content: "yo" });
    expect(o).not.toHaveProperty("is_model_mapped");
  });

  it("writes error_type and error_code together on a failure, the code empty when none was given", () => {
    const base = { price, requestModel: "m", upstreamModel: "m", channelIds: [1] };
    expect(logOther({ ...base, errorType: "upstream_error", statusCode: 502 })).toMatchObject({
      error_type: "upstream_error",
      error_code: "",
      status_code: 502,
    });
    expect(logOther({ ...base, errorType: "rate_limit", errorCode: "429" })).toMatchObject({ error_type: "rate_limit", error_code: "429" });
    expect(logOther(base)).not.toHaveProperty("error_code");
  });

  it("names the model that was priced only when redirect billing priced another one than model_name", () => {
    const base = { price, requestModel: "gpt-4o-mini", upstreamModel: "gpt-4o", channelIds: [1] };
    expect(logOther({ ...base, billedModel: "gpt-4o" })).toMatchObject({ billed_model: "gpt-4o", upstream_model_name: "gpt-4o" });
    expect(logOther({ ...base, billedModel: "gpt-4o-mini" })).not.toHaveProperty("billed_model");
    // a virtual model's own price is marked by virtual_priced, not billed_model
    expect(logOther({ ...base, billedModel: "smart", virtualModel: "smart", virtualPriced: true })).not.toHaveProperty("billed_model");
  });
});
