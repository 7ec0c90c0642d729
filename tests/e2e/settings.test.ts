// The settings page (docs/settings.md) in Chinese and in English against one real built
// server and one browser: the root opens /admin/settings, walks the five tabs (kept in
// ?tab=), saves a changed option and sees the success toast, saves again unchanged and sees
// 你似乎并没有修改什么, sees the server's refusal of a payment setting without a server
// address, clears a saved secret after a confirmation, is told when no update source is set, cancels the password-login confirmation and sees the switch still on; an admin
// sees root-only fields disabled. Screenshots of every tab in both languages and themes go
// to test-results/screenshots/.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { makeUser, ROOT_PASSWORD, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shoot, signIn, type Locale } from "./browser";

const LOCALES: Locale[] = flowLocales(import.meta.url);
const ADMIN = { username: "opsadmin", password: "user-pass-1" };

let server: TestServer;
let browser: Browser;
let root: ApiClient;
let source: http.Server;
let sourceUrl = "";
const pageErrors: string[] = [];

beforeAll(async () => {
  // a release source and an OIDC provider on loopback (setupRoot allows private addresses)
  source = http.createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/release")
      res.end(JSON.stringify({ tag_name: "v999.1.0", body: "## Highlights\n\n- **faster** relay\n\n<script>window.__pwned = 1</script>" }));
    else if (req.url === "/.well-known/openid-configuration")
      res.end(JSON.stringify({ authorization_endpoint: `${sourceUrl}/auth`, token_endpoint: `${sourceUrl}/token`, userinfo_endpoint: `${sourceUrl}/me` }));
    else {
      res.statusCode = 404;
      res.end("{}");
    }
  });
  await new Promise<void>((r) => source.listen(0, "127.0.0.1", r));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  server = await startServer();
  root = await setupRoot(server);
  await makeUser(server, root, ADMIN.username, 10, ADMIN.password);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => source?.close(r));
});

async function newPage(locale: Locale): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return { ctx, page };
}

async function login(page: Page, locale: Locale, user: { username: string; password: string }) {
  await signIn(page, server.url, user.username, user.password);
}

/** The section card whose heading is the title. */
const section = (page: Page, title: string) => page.locator("form").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
// the page's one save bar (docs/settings.md, "The page")
const saveBar = (page: Page) => page.getByTestId("settings-save-bar");
const barButton = (page: Page, locale: Locale, name: "save" | "discard") =>
  saveBar(page).getByRole("button", { name: MESSAGES[locale].settingsKit[name], exact: true });

