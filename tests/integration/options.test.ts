// Option administration: admins read and write the operational options, the root the rest
// (docs/settings.md, "Roles"), secrets never listed with their values, server-side validation
// of values (docs/product-rules.md, "Options"; docs/settings.md), OIDC discovery and the
// update check through the outbound policy, and the demo-site refusal.
import http from "node:http";
import type { AddressInfo } from "node:net";
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
  it("are read by admins (no secrets) and written by them only where operational; the root does the rest", async () => {
    const { client: admin } = await makeUser(server, root, "admin", 10);
    const { client: user } = await makeUser(server, root, "plainuser");
    expect((await user.get("/api/option/")).status).toBe(403);
    expect((await put("SystemName", "x", user)).status).toBe(403);

    const listed = await admin.get<{ key: string; value: string; set?: boolean; writable: boolean }[]>("/api/option/");
    expect(listed.success).toBe(true);
    const byKey = new Map(listed.data.map((o) => [o.key, o]));
    // no secret at all, not even its set flag
    for (const k of ["SMTPToken", "GitHubClientSecret", "EpayKey", "WorkerValidKey", "oidc.client_secret"]) expect(byKey.has(k), k).toBe(false);
    expect(byKey.get("QuotaForNewUser")?.writable).toBe(true);
    expect(byKey.get("ServerAddress")?.writable).toBe(false);
    expect(byKey.get("global_js")?.writable).toBe(false);

    // operational: allowed
    expect((await put("QuotaForNewUser", "123", admin)).success).toBe(true);
    expect((await put("Notice", "hello", admin)).success).toBe(true);
    expect((await put("ModelRequestRateLimitCount", "5", admin)).success).toBe(true);
    // sign-in, payment, mail, network, modes, custom code and secrets: root only
    for (const [k, v] of [
      ["PasswordLoginEnabled", "false"],
      ["ServerAddress", "https://evil.example.com"],
      ["SMTPServer", "smtp.example.com"],
      ["SMTPToken", "x"],
      ["Price", "8"],
      ["global_js", "alert(1)"],
      ["DemoSiteEnabled", "true"],
      ["fetch_setting.allow_private_ip", "true"],
      ["UpdateCheckUrl", "https://example.com/release"],
    ]) {
      const r = await put(k, v, admin);
      expect(r.status, k).toBe(403);
      expect(r.message, k).toBe("Only the root user may change this setting");
    }
    expect((await admin.post("/api/option/oidc_discovery", { well_known: "https://idp.example.com" })).status).toBe(403);
    const options = await list();
    expect(options.get("QuotaForNewUser")).toBe("123");
    expect(options.get("PasswordLoginEnabled")).toBe("true");
    expect(options.get("global_js")).toBe("");
    await put("QuotaForNewUser", "0");
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
    // names every plain object inherits are not options either: the registry is looked up by own keys
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect((await put(name, "1")).message, name).toBe("Invalid parameter");
      expect((await put(name, "1", zh)).message, name).toBe("无效的参数");
    }
    // a switch is "true" or "false", whatever its name ends with
    expect((await put("global.auto_retry_force_channel_switch", "sometimes")).message).toBe("global.auto_retry_force_channel_switch must be true or false");
    expect((await put("global.auto_retry_force_channel_switch", "true")).success).toBe(true);
    expect((await put("RegisterEnabled", "yes")).message).toBe("RegisterEnabled must be true or false");
    expect((await put("GroupRatio", "{bad json")).message).toBe("GroupRatio is not a valid JSON string");
    expect((await put("GroupRatio", "{bad json", zh)).message).toBe("GroupRatio 不是合法的 JSON 字符串");
    expect((await put("GroupRatio", '{"default": "one"}')).message).toBe("Every value in GroupRatio must be a non-negative number");
    expect((await put("Chats", "{}")).message).toBe("Chats is not a valid JSON string");
    expect((await put("RebatePercentage", "101")).message).toBe("The rebate percentage must be between 0 and 100");
    expect((await put("RebatePercentage", "-1", zh)).message).toBe("返佣百分比必须在0到100之间");
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
    // the consecutive-failure threshold is a count of at least 1; retries stop at the relay's 10
    expect((await put("ChannelDisableThreshold", "0")).message).toBe("ChannelDisableThreshold must be at least 1");
    expect((await put("ChannelDisableThreshold", "1.5")).message).toBe("ChannelDisableThreshold must be an integer");
    expect((await put("RetryTimes", "11")).success).toBe(false);
    expect((await put("RetryTimes", "10")).success).toBe(true);
    expect((await put("RetryTimes", "0")).success).toBe(true);
    // auto-retry statuses: exactly what the relay matches
    expect((await put("global.auto_retry_status_codes", "5xx,42")).message).toBe(
      "Invalid auto-retry status code: 42; enter comma-separated codes or classes such as 5xx,4xx,429",
    );
    expect((await put("global.auto_retry_status_codes", "5xx;429", zh)).message).toBe(
      "自动重试状态码格式错误：5xx;429，请填写以逗号分隔的状态码或状态码类别，如 5xx,4xx,429",
    );
    expect((await put("global.auto_retry_status_codes", " 5XX , 429")).success).toBe(true);
    // addresses the server stores are http(s) or nothing
    for (const key of [
      "TopUpLink",
      "general_setting.docs_link",
      "oidc.authorization_endpoint",
      "oidc.token_endpoint",
      "oidc.user_info_endpoint",
      "WeChatServerAddress",
      "WeChatAccountQRCodeImageURL",
    ]) {
      expect((await put(key, "javascript:alert(1)")).message, key).toBe(`${key} must be an address starting with http:// or https://`);
      expect((await put(key, "https://a.example.com/x")).success, key).toBe(true);
      expect((await put(key, "")).success, key).toBe(true);
    }
    const options = await list();
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) expect(options.has(name), name).toBe(false);
    expect(options.get("global.auto_retry_force_channel_switch")).toBe("true");
    expect(options.get("global.auto_retry_status_codes")).toBe("5xx,429");
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

  it("refuses payment settings until the server address is set, with the spec's messages", async () => {
    const zh = new ApiClient(server.url, "zh");
    zh.cookie = root.cookie;
    zh.userId = root.userId;
    expect((await put("ServerAddress", "")).success).toBe(true);
    for (const [k, v] of [
      ["PayAddress", "https://pay.example.com"],
      ["EpayId", "1001"],
      ["EpayKey", "k"],
      ["Price", "7.5"],
      ["MinTopUp", "2"],
      ["TopupGroupRatio", '{"default": 1}'],
      ["CustomCallbackAddress", "https://cb.example.com"],
    ]) {
      expect((await put(k, v)).message, k).toBe("Set the server address before the payment settings");
    }
    expect((await put("Price", "7.5", zh)).message).toBe("请先设置服务器地址，再修改支付设置");
    expect((await put("ServerAddress", "https://gw.example.com/")).success).toBe(true);
    expect((await put("PayAddress", "https://pay.example.com//")).success).toBe(true);
    expect((await put("WorkerUrl", "https://worker.example.com/")).success).toBe(true);
    expect((await put("Price", "7.5")).success).toBe(true);
    expect((await put("TopupGroupRatio", "{bad")).message).toBe("The top-up group ratio is not valid JSON");
    expect((await put("TopupGroupRatio", "{bad", zh)).message).toBe("充值分组倍率不是合法的 JSON 字符串");
    const options = await list();
    expect(options.get("PayAddress")).toBe("https://pay.example.com");
    expect(options.get("WorkerUrl")).toBe("https://worker.example.com");
    expect(options.get("Price")).toBe("7.5");
  });

  it("checks the rebate when it is enabled, the whitelist and the Well-Known URL", async () => {
    const zh = new ApiClient(server.url, "zh");
    zh.cookie = root.cookie;
    zh.userId = root.userId;
    expect((await put("RebatePercentage", "150")).success).toBe(false);
    expect((await put("RebateEnabled", "true")).success).toBe(true);
    expect((await put("RebatePercentage", "100.5", zh)).message).toBe("返佣百分比必须在0到100之间");
    expect((await put("RebateEnabled", "false")).success).toBe(true);

    expect((await put("EmailDomainWhitelist", "gmail.com,not a domain")).message).toBe("Invalid domain not a domain, e.g. example.com");
    expect((await put("EmailDomainWhitelist", "gmail.com,-bad.com", zh)).message).toBe("无效的域名 -bad.com，例如 example.com");
    expect((await put("EmailDomainWhitelist", "gmail.com,qq.com,Gmail.com")).message).toBe("The domain Gmail.com is already in the whitelist");
    expect((await put("EmailDomainWhitelist", "gmail.com, qq.com")).success).toBe(true);
    expect((await list()).get("EmailDomainWhitelist")).toBe("gmail.com,qq.com");

    expect((await put("oidc.well_known", "idp.example.com/.well-known/openid-configuration")).message).toBe(
      "The Well-Known URL must start with http:// or https://",
    );
    expect((await put("oidc.well_known", "ftp://idp.example.com", zh)).message).toBe("Well-Known URL 必须以 http:// 或 https:// 开头");
    expect((await put("oidc.well_known", "https://idp.example.com/.well-known/openid-configuration")).success).toBe(true);
  });

  it("fetches an OIDC discovery document and a release through the outbound policy", async () => {
    const idp = http.createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.url === "/.well-known/openid-configuration") {
        const base = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
        res.end(JSON.stringify({ authorization_endpoint: `${base}/auth`, token_endpoint: `${base}/token`, userinfo_endpoint: `${base}/userinfo` }));
      } else if (req.url === "/release") res.end(JSON.stringify({ tag_name: "v999.0.0", body: "## New\n- things" }));
      else if (req.url === "/old-release") res.end(JSON.stringify({ tag_name: "v0.0.1", body: "" }));
      else {
        res.statusCode = 404;
        res.end("{}");
      }
    });
    await new Promise<void>((r) => idp.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    // fetched directly: an earlier test saved a WorkerUrl, which would send these fetches
    // through that worker (tests/integration/worker.test.ts, docs/outbound.md "Worker")
    expect((await put("WorkerUrl", "")).success).toBe(true);
    try {
      // loopback is refused by the outbound policy until the root allows private addresses
      expect((await put("fetch_setting.allow_private_ip", "false")).success).toBe(true);
      expect((await root.post("/api/option/oidc_discovery", { well_known: `${base}/.well-known/openid-configuration` })).message).toBe(
        "Failed to fetch the OIDC configuration: The upstream address is a loopback address; it is allowed only when the root user turns on fetch_setting.allow_private_ip",
      );
      expect((await put("fetch_setting.allow_private_ip", "true")).success).toBe(true);
      const found = await root.post<{ authorization_endpoint: string; token_endpoint: string; userinfo_endpoint: string }>("/api/option/oidc_discovery", {
        well_known: `${base}/.well-known/openid-configuration`,
      });
      expect(found.success, found.message).toBe(true);
      expect(found.data).toEqual({ authorization_endpoint: `${base}/auth`, token_endpoint: `${base}/token`, userinfo_endpoint: `${base}/userinfo` });
      const zh = new ApiClient(server.url, "zh");
      zh.cookie = root.cookie;
      zh.userId = root.userId;
      expect((await zh.post("/api/option/oidc_discovery", { well_known: `${base}/missing` })).message).toBe(
        "获取 OIDC 配置失败，请检查网络状况和 Well-Known URL 是否正确",
      );
      expect((await root.post("/api/option/oidc_discovery", { well_known: "file:///etc/passwd" })).message).toBe(
        "The Well-Known URL must start with http:// or https://",
      );

      // no source set: the server says so rather than "check for updates failed" (docs/settings.md)
      expect((await put("UpdateCheckUrl", "")).success).toBe(true);
      expect((await root.post("/api/option/update_check")).message).toBe("No update source is set (UpdateCheckUrl)");
      expect((await put("UpdateCheckUrl", `${base}/release`)).success).toBe(true);
      const { client: admin } = await makeUser(server, root, "admin2", 10);
      const update = await admin.post<{ current_version: string; tag_name: string; body: string; update_available: boolean }>("/api/option/update_check");
      expect(update.success, update.message).toBe(true);
      expect(update.data).toMatchObject({ tag_name: "v999.0.0", body: "## New\n- things", update_available: true });
      expect(update.data.current_version).toMatch(/^v\d+\.\d+\.\d+/);
      expect((await put("UpdateCheckUrl", `${base}/old-release`)).success).toBe(true);
      expect((await root.post<{ update_available: boolean }>("/api/option/update_check")).data.update_available).toBe(false);
      expect((await put("UpdateCheckUrl", `${base}/missing`)).success).toBe(true);
      expect((await root.post("/api/option/update_check")).message).toBe("Check for updates failed");
    } finally {
      await put("fetch_setting.allow_private_ip", "false");
      await new Promise((r) => idp.close(r));
    }
    // with the policy back, loopback is refused again: the check fails and says why
    expect((await root.post("/api/option/update_check")).message).toBe(
      "Check for updates failed: The upstream address is a loopback address; it is allowed only when the root user turns on fetch_setting.allow_private_ip",
    );
  });

  it("enforces the fallback pricing combination", async () => {
    expect((await put("fallback_pricing_enabled", "true")).message).toMatch(/^Do not set ratios together with a single price/);
    expect((await put("fallback_single_price", "0")).message).toBe("fallback_single_price must be greater than 0");
    expect((await put("fallback_single_price", "0.01")).success).toBe(true);
    expect((await put("fallback_pricing_enabled", "true")).success).toBe(true);
    expect((await put("fallback_input_ratio", "2")).message).toMatch(/^Do not set ratios together with a single price/);
    // while enabled, no change may leave an incomplete state: clearing the price is refused
    expect((await put("fallback_single_price", "")).message).toMatch(/^Do not set ratios together with a single price/);
    // switching forms in the documented order: switch off, clear, set, switch on last
    expect((await put("fallback_pricing_enabled", "false")).success).toBe(true);
    expect((await put("fallback_single_price", "")).success).toBe(true);
    expect((await put("fallback_input_ratio", "2")).success).toBe(true);
    expect((await put("fallback_pricing_enabled", "true")).message).toMatch(/^Do not set ratios together with a single price/);
    expect((await put("fallback_completion_ratio", "3")).success).toBe(true);
    expect((await put("fallback_pricing_enabled", "true")).success).toBe(true);
    expect((await put("fallback_single_price", "0.02")).success).toBe(false);
    expect((await put("fallback_completion_ratio", "")).success).toBe(false);
    expect((await put("fallback_pricing_enabled", "false")).success).toBe(true);
    expect((await put("fallback_completion_ratio", "")).success).toBe(true);
    expect((await put("fallback_input_ratio", "")).success).toBe(true);
  });

  it("refuses option writes and password changes on a demo site for non-root users", async () => {
    const { client: user } = await makeUser(server, root, "demouser");
    expect((await put("DemoSiteEnabled", "true")).success).toBe(true);
    const refused = await user.put("/api/user/self", { password: "new-pass-99", original_password: "user-pass-1" });
    expect(refused.status).toBe(405);
    expect((await user.del("/api/user/self")).status).toBe(405);
    // the log clean-up is an admin write like the others: refused to an admin on a demo site
    const { client: admin } = await makeUser(server, root, "demoadmin", 10);
    const now = Math.floor(Date.now() / 1000) - 86_400 * 3650;
    expect((await admin.del(`/api/log/?target_timestamp=${now}`)).status).toBe(405);
    expect((await root.del<number>(`/api/log/?target_timestamp=${now}`)).success).toBe(true);
    // the root may still change options
    expect((await put("DemoSiteEnabled", "false")).success).toBe(true);
    expect((await user.put("/api/user/self", { password: "new-pass-99", original_password: "user-pass-1" })).success).toBe(true);
  });
});
