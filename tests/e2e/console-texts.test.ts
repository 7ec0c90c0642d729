// The spec's texts in the console, in Chinese and English, against one real built server and
// one browser (docs/console-ui.md, "One place reports failures"; docs/oauth.md, "Sign-in that
// cannot start"; docs/relay-options.md, "Chat content in the usage log";
// docs/channels-tokens-billing.md, "Log rows in the reader's language"; docs/messages.md).
// A failure the real server cannot be made to answer (a 502 page, a network error, a 403 of a
// call the console only makes when allowed) is answered by the browser's request routing.
// Screenshots under test-results/screenshots/texts/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { setOptions } from "../support/accounts";
import { seedUser, type SeededUser } from "../support/seed";
import { startServer, type TestServer } from "../support/server";
import { flowLocales, fmt, launch, MESSAGES, shooter, type Locale } from "./browser";

const LOCALES: Locale[] = flowLocales(import.meta.url);
const shoot = shooter("texts");

let server: TestServer;
let browser: Browser;
let root: SeededUser;
let sam: SeededUser;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  root = await seedUser(server, { username: "root", role: 100, quota: 1_000_000 });
  sam = await seedUser(server, { username: "sam", quota: 1_000_000 });
  await setOptions(root.client, {
    GitHubOAuthEnabled: "true",
    GitHubClientId: "gh-client",
    CheckInEnabled: "true",
    CheckInQuota: "1000",
    CheckInMaxQuota: "1000",
    DisplayInCurrencyEnabled: "true",
    DataExportEnabled: "true",
  });
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(locale: Locale, who: SeededUser | null): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 860 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  const cookies: { name: string; value: string; url: string }[] = [{ name: "NEXT_LOCALE", value: locale, url: server.url }];
  if (who) cookies.push({ name: "session", value: who.client.cookie.replace(/^session=/, ""), url: server.url });
  await ctx.addCookies(cookies);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return { ctx, page };
}

const toast = (page: Page, text: string) => page.locator("[data-toast]").filter({ hasText: text }).first().waitFor();

describe("third-party sign-in that cannot go on", () => {
  it.each(LOCALES)("lands on the login page with a sentence, and the settings warn (%s)", async (locale) => {
    const m = MESSAGES[locale];
    const { ctx, page } = await open(locale, null);
    try {
      // GitHub is on, ServerAddress is not set: the button ends on the login page, not on JSON
      await page.goto(`${server.url}/login`);
      await page.getByRole("button", { name: m.oauth.withGitHub }).click();
      await page.waitForURL((u) => u.pathname === "/login" && u.searchParams.get("oauth_error") === "no_server_address");
      await page.getByText(m.oauth.failures.no_server_address).waitFor();
      await shoot(page, locale, "login-no-server-address");
      // the person cancelled at the provider: no code, error=access_denied
      await page.goto(`${server.url}/oauth/github?error=access_denied&state=x`);
      await page.waitForURL((u) => u.pathname === "/login" && u.searchParams.get("oauth_error") === "cancelled");
      await page.getByText(m.oauth.failures.cancelled).waitFor();
      expect(await page.getByText("code").count()).toBe(0);
      await shoot(page, locale, "login-cancelled");
    } finally {
      await ctx.close();
    }
    const admin = await open(locale, root);
    try {
      await admin.page.goto(`${server.url}/admin/settings?tab=system`);
      const warning = admin.page.getByText(m.settings.system.oauthNeedsServerAddress);
      await warning.first().waitFor();
      expect(await warning.count()).toBe(1); // GitHub only: the other providers are off
      await warning.first().scrollIntoViewIfNeeded();
      await shoot(admin.page, locale, "settings-oauth-warning", false);
    } finally {
      await admin.ctx.close();
    }
  });
});

describe("register form", () => {
  it.each(LOCALES)("sends a password over 20 characters and shows the server's refusal (%s)", async (locale) => {
    const m = MESSAGES[locale];
    await setOptions(root.client, { RegisterEnabled: "true", PasswordRegisterEnabled: "true" });
    const { ctx, page } = await open(locale, null);
    try {
      await page.goto(`${server.url}/register`);
      await page.getByLabel(m.register.username, { exact: true }).fill(`long${locale}`);
      const long = "p".repeat(24);
      await page.getByLabel(m.register.password, { exact: true }).fill(long);
      await page.getByLabel(m.register.password2, { exact: true }).fill(long);
      const sent = page.waitForRequest((r) => r.url().includes("/api/user/register") && r.method() === "POST");
      await page.getByRole("button", { name: m.register.submit, exact: true }).click();
      await sent;
      const refusal = locale === "zh" ? "密码长度不得超过 20 位" : "The password length must not exceed 20";
      await toast(page, fmt(m.errors.prefixed, { message: refusal }));
      await shoot(page, locale, "register-long-password");
    } finally {
      await ctx.close();
    }
  });
});

