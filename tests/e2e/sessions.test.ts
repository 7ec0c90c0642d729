// The sessions card of /app/me in Chromium (docs/accounts-api.md, "Sessions"), in zh and en,
// at 390 px: it lists the user's sessions (device from the user agent, this device marked),
// ends one after a confirmation (that browser's cookie is refused afterwards), then "sign out
// everywhere else" ends the rest and keeps this device. Screenshots light and dark under
// test-results/screenshots/sessions.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { seedUser, type SeededUser } from "../support/seed";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shooter, type Locale } from "./browser";

const shoot = shooter("sessions");
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

let server: TestServer;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  await setupRoot(server); // a site without its root shows the setup page everywhere
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signIn(u: SeededUser, userAgent: string): Promise<ApiClient> {
  const c = new ApiClient(server.url);
  const r = await c.call<{ id: number }>("POST", "/api/user/login", { username: u.username, password: u.password }, { "user-agent": userAgent });
  expect(r.success, r.message).toBe(true);
  c.userId = r.data.id;
  return c;
}

async function open(u: SeededUser, locale: Locale): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([
    { name: "NEXT_LOCALE", value: locale, url: server.url },
    { name: "session", value: u.client.cookie.replace(/^session=/, ""), url: server.url },
  ]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(30_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return { ctx, page };
}

describe.each(flowLocales(import.meta.url))("the sessions card (%s)", (locale) => {
  const t = MESSAGES[locale].sessions;

  it("lists the sessions, ends one, then signs out everywhere else", async () => {
    const u = await seedUser(server, { username: `sess-${locale}` });
    const pc = await signIn(u, FIREFOX_WINDOWS);
    const phone = await signIn(u, SAFARI_IPHONE);
    const { ctx, page } = await open(u, locale);
    try {
      await page.goto(`${server.url}/app/me`);
      const list = page.getByRole("list", { name: t.title, exact: true });
      const card = page.locator("section").filter({ has: list });
      await list.locator("li").nth(2).waitFor();
      await expect(list.locator("li").count()).resolves.toBe(3);
      // this browser's own session (the seeded one) is marked; the two sign-ins show their devices
      await expect(list.locator('li[data-session="current"]').getByText(t.thisDevice).isVisible()).resolves.toBe(true);
      await expect(list.getByText("Firefox on Windows").isVisible()).resolves.toBe(true);
      await expect(list.getByText("Safari on iOS").isVisible()).resolves.toBe(true);
      await card.scrollIntoViewIfNeeded();
      await shoot(page, locale, "list");

      // end the phone's session: confirmed, then gone from the list, and its cookie refused
      expect((await phone.get("/api/user/self")).success).toBe(true);
      await list.getByRole("button", { name: fmt(t.endNamed, { device: "Safari on iOS" }) }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(t.endOneTitle).waitFor();
      await shoot(page, locale, "end-one-dialog", false);
      await dialog.getByRole("button", { name: t.end, exact: true }).click();
      await expectToast(page, t.ended);
      await list.getByText("Safari on iOS").waitFor({ state: "detached" });
      expect((await phone.get("/api/user/self")).status).toBe(401);
      expect((await pc.get("/api/user/self")).success).toBe(true);

      // sign out everywhere else: confirmed; only this device is left
      await card.getByRole("button", { name: t.endOthers }).click();
      await dialog.getByText(t.endOthersTitle).waitFor();
      await shoot(page, locale, "end-others-dialog", false);
      await dialog.getByRole("button", { name: t.endOthers }).click();
      await list.getByText("Firefox on Windows").waitFor({ state: "detached" });
      await expect(list.locator("li").count()).resolves.toBe(1);
      expect((await pc.get("/api/user/self")).status).toBe(401);
      expect((await u.client.get("/api/user/self")).success).toBe(true);
      await expect(card.getByRole("button", { name: t.endOthers }).isDisabled()).resolves.toBe(true);
      await shoot(page, locale, "after");
    } finally {
      await ctx.close();
    }
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

describe("the admin user editor", () => {
  it("ends all sessions of a user after a confirmation", async () => {
    const root = await seedUser(server, { username: "sess-root", role: 100 });
    const u = await seedUser(server, { username: "sess-target" });
    const t = MESSAGES.en.sessions;
    const { ctx, page } = await open(root, "en");
    try {
      await page.goto(`${server.url}/user/edit/${u.id}`);
      const line = page.getByLabel(t.title, { exact: true });
      await line.getByRole("button", { name: t.adminEnd }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(t.adminEndTitle).waitFor();
      await dialog.getByRole("button", { name: t.adminEnd }).click();
      await expectToast(page, "1 session ended");
      expect((await u.client.get("/api/user/self")).status).toBe(401);
    } finally {
      await ctx.close();
    }
  }, 120_000);
});
