// Browser checks of the console behaviour fixes (docs/console-ui.md), in Chinese and in
// English, against one real built server and one browser: a failed setup shows exactly one
// toast; only the super admin sees promote/demote (and a regular admin no actions on the
// same or a higher level); an admin clicking the username of a
// higher-level user in the usage logs gets the user card; a token whose expiry has passed
// can still be edited; "Test all" runs in the background and the page shows its final
// counts; a banned user's live session is told it is banned. Screenshots go to
// test-results/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { makeUser, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";
import { flowLocales, fmt, launch, MESSAGES, shoot, signIn, type Locale } from "./browser";

const LOCALES: Locale[] = flowLocales(import.meta.url);
const ADMIN = { username: "admin1", password: "user-pass-1" };
const DAVE = { username: "dave", password: "user-pass-1" };

let server: TestServer;
let browser: Browser;
let mock: MockUpstream;
let root: ApiClient;
let daveId = 0;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
});

async function newPage(locale: Locale): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return { ctx, page };
}

async function login(page: Page, locale: Locale, user: { username: string; password: string }) {
  await signIn(page, server.url, user.username, user.password);
}

const toasts = (page: Page) => page.locator("[data-toast]");

describe("setup failure", () => {
  it.each(LOCALES)("shows exactly one toast (%s)", async (locale) => {
    const m = MESSAGES[locale];
    const { ctx, page } = await newPage(locale);
    try {
      await page.goto(`${server.url}/setup`);
      await page.getByLabel(m.setup.username, { exact: true }).fill("root");
      // long enough for the client's check, too long for the server (at most 20)
      const tooLong = "p".repeat(24);
      await page.getByLabel(m.setup.password, { exact: true }).fill(tooLong);
      await page.getByLabel(m.setup.confirmPassword, { exact: true }).fill(tooLong);
      await page.getByRole("button", { name: m.setup.initialize }).click();
      await toasts(page).first().waitFor();
      await page.waitForTimeout(700); // a second toast would have arrived by now
      expect(await toasts(page).count()).toBe(1);
      expect(await toasts(page).first().textContent()).toContain(fmt(m.errors.prefixed, { message: "" }).trim());
      await shoot(page, locale, "fixes-setup-failed");
    } finally {
      await ctx.close();
    }
  });
});