describe("failure texts", () => {
  it.each(LOCALES)("403, check-in, settings and profile updates, status and the dashboard say the spec's sentences (%s)", async (locale) => {
    const m = MESSAGES[locale];
    const { ctx, page } = await open(locale, sam);
    try {
      await page.goto(`${server.url}/app/me`);
      const checkIn = page.getByRole("button", { name: m.me.checkIn.button, exact: true });
      await checkIn.waitFor();
      // a gateway page without an envelope: the check-in's own sentence
      await page.route("**/api/user/check_in*", (r) => r.fulfill({ status: 502, contentType: "text/html", body: "<html>bad gateway</html>" }));
      await checkIn.click();
      await toast(page, m.me.checkIn.failed);
      // a 403 with the server's reason: the catalogue's sentence, not the reason
      await page.unroute("**/api/user/check_in*");
      await page.route("**/api/user/check_in*", (r) =>
        r.fulfill({ status: 403, contentType: "application/json", body: JSON.stringify({ success: false, message: "Only the root user may do this" }) }),
      );
      await checkIn.click();
      await toast(page, m.errors.forbidden);
      expect(await page.getByText("Only the root user may do this").count()).toBe(0);
      await shoot(page, locale, "forbidden-and-check-in");
      // one's settings: a gateway page answers the save
      await page.getByLabel(m.me.settings.threshold, { exact: true }).fill("200000");
      await page.route("**/api/user/setting", (r) => r.fulfill({ status: 502, contentType: "text/html", body: "<html>bad gateway</html>" }));
      await page.getByRole("button", { name: m.me.settings.save, exact: true }).click();
      await toast(page, m.me.settings.updateFailed);
      // one's profile (/user/edit): the same, "update failed"
      await page.goto(`${server.url}/user/edit`);
      await page.getByLabel(m.userEditor.displayName, { exact: true }).fill(`Sam ${locale}`);
      await page.route("**/api/user/self", (r) =>
        r.request().method() === "PUT" ? r.fulfill({ status: 502, contentType: "text/html", body: "<html>bad gateway</html>" }) : r.continue(),
      );
      await page.getByRole("button", { name: m.userEditor.save, exact: true }).click();
      await toast(page, m.userEditor.updateFailed);
      await shoot(page, locale, "update-failed");
      // the status refresh that fails
      await page.route("**/api/status", (r) => r.fulfill({ status: 502, contentType: "text/html", body: "<html>bad gateway</html>" }));
      // the site status is refreshed when the browser comes back online
      await page.evaluate(() => window.dispatchEvent(new Event("online")));
      await toast(page, m.errors.statusLoadFailed);
      await page.unroute("**/api/status");

      // the dashboard's data cannot be reached: a sentence, not "network"
      await page.route("**/api/data/**", (r) => r.abort("connectionrefused"));
      await page.goto(`${server.url}/app/dashboard`);
      const banner = page.getByText(fmt(m.dashboard.loadFailed, { reason: m.errors.network }));
      await banner.waitFor();
      expect(await page.getByText(/^network$/).count()).toBe(0);
      await shoot(page, locale, "dashboard-unreachable");
    } finally {
      await ctx.close();
    }
  });
});

