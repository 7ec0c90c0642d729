// The pure rules of quota warnings (lib/notify/rules.ts, docs/notifications.md): the
// threshold that applies, when a charge calls for a warning, the 2-hour cooldown, and where
// a notification goes.
import { describe, expect, it } from "vitest";
import { channelOf, effectiveThreshold, parseNotifySetting, warningDue, WARNING_COOLDOWN_SECONDS } from "@/lib/notify/rules";

describe("effectiveThreshold", () => {
  it("is the user's own threshold when set, else the option QuotaRemindThreshold", () => {
    expect(effectiveThreshold({ quota_warning_threshold: 500000 }, "1000")).toBe(500000n);
    expect(effectiveThreshold({ quota_warning_threshold: "200000" }, "1000")).toBe(200000n);
    expect(effectiveThreshold({}, "1000")).toBe(1000n);
    expect(effectiveThreshold({ quota_warning_threshold: 0 }, "1000")).toBe(1000n);
    expect(effectiveThreshold({ quota_warning_threshold: -5 }, "1000")).toBe(1000n);
    expect(effectiveThreshold({ quota_warning_threshold: "abc" }, "1000")).toBe(1000n);
  });
  it("is 0 (no warning) when neither the user nor the option sets one", () => {
    expect(effectiveThreshold({}, "0")).toBe(0n);
    expect(effectiveThreshold({}, "")).toBe(0n);
    expect(effectiveThreshold({}, "x")).toBe(0n);
  });
  it("reads a stored setting however broken", () => {
    expect(parseNotifySetting("")).toEqual({});
    expect(parseNotifySetting("not json")).toEqual({});
    expect(parseNotifySetting("[1]")).toEqual({});
    expect(parseNotifySetting('{"quota_warning_threshold":7}')).toEqual({ quota_warning_threshold: 7 });
  });
});

describe("warningDue: a charge that leaves the balance below the threshold, once per cooldown", () => {
  const now = 1_800_000_000;
  it("fires below the threshold, never at or above it", () => {
    expect(warningDue({ balance: 999n, threshold: 1000n, warnedAt: 0, now })).toBe(true);
    expect(warningDue({ balance: -50n, threshold: 1000n, warnedAt: 0, now })).toBe(true);
    expect(warningDue({ balance: 1000n, threshold: 1000n, warnedAt: 0, now })).toBe(false);
    expect(warningDue({ balance: 5000n, threshold: 1000n, warnedAt: 0, now })).toBe(false);
  });
  it("never with the threshold off, even in debt", () => {
    expect(warningDue({ balance: -1n, threshold: 0n, warnedAt: 0, now })).toBe(false);
  });
  it("waits two hours after the last warning", () => {
    expect(WARNING_COOLDOWN_SECONDS).toBe(7200);
    expect(warningDue({ balance: 1n, threshold: 1000n, warnedAt: now - 60, now })).toBe(false);
    expect(warningDue({ balance: 1n, threshold: 1000n, warnedAt: now - 7199, now })).toBe(false);
    expect(warningDue({ balance: 1n, threshold: 1000n, warnedAt: now - 7200, now })).toBe(true);
    expect(warningDue({ balance: 1n, threshold: 1000n, warnedAt: now - 86400, now })).toBe(true);
  });
});

describe("channelOf", () => {
  const opened = (stored: string) => `opened:${stored}`;
  it("mails the notification e-mail, else the account's, else nothing", () => {
    expect(channelOf({ notify_type: "email", notification_email: "n@example.com" }, "a@example.com", opened)).toEqual({ kind: "email", to: "n@example.com" });
    expect(channelOf({ notification_email: " " }, "a@example.com", opened)).toEqual({ kind: "email", to: "a@example.com" });
    expect(channelOf({}, "", opened)).toEqual({ kind: "none", reason: "no_email" });
  });
  it("posts to the webhook with its secret opened when webhooks are chosen; the secret is opened only then", () => {
    expect(channelOf({ notify_type: "webhook", webhook_url: "https://h.example/x", webhook_secret: "v1.sealed" }, "a@example.com", opened)).toEqual({
      kind: "webhook",
      url: "https://h.example/x",
      secret: "opened:v1.sealed",
    });
    expect(channelOf({ notify_type: "webhook", webhook_url: "https://h.example/x" }, "a@example.com", opened)).toMatchObject({ secret: "" });
    expect(channelOf({ notify_type: "webhook", webhook_url: "" }, "a@example.com", opened)).toEqual({ kind: "none", reason: "no_webhook" });
    const calls: string[] = [];
    channelOf({ notify_type: "email", webhook_secret: "v1.sealed" }, "a@example.com", (s) => (calls.push(s), s));
    expect(calls).toEqual([]);
  });
});
