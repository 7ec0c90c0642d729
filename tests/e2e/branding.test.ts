// Branding and shell options in a browser (docs/options.md, "Branding"; docs/console-ui.md,
// "Branding and announcement", "Unbuilt routes"), in Chinese and English, against one built
// server and one browser: the announcement dialog and its two ways of closing; the root's head
// HTML, CSS and JavaScript really run; the footer's five re-reads and its rotating powered-by
// link; the New Year's Day easter egg; every shell link leads to a page that answers;
// DefaultCollapseSidebar, DisplayInCurrencyEnabled and AffEnabled as a user sees them.
// Screenshots (test-results/screenshots/branding-*) of the home page, about page, footer, top
// bar with a custom logo and name, and the announcement, light and dark.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { flowLocales, launch, MESSAGES, shoot, signIn, type Locale } from "./browser";

const LOCALES: Locale[] = flowLocales(import.meta.url);
const USER = { username: "brandy", password: "user-pass-1" };
const LOGO = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#ea580c"/><path d="M8 22 16 8l8 14z" fill="#fff"/></svg>')}`;

let server: TestServer;
let browser: Browser;
let root: ApiClient;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  root = await setupRoot(server);
  await makeUser(server, root, USER.username, 10, USER.password);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPage(locale: Locale, opts: { time?: Date } = {}): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  if (opts.time) await page.clock.setFixedTime(opts.time);
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return { ctx, page };
}

const NOTICE =
  '## Maintenance tonight\n\nThe relay restarts at **23:00 UTC**; see [the status page](https://status.example.com).\n\n<img src=x onerror="window.noticeEvil=1"><script>window.noticeEvil=2</script>';

describe("announcement (Notice)", () => {
  it.each(LOCALES)("opens on the home page, renders Markdown safely, closes for the visit or for today (%s)", async (locale) => {
    const m = MESSAGES[locale];
    await setOptions(root, { Notice: NOTICE });
    const { ctx, page } = await newPage(locale);
    try {
      await page.goto(server.url + "/");
      const dialog = page.getByRole("dialog", { name: m.notice.title });
      await dialog.waitFor();
      await dialog.getByRole("heading", { name: "Maintenance tonight" }).waitFor();
      expect(await dialog.locator("strong").textContent()).toBe("23:00 UTC");
      expect(await dialog.getByRole("link", { name: "the status page" }).getAttribute("href")).toBe("https://status.example.com");
      expect(await page.evaluate(() => (window as { noticeEvil?: number }).noticeEvil)).toBeUndefined();
      await shoot(page, locale, "branding-notice", false);

      // "close": gone for this visit (a client-side return home does not reopen it), back on reload
      await dialog.getByRole("button", { name: m.notice.close, exact: true }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.getByRole("link", { name: m.shell.nav.about }).click();
      await page.waitForURL(/\/about$/);
      await page.getByRole("link", { name: m.shell.nav.home }).click();
      await page.waitForURL((u) => u.pathname === "/");
      await page.waitForTimeout(300);
      expect(await dialog.isVisible()).toBe(false);
      await page.reload();
      await dialog.waitFor();

      // "close for today": remembered in the browser until the local day changes
      await dialog.getByRole("button", { name: m.notice.closeToday }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.reload();
      await page.waitForTimeout(500);
      expect(await dialog.isVisible()).toBe(false);
      await page.evaluate(() => localStorage.setItem("notice_close_date", "2000-01-01"));
      await page.reload();
      await dialog.waitFor();

      // an empty Notice shows nothing
      await setOptions(root, { Notice: "" });
      await page.evaluate(() => localStorage.removeItem("notice_close_date"));
      await page.reload();
      await page.waitForTimeout(500);
      expect(await dialog.isVisible()).toBe(false);
    } finally {
      await ctx.close();
    }
  });
});

describe("branded pages", () => {
  it.each(LOCALES)("home, about, footer and top bar carry the admin's content, name and logo (%s)", async (locale) => {
    await setOptions(root, {
      SystemName: "Acme Relay",
      Logo: LOGO,
      HomePageContent:
        '# Acme Relay\n\nOne key for **every model** we resell.\n\n| plan | price |\n|---|---|\n| starter | $5 |\n| team | $50 |\n\n> Questions? Write to <a href="mailto:help@example.com">help@example.com</a>.',
      About: '## About Acme\n\nWe run this gateway since 2024.\n\n- fast\n- fair\n\n<div class="team">Made by the <em>Acme</em> team</div>',
      Footer: '<p>© 2026 Acme Relay · <a href="https://example.com/terms" target="_blank">Terms</a></p>',
    });
    const { ctx, page } = await newPage(locale);
    try {
      await page.goto(server.url + "/");
      await page.getByRole("heading", { name: "Acme Relay", level: 1 }).waitFor();
      expect(await page.title()).toBe("Acme Relay");
      expect(await page.getByTestId("site-logo").getAttribute("src")).toBe(LOGO);
      expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe(LOGO);
      expect(await page.locator("table td").first().textContent()).toBe("starter");
      expect(await page.locator("footer").getByRole("link", { name: "Terms" }).getAttribute("rel")).toBe("noopener noreferrer");
      await shoot(page, locale, "branding-home");
      await page.goto(server.url + "/about");
      await page.getByRole("heading", { name: "About Acme" }).waitFor();
      expect(await page.locator(".team em").textContent()).toBe("Acme");
      await shoot(page, locale, "branding-about");
    } finally {
      await ctx.close();
      await setOptions(root, { SystemName: "AI Gateway", Logo: "", HomePageContent: "", About: "", Footer: "" });
    }
  });

  it("an About URL is shown in a frame", async () => {
    await setOptions(root, { About: `${server.url}/pricing` });
    const { ctx, page } = await newPage("en");
    try {
      await page.goto(server.url + "/about");
      const frame = page.frameLocator("iframe");
      await frame.getByRole("heading", { name: MESSAGES.en.pricing.title }).waitFor();
    } finally {
      await ctx.close();
      await setOptions(root, { About: "" });
    }
  });
});

describe("root-authored code", () => {
  it("custom_head_html, global_css and global_js run in the page", async () => {
    await setOptions(root, {
      custom_head_html: '<meta name="acme-verification" content="abc123"><script>window.headRan = document.readyState;</script>',
      global_css: "footer { outline: 3px solid rgb(255, 0, 0); }",
      global_js: "window.globalRan = !!document.querySelector('footer');",
    });
    const { ctx, page } = await newPage("en");
    try {
      await page.goto(server.url + "/pricing");
      await page.waitForFunction(() => "globalRan" in window && "headRan" in window);
      expect(await page.evaluate(() => (window as unknown as { globalRan: boolean }).globalRan)).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { headRan: string }).headRan)).toBe("loading");
      expect(await page.locator('head meta[name="acme-verification"]').getAttribute("content")).toBe("abc123");
      expect(await page.locator("footer").evaluate((f) => getComputedStyle(f).outlineColor)).toBe("rgb(255, 0, 0)");
    } finally {
      await ctx.close();
      await setOptions(root, { custom_head_html: "", global_css: "", global_js: "" });
    }
  });
});

