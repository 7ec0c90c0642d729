// One notification to one user, through the channel of the user's settings (rules.ts
// channelOf): e-mail by sendMail (lib/mail/send.ts), or the webhook (webhook.ts). Answers
// what happened as a message key for the console; never throws, never names a secret.
import "server-only";
import { isAppError } from "@/lib/errors";
import type { MessageKey, MessageParams } from "@/lib/i18n/server-messages";
import { sendMail } from "@/lib/mail/send";
import type { Notice } from "@/lib/notify/notice";
import { webhookRefusalKey, type Channel } from "@/lib/notify/rules";
import { sendWebhook, WEBHOOK_TRIES } from "@/lib/notify/webhook";

export type Outcome = { ok: true } | { ok: false; key: MessageKey; params?: MessageParams; detailKey?: MessageKey };

export async function deliver(channel: Channel, notice: Notice, opts: { tries?: number } = {}): Promise<Outcome> {
  if (channel.kind === "none") return { ok: false, key: channel.reason === "no_email" ? "notify_no_email" : "notify_no_webhook" };
  if (channel.kind === "email") {
    try {
      await sendMail({ to: channel.to, subject: notice.subject, text: notice.text, html: notice.html });
      return { ok: true };
    } catch (e) {
      return { ok: false, key: isAppError(e) && e.key === "mail_not_configured" ? "mail_not_configured" : "mail_send_failed" };
    }
  }
  const r = await sendWebhook(channel.url, channel.secret, notice.webhook, opts.tries ?? WEBHOOK_TRIES);
  if (r.ok) return { ok: true };
  if (r.refused) return { ok: false, key: "notify_webhook_refused", detailKey: webhookRefusalKey(r.refused.reason) };
  if (r.error === "not_https") return { ok: false, key: "webhook_https_only" };
  if (r.status !== undefined) return { ok: false, key: "notify_webhook_status", params: { status: r.status } };
  return { ok: false, key: "notify_webhook_error", params: { error: r.error ?? "network" } };
}
