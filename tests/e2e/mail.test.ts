// E-mail in the browser against a real SMTP server on 127.0.0.1 (tests/support/smtp.ts):
// registration with a mailed code (30-second countdown), binding on /app/me, the password
// reset from the login page's "Forgot password?" to /user/reset, the settings' test-mail
// button, and the register form without verification (no e-mail field), in zh and en, with
// screenshots in light and dark (docs/mail.md, docs/accounts-api.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { renderMessage } from "@/lib/i18n/server-messages";
import { ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { parseMail, type ParsedMail } from "../support/mime";
import { startServer, type TestServer } from "../support/server";
import { startTestSmtp, type TestSmtp } from "../support/smtp";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shoot, signIn, type Locale } from "./browser";

let server: TestServer;
let browser: Browser;
let smtp: TestSmtp;
let root: ApiClient;
const pageErrors: string[] = [];

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startServer();
  browser = await launch();
  root = await setupRoot(server);
  await setOptions(root, {
    SMTPServer: "127.0.0.1",
    SMTPPort: String(smtp.port),
    SMTPAccount: "robot@example.com",
    SMTPToken: "smtp-pass",
    ServerAddress: server.url,
    EmailVerificationEnabled: "true",
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

async function mailTo(to: string, since: number): Promise<ParsedMail> {
  const until = Date.now() + 10_000;
  for (;;) {
    const hit = smtp.received.slice(since).find((m) => m.to.includes(to));
    if (hit) return parseMail(hit.raw);
    if (Date.now() > until) throw new Error(`no mail to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const codeOf = (mail: ParsedMail) => /\b(\d{6})\b/.exec(mail.text)?.[1] ?? "";

async function newPage(locale: Locale): Promise<Page> {
  const ctx = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    locale: locale === "zh" ? "zh-CN" : "en-US",
    permissions: ["clipboard-read", "clipboard-write"],
  });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return page;
}

async function login(page: Page, locale: Locale, username: string, password: string) {
  await signIn(page, server.url, username, password);
}

describe.each(flowLocales(import.meta.url))("mail (%s)", (locale) => {
  const m = MESSAGES[locale];
  const sm = (key: Parameters<typeof renderMessage>[1], params?: Record<string, string>) => renderMessage(locale, key, params);
  const user = `${locale}-mailer`;
  const email = `${locale}-mailer@example.com`;

  it("registers with a mailed code: send-code counts down 30 s, a wrong code is refused", async () => {
    const page = await newPage(locale);
    await page.goto(`${server.url}/register`);
    await page.getByLabel(m.register.username, { exact: true }).fill(user);
    await page.getByLabel(m.register.password, { exact: true }).fill("12345678");
    await page.getByLabel(m.register.password2, { exact: true }).fill("12345678");
    // the code is required with verification on
    await page.getByRole("button", { name: m.register.submit, exact: true }).click();
    await expectToast(page, m.validation.emailRequired);
    await page.getByLabel(m.register.emailRequired, { exact: true }).fill(email);
    const since = smtp.received.length;
    const send = page.getByTestId("send-code");
    await send.click();
    await expectToast(page, sm("email_code_sent"));
    await expect.poll(() => send.isDisabled()).toBe(true);
    expect([30, 29, 28].map((seconds) => fmt(m.mail.resendIn, { seconds }))).toContain(await send.textContent());
    const code = codeOf(await mailTo(email, since));
    await page.getByLabel(m.register.verificationCode, { exact: true }).fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: m.register.submit, exact: true }).click();
    await expectToast(page, sm("email_code_wrong"));
    await page.getByLabel(m.register.verificationCode, { exact: true }).fill(code);
    await shoot(page, locale, "mail-register-code");
    await page.getByRole("button", { name: m.register.submit, exact: true }).click();
    // success: a toast, then a full navigation to the login page
    await page.waitForURL((u) => u.pathname === "/login");
    await login(page, locale, email, "12345678");
    await page.context().close();
  });

  it("binds a new address on /app/me with a mailed code", async () => {
    const page = await newPage(locale);
    await login(page, locale, user, "12345678");
    await page.goto(`${server.url}/app/me`);
    await page.getByRole("button", { name: m.me.account.changeEmail, exact: true }).click();
    const dialog = page.getByRole("dialog");
    const next = `${locale}-new@example.com`;
    await dialog.getByLabel(m.me.account.email, { exact: true }).fill(next);
    await dialog.getByRole("button", { name: m.me.account.bindEmailConfirm, exact: true }).click();
    await expectToast(page, m.validation.emailCodeRequired);
    const since = smtp.received.length;
    await dialog.getByTestId("send-code").click();
    await expectToast(page, sm("email_code_sent"));
    const code = codeOf(await mailTo(next, since));
    await dialog.getByLabel(m.me.account.emailCode, { exact: true }).fill(code);
    await shoot(page, locale, "mail-me-bind", false);
    await dialog.getByRole("button", { name: m.me.account.bindEmailConfirm, exact: true }).click();
    await expectToast(page, m.me.account.emailBound);
    await dialog.waitFor({ state: "hidden" });
    await page.getByText(next, { exact: true }).waitFor();
    await shoot(page, locale, "mail-me-bound");
    await page.context().close();
  });

  it("resets the password from the login page's link through the mailed link", async () => {
    const page = await newPage(locale);
    await page.goto(`${server.url}/login`);
    await page.getByRole("link", { name: m.login.toReset }).click();
    await page.waitForURL((u) => u.pathname === "/reset");
    const next = `${locale}-new@example.com`;
    await page.getByLabel(m.reset.email, { exact: true }).fill(next);
    const since = smtp.received.length;
    const submit = page.getByRole("button", { name: m.reset.submit, exact: true });
    await submit.click();
    await expectToast(page, sm("reset_mail_sent"));
    const waiting = page
      .getByRole("button", { name: fmt(m.reset.retryIn, { seconds: 30 }) })
      .or(page.getByRole("button", { name: fmt(m.reset.retryIn, { seconds: 29 }) }));
    await expect.poll(() => waiting.first().isDisabled()).toBe(true);
    await shoot(page, locale, "mail-reset-request");
    const mail = await mailTo(next, since);
    const link = /(https?:\/\/\S+\/user\/reset\?\S+)/.exec(mail.text)?.[1] ?? "";
    expect(link.startsWith(server.url)).toBe(true);

    await page.goto(link);
    const emailField = page.getByLabel(m.reset.email, { exact: true });
    expect(await emailField.inputValue()).toBe(next);
    expect(await emailField.getAttribute("readonly")).not.toBeNull();
    await page.getByRole("button", { name: m.reset.confirmSubmit, exact: true }).click();
    const shown = page.getByTestId("new-password");
    await shown.waitFor();
    const password = await shown.inputValue();
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(await shown.getAttribute("readonly")).not.toBeNull();
    await expectToast(page, m.reset.copied);
    await shown.click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await shoot(page, locale, "mail-reset-done");
    // the link is used: a second submit is refused
    await page.reload();
    await page.getByRole("button", { name: m.reset.confirmSubmit, exact: true }).click();
    await expectToast(page, sm("reset_link_invalid"));
    await login(page, locale, user, password);
    await page.context().close();
  });

  it("the settings' SMTP section sends a test mail with the saved settings", async () => {
    const page = await newPage(locale);
    await login(page, locale, "root", ROOT_PASSWORD);
    await page.goto(`${server.url}/admin/settings?tab=system`);
    const smtpSection = page.locator("form").filter({ has: page.getByRole("heading", { name: m.settings.system.smtp, exact: true }) });
    await smtpSection.waitFor();
    const to = `${locale}-ops@example.com`;
    await smtpSection.getByLabel(m.mail.testTo).fill(to);
    const since = smtp.received.length;
    await smtpSection.getByRole("button", { name: m.mail.testButton, exact: true }).click();
    await expectToast(page, sm("test_mail_sent", { to }));
    expect((await mailTo(to, since)).subject).toContain(locale === "zh" ? "测试邮件" : "test mail");
    await smtpSection.scrollIntoViewIfNeeded();
    await shoot(page, locale, "mail-settings-test", false);
    // a refusing server: the clear message, never the password
    smtp.rejectWith(550);
    await smtpSection.getByRole("button", { name: m.mail.testButton, exact: true }).click();
    await expectToast(page, sm("mail_send_failed"));
    smtp.rejectWith(0);
    expect(await page.content()).not.toContain("smtp-pass");
    await page.context().close();
  });
});

describe("registration without e-mail verification", () => {
  it.each(flowLocales(import.meta.url))("shows no e-mail field (%s): only a verified address is taken", async (locale) => {
    await setOptions(root, { EmailVerificationEnabled: "false" });
    const m = MESSAGES[locale];
    const page = await newPage(locale);
    await page.goto(`${server.url}/register`);
    await page.getByLabel(m.register.username, { exact: true }).waitFor();
    expect(await page.getByLabel(m.register.emailRequired, { exact: true }).count()).toBe(0);
    expect(await page.getByTestId("send-code").count()).toBe(0);
    await shoot(page, locale, "mail-register-no-email");
    await page.context().close();
  });
});

describe("page errors", () => {
  it("none were thrown", () => {
    expect(pageErrors).toEqual([]);
  });
});
