import type { OptionKey } from "@/lib/options/registry";
import { describe, expect, it } from "vitest";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";
import { validateOption } from "@/lib/options/validate";

const defaults = (k: OptionKey) => OPTION_DEFAULTS[k];
const v = (key: OptionKey, value: string, current: (k: OptionKey) => string = defaults) => validateOption(key, value, current);

describe("validateOption", () => {
  it("accepts every default value", () => {
    // payment settings need the server address first
    const withAddress = (k: OptionKey) => (k === "ServerAddress" ? "https://gw.example.com" : defaults(k));
    for (const [key, value] of Object.entries(OPTION_DEFAULTS) as Array<[OptionKey, string]>) {
      const r = v(key, value, withAddress);
      // ModelRequestRateLimitCount defaults to -1 (docs/product-rules.md) but an admin may only set >= 0.
      if (key === "ModelRequestRateLimitCount") continue;
      expect(r.ok, `${key}=${value}`).toBe(true);
    }
  });
  it("checks booleans, JSON, ranges and lists", () => {
    expect(v("CheckInEnabled", "1").ok).toBe(false);
    expect(v("CheckInEnabled", "true").ok).toBe(true);
    expect(v("ModelPrice", "[]").ok).toBe(false);
    expect(v("ModelPrice", '{"gpt": 0.1}').ok).toBe(true);
    expect(v("gemini.supported_imagine_models", "{}").ok).toBe(false);
    expect(v("RebatePercentage", "100.5").ok).toBe(false);
    expect(v("RebatePercentage", "55.5").ok).toBe(true);
    expect(v("LinuxDOMinimumTrustLevel", "-1").ok).toBe(false);
    expect(v("DataExportDefaultTime", "day").ok).toBe(true);
    expect(v("QuotaForNewUser", "").ok).toBe(false);
  });
  it("keeps quota amounts within the safe integers (64-bit columns, JSON numbers)", () => {
    for (const key of [
      "QuotaForNewUser",
      "QuotaForInviter",
      "QuotaForInvitee",
      "QuotaRemindThreshold",
      "PreConsumedQuota",
      "CheckInQuota",
      "CheckInMaxQuota",
    ] as const) {
      expect(v(key, "1e20"), key).toEqual({ ok: false, key: "option_out_of_range", params: { key, min: 0, max: Number.MAX_SAFE_INTEGER } });
      expect(v(key, String(Number.MAX_SAFE_INTEGER)).ok, key).toBe(true);
    }
  });
  it("trims trailing slashes from addresses", () => {
    const withAddress = (k: OptionKey) => (k === "ServerAddress" ? "https://gw.example.com" : defaults(k));
    expect(v("PayAddress", "https://pay.example.com/", withAddress)).toEqual({ ok: true, value: "https://pay.example.com" });
    expect(v("WorkerUrl", "")).toEqual({ ok: true, value: "" });
    expect(v("ServerAddress", "not a url").ok).toBe(false);
  });
  it("applies the fallback pricing combination rule", () => {
    const state = (s: Record<string, string>) => (k: OptionKey) => s[k] ?? defaults(k);
    expect(v("fallback_pricing_enabled", "true").ok).toBe(false);
    expect(v("fallback_pricing_enabled", "true", state({ fallback_single_price: "1" })).ok).toBe(true);
    expect(v("fallback_pricing_enabled", "true", state({ fallback_input_ratio: "1" })).ok).toBe(false);
    expect(v("fallback_pricing_enabled", "true", state({ fallback_input_ratio: "1", fallback_completion_ratio: "2" })).ok).toBe(true);
    expect(v("fallback_pricing_enabled", "true", state({ fallback_single_price: "1", fallback_input_ratio: "1", fallback_completion_ratio: "2" })).ok).toBe(
      false,
    );
    const on = state({ fallback_pricing_enabled: "true", fallback_single_price: "1" });
    expect(v("fallback_input_ratio", "2", on).ok).toBe(false);
    // every incomplete enabled state is refused, clearing included (billing would ignore it)
    expect(v("fallback_single_price", "", on)).toEqual({ ok: false, key: "fallback_pricing_combination" });
    const ratios = state({ fallback_pricing_enabled: "true", fallback_input_ratio: "1", fallback_completion_ratio: "2" });
    expect(v("fallback_completion_ratio", "", ratios)).toEqual({ ok: false, key: "fallback_pricing_combination" });
    expect(v("fallback_completion_ratio", "3", ratios).ok).toBe(true);
    expect(v("fallback_single_price", "", state({ fallback_single_price: "1" })).ok).toBe(true);
    expect(v("fallback_single_price", "-3").ok).toBe(false);
    // while disabled, values may be set in any order
    expect(v("fallback_input_ratio", "2", state({ fallback_single_price: "1" })).ok).toBe(true);
  });
  it("reads ChannelDisableThreshold as whole seconds (at least 1), caps RetryTimes at 10, checks the retry statuses", () => {
    expect(v("ChannelDisableThreshold", OPTION_DEFAULTS.ChannelDisableThreshold).ok).toBe(true);
    expect(v("ChannelDisableThreshold", "0").ok).toBe(false);
    expect(v("ChannelDisableThreshold", "2.5")).toEqual({ ok: false, key: "option_not_integer", params: { key: "ChannelDisableThreshold" } });
    expect(v("ChannelDisableThreshold", "1").ok).toBe(true);
    expect(v("RetryTimes", "10").ok).toBe(true);
    expect(v("RetryTimes", "11")).toEqual({ ok: false, key: "option_out_of_range", params: { key: "RetryTimes", min: 0, max: 10 } });
    expect(v("global.auto_retry_status_codes", OPTION_DEFAULTS["global.auto_retry_status_codes"]).ok).toBe(true);
    expect(v("global.auto_retry_status_codes", " 5XX, 429 ,")).toEqual({ ok: true, value: "5xx,429" });
    expect(v("global.auto_retry_status_codes", "")).toEqual({ ok: true, value: "" });
    for (const bad of ["5x", "600", "4xx;429", "abc", "5xx,42"]) expect(v("global.auto_retry_status_codes", bad).ok, bad).toBe(false);
    expect(v("global.auto_retry_status_codes", "5xx,42")).toEqual({ ok: false, key: "option_retry_status_codes", params: { code: "42" } });
  });
  it("accepts only http(s) addresses (or nothing) in the address options", () => {
    for (const key of [
      "TopUpLink",
      "general_setting.docs_link",
      "oidc.authorization_endpoint",
      "oidc.token_endpoint",
      "oidc.user_info_endpoint",
      "WeChatServerAddress",
      "WeChatAccountQRCodeImageURL",
    ] as const) {
      expect(v(key, "javascript:alert(1)"), key).toEqual({ ok: false, key: "option_invalid_url", params: { key } });
      expect(v(key, " https://a.example.com/x "), key).toEqual({ ok: true, value: "https://a.example.com/x" });
      expect(v(key, ""), key).toEqual({ ok: true, value: "" });
      expect(v(key, OPTION_DEFAULTS[key]).ok, key).toBe(true);
    }
  });
  it("refuses payment settings until the server address is set", () => {
    for (const key of ["PayAddress", "EpayId", "EpayKey", "Price", "MinTopUp", "TopupGroupRatio", "CustomCallbackAddress"] as const) {
      const value = key === "TopupGroupRatio" ? '{"default": 1}' : key.endsWith("Address") ? "https://pay.example.com" : "5";
      expect(v(key, value), key).toEqual({ ok: false, key: "option_payment_needs_server_address" });
      expect(v(key, value, (k) => (k === "ServerAddress" ? "https://gw.example.com" : defaults(k))).ok, key).toBe(true);
    }
  });
  it("uses the spec's messages for the rebate, the top-up group ratio, the whitelist and the Well-Known URL", () => {
    const withAddress = (k: OptionKey) => (k === "ServerAddress" ? "https://gw.example.com" : defaults(k));
    expect(v("RebatePercentage", "101")).toEqual({ ok: false, key: "option_rebate_range" });
    expect(v("RebateEnabled", "true", (k) => (k === "RebatePercentage" ? "150" : defaults(k)))).toEqual({ ok: false, key: "option_rebate_range" });
    expect(v("RebateEnabled", "true").ok).toBe(true);
    expect(v("TopupGroupRatio", "{bad", withAddress)).toEqual({ ok: false, key: "option_topup_group_ratio_json" });
    expect(v("EmailDomainWhitelist", "gmail.com, bad_domain")).toEqual({ ok: false, key: "option_domain_invalid", params: { host: "bad_domain" } });
    expect(v("EmailDomainWhitelist", "gmail.com,GMAIL.com")).toEqual({ ok: false, key: "option_domain_duplicate", params: { host: "GMAIL.com" } });
    expect(v("EmailDomainWhitelist", " gmail.com , qq.com ,")).toEqual({ ok: true, value: "gmail.com,qq.com" });
    expect(v("EmailDomainWhitelist", "")).toEqual({ ok: true, value: "" });
    expect(v("oidc.well_known", "ftp://idp.example.com")).toEqual({ ok: false, key: "option_well_known_url" });
    expect(v("oidc.well_known", "https://idp.example.com/.well-known/openid-configuration").ok).toBe(true);
    expect(v("UpdateCheckUrl", "javascript:alert(1)").ok).toBe(false);
  });
});
