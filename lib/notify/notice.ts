// The words of a notification, in the user's language (the server catalogue's notice_*
// messages; Chinese when the user has none yet): the quota warning and the root's test
// notification, as a mail (plain text and HTML) and as the webhook's JSON body
// (docs/notifications.md). Kept here rather than with the other mail
// templates: these are notifications, sent by e-mail or by webhook alike; the HTML escaping
// and the site's name and address are the mail templates' (lib/mail/templates.ts).
import "server-only";
import { LOCALE_TAGS, toLocale, type Locale } from "@/lib/i18n/locale";
import { renderMessage, type MessageKey, type MessageParams } from "@/lib/i18n/server-messages";
import { escapeHtml as esc, mailSite } from "@/lib/mail/templates";
import { getBool, getNumber } from "@/lib/options/store";
import type { WebhookBody } from "@/lib/notify/webhook";
import { nowSeconds } from "@/lib/time";

export type Notice = { subject: string; text: string; html: string; webhook: WebhookBody };

/** The user's stored language (their last sign-in's or settings save's) as a locale. */
export const userLocale = toLocale;

/** A quota amount as the console shows it, in the reader's number format: dollars when DisplayInCurrencyEnabled, else units. */
export function formatAmount(locale: Locale, quota: bigint): string {
  const perUnit = getNumber("QuotaPerUnit", 500000) || 500000;
  const tag = LOCALE_TAGS[locale];
  const units = quota.toLocaleString(tag);
  if (!getBool("DisplayInCurrencyEnabled")) return units;
  const usd = new Intl.NumberFormat(tag, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(quota) / perUnit);
  return `$${usd} (${units})`;
}

function siteValues() {
  const { name: system, address: server } = mailSite();
  return { system, server, wallet: server ? `${server}/app/wallet` : "" };
}

function build(type: WebhookBody["type"], title: string, lines: string[], values: Record<string, string | number>, link: string, linkLabel: string): Notice {
  const text = [...lines, ...(link ? [`${linkLabel}: ${link}`] : [])].join("\n\n");
  const html = lines.map((l) => `<p>${esc(l)}</p>`).join("") + (link ? `<p>${esc(linkLabel)}: <a href="${esc(link)}">${esc(link)}</a></p>` : "");
  return { subject: title, text, html, webhook: { type, title, content: text, values, timestamp: nowSeconds() } };
}

export function quotaWarningNotice(locale: Locale, input: { username: string; balance: bigint; threshold: bigint }): Notice {
  const { system, server, wallet } = siteValues();
  const values = {
    system_name: system,
    server_address: server,
    username: input.username,
    balance: Number(input.balance),
    threshold: Number(input.threshold),
    topup_url: wallet,
  };
  const say = (key: MessageKey, params?: MessageParams) => renderMessage(locale, key, params);
  const amounts = { site: system, balance: formatAmount(locale, input.balance), threshold: formatAmount(locale, input.threshold) };
  return build(
    "quota_warning",
    say("notice_quota_warning_title", { site: system }),
    [say("notice_greeting", { username: input.username }), say("notice_quota_warning_body", amounts), say("notice_quota_warning_frequency")],
    values,
    wallet,
    say("notice_top_up"),
  );
}

export function testNotice(locale: Locale, input: { username: string }): Notice {
  const { system, server } = siteValues();
  const values = { system_name: system, server_address: server, username: input.username };
  const say = (key: MessageKey, params?: MessageParams) => renderMessage(locale, key, params);
  return build(
    "test",
    say("notice_test_title", { site: system }),
    [say("notice_greeting", { username: input.username }), say("notice_test_body", { site: system })],
    values,
    "",
    "",
  );
}