describe("footer", () => {
  it("re-reads the stored footer 5 times, 200 ms apart, after load", async () => {
    const { ctx, page } = await newPage("en");
    try {
      // the page's timers run only when the test says so: installed and paused before the load
      // (a clock left running fires all five re-reads during a slow machine's load)
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1_000);
      await page.goto(server.url + "/about");
      // hydrated: the status copy (footer_html among it) has been stored, the re-reads wait
      await page.waitForFunction(() => localStorage.getItem("status") !== null, undefined, { polling: 50 });
      await page.evaluate(() => localStorage.setItem("footer_html", "<b>saved just now</b>"));
      await page.clock.runFor(210);
      await page.locator("footer b").filter({ hasText: "saved just now" }).waitFor();
      // the other four re-reads pick up a later change too; after the fifth, nothing is read
      await page.evaluate(() => localStorage.setItem("footer_html", "<i>fourth</i>"));
      await page.clock.runFor(600);
      await page.locator("footer i").filter({ hasText: "fourth" }).waitFor();
      await page.clock.runFor(400);
      await page.evaluate(() => localStorage.setItem("footer_html", "<u>too late</u>"));
      await page.clock.runFor(2000);
      await page.waitForTimeout(300);
      expect(await page.locator("footer u").count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it("rotates the powered-by link", async () => {
    const { ctx, page } = await newPage("en");
    try {
      await page.clock.install();
      await page.goto(server.url + "/pricing");
      // the rotation's timer starts once the page is hydrated: advancing the clock before
      // that (the load event can come first) would move nothing
      await page.waitForLoadState("networkidle");
      const link = page.getByTestId("powered-by").getByRole("link");
      expect(await link.getAttribute("href")).toBe("/about");
      await page.clock.runFor(4100);
      await expect.poll(() => link.textContent()).toBe("New API");
      expect(await link.getAttribute("href")).toBe("https://github.com/QuantumNous/new-api");
      await page.clock.runFor(4000);
      await expect.poll(() => link.textContent()).toBe("One API");
      await page.clock.runFor(4000);
      await expect.poll(() => link.getAttribute("href")).toBe("/about");
    } finally {
      await ctx.close();
    }
  });
});

describe("shell", () => {
  it.each(LOCALES)("on New Year's Day the top bar wishes a happy new year, on other days not (%s)", async (locale) => {
    const m = MESSAGES[locale];
    for (const [time, shown] of [
      [new Date(2027, 0, 1, 10), true],
      [new Date(2027, 0, 2, 10), false],
    ] as const) {
      const { ctx, page } = await newPage(locale, { time });
      try {
        await page.goto(server.url + "/pricing");
        await page.waitForLoadState("networkidle");
        const egg = page.getByRole("button", { name: m.shell.happyNewYear });
        // the top bar renders the egg after hydration: wait for it where it belongs
        if (shown) await egg.waitFor({ timeout: 10_000 });
        expect(await egg.count()).toBe(shown ? 1 : 0);
        if (shown) {
          await egg.click();
          await page.locator("[data-toast]").filter({ hasText: m.shell.happyNewYear }).first().waitFor();
        }
      } finally {
        await ctx.close();
      }
    }
  });

  it("every sidebar entry, top-bar link and menu item leads to a page that answers", async () => {
    await setOptions(root, {
      DataExportEnabled: "true",
      DrawingEnabled: "true",
      TaskEnabled: "true",
      "general_setting.docs_link": "https://docs.example.com/",
    });
    const { ctx, page } = await newPage("en");
    try {
      await signIn(page, server.url, USER.username, USER.password);
      await page.goto(server.url + "/app/me");
      await page.locator("aside nav a").first().waitFor();
      const hrefs = await page.locator("header a[href^='/'], aside a[href^='/']").evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
      for (const built of ["/admin/settings", "/app/dashboard", "/admin/messages", "/app/logs/drawing", "/app/logs/tasks"]) expect(hrefs).toContain(built);
      // general_setting.docs_link adds the docs link to the top bar
      expect(await page.locator("header").getByRole("link", { name: MESSAGES.en.shell.nav.docs }).getAttribute("href")).toBe("https://docs.example.com/");
      for (const href of new Set(hrefs)) {
        if (href === "/admin/settings") continue;
        const res = await page.request.get(server.url + href);
        expect(res.status(), href).toBe(200);
      }
      await page.goto(server.url + "/login");
      // the reset page is built (issue 12): the login page links to it
      expect(await page.locator("a[href='/reset']").count()).toBe(1);
      expect((await page.request.get(server.url + "/reset")).status()).toBe(200);
    } finally {
      await ctx.close();
      await setOptions(root, { DataExportEnabled: "true", DrawingEnabled: "false", TaskEnabled: "false", "general_setting.docs_link": "" });
    }
  });

  it("DefaultCollapseSidebar, DisplayInCurrencyEnabled, ServerAddress and AffEnabled change what a user sees", async () => {
    const m = MESSAGES.en;
    const { ctx, page } = await newPage("en");
    try {
      await signIn(page, server.url, USER.username, USER.password);
      await page.goto(server.url + "/app/me");
      const collapse = page.locator("aside button[aria-expanded]");
      expect(await collapse.getAttribute("aria-expanded")).toBe("true");
      await page.getByText(m.me.invite.title).waitFor();
      await page.getByText("$0.00").first().waitFor();
      // the invitation link is made from this page's origin, or from ServerAddress when set
      await expect.poll(() => page.locator("#aff-link").inputValue()).toMatch(new RegExp(`^${server.url}/register\\?aff=[A-Za-z0-9]{8}$`));
      await setOptions(root, { ServerAddress: "https://gw.example.com" });
      await page.reload();
      await expect.poll(() => page.locator("#aff-link").inputValue()).toMatch(/^https:\/\/gw\.example\.com\/register\?aff=[A-Za-z0-9]{8}$/);

      await setOptions(root, { DefaultCollapseSidebar: "true", DisplayInCurrencyEnabled: "false", AffEnabled: "false" });
      await page.evaluate(() => localStorage.removeItem("default_collapse_sidebar"));
      await page.reload();
      await page.getByText(m.me.balance.quota).waitFor();
      expect(await collapse.getAttribute("aria-expanded")).toBe("false");
      expect(await page.getByText(m.me.invite.title).count()).toBe(0);
      expect(await page.getByText("$0.00").count()).toBe(0);
    } finally {
      await ctx.close();
      await setOptions(root, { DefaultCollapseSidebar: "false", DisplayInCurrencyEnabled: "true", AffEnabled: "true", ServerAddress: "" });
    }
  });

  it("threw no page errors", () => {
    expect(pageErrors).toEqual([]);
  });
});
