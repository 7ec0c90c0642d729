// Notifications in the console (docs/notifications.md): the personal notification settings
// refuse an http:// webhook (checked in the browser) and a loopback address (the server's
// refusal), and save a good one; the user editor shows the root a user's channel and sends
// a test notification (success, and the reason of a failure), in zh and en, light and dark.
// Screenshots under test-results/screenshots/notifications.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { renderMessage } from "@/lib/i18n/server-messages";
import { setOptions, setupRoot, ROOT_PASSWORD } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { startTestSmtp, type TestSmtp } from "../support/smtp";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shooter, signIn, type Locale } from "./browser";

let server: TestServer;
let browser: Browser;
let root: ApiClient;
let smtp: TestSmtp;
const ids: Record<string, number> = {};
const pageErrors: string[] = [];

const shoot = shooter("notifications");

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  smtp = await startTestSmtp();
  root = await setupRoot(server); // private addresses allowed: the SMTP server is on 127.0.0.1
  await setOptions(root, { SMTPServer: "127.0.0.1", SMTPPort: String(smtp.port), SMTPFrom: "gateway@example.com", SystemName: "Acme AI" });
  for (const name of ["zhuser", "enuser", "nomail"]) {
    const r = await root.post<{ id: number }>("/api/user/", { username: name, password: "user-pass-1", display_name: name });
    expect(r.success, r.message).toBe(true);
    ids[name] = r.data.id;
  }
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

async function open(locale: Locale, username: string, password: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await signIn(page, server.url, username, password);
  return page;
}

describe.each(flowLocales(import.meta.url))("notifications (%s)", (locale) => {
  const m = MESSAGES[locale];
  const sm = (key: Parameters<typeof renderMessage>[1], params?: Record<string, string | number>) => renderMessage(locale, key, params);
  const user = locale === "zh" ? "zhuser" : "enuser";
  const prefixed = (text: string) => fmt(m.errors.prefixed, { message: text });

  it("personal notification settings: http refused in the browser, a loopback address by the server, a good address saved", async () => {
    const page = await open(locale, user, "user-pass-1");
    await page.goto(`${server.url}/app/me`);
    await page.getByRole("tab", { name: m.me.settings.tabNotify }).click();
    const save = page.getByRole("button", { name: m.me.settings.save });
    await page.getByRole("radio", { name: m.me.settings.notifyWebhook }).check();
    await page.getByLabel(m.me.settings.webhookUrl, { exact: true }).fill("http://hooks.example.com/x");
    await save.click();
    await expectToast(page, prefixed(sm("webhook_https_only")));
    await page.getByLabel(m.me.settings.webhookUrl, { exact: true }).scrollIntoViewIfNeeded();
    await shoot(page, locale, "me-webhook-http-refused", false);

    // the first refusal's toast dismissed (a click), so that the shot below shows the second alone
    await page
      .locator("[data-toast]")
      .filter({ hasText: sm("webhook_https_only") })
      .first()
      .click();
    await page
      .locator("[data-toast]")
      .filter({ hasText: sm("webhook_https_only") })
      .waitFor({ state: "detached" });
    // refused although fetch_setting.allow_private_ip is on here: a user's address never reaches loopback (docs/outbound.md)
    await page.getByLabel(m.me.settings.webhookUrl, { exact: true }).fill("https://127.0.0.1:8443/hook");
    await save.click();
    await expectToast(page, sm("webhook_address_refused", { detail: sm("webhook_refused_loopback") }));
    await shoot(page, locale, "me-webhook-loopback-refused", false);
    expect((await root.get<{ setting: string }>(`/api/user/${ids[user]}`)).data.setting).not.toContain("127.0.0.1");

    await page.getByLabel(m.me.settings.webhookUrl, { exact: true }).fill("https://hooks.example.com/notify");
    await page.getByLabel(m.me.settings.webhookSecret, { exact: true }).fill("hook-secret-1");
    await save.click();
    await expectToast(page, sm("setting_updated"));
    await expect
      .poll(async () => JSON.parse((await root.get<{ setting: string }>(`/api/user/${ids[user]}`)).data.setting))
      .toMatchObject({
        notify_type: "webhook",
        webhook_url: "https://hooks.example.com/notify",
        webhook_secret_set: true,
      });
    // back to e-mail, with an address, for the root's test below
    await page.getByRole("radio", { name: m.me.settings.notifyEmail }).check();
    await page.getByLabel(m.me.settings.notificationEmail, { exact: true }).fill(`${user}@example.com`);
    await save.click();
    await expectToast(page, sm("setting_updated"));
    await shoot(page, locale, "me-notify-saved", false);
    await page.context().close();
  });

  it("user editor: the root sends a test notification, and is told why one cannot go", async () => {
    const page = await open(locale, "root", ROOT_PASSWORD);
    await page.goto(`${server.url}/user/edit/${ids[user]}`);
    await page.getByTestId("notify-channel").waitFor();
    await expect.poll(() => page.getByTestId("notify-channel").textContent()).toBe(m.userEditor.notify.email);
    const before = smtp.received.length;
    await page.getByRole("button", { name: m.userEditor.notify.send }).click();
    await expectToast(page, sm("notify_test_sent_email", { to: `${user}@example.com` }));
    await expect.poll(() => smtp.received.length).toBe(before + 1);
    expect(smtp.received.at(-1)!.to).toEqual([`${user}@example.com`]);
    await page.getByRole("button", { name: m.userEditor.notify.send }).scrollIntoViewIfNeeded();
    await shoot(page, locale, "user-editor-test-sent", false);

    await page.goto(`${server.url}/user/edit/${ids.nomail}`);
    // the editor has loaded the user (a click before that finds no user to send to)
    await page.getByTestId("notify-channel").waitFor();
    await page.getByRole("button", { name: m.userEditor.notify.send }).click();
    await expectToast(page, prefixed(sm("notify_no_email")));
    await page.getByRole("button", { name: m.userEditor.notify.send }).scrollIntoViewIfNeeded();
    await shoot(page, locale, "user-editor-test-no-email", false);
    await page.context().close();
  });
});

describe("console errors", () => {
  it("no page error", () => expect(pageErrors).toEqual([]));
});
