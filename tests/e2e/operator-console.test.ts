// The console as a new operator meets it (docs/console-ui.md, docs/dashboard.md), in zh and
// en, light and dark, against one real built server and one browser: every change of a user's
// role, status or quota asks first and its toast says what changed (cancelling changes
// nothing); the dashboard opened right after ten relay calls shows them with non-zero
// averages. Screenshots go to test-results/screenshots/operator/.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import { expectToast, fmt, launch, MESSAGES, shooter, type Locale } from "./browser";

const LOCALES: Locale[] = ["zh", "en"];
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
  const m = MESSAGES[locale];
  await page.goto(`${server.url}/login`);
  await page.getByLabel(m.login.username, { exact: true }).fill("root");
  await page.getByLabel(m.login.password, { exact: true }).fill(ROOT_PASSWORD);
  await page.getByRole("button", { name: m.login.submit, exact: true }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
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
      await drawer.getByLabel(m.userEditor.quota, { exact: true }).fill("1500000");
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
