// The words of a notification, in the user's language (zh by default, en): the quota
// warning and the root's test notification, as a mail (plain text and HTML) and as the
// webhook's JSON body (docs/notifications.md). Kept here rather than with the other mail
// templates: these are notifications, sent by e-mail or by webhook alike; the HTML escaping
// and the site's name and address are the mail templates' (lib/mail/templates.ts).
import "server-only";
import type { Locale } from "@/lib/i18n/locale";
import { escapeHtml as esc, mailSite } from "@/lib/mail/templates";
import { getBool, getNumber } from "@/lib/options/store";
import type { WebhookBody } from "@/lib/notify/webhook";
import { nowSeconds } from "@/lib/time";

export type Notice = { subject: string; text: string; html: string; webhook: WebhookBody };

export function userLocale(language: string): Locale {
  return language === "en" ? "en" : "zh";
}

/** A quota amount as the console shows it: dollars when DisplayInCurrencyEnabled, else units. */
export function formatAmount(quota: bigint): string {
  const perUnit = getNumber("QuotaPerUnit", 500000) || 500000;
  const units = quota.toLocaleString("en-US");
  return getBool("DisplayInCurrencyEnabled") ? `$${(Number(quota) / perUnit).toFixed(2)} (${units})` : units;
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
  const balance = formatAmount(input.balance);
  const threshold = formatAmount(input.threshold);
  const values = {
    system_name: system,
    server_address: server,
    username: input.username,
    balance: Number(input.balance),
    threshold: Number(input.threshold),
    topup_url: wallet,
  };
  if (locale === "en")
    return build(
      "quota_warning",
      `${system}: your balance is running low`,
      [
        `Hello ${input.username},`,
        `your balance on ${system} is ${balance}, below your warning threshold of ${threshold}. Top up soon so that your API calls are not refused.`,
        "You receive this warning at most once every 2 hours; change the threshold or the channel in your personal settings.",
      ],
      values,
      wallet,
      "Top up",
    );
  return build(
    "quota_warning",
    `${system}：您的额度即将用尽`,
    [
      `${input.username}，您好：`,
      `您在 ${system} 的剩余额度为 ${balance}，已低于您设置的预警阈值 ${threshold}。为避免 API 调用因额度不足被拒绝，请及时充值。`,
      "此提醒每 2 小时最多发送一次；可在个人设置中修改预警阈值或通知方式。",
    ],
    values,
    wallet,
    "充值",
  );
}

export function testNotice(locale: Locale, input: { username: string }): Notice {
  const { system, server } = siteValues();
  const values = { system_name: system, server_address: server, username: input.username };
  if (locale === "en")
    return build(
      "test",
      `${system}: test notification`,
      [`Hello ${input.username},`, `this is a test notification from ${system}: your notification settings work.`],
      values,
      "",
      "",
    );
  return build(
    "test",
    `${system}：测试通知`,
    [`${input.username}，您好：`, `这是一条来自 ${system} 的测试通知，说明您的通知设置可以正常工作。`],
    values,
    "",
    "",
  );
}