describe("chat-content logging and log rows", () => {
  it.each(LOCALES)("the token and log pages tell the user; admin, check-in and top-up rows read in the reader's language (%s)", async (locale) => {
    const m = MESSAGES[locale];
    await setOptions(root.client, { LogChatContentEnabled: "true" });
    // rows of sam's own: a redeemed code, a check-in, the admin setting the quota
    const codes = await root.client.post<string[]>("/api/redemption/", { name: `t-${locale}`, count: 1, quota: 5_000_000 });
    expect(codes.success, codes.message).toBe(true);
    expect((await sam.client.post("/api/user/topup", { key: codes.data[0] })).success).toBe(true);
    const { ctx, page } = await open(locale, sam);
    try {
      await page.goto(`${server.url}/app/tokens`);
      await page.getByText(m.tokens.chatContentNotice).waitFor();
      await shoot(page, locale, "tokens-chat-content-notice");
      await page.goto(`${server.url}/app/logs/api-usage`);
      await page.getByText(m.tokens.chatContentNotice).waitFor();
      // the row of the redeemed code, in the reader's language, its quota in dollars
      const template = m.logs.messages.redeem.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const redeemed = new RegExp(template.replace("\\{id\\}", "\\d+").replace("\\{quota\\}", "\\$10\\.00"));
      await page.getByText(redeemed).first().waitFor();
      expect(await page.getByText(/redeemed code #/).count()).toBe(0);
      await shoot(page, locale, "logs-rows-in-language");
    } finally {
      await ctx.close();
      await setOptions(root.client, { LogChatContentEnabled: "false" });
    }
  });
});

describe("inbox", () => {
  it.each(LOCALES)("an admin's inbox rows show the recipient count (%s)", async (locale) => {
    const sent = await root.client.post<{ id: number }>("/api/admin/messages", {
      title: `Notice ${locale}`,
      content: "To two users",
      format: "markdown",
      user_ids: [root.id, sam.id],
    });
    expect(sent.success, sent.message).toBe(true);
    const { ctx, page } = await open(locale, root);
    try {
      await page.goto(`${server.url}/app/inbox`);
      const count = page.getByTestId(`inbox-recipients-${sent.data.id}`);
      await count.waitFor();
      expect(await count.textContent()).toBe(locale === "zh" ? "发送给 2 位用户" : "Sent to 2 users");
      await shoot(page, locale, "inbox-recipients");
    } finally {
      await ctx.close();
    }
  });
});

describe("channels", () => {
  it.each(LOCALES)("the type filter leaves FastGPT out; a copy of a vanished channel fails with 复制失败 and the refresh hint (%s)", async (locale) => {
    const m = MESSAGES[locale];
    const made = await root.client.post<{ id: number }>("/api/channel/", {
      type: 1,
      name: `gone-${locale}`,
      key: "sk-test",
      base_url: "http://127.0.0.1:9",
      models: "m-x",
      group: "default",
    });
    expect(made.success, made.message).toBe(true);
    const { ctx, page } = await open(locale, root);
    try {
      await page.goto(`${server.url}/admin/channels`);
      const name = `gone-${locale}`;
      await page.getByText(name, { exact: true }).waitFor();
      // the channel goes away after the list was loaded
      expect((await root.client.del(`/api/channel/${made.data.id}`)).success).toBe(true);
      await page.getByRole("button", { name: m.channels.moreFor.replace("{name}", name) }).click();
      await page.getByRole("menuitem", { name: m.channels.actions.copy }).click();
      await page.getByRole("dialog").getByRole("button", { name: m.channels.actions.copy, exact: true }).click();
      const vanished = locale === "zh" ? "渠道不存在，请刷新页面后重试" : "Channel not found, please refresh the page and retry";
      await toast(page, fmt(m.channels.copyFailed, { message: vanished }));
      await shoot(page, locale, "channel-copy-failed");
      // the type filter offers the served types only
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: m.channels.typesFilter, exact: true }).click();
      await page.getByRole("checkbox", { name: "OpenAI" }).first().waitFor();
      expect(await page.getByRole("checkbox", { name: "Anthropic Claude", exact: true }).count()).toBe(1);
      expect(await page.getByRole("checkbox", { name: "FastGPT" }).count()).toBe(0);
      await shoot(page, locale, "channel-type-filter", false);
      await page.keyboard.press("Escape");
    } finally {
      await ctx.close();
    }
  });
});

describe("visual pricing editor", () => {
  it.each(LOCALES)("keeps the edits of a map that failed to save and names it (%s)", async (locale) => {
    const m = MESSAGES[locale].pricingEditor;
    const model = `m-keep-${locale}`;
    await setOptions(root.client, { ModelRatio: JSON.stringify({ [model]: 1 }), CompletionRatio: JSON.stringify({ [model]: 2 }) });
    const { ctx, page } = await open(locale, root);
    try {
      await page.goto(`${server.url}/admin/settings`);
      await page.getByRole("tab", { name: m.tabs.visual }).click();
      const editor = page.getByRole("tabpanel", { name: m.tabs.visual });
      const row = editor.locator(`tr[data-model="${model}"]`);
      await row.getByLabel(`${model} ${m.columns.ratio}`).fill("3");
      await row.getByLabel(`${model} ${m.columns.completionRatio}`).fill("4");
      // the server refuses the completion ratios only
      await page.route("**/api/option/", (r) =>
        r.request().method() === "PUT" && (r.request().postData() ?? "").includes('"CompletionRatio"')
          ? r.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ success: false, message: "refused" }) })
          : r.continue(),
      );
      await editor.getByRole("button", { name: m.save, exact: true }).click();
      await toast(page, fmt(m.unsavedKept, { maps: m.jsonLabels.CompletionRatio }));
      await expect
        .poll(async () => (await root.client.get<{ key: string; value: string }[]>("/api/option/")).data.find((o) => o.key === "ModelRatio")?.value)
        .toBe(JSON.stringify({ [model]: 3 }));
      // after the reload: the saved ratio, and the unsaved completion ratio as typed
      await page.waitForTimeout(500);
      expect(await row.getByLabel(`${model} ${m.columns.ratio}`).inputValue()).toBe("3");
      expect(await row.getByLabel(`${model} ${m.columns.completionRatio}`).inputValue()).toBe("4");
      await shoot(page, locale, "pricing-partial-save", false);
      await page.unroute("**/api/option/");
    } finally {
      await ctx.close();
    }
  });
});

describe("pages", () => {
  it("raised no script errors", () => {
    expect(pageErrors).toEqual([]);
  });
});
