// The pure rules of quota warnings (docs/notifications.md), unit-tested without a server:
// which threshold applies, when a warning is due, where it goes.
import type { MessageKey } from "@/lib/i18n/server-messages";
import type { OutboundRefusalReason } from "@/lib/net/outbound";

export const WARNING_COOLDOWN_SECONDS = 2 * 3600;

// The user setting fields notifications read (the whole setting is lib/users/update-setting.ts).
export type NotifySetting = {
  notify_type?: unknown;
  quota_warning_threshold?: unknown;
  webhook_url?: unknown;
  webhook_secret?: unknown;
  notification_email?: unknown;
};

export function parseNotifySetting(raw: string): NotifySetting {
  if (!raw) return {};
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as NotifySetting) : {};
  } catch {
    return {};
  }
}

/**
 * The threshold in quota units: the user's quota_warning_threshold when it is a positive
 * number, else the option QuotaRemindThreshold. 0n means no warning (the option at 0 and no
 * threshold of the user's own).
 */
export function effectiveThreshold(setting: NotifySetting, optionValue: string): bigint {
  const own = setting.quota_warning_threshold;
  const n = typeof own === "number" ? own : typeof own === "string" && own.trim() !== "" ? Number(own) : NaN;
  if (Number.isFinite(n) && n > 0) return BigInt(Math.floor(n));
  const opt = Number(optionValue);
  return Number.isFinite(opt) && opt > 0 ? BigInt(Math.floor(opt)) : 0n;
}

/**
 * Whether a charge that left `balance` calls for a warning now: the balance is below a
 * threshold that is on, and the last warning (unix seconds, 0 never) is at least the
 * cooldown old.
 */
export function warningDue(input: { balance: bigint; threshold: bigint; warnedAt: number; now: number }): boolean {
  if (input.threshold <= 0n || input.balance >= input.threshold) return false;
  return input.now - input.warnedAt >= WARNING_COOLDOWN_SECONDS;
}

export type Channel = { kind: "email"; to: string } | { kind: "webhook"; url: string; secret: string } | { kind: "none"; reason: "no_email" | "no_webhook" };

/**
 * Where a user's notifications go: notify_type webhook to webhook_url; otherwise e-mail to
 * notification_email or the account's address. The stored webhook_secret is sealed
 * (webhook-secret.ts): `openSecret` opens it, called only when a webhook is chosen.
 */
export function channelOf(setting: NotifySetting, accountEmail: string, openSecret: (stored: string) => string): Channel {
  if (setting.notify_type === "webhook") {
    const url = typeof setting.webhook_url === "string" ? setting.webhook_url.trim() : "";
    if (!url) return { kind: "none", reason: "no_webhook" };
    return { kind: "webhook", url, secret: typeof setting.webhook_secret === "string" ? openSecret(setting.webhook_secret) : "" };
  }
  const own = typeof setting.notification_email === "string" ? setting.notification_email.trim() : "";
  const to = own || accountEmail.trim();
  return to ? { kind: "email", to } : { kind: "none", reason: "no_email" };
}

/** The {detail} of a webhook address the outbound policy refuses (when saved or when sent). */
export const webhookRefusalKey = (reason: OutboundRefusalReason): MessageKey => `webhook_refused_${reason}`;
