// The console at a phone width (docs/console-ui.md, "Phone width"), in Chinese and in
// English against one built server and one browser: below md the sidebar column is hidden
// and the top bar's links are gone, a menu button opens a drawer from the left holding the
// top bar's links and the sidebar's entries (the current page marked); following an entry
// navigates and closes it, and Escape and the overlay close it too. Every console and public
// page keeps the window's width (no sideways scrolling of the document). Screenshots of the
// drawer and of pages at 390 px in both languages and themes go to test-results/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ROOT_PASSWORD, setupRoot } from "../support/accounts";
import { startServer, type TestServer } from "../support/server";
import { flowLocales, launch, MESSAGES, shoot, signIn, type Locale } from "./browser";

const LOCALES: Locale[] = flowLocales(import.meta.url);
const PHONE = { width: 390, height: 844 };
const SETTINGS_TABS = ["operation", "ratelimit", "models", "system", "other"] as const;
const CONSOLE_PAGES = [
  "/app/tokens",
  "/app/logs/api-usage",
  "/admin/channels",
  "/admin/users",
  "/admin/coupons",
  "/app/wallet",
  ...SETTINGS_TABS.map((tab) => `/admin/settings?tab=${tab}`),
  "/app/me",
  "/playground",
  "/pricing",
  "/",
  "/about",
];
const PUBLIC_PAGES = ["/", "/about", "/pricing", "/login"];
// pages whose phone screenshot is kept (name -> path)
const SHOTS: Record<string, string> = {
  "/app/tokens": "phone-shell-tokens",
  "/app/me": "phone-shell-me",
  "/pricing": "phone-shell-pricing",
};

let server: TestServer;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  const root = await setupRoot(server);
  // a token with a long name, so the token list has a row to lay out
  const r = await root.post("/api/token/", { name: "a-rather-long-token-name-for-phones", remain_quota: 500000, unlimited_quota: false, expired_time: -1 });
  if (!r.success) throw new Error(`token: ${r.message}`);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPage(locale: Locale): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: PHONE, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return { ctx, page };
}

// The document's width against the window's, with the elements that stick out (to say
// which one when it fails).
async function widths(page: Page) {
  return page.evaluate(() => {
    const inner = window.innerWidth;
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll("body *"))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > inner + 0.5 && out.length < 5) {
        out.push(`${el.tagName.toLowerCase()}.${String(el.getAttribute("class") ?? "").slice(0, 80)} right=${Math.round(r.right)}`);
      }
    }
    return { scroll: document.documentElement.scrollWidth, inner, out };
  });
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(300);
}