describe("after setup", () => {
  let channelId = 0;
  beforeAll(async () => {
    root = await setupRoot(server);
    await makeUser(server, root, ADMIN.username, 10, ADMIN.password);
    daveId = (await makeUser(server, root, DAVE.username, 1, DAVE.password)).id;
    const ch = await root.post("/api/channel/", { type: 1, name: "mock", key: mock.key, base_url: mock.url, models: "m-ok", group: "default" });
    expect(ch.success, ch.message).toBe(true);
    channelId = (await root.get<{ items: { id: number }[] }>("/api/channel/?p=1&page_size=10")).data.items[0].id;
    // usage by the super admin, which a regular admin sees in the logs
    const rootId = root.userId!;
    await query(
      server,
      'INSERT INTO "logs" ("user_id", "created_at", "type", "username", "model_name", "quota", "content") VALUES ($1, $2, 2, $3, $4, $5, $6)',
      [rootId, Math.floor(Date.now() / 1000), "root", "m-ok", 1234, ""],
    );
  });

  describe.each(LOCALES)("%s", (locale) => {
    const m = MESSAGES[locale];
    let admin: { ctx: BrowserContext; page: Page };
    let rootPage: { ctx: BrowserContext; page: Page };
    let dave: { ctx: BrowserContext; page: Page };
    beforeAll(async () => {
      admin = await newPage(locale);
      await login(admin.page, locale, ADMIN);
      rootPage = await newPage(locale);
      await login(rootPage.page, locale, { username: "root", password: "root-pass-123" });
      dave = await newPage(locale);
      await login(dave.page, locale, DAVE);
    });
    afterAll(async () => {
      for (const p of [admin, rootPage, dave]) await p?.ctx.close();
    });

    it("shows promote/demote to the super admin only", async () => {
      const promote = fmt(m.users.actions.promoteUser, { name: DAVE.username });
      const disable = fmt(m.users.actions.disableUser, { name: DAVE.username });
      await admin.page.goto(`${server.url}/admin/users`);
      const row = admin.page.getByTestId(`user-row-${DAVE.username}`);
      await row.getByRole("button", { name: disable }).waitFor();
      expect(await row.getByRole("button", { name: promote }).count()).toBe(0);
      expect(await admin.page.getByRole("button", { name: m.users.actions.promote, exact: true }).count()).toBe(0);
      expect(await admin.page.getByRole("button", { name: m.users.actions.demote, exact: true }).count()).toBe(0);
      // rows of the same or a higher level offer nothing to a regular admin (the server refuses it all)
      for (const name of [ADMIN.username, "root"]) expect(await admin.page.getByTestId(`user-row-${name}`).getByRole("button").count()).toBe(0);
      await shoot(admin.page, locale, "fixes-users-as-admin");
      await rootPage.page.goto(`${server.url}/admin/users`);
      await rootPage.page.getByTestId(`user-row-${DAVE.username}`).getByRole("button", { name: promote }).waitFor();
      await rootPage.page
        .getByTestId(`user-row-${ADMIN.username}`)
        .getByRole("button", { name: fmt(m.users.actions.demoteUser, { name: ADMIN.username }) })
        .waitFor();
    });

    it("opens the user card of a higher-level user from the usage logs", async () => {
      await admin.page.goto(`${server.url}/app/logs/api-usage`);
      await admin.page.getByRole("button", { name: "root", exact: true }).first().click();
      const dialog = admin.page.getByRole("dialog");
      await dialog.getByRole("heading", { name: m.logs.userInfo.title }).waitFor();
      await dialog
        .locator("dd")
        .filter({ hasText: /^root$/ })
        .waitFor();
      expect(await dialog.getByText(m.logs.userInfo.loading).count()).toBe(0);
      expect(await admin.page.locator('[data-toast="error"]').count()).toBe(0);
      await shoot(admin.page, locale, "fixes-log-user-card", false);
      await admin.page.keyboard.press("Escape");
    });

    it("edits a token whose expiry has passed", async () => {
      const name = `lapsed-${locale}`;
      const created = await dave.page.evaluate(
        async ([n, id]) => {
          const r = await fetch("/api/token/", {
            method: "POST",
            headers: { "content-type": "application/json", "New-Api-User": String(id) },
            body: JSON.stringify({ name: n, remain_quota: 1000, expired_time: Math.floor(Date.now() / 1000) + 3600 }),
          });
          return (await r.json()) as { success: boolean; data: { id: number }[] };
        },
        [name, daveId] as const,
      );
      expect(created.success).toBe(true);
      await query(server, 'UPDATE "tokens" SET "expired_time" = $1, "status" = 3 WHERE "id" = $2', [Math.floor(Date.now() / 1000) - 120, created.data[0].id]);
      await dave.page.goto(`${server.url}/app/tokens`);
      await dave.page.getByRole("button", { name: fmt(m.tokens.editOf, { name }) }).click();
      const drawer = dave.page.getByRole("dialog");
      await drawer.getByLabel(m.tokens.form.name, { exact: true }).fill(`${name}-renamed`);
      await drawer.getByRole("button", { name: m.tokens.form.submit }).click();
      await toasts(dave.page).filter({ hasText: m.tokens.form.saved }).first().waitFor();
      expect(await dave.page.locator('[data-toast="error"]').count()).toBe(0);
      await dave.page.getByTestId(`token-row-${name}-renamed`).waitFor();
    });

    it("tests all channels in the background and shows the final counts", async () => {
      await rootPage.page.goto(`${server.url}/admin/channels`);
      await rootPage.page.getByTestId(`channel-row-${channelId}`).waitFor();
      await rootPage.page.getByRole("button", { name: m.channels.testAll }).click();
      await toasts(rootPage.page).filter({ hasText: m.channels.testAllStarted }).first().waitFor();
      const done = fmt(m.channels.testAllProgress, { tested: 1, total: 1, passed: 1, failed: 0 });
      await rootPage.page.getByTestId("test-all-progress").filter({ hasText: done }).waitFor();
      await toasts(rootPage.page)
        .filter({ hasText: fmt(m.channels.testAllDone, { tested: 1, passed: 1, failed: 0 }) })
        .first()
        .waitFor();
      await shoot(rootPage.page, locale, "fixes-channels-test-all");
    });

    it("tells a banned user with a live session (an open page) that they are banned", async () => {
      expect((await root.post("/api/user/manage", { id: daveId, action: "disable" })).success).toBe(true);
      try {
        // the page opened before the ban (a full navigation would go to the login page)
        expect(new URL(dave.page.url()).pathname).toBe("/app/tokens");
        await dave.page.getByLabel(m.tokens.keyword, { exact: true }).fill("lapsed");
        await dave.page.getByRole("button", { name: m.tokens.search, exact: true }).click();
        const banned = locale === "zh" ? "用户已被封禁" : "This user has been banned";
        await toasts(dave.page)
          .filter({ hasText: fmt(m.errors.prefixed, { message: banned }) })
          .first()
          .waitFor();
        expect(await toasts(dave.page).filter({ hasText: m.errors.forbidden }).count()).toBe(0);
        await shoot(dave.page, locale, "fixes-banned");
      } finally {
        expect((await root.post("/api/user/manage", { id: daveId, action: "enable" })).success).toBe(true);
      }
    });
  });
});

describe("pages", () => {
  it("raised no script errors", () => {
    expect(pageErrors).toEqual([]);
  });
});
