// Third-party sign-in in a real browser (docs/oauth.md), in Chinese and English: the login
// page shows exactly the buttons the site has on (none, some, all), the GitHub button walks
// the whole flow through a local GitHub to the callback page and back to returnTo, WeChat's
// dialog signs in with the code of a local WeChat server, and with the human check on the
// widget's place is shown and a login before its answer is held back with the spec's message.
// Requests to anything but 127.0.0.1 (Telegram's and Cloudflare's scripts) are aborted.
// Screenshots: test-results/screenshots/oauth-*.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startGitHubMock, startTurnstileMock, startWeChatMock } from "../support/oauth-mocks";
import { startServer, type TestServer } from "../support/server";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shoot, stubTurnstile, type Locale } from "./browser";

const LOCALES: Locale[] = flowLocales(import.meta.url);
let server: TestServer;
let browser: Browser;
let root: ApiClient;
let github: Awaited<ReturnType<typeof startGitHubMock>>;
let wechat: Awaited<ReturnType<typeof startWeChatMock>>;
let verifier: Awaited<ReturnType<typeof startTurnstileMock>>;
const outside: string[] = [];

beforeAll(async () => {
  github = await startGitHubMock("gh-client", "gh-secret");
  wechat = await startWeChatMock("wx-token");
  verifier = await startTurnstileMock("secret");
  server = await startServer({ env: { GITHUB_OAUTH_URL: github.url, GITHUB_API_URL: github.url, TURNSTILE_VERIFY_URL: verifier.url } });
  browser = await launch();
  root = await setupRoot(server);
  await setOptions(root, {
    ServerAddress: server.url,
    RegisterEnabled: "true",
    GitHubClientId: "gh-client",
    GitHubClientSecret: "gh-secret",
    LinuxDOClientId: "ld-client",
    IDCFlareClientId: "idc-client",
    "oidc.client_id": "oidc-client",
    "oidc.authorization_endpoint": "http://127.0.0.1:9/auth",
    WeChatServerAddress: wechat.url,
    WeChatServerToken: "wx-token",
    TelegramBotName: "gateway_test_bot",
    TelegramBotToken: "1:bot",
    TurnstileSiteKey: "site-key",
    TurnstileSecretKey: "secret",
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await github?.close();
  await wechat?.close();
  await verifier?.close();
  expect(outside.filter((u) => !/^https:\/\/(telegram\.org|challenges\.cloudflare\.com)\//.test(u))).toEqual([]);
});

async function newPage(locale: Locale): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  // Only loopback: the widgets' scripts from Telegram and Cloudflare are not fetched.
  await ctx.route("**/*", (route) => {
    const u = new URL(route.request().url());
    if (u.hostname === "127.0.0.1") return route.continue();
    outside.push(u.toString());
    return route.abort();
  });
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  return { ctx, page };
}

const ALL = {
  GitHubOAuthEnabled: "false",
  "oidc.enabled": "false",
  LinuxDOOAuthEnabled: "false",
  IDCFlareOAuthEnabled: "false",
  WeChatAuthEnabled: "false",
  TelegramOAuthEnabled: "false",
};

async function buttonsOn(page: Page): Promise<string[]> {
  const box = page.getByTestId("oauth-buttons");
  if ((await box.count()) === 0) return [];
  return (await box.getByRole("button").allTextContents()).map((s) => s.trim());
}

describe("the login page shows exactly the enabled sign-in buttons", () => {
  it.each(LOCALES)("none, some, all (%s)", async (locale) => {
    const m = MESSAGES[locale].oauth;
    const { ctx, page } = await newPage(locale);
    await setOptions(root, ALL);
    await page.goto(`${server.url}/login`);
    await page.getByRole("button", { name: MESSAGES[locale].login.submit, exact: true }).waitFor();
    expect(await buttonsOn(page)).toEqual([]);
    expect(await page.getByTestId("telegram-widget").count()).toBe(0);
    await shoot(page, locale, "oauth-login-none");

    await setOptions(root, { GitHubOAuthEnabled: "true", LinuxDOOAuthEnabled: "true", WeChatAuthEnabled: "true" });
    await page.goto(`${server.url}/login`);
    await page.getByTestId("oauth-buttons").waitFor();
    expect(await buttonsOn(page)).toEqual([m.withGitHub, m.withLinuxDo, m.withWeChat]);
    expect(await page.getByTestId("telegram-widget").count()).toBe(0);
    await shoot(page, locale, "oauth-login-some");

    await setOptions(root, { "oidc.enabled": "true", IDCFlareOAuthEnabled: "true", TelegramOAuthEnabled: "true" });
    await page.goto(`${server.url}/login`);
    await page.getByTestId("oauth-buttons").waitFor();
    expect(await buttonsOn(page)).toEqual([m.withGitHub, m.withOidc, m.withLinuxDo, m.withIdcFlare, m.withWeChat]);
    expect(await page.getByTestId("telegram-widget").count()).toBe(1);
    await shoot(page, locale, "oauth-login-all");
    // the register page offers the same
    await page.goto(`${server.url}/register`);
    await page.getByTestId("oauth-buttons").waitFor();
    expect(await buttonsOn(page)).toEqual([m.withGitHub, m.withOidc, m.withLinuxDo, m.withIdcFlare, m.withWeChat]);
    await ctx.close();
  });
});

describe("sign-in flows", () => {
  it.each(LOCALES)("GitHub: through the local GitHub and the callback page back to returnTo (%s)", async (locale) => {
    await setOptions(root, Object.assign({}, ALL, { GitHubOAuthEnabled: "true" }));
    github.state.next = { id: locale === "zh" ? 501 : 502, login: `octo-${locale}`, name: "Octo", email: null };
    const { ctx, page } = await newPage(locale);
    await page.goto(`${server.url}/login?returnTo=${encodeURIComponent("/app/wallet")}`);
    await page.getByRole("button", { name: MESSAGES[locale].oauth.withGitHub }).click();
    await page.waitForURL((u) => u.pathname === "/app/wallet");
    const me = await page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null"));
    expect(me.username).toMatch(/^gh_\d+$/);
    await ctx.close();
  });

  it.each(LOCALES)("the callback page shows a failure (a made-up state) (%s)", async (locale) => {
    const { ctx, page } = await newPage(locale);
    // The page moves on three seconds after the failure shows. An installed clock still runs
    // in real time, so it is paused as soon as the failure is seen (well before the redirect
    // is due) and only moved on after the screenshots: slow screenshots (the Chinese page's
    // fonts) can no longer overlap the navigation.
    await page.clock.install();
    await page.goto(`${server.url}/oauth/github?code=x&state=made-up`);
    await page
      .getByRole("status")
      .filter({ hasText: locale === "zh" ? "登录状态无效" : "sign-in state is invalid" })
      .waitFor();
    // a second ahead: the pause must still be in the future when it arrives on a loaded machine
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    expect(new URL(page.url()).pathname).toBe("/oauth/github");
    await shoot(page, locale, "oauth-callback-failed");
    await page.clock.runFor(3500);
    await page.waitForURL((u) => u.pathname === "/login", { timeout: 10_000 });
    await ctx.close();
  });

  it.each(LOCALES)("WeChat: the QR dialog takes the code (%s)", async (locale) => {
    await setOptions(root, Object.assign({}, ALL, { WeChatAuthEnabled: "true", WeChatAccountQRCodeImageURL: "" }));
    const m = MESSAGES[locale].oauth;
    const { ctx, page } = await newPage(locale);
    await page.goto(`${server.url}/login`);
    await page.getByRole("button", { name: m.withWeChat }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText(m.wechatHint).waitFor();
    await shoot(page, locale, "oauth-wechat-dialog", false);
    await dialog.getByLabel(m.wechatCode).fill(wechat.issue(`openid-${locale}`));
    await dialog.getByRole("button", { name: m.wechatSubmit }).click();
    await page.waitForURL((u) => u.pathname === "/app/tokens");
    await ctx.close();
  });
});

describe("binding from /app/me", () => {
  it.each(LOCALES)("the bind buttons follow the switches; GitHub binds through the local GitHub (%s)", async (locale) => {
    await setOptions(root, Object.assign({}, ALL, { GitHubOAuthEnabled: "true", WeChatAuthEnabled: "true" }));
    const username = `binder${locale}`;
    await makeUser(server, root, username, 1, "binder-pass-1");
    const { ctx, page } = await newPage(locale);
    const m = MESSAGES[locale];
    await page.goto(`${server.url}/login`);
    await page.getByLabel(m.login.username, { exact: true }).fill(username);
    await page.getByLabel(m.login.password, { exact: true }).fill("binder-pass-1");
    await page.getByRole("button", { name: m.login.submit, exact: true }).click();
    await page.waitForURL((u) => !u.pathname.startsWith("/login"));
    await page.goto(`${server.url}/app/me`);
    const bindGitHub = page.getByRole("button", { name: fmt(m.bindings.bindLabel, { provider: m.bindings.github_id }) });
    await bindGitHub.waitFor();
    expect(await page.getByRole("button", { name: fmt(m.bindings.bindLabel, { provider: m.bindings.wechat_id }) }).count()).toBe(1);
    expect(await page.getByRole("button", { name: fmt(m.bindings.bindLabel, { provider: m.bindings.oidc_id }) }).count()).toBe(0);
    const githubId = locale === "zh" ? 601 : 602;
    github.state.next = { id: githubId, login: `bind-${locale}`, name: "", email: null };
    await bindGitHub.click();
    await page.waitForURL((u) => u.pathname === "/app/me");
    await page.getByText(String(githubId), { exact: true }).waitFor();
    await shoot(page, locale, "oauth-me-bindings");
    await ctx.close();
  });
});

describe("the human check", () => {
  it.each(LOCALES)("on: the widget's place is shown and a login before its answer is held back (%s)", async (locale) => {
    await setOptions(root, Object.assign({}, ALL, { TurnstileCheckEnabled: "true" }));
    try {
      const { ctx, page } = await newPage(locale);
      await page.goto(`${server.url}/login`);
      await page.getByTestId("turnstile").waitFor();
      await page.getByLabel(MESSAGES[locale].login.username, { exact: true }).fill("root");
      await page.getByLabel(MESSAGES[locale].login.password, { exact: true }).fill("whatever-1");
      await page.getByRole("button", { name: MESSAGES[locale].login.submit, exact: true }).click();
      await expectToast(page, MESSAGES[locale].oauth.turnstilePending);
      await shoot(page, locale, "oauth-turnstile-login");
      await ctx.close();
    } finally {
      await setOptions(root, { TurnstileCheckEnabled: "false" });
    }
  });

  it.each(LOCALES)("on: once the widget answers, the login carries its token and the server's check passes (%s)", async (locale) => {
    await setOptions(root, Object.assign({}, ALL, { TurnstileCheckEnabled: "true" }));
    try {
      const { ctx, page } = await newPage(locale);
      await stubTurnstile(page);
      const before = verifier.calls.length;
      await page.goto(`${server.url}/login`);
      await page.getByLabel(MESSAGES[locale].login.username, { exact: true }).fill("root");
      await page.getByLabel(MESSAGES[locale].login.password, { exact: true }).fill(ROOT_PASSWORD);
      await page.waitForTimeout(300);
      await page.getByRole("button", { name: MESSAGES[locale].login.submit, exact: true }).click();
      await page.waitForURL((u) => !u.pathname.startsWith("/login"));
      expect(verifier.calls.slice(before).map((c) => c.response)).toEqual(["pass"]);
      await ctx.close();
    } finally {
      await setOptions(root, { TurnstileCheckEnabled: "false" });
    }
  });
});
