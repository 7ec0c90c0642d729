// Browser test of the audit log (docs/audit.md), in zh and en, light and dark: the root opens
// /admin/audit from the sidebar, sees real rows (a refused sign-in with its reason, the
// settings changed), filters by action, and exports the filtered rows as CSV; a user adds a
// passkey (the DevTools virtual authenticator) and finds it, and the refused sign-in on their
// account, among the security events of /app/me. Screenshots go to
// test-results/screenshots/audit.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ApiClient } from "../support/client";
import { makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import { startServer, type TestServer } from "../support/server";
import { flowLocales, launch, MESSAGES, SCREENSHOTS, shooter, signIn, type Locale } from "./browser";

let server: TestServer;
let site: string; // the server under the name "localhost": WebAuthn refuses an IP address as the RP ID
let browser: Browser;
let root: ApiClient;
const DIR = path.join(process.cwd(), "test-results", "screenshots", "audit");
const shoot = shooter("audit");
const pageErrors: string[] = [];

async function loggedIn(locale: Locale, username: string, password: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US", acceptDownloads: true });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: site }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(30_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await signIn(page, site, username, password);
  return { ctx, page };
}

beforeAll(async () => {
  server = await startServer();
  site = server.url.replace("127.0.0.1", "localhost");
  browser = await launch();
  root = await setupRoot(server);
  await setOptions(root, { ServerAddress: site, SystemName: "Audit Gateway", SMTPToken: "smtp-secret-e2e" });
  mkdirSync(DIR, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe.each(flowLocales(import.meta.url))("the audit log (%s)", (locale) => {
  const m = MESSAGES[locale];
  const a = m.audit;
  const username = `eve-${locale}`;

  it("the root's page shows real rows, filters by action and exports the CSV", async () => {
    await makeUser(server, root, username);
    // a refused sign-in on eve's account
    expect((await new ApiClient(server.url).login(username, "not-her-password")).success).toBe(false);
    const { ctx, page } = await loggedIn(locale, "root", ROOT_PASSWORD);
    try {
      await page.goto(`${site}/app/me`);
      await page.getByRole("link", { name: m.shell.sidebar.audit }).first().click();
      await page.waitForURL((u) => u.pathname === "/admin/audit");
      await page.getByRole("heading", { name: a.title, exact: true }).waitFor();
      const rows = page.locator("tbody tr[data-action]");
      await rows.first().waitFor();
      // the newest rows: the root's own sign-in first, the settings changed and eve's refused sign-in among them
      await expect.poll(() => page.locator('tr[data-action="login_failed"]').count()).toBeGreaterThan(0);
      const refused = page.locator('tr[data-action="login_failed"]').first();
      await expect.poll(() => refused.innerText()).toContain(a.reasons.wrong_password);
      expect(await refused.innerText()).toContain(a.actions.login_failed);
      expect(await refused.innerText()).toContain(a.nobody);
      await shoot(page, locale, "audit-page");

      // filtered by target: the secret option's change says "changed", never the value
      await page.getByLabel(a.filters.target, { exact: true }).selectOption("option");
      await page.getByLabel(a.filters.targetId, { exact: true }).fill("SMTPToken");
      await page.getByRole("button", { name: a.search, exact: true }).click();
      await expect
        .poll(async () => new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-action")))))
        .toEqual(new Set(["option_change"]));
      expect(await rows.count()).toBe(1);
      expect(await rows.first().innerText()).toContain("changed");
      expect(await page.content()).not.toContain("smtp-secret-e2e");
      await page.getByRole("button", { name: a.reset, exact: true }).click();
      await expect.poll(() => page.locator('tr[data-action="login_failed"]').count()).toBeGreaterThan(0);

      // filtered by action: sign-ins refused only
      await page.getByLabel(a.filters.action, { exact: true }).selectOption("login_failed");
      await page.getByRole("button", { name: a.search, exact: true }).click();
      await expect.poll(async () => new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-action"))))).toEqual(new Set(["login_failed"]));
      await shoot(page, locale, "audit-page-filtered");

      // the CSV of the filtered rows
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: a.export, exact: true }).click()]);
      expect(download.suggestedFilename()).toMatch(/^audit-all-\d{4}-\d{2}-\d{2}\.csv$/);
      const file = path.join(DIR, `audit-${locale}.csv`);
      await download.saveAs(file);
      const lines = readFileSync(file, "utf8")
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n");
      expect(lines[0]).toBe("id,time_utc,created_at,actor_id,actor_name,user_id,action,target_type,target_id,detail,ip,user_agent,request_id");
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.slice(1).every((l) => l.split(",")[6] === "login_failed")).toBe(true);
      expect(lines.length - 1).toBe(await rows.count());
    } finally {
      await ctx.close();
    }
  });

  it("the account page shows the user's own security events, a passkey added among them", async () => {
    const { ctx, page } = await loggedIn(locale, username, "user-pass-1");
    try {
      const cdp = await ctx.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      await page.goto(`${site}/app/me`);
      const t = m.twofa;
      const security = page.locator("section").filter({ has: page.getByRole("heading", { name: t.title, exact: true }) });
      await security.getByRole("button", { name: t.addPasskey }).click();
      await page.getByRole("dialog").getByLabel(t.passkeyName).fill(`Laptop ${locale}`);
      await page.getByRole("dialog").getByRole("button", { name: t.continue }).click();
      await page.locator("[data-toast]").filter({ hasText: t.passkeyAdded }).first().waitFor();

      await page.reload();
      const card = page.locator("section").filter({ has: page.getByRole("heading", { name: a.security.title, exact: true }) });
      const list = card.getByTestId("security-events");
      await list.waitFor();
      const added = list.locator('li[data-action="passkey_add"]');
      await expect.poll(() => added.count()).toBe(1);
      expect(await added.innerText()).toContain(a.actions.passkey_add);
      expect(await added.innerText()).toContain(`Laptop ${locale}`);
      const refused = list.locator('li[data-action="login_failed"]');
      expect(await refused.count()).toBe(1);
      expect(await refused.innerText()).toContain(a.reasons.wrong_password);
      // the root's act on her account shows no name or address of the root
      const created = list.locator('li[data-action="user_create"]');
      expect(await created.innerText()).toContain(a.byAdmin);
      expect(await list.innerText()).not.toContain("root");
      // only her events: none of the root's own sign-ins or settings
      expect(await list.locator('li[data-action="option_change"]').count()).toBe(0);
      await card.scrollIntoViewIfNeeded();
      for (const theme of ["light", "dark"] as const) {
        await page.evaluate((th) => document.documentElement.classList.toggle("dark", th === "dark"), theme);
        await page.waitForTimeout(150);
        if (SCREENSHOTS) await card.screenshot({ path: path.join(DIR, `security-events-${locale}-${theme}.png`) });
      }
      await page.evaluate(() => document.documentElement.classList.remove("dark"));
      await shoot(page, locale, "me-page");
    } finally {
      await ctx.close();
    }
    // a sign-in, a passkey ceremony, a reload and five screenshots: more than the default 30 s
    // when the machine is shared
  }, 90_000);
});

describe("the page", () => {
  it("threw no error in the browser", () => {
    expect(pageErrors).toEqual([]);
  });
});
