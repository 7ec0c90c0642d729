// Webhook refusals that need no connection (lib/notify/webhook.ts, docs/notifications.md):
// http is never sent; an IP-literal host the outbound policy refuses is refused before any
// socket, in every range, loopback and private even with fetch_setting.allow_private_ip on (the classifier itself: tests/unit/net/address.test.ts); and the
// notices in both languages.
import { renderMessage } from "@/lib/i18n/server-messages";
import { describe, expect, it } from "vitest";
import { applyOption } from "@/lib/options/store";
import { isHttpsUrl, sendWebhook } from "@/lib/notify/webhook";
import { quotaWarningNotice, testNotice, userLocale } from "@/lib/notify/notice";

const body = { type: "test" as const, title: "t", content: "c", values: {}, timestamp: 0 };

describe("webhook policy", () => {
  it("only https addresses are sent to", async () => {
    expect(isHttpsUrl("https://hooks.example.com/x")).toBe(true);
    expect(isHttpsUrl("http://hooks.example.com/x")).toBe(false);
    expect(isHttpsUrl("ftp://x")).toBe(false);
    expect(isHttpsUrl("nonsense")).toBe(false);
    expect(await sendWebhook("http://127.0.0.1:1/hook", "s", body)).toEqual({ ok: false, error: "not_https" });
  });

  it.each(["false", "true"])(
    "refuses forbidden IP literals before connecting, whatever the retries (allow_private_ip %s: a user's address never reaches loopback or private)",
    async (allow) => {
      applyOption("fetch_setting.allow_private_ip", allow);
      const cases: Array<[string, string]> = [
        ["https://127.0.0.1:1/hook", "loopback"],
        ["https://[::1]:1/hook", "loopback"],
        ["https://2130706433:1/hook", "loopback"],
        ["https://10.1.2.3/hook", "private"],
        ["https://192.168.0.1/hook", "private"],
        ["https://100.64.0.1/hook", "private"],
        ["https://169.254.169.254/latest", "metadata"],
        ["https://[fe80::1]/hook", "link_local"],
        ["https://[::ffff:a9fe:a9fe]/hook", "metadata"],
        ["https://0.0.0.0/hook", "unspecified"],
        ["https://224.0.0.1/hook", "multicast"],
      ];
      try {
        for (const [url, reason] of cases) {
          const r = await sendWebhook(url, "secret", body);
          expect(r.ok, url).toBe(false);
          expect(!r.ok && r.refused?.reason, url).toBe(reason);
        }
      } finally {
        applyOption("fetch_setting.allow_private_ip", "false");
      }
    },
  );

  it("link-local and metadata stay refused with private addresses allowed", async () => {
    applyOption("fetch_setting.allow_private_ip", "true");
    try {
      const r = await sendWebhook("https://169.254.169.254/x", "secret", body);
      expect(!r.ok && r.refused?.reason).toBe("metadata");
      const l = await sendWebhook("https://[fe80::1]/x", "secret", body);
      expect(!l.ok && l.refused?.reason).toBe("link_local");
    } finally {
      applyOption("fetch_setting.allow_private_ip", "false");
    }
  });
});

describe("notices", () => {
  it("speak the user's language, zh by default, with the site name and the balance", () => {
    applyOption("SystemName", "Acme AI");
    applyOption("ServerAddress", "https://gw.example.com/");
    applyOption("DisplayInCurrencyEnabled", "true");
    expect(userLocale("")).toBe("zh");
    expect(userLocale("fr")).toBe("fr");
    expect(userLocale("de")).toBe("zh");
    const zh = quotaWarningNotice("zh", { username: "alice", balance: 200000n, threshold: 500000n });
    expect(zh.subject).toBe("Acme AI：您的额度即将用尽");
    expect(zh.text).toContain("$0.40 (200,000)");
    expect(zh.text).toContain("$1.00 (500,000)");
    expect(zh.text).toContain("https://gw.example.com/app/wallet");
    const en = quotaWarningNotice("en", { username: "<b>", balance: 200000n, threshold: 500000n });
    expect(en.subject).toBe("Acme AI: your balance is running low");
    expect(en.html).toContain("&lt;b&gt;");
    expect(en.html).not.toContain("<b>");
    expect(en.webhook).toMatchObject({
      type: "quota_warning",
      title: en.subject,
      values: { system_name: "Acme AI", balance: 200000, threshold: 500000, topup_url: "https://gw.example.com/app/wallet" },
    });
    expect(testNotice("en", { username: "bob" }).webhook.type).toBe("test");
  });

  it("speak the other languages too, numbers in the reader's format", () => {
    applyOption("SystemName", "Acme AI");
    applyOption("DisplayInCurrencyEnabled", "true");
    const fr = quotaWarningNotice("fr", { username: "alice", balance: 2_000_000n, threshold: 5_000_000n });
    expect(fr.subject).toBe(renderMessage("fr", "notice_quota_warning_title", { site: "Acme AI" }));
    expect(fr.text).toContain("$4,00 (2\u202f000\u202f000)"); // French: decimal comma, narrow no-break spaces
    expect(fr.webhook.title).toBe(fr.subject);
    const ja = testNotice("ja", { username: "kenji" });
    expect(ja.subject).toBe(renderMessage("ja", "notice_test_title", { site: "Acme AI" }));
    expect(ja.text).toContain(renderMessage("ja", "notice_greeting", { username: "kenji" }));
  });
});
