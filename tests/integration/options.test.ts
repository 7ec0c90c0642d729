// Option administration: root only, secrets never listed with their values, server-side validation of values
// (docs/product-rules.md, "Options"), and the demo-site refusal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
});
afterAll(async () => {
  await server?.stop();
});

const put = (key: string, value: string, c = root) => c.put("/api/option/", { key, value });
const list = async () => new Map((await root.get<{ key: string; value: string }[]>("/api/option/")).data.map((o) => [o.key, o.value]));

describe("options", () => {
  it("are for the root only", async () => {
    const { client: admin } = await makeUser(server, root, "admin", 10);
    expect((await admin.get("/api/option/")).status).toBe(403);
    expect((await put("SystemName", "x", admin)).status).toBe(403);
  });

  it("lists every option, the secrets without their values, even once set", async () => {
    expect((await put("SMTPToken", "smtp-secret-value")).success).toBe(true);
    const res = await root.raw("GET", "/api/option/");
    const text = await res.text();
    expect(text).not.toContain("smtp-secret-value");
    const options = await list();
    expect(options.get("SMTPToken")).toBe("");
    expect(options.get("GitHubClientSecret")).toBe("");
    expect(options.get("QuotaPerUnit")).toBe("500000");
    expect(options.get("GroupRatio")).toBe(JSON.stringify({ default: 1, vip: 1, svip: 1 }));
  });

  it("saves valid values and reflects them in the status", async () => {
    expect((await put("SystemName", "My Gateway")).success).toBe(true);
    expect((await new ApiClient(server.url).get<{ system_name: string }>("/api/status")).data.system_name).toBe("My Gateway");
    expect((await put("ServerAddress", "https://gw.example.com///")).success).toBe(true);
    expect((await list()).get("ServerAddress")).toBe("https://gw.example.com");
  });

  it("refuses unknown keys and invalid values, in both languages", async () => {
    const zh = new ApiClient(server.url, "zh");
    zh.cookie = root.cookie;
    zh.userId = root.userId;
    expect((await put("NoSuchKey", "1")).message).toBe("Invalid parameter");
    expect((await put("RegisterEnabled", "yes")).message).toBe("RegisterEnabled must be true or false");
    expect((await put("GroupRatio", "{bad json")).message).toBe("GroupRatio is not a valid JSON string");
    expect((await put("GroupRatio", "{bad json", zh)).message).toBe("GroupRatio 不是合法的 JSON 字符串");
    expect((await put("GroupRatio", '{"default": "one"}')).message).toBe("Every value in GroupRatio must be a non-negative number");
    expect((await put("Chats", "{}")).message).toBe("Chats is not a valid JSON string");
    expect((await put("RebatePercentage", "101")).message).toBe("RebatePercentage must be between 0 and 100");
    expect((await put("RebatePercentage", "-1", zh)).message).toBe("RebatePercentage 的值必须在 0 到 100 之间");
    expect((await put("gemini.thinking_adapter_budget_tokens_percentage", "0.001")).success).toBe(false);
    expect((await put("claude.thinking_adapter_budget_tokens_percentage", "0.05")).success).toBe(false);
    expect((await put("global.auto_retry_count", "11")).success).toBe(false);
    expect((await put("global.auto_retry_count", "0")).success).toBe(false);
    expect((await put("general_setting.ping_interval_seconds", "0")).message).toBe("general_setting.ping_interval_seconds must be at least 1");
    expect((await put("ModelRequestRateLimitSuccessCount", "0")).success).toBe(false);
    expect((await put("ModelRequestRateLimitCount", "-1")).success).toBe(false);
    expect((await put("LinuxDOMinimumTrustLevel", "5")).success).toBe(false);
    expect((await put("IDCFlareMinimumTrustLevel", "2.5")).message).toBe("IDCFlareMinimumTrustLevel must be an integer");
    expect((await put("DataExportInterval", "0")).success).toBe(false);
    expect((await put("DataExportDefaultTime", "month")).message).toBe("DataExportDefaultTime must be one of: hour, day, week");
    expect((await put("ReverseProxyProvider", "apache")).success).toBe(false);
    expect((await put("QuotaForNewUser", "abc")).message).toBe("QuotaForNewUser must be a number");
    expect((await root.put("/api/option/", { key: "SystemName", value: 5 })).message).toBe("Invalid parameter");
    const options = await list();
    expect(options.get("RebatePercentage")).toBe("0");
    expect(options.get("global.auto_retry_count")).toBe("3");
  });

  it("accepts the bounds themselves", async () => {
    for (const [k, v] of [
      ["RebatePercentage", "100"],
      ["gemini.thinking_adapter_budget_tokens_percentage", "0.002"],
      ["claude.thinking_adapter_budget_tokens_percentage", "0.1"],
      ["global.auto_retry_count", "10"],
      ["general_setting.ping_interval_seconds", "1"],
      ["ModelRequestRateLimitSuccessCount", "1"],
      ["ModelRequestRateLimitCount", "0"],
      ["LinuxDOMinimumTrustLevel", "4"],
      ["DataExportInterval", "1"],
      ["DataExportDefaultTime", "week"],
      ["ReverseProxyProvider", "cloudflare"],
      ["GroupRatio", '{"default": 1, "vip": 1.5}'],
    ]) {
      const r = await put(k, v);
      expect(r.success, `${k}=${v}: ${r.message}`).toBe(true);
    }
  });

  it("enforces the fallback pricing combination", async () => {
    expect((await put("fallback_pricing_enabled", "true")).message).toMatch(/^Do not set ratios together with a single price/);
    expect((await put("fallback_single_price", "0")).message).toBe("fallback_single_price must be greater than 0");
    expect((await put("fallback_single_price", "0.01")).success).toBe(true);
    expect((await put("fallback_pricing_enabled", "true")).success).toBe(true);
    expect((await put("fallback_input_ratio", "2")).message).toMatch(/^Do not set ratios together with a single price/);
    // switching forms: clear the price first, then set both ratios
    expect((await put("fallback_single_price", "")).success).toBe(true);
    expect((await put("fallback_input_ratio", "2")).success).toBe(true);
    expect((await put("fallback_completion_ratio", "3")).success).toBe(true);
    expect((await put("fallback_single_price", "0.02")).success).toBe(false);
    expect((await put("fallback_pricing_enabled", "false")).success).toBe(true);
  });

  it("refuses option writes and password changes on a demo site for non-root users", async () => {
    const { client: user } = await makeUser(server, root, "demouser");
    expect((await put("DemoSiteEnabled", "true")).success).toBe(true);
    const refused = await user.put("/api/user/self", { password: "new-pass-99", original_password: "user-pass-1" });
    expect(refused.status).toBe(405);
    expect((await user.del("/api/user/self")).status).toBe(405);
    // the root may still change options
    expect((await put("DemoSiteEnabled", "false")).success).toBe(true);
    expect((await user.put("/api/user/self", { password: "new-pass-99", original_password: "user-pass-1" })).success).toBe(true);
  });
});