describe.each(LOCALES)("phone width (%s)", (locale) => {
  const m = MESSAGES[locale];
  let ctx: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ ctx, page } = await newPage(locale));
    await signIn(page, server.url, "root", ROOT_PASSWORD);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("navigates through the menu drawer; the sidebar column and the bar's links are hidden", async () => {
    await page.goto(`${server.url}/app/tokens`);
    await settle(page);
    // the sidebar column exists for the desktop but is not shown; the bar's links neither
    expect(await page.locator("aside").isVisible()).toBe(false);
    expect(await page.getByRole("navigation", { name: m.shell.mainNav }).isVisible()).toBe(false);
    expect(await page.getByRole("dialog").count()).toBe(0);

    const menu = page.getByRole("button", { name: m.mobileNav.open, exact: true });
    await menu.click();
    const drawer = page.getByRole("dialog");
    await drawer.waitFor();
    await page.waitForTimeout(400); // the slide-in
    const box = (await drawer.boundingBox())!;
    expect(box.x).toBe(0); // from the left
    expect(box.width).toBeLessThan(PHONE.width);
    // the top bar's links and the sidebar's entries, the current page marked
    for (const key of ["home", "console", "pricing", "about"] as const) await drawer.getByRole("link", { name: m.shell.nav[key], exact: true }).waitFor();
    for (const key of ["playground", "tokens", "usageLogs", "channels", "redemptions", "users", "settings", "wallet", "me"] as const) {
      await drawer.getByRole("link", { name: m.shell.sidebar[key], exact: true }).waitFor();
    }
    const groups = drawer.getByRole("group", { name: m.shell.sidebarLabel });
    for (const key of ["chat", "console", "admin", "personal"] as const) await groups.getByText(m.shell.sidebar.group[key], { exact: true }).waitFor();
    expect(await drawer.getByRole("link", { name: m.shell.sidebar.tokens, exact: true }).getAttribute("aria-current")).toBe("page");
    expect(await drawer.getByRole("link", { name: m.shell.sidebar.settings, exact: true }).getAttribute("aria-current")).toBeNull();
    await shoot(page, locale, "phone-drawer", false);

    // following an entry navigates and closes the drawer
    await drawer.getByRole("link", { name: m.shell.sidebar.settings, exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/admin/settings");
    await page.getByRole("tab", { name: m.settings.tabs.operation }).waitFor();
    await drawer.waitFor({ state: "detached" });
    await menu.click();
    await drawer.waitFor();
    expect(await drawer.getByRole("link", { name: m.shell.sidebar.settings, exact: true }).getAttribute("aria-current")).toBe("page");
    await page.waitForTimeout(400);
    await shoot(page, locale, "phone-drawer-settings", false);

    // Escape closes it
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    // so does a tap on the overlay, beside the drawer
    await menu.click();
    await drawer.waitFor();
    await page.mouse.click(PHONE.width - 20, PHONE.height / 2);
    await drawer.waitFor({ state: "detached" });
    expect(new URL(page.url()).pathname).toBe("/admin/settings");
    // the close button too
    await menu.click();
    await drawer.getByRole("button", { name: m.mobileNav.close, exact: true }).click();
    await drawer.waitFor({ state: "detached" });
    // and a window widened past md while it is open (the drawer would be hidden but modal)
    await menu.click();
    await drawer.waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });
    await drawer.waitFor({ state: "detached" });
    expect(await page.locator("aside").isVisible()).toBe(true);
    await page.setViewportSize(PHONE);
  });

  it("keeps every console page within the window's width", async () => {
    for (const path of CONSOLE_PAGES) {
      await page.goto(server.url + path);
      await settle(page);
      const w = await widths(page);
      expect(w.scroll, `${path} (${locale}): ${w.out.join(" | ")}`).toBeLessThanOrEqual(w.inner);
      // the top bar's controls are all inside the window
      const bar = await page
        .locator("header")
        .first()
        .evaluate((h) => Array.from(h.querySelectorAll("a,button")).map((e) => e.getBoundingClientRect().right));
      for (const right of bar) expect(right, `${path} top bar (${locale})`).toBeLessThanOrEqual(w.inner);
      if (SHOTS[path]) await shoot(page, locale, SHOTS[path]);
      // the settings tabs are long: their first screen
      if (path.startsWith("/admin/settings")) await shoot(page, locale, `phone-shell-settings-${new URL(server.url + path).searchParams.get("tab")}`, false);
    }
  });

  it("keeps the public pages within the window's width for a visitor, whose drawer has the bar's links only", async () => {
    const anon = await newPage(locale);
    try {
      for (const path of PUBLIC_PAGES) {
        await anon.page.goto(server.url + path);
        await settle(anon.page);
        const w = await widths(anon.page);
        expect(w.scroll, `${path} anonymous (${locale}): ${w.out.join(" | ")}`).toBeLessThanOrEqual(w.inner);
      }
      await shoot(anon.page, locale, "phone-shell-login");
      await anon.page.getByRole("button", { name: m.mobileNav.open, exact: true }).click();
      const drawer = anon.page.getByRole("dialog");
      await drawer.getByRole("link", { name: m.shell.nav.pricing, exact: true }).waitFor();
      expect(await drawer.getByRole("link", { name: m.shell.sidebar.tokens, exact: true }).count()).toBe(0);
      await drawer.getByRole("link", { name: m.shell.nav.pricing, exact: true }).click();
      await anon.page.waitForURL((u) => u.pathname === "/pricing");
      await drawer.waitFor({ state: "detached" });
    } finally {
      await anon.ctx.close();
    }
  });

  it("raised no page errors", () => {
    expect(pageErrors).toEqual([]);
  });
});
