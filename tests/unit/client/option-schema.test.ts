// The settings forms refuse what the server refuses, with the server's message in the
// person's language (docs/settings.md, "The forms kit"): the section schema is built from
// the shared rules, so its messages equal validateOption's.
import type { OptionKey } from "@/lib/options/registry";
import { describe, expect, it } from "vitest";
import { fieldName } from "@/components/forms/field-name";
import { optionSectionSchema } from "@/components/forms/option-schema";
import { renderMessage, serverCatalogues } from "@/lib/i18n/server-messages";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";
import { validateOption } from "@/lib/options/validate";

const current = (k: OptionKey) => (k === "ServerAddress" ? "https://gw.example.com" : OPTION_DEFAULTS[k]);

function formMessages(keys: OptionKey[], values: Record<string, string>, locale: "zh" | "en") {
  const loaded = Object.fromEntries(keys.map((k) => [k, current(k)]));
  const input = Object.fromEntries(keys.map((k) => [fieldName(k), values[k] ?? loaded[k]]));
  const r = optionSectionSchema(keys, serverCatalogues[locale], loaded).safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe("option section schema", () => {
  const cases: [OptionKey, string][] = [
    ["RebatePercentage", "101"],
    ["TopupGroupRatio", "{bad"],
    ["GroupRatio", "{bad"],
    ["Chats", "{}"],
    ["EmailDomainWhitelist", "gmail.com,bad_domain"],
    ["EmailDomainWhitelist", "a.com,A.com"],
    ["oidc.well_known", "idp.example.com"],
    ["global.auto_retry_count", "11"],
    ["general_setting.ping_interval_seconds", "0"],
    ["ModelRequestRateLimitSuccessCount", "0"],
    ["LinuxDOMinimumTrustLevel", "5"],
    ["DataExportInterval", "0"],
    ["DataExportDefaultTime", "month"],
    ["gemini.thinking_adapter_budget_tokens_percentage", "0.001"],
    ["claude.thinking_adapter_budget_tokens_percentage", "0.05"],
  ];
  for (const locale of ["zh", "en"] as const) {
    it(`gives the server's message for each refused value (${locale})`, () => {
      for (const [key, value] of cases) {
        const server = validateOption(key, value, current);
        expect(server.ok, key).toBe(false);
        if (server.ok) continue;
        expect(formMessages([key], { [key]: value }, locale), `${key}=${value}`).toEqual([renderMessage(locale, server.key, server.params)]);
      }
    });
  }
  it("accepts the loaded values and valid changes", () => {
    expect(formMessages(["RebatePercentage", "GroupRatio"], { RebatePercentage: "50", GroupRatio: '{"default": 2}' }, "zh")).toEqual([]);
  });
  it("checks the rebate when it is turned on and fallback pricing as a whole", () => {
    expect(formMessages(["RebateEnabled", "RebatePercentage"], { RebateEnabled: "true", RebatePercentage: "120" }, "zh")).toContain(
      "返佣百分比必须在0到100之间",
    );
    const keys: OptionKey[] = ["fallback_pricing_enabled", "fallback_single_price", "fallback_input_ratio", "fallback_completion_ratio"];
    expect(formMessages(keys, { fallback_pricing_enabled: "true", fallback_input_ratio: "2" }, "en").join(" ")).toMatch(
      /Do not set ratios together with a single price/,
    );
    expect(formMessages(keys, { fallback_pricing_enabled: "true", fallback_input_ratio: "2", fallback_completion_ratio: "3" }, "en")).toEqual([]);
  });
  it("leaves an empty secret alone (it is not sent)", () => {
    expect(formMessages(["SMTPToken"], { SMTPToken: "" }, "en")).toEqual([]);
  });
});
