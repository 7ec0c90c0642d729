// The console as a new operator meets it (docs/console-ui.md, docs/dashboard.md,
// docs/settings.md), in zh and en, light and dark, against one real built server and one
// browser: every change of a user's role, status or quota asks first and its toast says what
// changed (cancelling changes nothing); the dashboard opened right after ten relay calls shows
// them with non-zero averages; the settings page indexes a long tab, saves from one bar, asks
// before edits are left behind, shows each control once and no example group as chosen; a
// testing toast gives way to its result, toasts keep off the save button, every dialog closes
// with its X or Escape; no button leads nowhere; list pages scroll their tables at 390 px.
// Screenshots go to test-results/screenshots/operator/.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shooter, signIn, type Locale } from "./browser";

const LOCALES: Locale[] = flowLocales(import.meta.url);
const shoot = shooter("operator");

let server: TestServer;
let browser: Browser;
let mock: MockUpstream;
let root: ApiClient;

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  browser = await launch();
  root = await setupRoot(server);
  await setOptions(root, { DataExportEnabled: "true", ModelRatio: JSON.stringify({ "gpt-op": 1 }) });
  const ch = await root.post("/api/channel/", { name: "op", type: 1, key: mock.key, base_url: mock.url, models: "gpt-op", group: "default" });
  expect(ch.success, ch.message).toBe(true);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
});

async function rootPage(locale: Locale, width = 1280): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width, height: 860 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  await signIn(page, server.url, "root", ROOT_PASSWORD);
  return { ctx, page };
}

async function userRecord(id: number): Promise<{ role: number; status: number; quota: number }> {
  const r = await root.get<{ role: number; status: number; quota: number }>(`/api/user/${id}`);
  expect(r.success, r.message).toBe(true);
  return r.data;
}

describe.each(LOCALES)("user changes are confirmed (%s)", (locale) => {
  const m = MESSAGES[locale];
  const a = m.users.actions;
  it("asks before promoting, banning and changing the quota; cancelling changes nothing", async () => {
    const username = `op-${locale}`;
    const { id } = await makeUser(server, root, username);
    const { ctx, page } = await rootPage(locale);
    try {
      await page.goto(`${server.url}/admin/users`);
      const row = page.getByTestId(`user-row-${username}`);
      await row.waitFor();
      const dialog = page.getByRole("dialog");

      // promote: cancelled, then confirmed
      await row.getByRole("button", { name: fmt(a.promoteUser, { name: username }) }).click();
      await dialog.getByRole("heading", { name: fmt(a.promoteTitle, { name: username }) }).waitFor();
      await dialog.getByText(fmt(a.promoteConfirm, { name: username })).waitFor();
      await shoot(page, locale, "users-confirm-promote", false);
      await dialog.getByRole("button", { name: a.cancel, exact: true }).click();
      await dialog.waitFor({ state: "detached" });
      expect((await userRecord(id)).role).toBe(1);
      await row.getByText(m.users.role.user, { exact: true }).waitFor();
      await row.getByRole("button", { name: fmt(a.promoteUser, { name: username }) }).click();
      await dialog.getByRole("button", { name: a.promote, exact: true }).click();
      await expectToast(page, fmt(a.promoteDone, { name: username }));
      await row.getByText(m.users.role.admin, { exact: true }).waitFor();
      expect((await userRecord(id)).role).toBe(10);

      // ban: Escape cancels, then confirmed
      await row.getByRole("button", { name: fmt(a.disableUser, { name: username }) }).click();
      await dialog.getByRole("heading", { name: fmt(a.disableTitle, { name: username }) }).waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      expect((await userRecord(id)).status).toBe(1);
      await row.getByRole("button", { name: fmt(a.disableUser, { name: username }) }).click();
      await dialog.getByRole("button", { name: a.disable, exact: true }).click();
      await expectToast(page, fmt(a.disableDone, { name: username }));
      await row.getByText(m.users.status.banned, { exact: true }).waitFor();
      expect((await userRecord(id)).status).toBe(2);
      await shoot(page, locale, "users-after-ban");

      // the quota: the editor asks with the old and the new amount
      await row.getByRole("button", { name: fmt(a.editUser, { name: username }) }).click();
      const drawer = page.getByRole("dialog");
      await drawer.getByLabel(m.userEditor.quota, { exact: true }).fill("3"); // dollars: 1500000 units
      await drawer.getByRole("button", { name: m.userEditor.save, exact: true }).click();
      const confirm = page.getByRole("dialog").filter({ has: page.getByRole("heading", { name: fmt(m.userEditor.quotaTitle, { name: username }) }) });
      await confirm.getByText(fmt(m.userEditor.quotaConfirm, { name: username, from: "$0.00", to: "$3.00" })).waitFor();
      await shoot(page, locale, "users-confirm-quota", false);
      await confirm.getByRole("button", { name: m.userEditor.cancel, exact: true }).click();
      await confirm.waitFor({ state: "detached" });
      expect((await userRecord(id)).quota).toBe(0);
      await drawer.getByRole("button", { name: m.userEditor.save, exact: true }).click();
      await confirm.getByRole("button", { name: m.userEditor.save, exact: true }).click();
      await expectToast(page, fmt(m.userEditor.quotaDone, { name: username, to: "$3.00" }));
      expect((await userRecord(id)).quota).toBe(1_500_000);
    } finally {
      await ctx.close();
    }
  });
});

