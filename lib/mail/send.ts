// Sending mail: one SMTP transport (nodemailer) built from the SMTP* options, under the
// outbound policy (docs/mail.md). Everything that mails (verification codes, password
// reset, quota warnings, the settings' test mail) calls sendMail; nothing else talks SMTP.
import "server-only";
import { logger } from "@/lib/logger";
import net from "node:net";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { AppError } from "@/lib/errors";
import { getBool, getOption } from "@/lib/options/store";
import { guardedLookup, outboundRefusal, refusalFor } from "@/lib/net/outbound";

const log = logger("mail");

export type MailMessage = { to: string; subject: string; text: string; html: string };

// A slow or silent server costs a request at most about this long (connect + greeting, then
// each command's answer); sendMail never waits on a server beyond them.
export const MAIL_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 } as const;

type SmtpConfig = { host: string; port: number; secure: boolean; user: string; pass: string; from: string };

/** The SMTP settings, or null when no server is configured. Port 465 (or SMTPSSLEnabled) is implicit TLS; any other port upgrades with STARTTLS when the server offers it. */
export function smtpConfig(): SmtpConfig | null {
  const host = getOption("SMTPServer").trim();
  if (!host) return null;
  const port = Number.parseInt(getOption("SMTPPort"), 10) || 587;
  const user = getOption("SMTPAccount").trim();
  return {
    host,
    port,
    secure: port === 465 || getBool("SMTPSSLEnabled"),
    user,
    pass: getOption("SMTPToken"),
    from: getOption("SMTPFrom").trim() || user,
  };
}

export const mailConfigured = (): boolean => smtpConfig() !== null;

// The server's name is resolved here, every address checked by the outbound policy, and the
// transport connects to the checked address (TLS still verifies the certificate against the
// name), so an SMTP host that resolves to a forbidden address is refused like any other.
async function resolveChecked(host: string): Promise<string> {
  if (net.isIP(host)) {
    const refusal = refusalFor(host);
    if (refusal) throw refusal;
    return host;
  }
  return new Promise((resolve, reject) => {
    guardedLookup(host, {}, (err, address) => (err ? reject(err) : resolve(String(address))));
  });
}

// Not pooled: one connection per message (mail is rare here), so an option change needs no
// teardown and a dead server holds nothing open.
function transportFor(cfg: SmtpConfig, address: string) {
  return nodemailer.createTransport({
    host: address,
    port: cfg.port,
    secure: cfg.secure,
    auth: cfg.user ? { user: cfg.user, pass: cfg.pass } : undefined,
    tls: { servername: net.isIP(cfg.host) ? undefined : cfg.host },
    ...MAIL_TIMEOUTS,
  } satisfies SMTPTransport.Options);
}

/**
 * Sends one message. Throws AppError("RULE", "mail_not_configured") when no SMTP server is
 * set, AppError("UPSTREAM", "mail_send_failed") when the server refuses or does not answer
 * in time; the underlying error is logged without the password.
 */
export async function sendMail(msg: MailMessage): Promise<void> {
  const cfg = smtpConfig();
  if (!cfg) throw new AppError("RULE", "mail_not_configured");
  try {
    const address = await resolveChecked(cfg.host);
    await transportFor(cfg, address).sendMail({ from: cfg.from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
  } catch (e) {
    const refusal = outboundRefusal(e);
    const reason = refusal ? refusal.message : e instanceof Error ? `${(e as { code?: string }).code ?? e.name}: ${e.message}` : "unknown";
    // nodemailer's errors carry the server's reply, never the credentials sent to it
    log.error({ host: cfg.host, port: cfg.port, error: reason }, "sending failed");
    throw new AppError("UPSTREAM", "mail_send_failed");
  }
}