describe.each(LOCALES)("settings page (%s)", (locale) => {
  const m = MESSAGES[locale];
  const s = m.settings;
  let ctx: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ ctx, page } = await newPage(locale));
    await login(page, locale, { username: "root", password: ROOT_PASSWORD });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("opens on the operation tab and walks the five tabs through ?tab=", async () => {
    await page.goto(`${server.url}/admin/settings`);
    expect(await page.getByRole("tab", { name: s.tabs.operation }).getAttribute("aria-selected")).toBe("true");
    await section(page, s.operation.monitoring).waitFor();
    await shoot(page, locale, "settings-operation");
    for (const tab of ["ratelimit", "models", "system", "other", "operation"] as const) {
      await page.getByRole("tab", { name: s.tabs[tab] }).click();
      await page.waitForURL((u) => u.searchParams.get("tab") === tab);
      expect(await page.getByRole("tab", { name: s.tabs[tab] }).getAttribute("aria-selected")).toBe("true");
      if (tab !== "operation") await shoot(page, locale, `settings-${tab}`);
    }
    // a reload keeps the tab
    await page.goto(`${server.url}/admin/settings?tab=system`);
    await section(page, s.system.payment).waitFor();
    // on a phone width the tabs scroll and the fields stack
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/admin/settings?tab=ratelimit`);
    await section(page, s.ratelimit.title).waitFor();
    await shoot(page, locale, "settings-phone", false);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("says the options are loading, and offers a retry when they cannot be fetched", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/option/", async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ success: false, message: "boom" }) });
    });
    await page.goto(`${server.url}/admin/settings?tab=operation`);
    await page.getByRole("status").filter({ hasText: s.loading }).waitFor();
    release();
    const failed = page.getByRole("alert").filter({ hasText: s.loadFailed });
    await failed.waitFor();
    await shoot(page, locale, "settings-load-failed", false);
    await page.unroute("**/api/option/");
    await failed.getByRole("button", { name: m.dataTable.retry }).click();
    await section(page, s.operation.monitoring).waitFor();
    expect(await failed.count()).toBe(0);
  });

  it("saves a changed option, then says nothing changed", async () => {
    await page.goto(`${server.url}/admin/settings?tab=ratelimit`);
    const card = section(page, s.ratelimit.title);
    const field = card.getByLabel(s.labels.ModelRequestRateLimitSuccessCount, { exact: true });
    const value = locale === "zh" ? "777" : "888";
    await field.fill(value);
    // the bar names the changed section
    await expect.poll(() => saveBar(page).getByRole("status").textContent()).toContain(s.ratelimit.title);
    await barButton(page, locale, "save").click();
    await expectToast(page, m.settingsKit.saved);
    const listed = await root.get<{ key: string; value: string }[]>("/api/option/");
    expect(listed.data.find((o) => o.key === "ModelRequestRateLimitSuccessCount")?.value).toBe(value);
    // nothing left to save
    await saveBar(page).getByText(m.settingsKit.allSaved).waitFor();
    expect(await barButton(page, locale, "save").isDisabled()).toBe(true);
  });

  it("shows a rule's message in the form and the server's refusal", async () => {
    await page.goto(`${server.url}/admin/settings?tab=operation`);
    const chats = section(page, s.operation.chats);
    await chats.getByLabel(s.labels.Chats).fill("[{bad json");
    await chats.getByText(locale === "zh" ? "Chats 不是合法的 JSON 字符串" : "Chats is not a valid JSON string").waitFor();
    await barButton(page, locale, "save").click();
    await expectToast(page, m.settingsKit.checkInput);
    await barButton(page, locale, "discard").click();

    // the server refuses payment settings before the server address is set
    await page.goto(`${server.url}/admin/settings?tab=system`);
    const payment = section(page, s.system.payment);
    await payment.getByText(s.system.paymentNeedsServerAddress).waitFor();
    await payment.getByLabel(s.labels.EpayId, { exact: true }).fill("10086");
    const reloaded = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/option/" && r.request().method() === "GET");
    await barButton(page, locale, "save").click();
    await expectToast(page, locale === "zh" ? "请先设置服务器地址，再修改支付设置" : "Set the server address before the payment settings");
    await expectToast(page, m.settingsKit.partialFailed);
    // the options were reloaded, and the refused field keeps what was typed
    await reloaded;
    await page.waitForTimeout(300);
    expect(await payment.getByLabel(s.labels.EpayId, { exact: true }).inputValue()).toBe("10086");
    // the footer is the other tab's (personalization) only
    expect(await section(page, s.system.general).getByLabel(s.labels.Footer, { exact: true }).count()).toBe(0);
    await shoot(page, locale, "settings-refused", false);
    await barButton(page, locale, "discard").click();
  });

  it("asks before turning password login off; cancelling keeps it on", async () => {
    await page.goto(`${server.url}/admin/settings?tab=system`);
    const login = section(page, s.system.login);
    const sw = login.getByRole("switch", { name: s.labels.PasswordLoginEnabled });
    expect(await sw.getAttribute("aria-checked")).toBe("true");
    await sw.click();
    const dialog = page.getByRole("dialog", { name: s.system.passwordOffTitle });
    await dialog.waitFor();
    await shoot(page, locale, "settings-password-confirm", false);
    await dialog.getByRole("button", { name: m.settingsKit.cancel }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await sw.getAttribute("aria-checked")).toBe("true");
    expect(await barButton(page, locale, "save").isDisabled()).toBe(true);
  });

  it("checks for updates and shows the release notes sanitized; fetches the OIDC endpoints", async () => {
    for (const key of ["oidc.well_known", "oidc.authorization_endpoint", "oidc.token_endpoint", "oidc.user_info_endpoint"])
      await root.put("/api/option/", { key, value: "" });
    // no release source (the default): said plainly, and no check to fail
    await root.put("/api/option/", { key: "UpdateCheckUrl", value: "" });
    await page.goto(`${server.url}/admin/settings?tab=other`);
    expect(await page.getByTestId("no-update-source").textContent()).toBe(s.other.noUpdateSource);
    expect(await page.getByRole("button", { name: s.other.checkUpdate }).isDisabled()).toBe(true);
    await shoot(page, locale, "settings-no-update-source", false);
    await root.put("/api/option/", { key: "UpdateCheckUrl", value: `${sourceUrl}/missing` });
    await page.reload();
    expect(await page.getByTestId("no-update-source").count()).toBe(0);
    await page.getByRole("button", { name: s.other.checkUpdate }).click();
    await expectToast(page, s.other.updateFailed);
    await root.put("/api/option/", { key: "UpdateCheckUrl", value: `${sourceUrl}/release` });
    await page.getByRole("button", { name: s.other.checkUpdate }).click();
    const dialog = page.getByRole("dialog", { name: s.other.newVersion.replace("{tag}", "v999.1.0") });
    await dialog.getByRole("heading", { name: "Highlights" }).waitFor();
    expect(await dialog.locator("strong").textContent()).toBe("faster");
    expect(await dialog.locator("script").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await shoot(page, locale, "settings-update", false);
    await dialog.getByRole("button", { name: s.other.close, exact: true }).click();
    await dialog.waitFor({ state: "hidden" });

    await page.goto(`${server.url}/admin/settings?tab=system`);
    const oidc = section(page, "OIDC");
    // checked first with the server's rule and message, no request
    await oidc.getByLabel(s.labels.oidc_well_known, { exact: true }).fill("ftp://idp.example.com");
    await oidc.getByRole("button", { name: s.system.fetchWellKnown }).click();
    await expectToast(page, locale === "zh" ? "Well-Known URL 必须以 http:// 或 https:// 开头" : "The Well-Known URL must start with http:// or https://");
    await oidc.getByLabel(s.labels.oidc_well_known, { exact: true }).fill(`${sourceUrl}/nothing-here`);
    await oidc.getByRole("button", { name: s.system.fetchWellKnown }).click();
    await expectToast(page, s.system.oidcFailed);
    await oidc.getByLabel(s.labels.oidc_well_known, { exact: true }).fill(`${sourceUrl}/.well-known/openid-configuration`);
    await oidc.getByRole("button", { name: s.system.fetchWellKnown }).click();
    await expectToast(page, s.system.oidcFetched);
    expect(await oidc.getByLabel(s.labels.oidc_token_endpoint, { exact: true }).inputValue()).toBe(`${sourceUrl}/token`);
    expect(await oidc.getByLabel(s.labels.oidc_user_info_endpoint, { exact: true }).inputValue()).toBe(`${sourceUrl}/me`);
    await barButton(page, locale, "save").click();
    await expectToast(page, m.settingsKit.saved);
    const listed = await root.get<{ key: string; value: string }[]>("/api/option/");
    expect(listed.data.find((o) => o.key === "oidc.authorization_endpoint")?.value).toBe(`${sourceUrl}/auth`);
  });

  it("clears a saved secret after a confirmation (cancelling keeps it)", async () => {
    const secretSet = async () => (await root.get<{ key: string; set?: boolean }[]>("/api/option/")).data.find((o) => o.key === "SMTPToken")?.set;
    await root.put("/api/option/", { key: "SMTPToken", value: "smtp-token-e2e-never-shown" });
    await page.goto(`${server.url}/admin/settings?tab=system`);
    const smtp = section(page, s.system.smtp);
    await smtp.locator('[data-secret-state="set"]').waitFor();
    await smtp.scrollIntoViewIfNeeded();
    await shoot(page, locale, "settings-secret-set", false);
    const title = fmt(m.settingsKit.secretClearTitle, { name: s.labels.SMTPToken });
    await smtp.getByRole("button", { name: m.settingsKit.secretClear, exact: true }).click();
    const dialog = page.getByRole("dialog", { name: title });
    await dialog.getByText(m.settingsKit.secretClearDescription).waitFor();
    await shoot(page, locale, "settings-secret-clear", false);
    await dialog.getByRole("button", { name: m.settingsKit.cancel, exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await secretSet()).toBe(true);
    await smtp.getByRole("button", { name: m.settingsKit.secretClear, exact: true }).click();
    await dialog.getByRole("button", { name: m.settingsKit.secretClear, exact: true }).click();
    await expectToast(page, m.settingsKit.secretCleared);
    await smtp.locator('[data-secret-state="unset"]').waitFor();
    expect(await smtp.getByRole("button", { name: m.settingsKit.secretClear, exact: true }).count()).toBe(0);
    expect(await secretSet()).toBe(false);
    expect(await page.content()).not.toContain("smtp-token-e2e-never-shown");
  });

  it("shows the log clean-up with a default time one month ago", async () => {
    await page.goto(`${server.url}/admin/settings?tab=operation`);
    const logs = section(page, s.operation.logs);
    // the kit's date-time picker (components/ui/date-time-picker.tsx): its button shows the time
    const picker = logs.getByRole("button", { name: s.operation.cleanup.label, exact: true });
    const value = (await picker.innerText()).trim();
    expect(value).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const days = (Date.now() - new Date(value.replace(" ", "T")).getTime()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    // cleared: the spec's "please select log time", no request
    await logs.getByRole("button", { name: m.dateTimePicker.clearLabel.replace("{label}", s.operation.cleanup.label) }).click();
    await logs.getByRole("button", { name: s.operation.cleanup.action }).click();
    await expectToast(page, s.operation.cleanup.selectTime);
    expect(await page.getByRole("dialog").count()).toBe(0);
    // back to the default (a month ago) before clearing for real
    await page.reload();
    await expect.poll(async () => (await picker.innerText()).trim()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await logs.getByRole("button", { name: s.operation.cleanup.action }).click();
    await page.getByRole("dialog").getByRole("button", { name: s.operation.cleanup.action }).click();
    await expectToast(page, s.operation.cleanup.cleared.replace("{n}", "0"));
  });
});

describe("settings page for an admin", () => {
  it("shows root-only fields disabled and hides the secrets", async () => {
    const { ctx, page } = await newPage("en");
    const s = MESSAGES.en.settings;
    await login(page, "en", ADMIN);
    await page.goto(`${server.url}/admin/settings?tab=system`);
    const smtp = section(page, s.system.smtp);
    await smtp.waitFor();
    expect(await smtp.getByLabel(s.labels.SMTPServer, { exact: true }).isDisabled()).toBe(true);
    expect(await smtp.getByLabel(s.labels.SMTPToken).count()).toBe(0);
    expect(await barButton(page, "en", "save").isDisabled()).toBe(true);
    await page.goto(`${server.url}/admin/settings?tab=operation`);
    const quota = section(page, s.operation.quota);
    expect(await quota.getByLabel(s.labels.QuotaForNewUser, { exact: true }).isDisabled()).toBe(false);
    await shoot(page, "en", "settings-admin-operation");
    await ctx.close();
  });

  it("had no page errors", () => {
    expect(pageErrors).toEqual([]);
  });
});