describe("the dashboard right after the first calls", () => {
  it("shows ten relay calls with non-zero averages, for all users", async () => {
    const caller = await makeUser(server, root, "caller");
    expect((await root.put("/api/user/", { id: caller.id, username: "caller", quota: 50_000_000 })).success).toBe(true);
    const t = await caller.client.post<{ key: string }[]>("/api/token/", { name: "op", unlimited_quota: true });
    expect(t.success, t.message).toBe(true);
    const openai = new OpenAI({ apiKey: t.data[0].key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    for (let i = 0; i < 10; i++) await openai.chat.completions.create({ model: "gpt-op", messages: [{ role: "user", content: `call ${i}` }] });
    // the relay writes its logs in batches: wait until all ten are there
    await expect.poll(async () => (await root.get<{ total: number }>("/api/log/?p=1&page_size=10&type=2")).data.total, { timeout: 10_000 }).toBe(10);
    for (const locale of LOCALES) {
      const d = MESSAGES[locale].dashboard;
      const { ctx, page } = await rootPage(locale);
      try {
        await page.goto(`${server.url}/app/dashboard`);
        // the root opens on all users, the last 24 hours by the hour (DataExportDefaultTime "hour")
        expect(await page.getByLabel(d.scope, { exact: true }).inputValue()).toBe("all");
        expect(await page.getByLabel(d.range, { exact: true }).inputValue()).toBe("24h");
        expect(await page.getByLabel(d.granularity, { exact: true }).inputValue()).toBe("hour");
        await expect.poll(() => page.getByTestId("card-calls").textContent()).toBe("10");
        const rpm = Number(await page.getByTestId("card-rpm").textContent());
        const tpm = Number(await page.getByTestId("card-tpm").textContent());
        expect(rpm).toBeGreaterThan(0);
        expect(tpm).toBeGreaterThan(rpm);
        await page.getByTestId("chart-quota").locator(".recharts-bar-rectangle").first().waitFor();
        await page.getByTestId("top-users").getByText("caller").first().waitFor();
        await shoot(page, locale, "dashboard-first-calls");
      } finally {
        await ctx.close();
      }
    }
  });
});

describe.each(LOCALES)("the settings page frame (%s)", (locale) => {
  const m = MESSAGES[locale];
  const s = m.settings;
  const kit = m.settingsKit;
  const section = (page: Page, title: string) => page.locator("form").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
  const bar = (page: Page) => page.getByTestId("settings-save-bar");
  const option = async (key: string) => (await root.get<{ key: string; value: string }[]>("/api/option/")).data.find((o) => o.key === key)?.value;

  it("indexes a long tab, saves from one bar, and asks before a tab, a link or Back leaves edits behind", async () => {
    const { ctx, page } = await rootPage(locale);
    try {
      await page.goto(`${server.url}/admin/settings`);
      const index = page.getByRole("navigation", { name: kit.index });
      await index.getByRole("link", { name: s.operation.dashboard }).waitFor();
      expect(await index.getByRole("link").count()).toBeGreaterThanOrEqual(10);
      // one save button for the whole tab
      expect(await page.getByRole("button", { name: kit.save, exact: true }).count()).toBe(1);
      expect(await bar(page).getByRole("button", { name: kit.save, exact: true }).isDisabled()).toBe(true);
      // the last section is one click away
      await index.getByRole("link", { name: s.operation.dashboard }).click();
      // (a smooth scroll: wait until it has arrived)
      const top = () => section(page, s.operation.dashboard).evaluate((el) => Math.round(el.getBoundingClientRect().top));
      await expect.poll(top, { timeout: 10_000 }).toBeLessThan(860);
      expect(await top()).toBeGreaterThan(0);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(2000);
      await shoot(page, locale, "settings-index", false);

      // an edit: the bar names its section
      const quota = section(page, s.operation.quota).getByLabel(s.labels.QuotaForNewUser, { exact: true });
      const before = await option("QuotaForNewUser");
      const typed = locale === "zh" ? "4321" : "8765";
      await quota.fill(typed);
      await expect.poll(() => bar(page).getByRole("status").textContent()).toContain(s.operation.quota);
      await shoot(page, locale, "settings-unsaved", false);

      // another tab: asked first; Cancel stays with the edit
      const leave = page.getByRole("dialog", { name: kit.leaveTitle });
      await page.getByRole("tab", { name: s.tabs.ratelimit }).click();
      await leave.getByText(s.operation.quota).waitFor();
      await shoot(page, locale, "settings-leave-tab", false);
      await leave.getByRole("button", { name: kit.cancel, exact: true }).click();
      await leave.waitFor({ state: "detached" });
      expect(await page.getByRole("tab", { name: s.tabs.operation }).getAttribute("aria-selected")).toBe("true");
      expect(await quota.inputValue()).toBe(typed);

      // a link of the sidebar: asked too; Cancel stays
      await page.locator("aside").getByRole("link", { name: m.shell.sidebar.users }).click();
      await leave.waitFor();
      await leave.getByRole("button", { name: kit.cancel, exact: true }).click();
      await leave.waitFor({ state: "detached" });
      expect(new URL(page.url()).pathname).toBe("/admin/settings");

      // closing or reloading the page: the browser's own question
      const asked = page.waitForEvent("dialog");
      const reloading = page.reload().catch(() => undefined);
      const unload = await asked;
      expect(unload.type()).toBe("beforeunload");
      await unload.dismiss();
      await reloading;
      expect(await quota.inputValue()).toBe(typed);

      // leaving the tab for real drops the edit; nothing was saved
      await page.getByRole("tab", { name: s.tabs.ratelimit }).click();
      await leave.getByRole("button", { name: kit.leaveAction, exact: true }).click();
      await page.waitForURL((u) => u.searchParams.get("tab") === "ratelimit");
      expect(await option("QuotaForNewUser")).toBe(before);

      // saved from the bar: then a link leaves without a question
      await page.getByRole("tab", { name: s.tabs.operation }).click();
      await quota.fill(typed);
      await bar(page).getByRole("button", { name: kit.save, exact: true }).click();
      await expectToast(page, kit.saved);
      // typed in dollars, stored in units (docs/console-ui.md, "Quota display")
      await expect.poll(() => option("QuotaForNewUser")).toBe(String(Number(typed) * 500000));
      await bar(page).getByText(kit.allSaved).waitFor();
      await page.locator("aside").getByRole("link", { name: m.shell.sidebar.users }).click();
      await page.waitForURL((u) => u.pathname === "/admin/users");

      // the browser's Back with an edit: asked; Cancel stays with the edit, Leave goes back
      await page.goto(`${server.url}/admin/settings`);
      await quota.fill("1");
      await expect.poll(() => bar(page).getByRole("status").textContent()).toContain(s.operation.quota);
      // the guarding entry is pushed by an effect after the render that shows the edit
      await page.waitForFunction(() => (history.state as Record<string, unknown> | null)?.settingsUnsaved === true);
      await page.goBack().catch(() => undefined);
      await leave.waitFor();
      await leave.getByRole("button", { name: kit.cancel, exact: true }).click();
      await leave.waitFor({ state: "detached" });
      expect(new URL(page.url()).pathname).toBe("/admin/settings");
      expect(await quota.inputValue()).not.toBe(typed);
      await page.goBack().catch(() => undefined);
      await leave.getByRole("button", { name: kit.leaveAction, exact: true }).click();
      await page.waitForURL((u) => u.pathname === "/admin/users");
      expect(await option("QuotaForNewUser")).toBe(String(Number(typed) * 500000));
    } finally {
      await ctx.close();
    }
  });

  it("shows each control once and no example group as chosen", async () => {
    const { ctx, page } = await rootPage(locale);
    try {
      await page.goto(`${server.url}/admin/settings?tab=other`);
      await section(page, s.other.personalization).getByLabel(s.labels.Footer, { exact: true }).waitFor();
      expect(await page.getByRole("switch", { name: s.labels.DisplayInCurrencyEnabled }).count()).toBe(0);
      await page.getByRole("tab", { name: s.tabs.system }).click();
      await section(page, s.system.general).waitFor();
      expect(await page.getByLabel(s.labels.Footer, { exact: true }).count()).toBe(0);
      await page.getByRole("tab", { name: s.tabs.operation }).click();
      await expect.poll(() => page.getByRole("switch", { name: s.labels.DisplayInCurrencyEnabled }).count()).toBe(1);

      // the exempt groups' defaults (bulk-ok, nsfw-ok) are no groups of this site
      await page.getByRole("tab", { name: s.tabs.models }).click();
      const global = section(page, m.modelsTab.global);
      const pickers = global.getByLabel(m.modelsTab.exemptGroup, { exact: true });
      await expect.poll(() => pickers.count()).toBe(2);
      // the site's groups, once GET /api/group/ has answered
      await expect.poll(() => pickers.first().locator("option:not([disabled])").allTextContents()).toEqual(["default", "svip", "vip"]);
      const chosen = await pickers.evaluateAll((els) => els.map((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? ""));
      expect(chosen).toEqual([fmt(m.modelsTab.noGroupChosen, { group: "bulk-ok" }), fmt(m.modelsTab.noGroupChosen, { group: "nsfw-ok" })]);
      await global.scrollIntoViewIfNeeded();
      await shoot(page, locale, "settings-exempt-groups", false);
    } finally {
      await ctx.close();
    }
  });
});

describe.each(LOCALES)("toasts and dialogs (%s)", (locale) => {
  const m = MESSAGES[locale];
  const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  it("replaces a channel's testing toast by its result, and keeps toasts off the save button", async () => {
    const { ctx, page } = await rootPage(locale);
    try {
      await page.goto(`${server.url}/admin/channels`);
      await page.getByRole("button", { name: fmt(m.channels.testChannel, { name: "op" }) }).click();
      // the message with any time: "Channel op tested successfully in 0.12 s"
      const okText = new RegExp(
        fmt(m.channels.testOk, { name: "op" })
          .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
          .replace("{time}", "[\\d.]+"),
      );
      const ok = page.locator("[data-toast]").filter({ hasText: okText });
      await ok.first().waitFor();
      // the result took the testing toast's place at once (a toast lives 3.5 s)
      expect(
        await page
          .locator("[data-toast]")
          .filter({ hasText: fmt(m.channels.testing, { name: "op" }) })
          .count(),
      ).toBe(0);
      await shoot(page, locale, "toast-channel-tested", false);

      // a settings save: the toast does not cover the save bar's button
      await page.goto(`${server.url}/admin/settings?tab=ratelimit`);
      const field = page.getByLabel(m.settings.labels.ModelRequestRateLimitSuccessCount, { exact: true });
      await field.fill(locale === "zh" ? "1001" : "1002");
      const save = page.getByTestId("settings-save-bar").getByRole("button", { name: m.settingsKit.save, exact: true });
      await save.click();
      const toast = page.locator("[data-toast]").filter({ hasText: m.settingsKit.saved }).first();
      await toast.waitFor();
      const [t, b] = [await toast.boundingBox(), await save.boundingBox()];
      expect(t && b && !overlaps(t, b)).toBe(true);
      expect(t!.y).toBeLessThan(100);
      await shoot(page, locale, "toast-settings-saved", false);
    } finally {
      await ctx.close();
    }
  });

  it("closes every dialog and drawer with its X or Escape", async () => {
    const { ctx, page } = await rootPage(locale);
    try {
      await page.goto(`${server.url}/admin/users`);
      const row = page.getByTestId("user-row-caller");
      const dialog = page.getByRole("dialog");
      await row.getByRole("button", { name: fmt(m.users.actions.deleteUser, { name: "caller" }) }).click();
      await dialog.getByRole("button", { name: m.common.closeDialog, exact: true }).click();
      await dialog.waitFor({ state: "detached" });
      await row.getByRole("button", { name: fmt(m.users.actions.editUser, { name: "caller" }) }).click();
      const close = dialog.getByRole("button", { name: m.common.closeDialog, exact: true });
      await close.waitFor();
      await shoot(page, locale, "drawer-close-button", false);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await page.getByRole("button", { name: m.users.addUser }).click();
      await close.click();
      await dialog.waitFor({ state: "detached" });
    } finally {
      await ctx.close();
    }
  });
});

describe.each(LOCALES)("no dead-end buttons (%s)", (locale) => {
  const m = MESSAGES[locale];
  it("says why there is no buy-codes or bind-e-mail button on a new site, and offers them once set up", async () => {
    const { ctx, page } = await rootPage(locale);
    try {
      // no TopUpLink: no button, the note
      await page.goto(`${server.url}/app/wallet`);
      await page.getByTestId("no-top-up-link").getByText(m.wallet.noTopUpLinkNote).waitFor();
      expect(await page.getByRole("link", { name: m.wallet.buyCodes }).count()).toBe(0);
      expect(await page.getByRole("button", { name: m.wallet.buyCodes }).count()).toBe(0);
      await shoot(page, locale, "wallet-no-top-up-link", false);
      // no SMTP server: no bind button, the note
      await page.goto(`${server.url}/app/me`);
      await page.getByTestId("email-unavailable").getByText(m.me.account.emailUnavailable).waitFor();
      expect(await page.getByRole("button", { name: m.me.account.bindEmail, exact: true }).count()).toBe(0);
      await page.getByTestId("email-unavailable").scrollIntoViewIfNeeded();
      await shoot(page, locale, "me-no-smtp", false);

      await setOptions(root, { TopUpLink: "https://shop.example.com/codes", SMTPServer: "127.0.0.1" });
      await page.goto(`${server.url}/app/wallet`);
      expect(await page.getByRole("link", { name: m.wallet.buyCodes }).getAttribute("href")).toBe("https://shop.example.com/codes");
      expect(await page.getByTestId("no-top-up-link").count()).toBe(0);
      await page.goto(`${server.url}/app/me`);
      await page.getByRole("button", { name: m.me.account.bindEmail, exact: true }).waitFor();
      expect(await page.getByTestId("email-unavailable").count()).toBe(0);
    } finally {
      await setOptions(root, { TopUpLink: "", SMTPServer: "" });
      await ctx.close();
    }
  });
});

// Every list page at a phone's width: a table wider than the window scrolls inside its own
// box, and its last column can be scrolled into view (nothing clipped, the page itself no
// wider than the window).
const LIST_PAGES = [
  "/admin/users",
  "/admin/channels",
  "/app/tokens",
  "/app/logs/api-usage",
  "/app/logs/drawing",
  "/app/logs/tasks",
  "/admin/coupons",
  "/admin/topups",
  "/admin/messages",
  "/app/dashboard",
];

describe.each(LOCALES)("list pages at 390 px (%s)", (locale) => {
  it("scroll their tables instead of clipping them", async () => {
    await setOptions(root, { DrawingEnabled: "true", TaskEnabled: "true" });
    const { ctx, page } = await rootPage(locale, 390);
    try {
      for (const path of LIST_PAGES) {
        await page.goto(`${server.url}${path}`);
        await page.locator("main table").first().waitFor();
        await page.waitForTimeout(300);
        const tables = await page.locator("main table").evaluateAll((els) =>
          els.map((table) => {
            let box: HTMLElement | null = table.parentElement;
            while (box && !["auto", "scroll"].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
            const last = table.querySelector("thead tr")?.lastElementChild ?? table.querySelector("tr")?.lastElementChild;
            if (box) box.scrollLeft = box.scrollWidth;
            const right = last ? Math.round(last.getBoundingClientRect().right) : 0;
            if (box) box.scrollLeft = 0;
            return { scroller: box !== null && box !== document.documentElement && box !== document.body, right };
          }),
        );
        for (const t of tables) {
          expect(t.scroller, `${path}: a table without its own scroll box`).toBe(true);
          expect(t.right, `${path}: the last column stays out of view`).toBeLessThanOrEqual(390);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
        await page.locator("main table").first().scrollIntoViewIfNeeded();
        await shoot(page, locale, `phone${path.replaceAll("/", "-")}`, false);
      }
    } finally {
      await ctx.close();
    }
  });
});
