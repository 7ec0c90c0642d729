// The bodies of the mails the server sends, in the request's language (zh default, en), as
// plain text and HTML. Every interpolated value is escaped in the HTML part; the site's name
// (SystemName) and address (ServerAddress) come from the options (docs/mail.md, "Bodies").
// The notifications (lib/notify/notice.ts) use the same escaping and site lookup.
import "server-only";
import type { Locale } from "@/lib/i18n/locale";
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

function compose(locale: Locale, mail: MailKind, name: string): Body {
  const zh = locale === "zh";
  switch (mail.kind) {
    case "verification":
      return {
        subject: zh ? `${name} 邮箱验证码` : `${name} email verification code`,
        blocks: [
          { text: zh ? "你好，你正在进行邮箱验证。你的验证码是：" : "Hello, you are verifying your email address. Your code is:" },
          { code: mail.code },
          {
            text: zh
              ? `验证码 ${mail.minutes} 分钟内有效，只能使用一次。如果这不是你本人的操作，请忽略本邮件。`
              : `The code is valid for ${mail.minutes} minutes and can be used once. If you did not ask for it, ignore this mail.`,
          },
        ],
      };
    case "reset":
      return {
        subject: zh ? `${name} 密码重置` : `${name} password reset`,
        blocks: [
          { text: zh ? "你好，你正在重置密码。打开下面的链接完成重置：" : "Hello, you asked to reset your password. Open this link to finish:" },
          { link: mail.link },
          {
            text: zh
              ? `链接 ${mail.minutes} 分钟内有效，只能使用一次。如果这不是你本人的操作，请忽略本邮件，你的密码不会改变。`
              : `The link is valid for ${mail.minutes} minutes and can be used once. If you did not ask for it, ignore this mail; your password stays as it is.`,
          },
        ],
      };
    case "test":
      return {
        subject: zh ? `${name} 测试邮件` : `${name} test mail`,
        blocks: [
          {
            text: zh ? "这是一封测试邮件：SMTP 设置可以正常发送邮件。" : "This is a test mail: the SMTP settings can send mail.",
          },
        ],
      };
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
    `<!doctype html><html lang="${locale === "zh" ? "zh-CN" : "en"}"><body style="font-family:sans-serif;line-height:1.5">`,
    `<h2>${escapeHtml(name)}</h2>`,
    ...htmlBlocks,
    `<hr><p style="color:#888;font-size:12px">${footerHtml}</p>`,
    "</body></html>",
  ].join("\n");
  return { to, subject: body.subject, text, html };
}
