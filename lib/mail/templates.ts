// The bodies of the mails the server sends, in the recipient's or the request's language (the
// server catalogue's mail_* messages, lib/i18n/server-messages/), as plain text and HTML.
// Every interpolated value is escaped in the HTML part; the site's name (SystemName) and
// address (ServerAddress) come from the options (docs/mail.md, "Bodies").
// The notifications (lib/notify/notice.ts) use the same escaping and site lookup.
import "server-only";
import { LOCALE_TAGS, type Locale } from "@/lib/i18n/locale";
import { renderMessage, type MessageKey, type MessageParams } from "@/lib/i18n/server-messages";
import type { MailMessage } from "@/lib/mail/send";
import { getOption } from "@/lib/options/store";

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

export type MailKind = { kind: "verification"; code: string; minutes: number } | { kind: "reset"; link: string; minutes: number } | { kind: "test" };

type Block = { text: string } | { code: string } | { link: string };
type Body = { subject: string; blocks: Block[] };

const DEFAULT_SITE_NAME = "AI Gateway";

/** The site's name (SystemName, else the default) and address (ServerAddress, no trailing slash) for mail bodies. */
export function mailSite(): { name: string; address: string } {
  return { name: getOption("SystemName").trim() || DEFAULT_SITE_NAME, address: getOption("ServerAddress").trim().replace(/\/+$/, "") };
}

function compose(locale: Locale, mail: MailKind, site: string): Body {
  const say = (key: MessageKey, params?: MessageParams) => renderMessage(locale, key, params);
  switch (mail.kind) {
    case "verification":
      return {
        subject: say("mail_verification_subject", { site }),
        blocks: [{ text: say("mail_verification_intro") }, { code: mail.code }, { text: say("mail_verification_validity", { minutes: mail.minutes }) }],
      };
    case "reset":
      return {
        subject: say("mail_reset_subject", { site }),
        blocks: [{ text: say("mail_reset_intro") }, { link: mail.link }, { text: say("mail_reset_validity", { minutes: mail.minutes }) }],
      };
    case "test":
      return { subject: say("mail_test_subject", { site }), blocks: [{ text: say("mail_test_body") }] };
  }
}

/** The subject, plain text and HTML of one mail to `to`. */
export function renderMail(locale: Locale, to: string, mail: MailKind): MailMessage {
  const { name, address } = mailSite();
  const body = compose(locale, mail, name);
  const footer = address ? `${name} · ${address}` : name;
  const text = [...body.blocks.map((b) => ("text" in b ? b.text : "code" in b ? b.code : b.link)), "", "--", footer].join("\n");
  const htmlBlocks = body.blocks.map((b) => {
    if ("code" in b) return `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${escapeHtml(b.code)}</p>`;
    if ("link" in b) return `<p><a href="${escapeHtml(b.link)}">${escapeHtml(b.link)}</a></p>`;
    return `<p>${escapeHtml(b.text)}</p>`;
  });
  const footerHtml = address ? `${escapeHtml(name)} · <a href="${escapeHtml(address)}">${escapeHtml(address)}</a>` : escapeHtml(name);
  const html = [
    `<!doctype html><html lang="${LOCALE_TAGS[locale]}"><body style="font-family:sans-serif;line-height:1.5">`,
    `<h2>${escapeHtml(name)}</h2>`,
    ...htmlBlocks,
    `<hr><p style="color:#888;font-size:12px">${footerHtml}</p>`,
    "</body></html>",
  ].join("\n");
  return { to, subject: body.subject, text, html };
}
