// sendMail (docs/mail.md) against a real SMTP server on 127.0.0.1: it delivers with the
// configured account and sender, refuses a server the outbound policy forbids, and turns a
// refusal or a silent server into mail_send_failed within the timeouts, never leaking the
// password.
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { sendMail, smtpConfig } from "@/lib/mail/send";
import { ALLOW_PRIVATE_IP_OPTION } from "@/lib/net/outbound";
import { applyOption } from "@/lib/options/store";
import { logDestination } from "@/lib/logger";
import { startTestSmtp, type TestSmtp } from "../../support/smtp";

let smtp: TestSmtp;
const msg = { to: "alice@example.com", subject: "Hello 你好", text: "plain body", html: "<p>html body</p>" };

beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(() => smtp.close());
beforeEach(() => {
  applyOption(ALLOW_PRIVATE_IP_OPTION, "true");
  applyOption("SMTPServer", "127.0.0.1");
  applyOption("SMTPPort", String(smtp.port));
  applyOption("SMTPAccount", "robot@example.com");
  applyOption("SMTPFrom", "");
  applyOption("SMTPToken", "s3cret-smtp-pass");
  applyOption("SMTPSSLEnabled", "false");
  smtp.rejectWith(0);
});

describe("sendMail", () => {
  it("delivers through the configured server, from the account when SMTPFrom is empty", async () => {
    const before = smtp.received.length;
    await sendMail(msg);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail.from).toBe("robot@example.com");
    expect(mail.to).toEqual(["alice@example.com"]);
    expect(mail.auth).toEqual({ user: "robot@example.com", pass: "s3cret-smtp-pass" });
    expect(mail.raw).toContain("plain body");
    expect(mail.raw).toContain("<p>html body</p>");
  });

  it("implicit TLS on port 465 or with SMTPSSLEnabled, STARTTLS otherwise", () => {
    applyOption("SMTPPort", "465");
    expect(smtpConfig()?.secure).toBe(true);
    applyOption("SMTPPort", "587");
    expect(smtpConfig()?.secure).toBe(false);
    applyOption("SMTPSSLEnabled", "true");
    expect(smtpConfig()?.secure).toBe(true);
  });

  it("is not configured without a server", async () => {
    applyOption("SMTPServer", "");
    await expect(sendMail(msg)).rejects.toMatchObject({ key: "mail_not_configured" });
  });

  it("refuses a loopback server unless private addresses are allowed, by literal and by name", async () => {
    applyOption(ALLOW_PRIVATE_IP_OPTION, "false");
    const before = smtp.received.length;
    await expect(sendMail(msg)).rejects.toMatchObject({ key: "mail_send_failed" });
    applyOption("SMTPServer", "localhost");
    await expect(sendMail(msg)).rejects.toMatchObject({ key: "mail_send_failed" });
    expect(smtp.received.length).toBe(before);
  });

  it("a refusal by the server is mail_send_failed, and the log never has the password", async () => {
    const log = vi.spyOn(logDestination(), "write").mockImplementation(() => true);
    smtp.rejectWith(550);
    await expect(sendMail(msg)).rejects.toMatchObject({ key: "mail_send_failed" });
    expect(log).toHaveBeenCalled();
    expect(log.mock.calls.map((c) => JSON.parse(String(c[0])) as unknown)).toContainEqual(expect.objectContaining({ area: "mail", level: "error" }));
    expect(JSON.stringify(log.mock.calls)).not.toContain("s3cret-smtp-pass");
    log.mockRestore();
  });

  it("a server that never greets fails within the timeouts", async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    applyOption("SMTPPort", String((silent.address() as AddressInfo).port));
    const log = vi.spyOn(logDestination(), "write").mockImplementation(() => true);
    const t0 = Date.now();
    await expect(sendMail(msg)).rejects.toMatchObject({ key: "mail_send_failed" });
    expect(Date.now() - t0).toBeLessThan(8_000);
    log.mockRestore();
    silent.close();
  }, 15_000);
});
