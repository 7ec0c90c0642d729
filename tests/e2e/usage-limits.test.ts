// Browser test of the limit screens (docs/console-ui.md, "Limits"): the root sets a group
// default in the settings' GroupLimits table (a bad value refused, the saved option exact);
// a user sets the seven limits in the token drawer (a bad value refused, a quota typed in
// dollars stored as exact quota units), calls the gateway through the official OpenAI SDK
// against a mock upstream, and sees the meters move in the token list, the drawer and the
// wallet's "My limits" card, each equal to GET /api/usage/limits; the root sees the group
// default as placeholder in the user editor with the user's meters, and overrides it. zh and
// en, light and dark, desktop and 390 px (screenshots under test-results/screenshots/limits/).
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { flowLocales, fmt, launch, MESSAGES, shooter, type Locale } from "./browser";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import { seedUser, type SeededUser } from "../support/seed";

type Usage = { scope: string; limit: string; max: number; used: number; reset_at: number | null };
type Tok = {
  id: number;
  name: string;
  rpm_limit: number;
  tpm_limit: number;
  concurrency_limit: number;
  quota_5h: number;
  quota_day: number;
  quota_week: number;
  quota_month: number;
};

const shoot = shooter("limits");
let server: TestServer;
let browser: Browser;
let mock: MockUpstream;
let root: SeededUser;
let lena: SeededUser;
let tokenId = 0;
const CALLS = 3;

async function open(user: SeededUser, locale: Locale, path: string, phone = false): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({
    viewport: phone ? { width: 390, height: 844 } : { width: 1440, height: 900 },
    locale: locale === "zh" ? "zh-CN" : "en-US",
  });
  await ctx.addCookies([
    { name: "NEXT_LOCALE", value: locale, url: server.url },
    { name: "session", value: user.client.cookie.replace(/^session=/, ""), url: server.url },
  ]);
  const page = await ctx.newPage();
  await page.goto(`${server.url}${path}`);
  return { ctx, page };
}

const meter = (scope: ReturnType<Page["getByTestId"]>, limit: string) => scope.locator(`[data-testid="limit-meter"][data-limit="${limit}"]`).first();

async function noWiderThanWindow(page: Page) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(inner);
}

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  root = await seedUser(server, { username: "root", role: 100, quota: 1_000_000, group: "vip" }); // no group default: the empty wallet card
  lena = await seedUser(server, { username: "lena", quota: 50_000_000 });
  for (const [key, value] of [
    ["ModelRatio", JSON.stringify({ "gpt-limits": 1 })],
    ["DisplayInCurrencyEnabled", "true"],
  ]) {
    const r = await root.client.put("/api/option/", { key, value });
    expect(r.success, r.message).toBe(true);
  }
  const c = await root.client.post("/api/channel/", { name: "limits", type: 1, key: mock.key, base_url: mock.url, models: "gpt-limits", group: "default" });
  expect(c.success, c.message).toBe(true);
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
});

describe("usage limits in the console", () => {
  it("the root sets a group default in the settings", async () => {
    const m = MESSAGES.en;
    const { ctx, page } = await open(root, "en", "/admin/settings?tab=ratelimit");
    const table = page.getByTestId("group-limits");
    await table.waitFor();
    await table.getByText(m.limits.groups.empty).waitFor();
    await table.getByRole("button", { name: m.limits.groups.add }).click();
    const row = table.locator("tbody tr").first();
    await row.getByRole("combobox", { name: m.limits.groups.group }).selectOption("default");
    await row.getByLabel(`default ${m.limits.field.rpm_limit}`).fill("100");
    await row.getByLabel(`default ${m.limits.field.tpm_limit}`).fill("12.5");
    const save = page.getByTestId("settings-save-bar").getByRole("button", { name: m.settingsKit.save, exact: true });
    await save.click();
    // a count with decimals is refused by the option's rule, naming the group and the field
    await table.getByRole("alert").filter({ hasText: "group default, field tpm_limit" }).waitFor();
    await row.getByLabel(`default ${m.limits.field.tpm_limit}`).fill("");
    await row.getByLabel(`default ${m.limits.field.quota_day}`).fill("5");
    await save.click();
    await page.locator("[data-toast]").filter({ hasText: m.settingsKit.saved }).first().waitFor();
    const opts = await root.client.get<{ key: string; value: string }[]>("/api/option/");
    const stored = JSON.parse(opts.data.find((o) => o.key === "GroupLimits")!.value) as unknown;
    expect(stored).toEqual({ default: { rpm_limit: 100, quota_day: 2_500_000 } }); // $5 × 500000, exactly
    await ctx.close();
  });

  it("the token drawer refuses a bad limit and stores the seven limits, quotas exactly", async () => {
    const m = MESSAGES.en;
    const { ctx, page } = await open(lena, "en", "/app/tokens");
    await page.getByRole("button", { name: m.tokens.add }).click();
    const drawer = page.getByRole("dialog");
    await drawer.getByLabel(m.tokens.form.name, { exact: true }).fill("limited");
    const fields = drawer.getByTestId("limit-fields");
    await fields.getByLabel(m.limits.field.rpm_limit).fill("1.5");
    await drawer.getByRole("button", { name: m.tokens.form.submit }).click();
    await fields.getByText("Invalid parameter: rpm_limit").waitFor();
    await fields.getByLabel(m.limits.field.rpm_limit).fill("50");
    await fields.getByLabel(m.limits.field.tpm_limit).fill("10000");
    await fields.getByLabel(m.limits.field.concurrency_limit).fill("5");
    await fields.getByLabel(`${m.limits.field.quota_5h} ($)`).fill("0.1");
    await fields.getByLabel(`${m.limits.field.quota_day} ($)`).fill("1");
    await fields.getByText(fmt(m.limits.inUnits, { units: "500,000" })).waitFor();
    await shoot(page, "en", "token-drawer-new", false);
    await drawer.getByRole("button", { name: m.tokens.form.submit }).click();
    await page.getByTestId("token-row-limited").waitFor();
    const list = await lena.client.get<{ items: Tok[] }>("/api/token/?p=1&size=10");
    const tok = list.data.items.find((x) => x.name === "limited")!;
    tokenId = tok.id;
    expect(tok).toMatchObject({ rpm_limit: 50, tpm_limit: 10000, concurrency_limit: 5, quota_5h: 50_000, quota_day: 500_000, quota_week: 0, quota_month: 0 });
    // the row shows a meter per limit set, nothing used yet
    const row = page.getByTestId("token-row-limited");
    await meter(row, "rpm").waitFor();
    expect(await row.locator('[data-testid="limit-meter"]').count()).toBe(5);
    expect(await meter(row, "rpm").getAttribute("data-used")).toBe("0");
    await ctx.close();
  });

  it("calls through the gateway move the meters of the token list, the drawer and the wallet", async () => {
    const key = await lena.client.post<{ key: string }>(`/api/token/${tokenId}/key`);
    expect(key.success, key.message).toBe(true);
    const openai = new OpenAI({ apiKey: key.data.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    for (let i = 0; i < CALLS; i++) {
      await openai.chat.completions.create({ model: "gpt-limits", messages: [{ role: "user", content: `call ${i}` }] });
    }
    // what the server counts for the token (its own key) and for the user (the session)
    const asToken = await fetch(`${server.url}/api/usage/limits`, { headers: { authorization: `Bearer ${key.data.key}` } }).then(
      (r) => r.json() as Promise<{ success: boolean; data: Usage[] }>,
    );
    expect(asToken.success).toBe(true);
    const tokenRows = asToken.data.filter((u) => u.scope === "token");
    await expect.poll(() => tokenRows.find((u) => u.limit === "rpm")?.used).toBe(CALLS);
    const tokenDay = tokenRows.find((u) => u.limit === "quota_day")!;
    expect(tokenDay.used).toBeGreaterThan(0);
    const tokenTpm = tokenRows.find((u) => u.limit === "tpm")!;
    expect(tokenTpm.used).toBeGreaterThan(0);

    const m = MESSAGES.en;
    const { ctx, page } = await open(lena, "en", "/app/tokens");
    const row = page.getByTestId("token-row-limited");
    await expect.poll(() => meter(row, "rpm").getAttribute("data-used")).toBe(String(CALLS));
    expect(await meter(row, "rpm").getAttribute("data-max")).toBe("50");
    expect(await meter(row, "quota_day").getAttribute("data-used")).toBe(String(tokenDay.used));
    expect(await meter(row, "tpm").getAttribute("data-used")).toBe(String(tokenTpm.used));
    // the quota meter shows the site's money display: used / $1.00
    expect(await meter(row, "quota_day").textContent()).toContain("/ $1.00");
    expect(await meter(row, "quota_day").getAttribute("title")).toContain(fmt(m.limits.resetsAt, { time: "" }).trim());
    await shoot(page, "en", "token-list");
    await row.getByRole("button", { name: fmt(m.tokens.editOf, { name: "limited" }) }).click();
    const drawerMeters = page.getByRole("dialog").getByTestId("token-drawer-meters");
    await expect.poll(() => meter(drawerMeters, "rpm").getAttribute("data-used")).toBe(String(CALLS));
    // the form shows the stored quotas back in dollars
    expect(await page.getByRole("dialog").getByLabel(`${m.limits.field.quota_5h} ($)`).inputValue()).toBe("0.1");
    await shoot(page, "en", "token-drawer-edit", false);

    // the wallet: every limit of the session's answer (the user's, from the group default)
    const own = await lena.client.get<Usage[]>("/api/usage/limits");
    const userRpm = own.data.find((u) => u.scope === "user" && u.limit === "rpm")!;
    expect(userRpm).toMatchObject({ max: 100, used: CALLS });
    await page.goto(`${server.url}/app/wallet`);
    const card = page.getByTestId("wallet-limits");
    await meter(card, "rpm").waitFor();
    expect(await card.locator('[data-testid="limit-meter"]').count()).toBe(own.data.filter((u) => u.max > 0).length);
    expect(await meter(card, "rpm").getAttribute("data-used")).toBe(String(CALLS));
    expect(await meter(card, "rpm").getAttribute("data-max")).toBe("100");
    const userDay = own.data.find((u) => u.scope === "user" && u.limit === "quota_day")!;
    expect(await meter(card, "quota_day").getAttribute("data-used")).toBe(String(userDay.used));
    expect(await meter(card, "quota_day").textContent()).toContain("/ $5.00");
    await shoot(page, "en", "wallet");
    await ctx.close();
  });

  it("the user editor shows the group default as placeholder, the user's meters, and saves an override", async () => {
    const m = MESSAGES.en;
    const { ctx, page } = await open(root, "en", `/user/edit/${lena.id}`);
    const fields = page.getByTestId("limit-fields");
    await fields.waitFor();
    const rpm = fields.getByLabel(m.limits.field.rpm_limit);
    await expect.poll(() => rpm.getAttribute("placeholder")).toBe(fmt(m.limits.groupDefault, { value: "100" }));
    expect(await fields.getByLabel(`${m.limits.field.quota_day} ($)`).getAttribute("placeholder")).toBe(fmt(m.limits.groupDefault, { value: "5" }));
    expect(await fields.getByLabel(m.limits.field.tpm_limit).getAttribute("placeholder")).toBe(m.limits.noGroupDefault);
    const meters = page.getByTestId("user-editor-meters");
    await expect.poll(() => meter(meters, "rpm").getAttribute("data-used")).toBe(String(CALLS));
    expect(await meter(meters, "rpm").getAttribute("data-max")).toBe("100");
    await rpm.fill("60");
    await fields.getByLabel(`${m.limits.field.quota_week} ($)`).fill("2.5");
    // the meter follows the typed override before it is saved
    await expect.poll(() => meter(meters, "rpm").getAttribute("data-max")).toBe("60");
    await shoot(page, "en", "user-editor");
    await page.getByRole("button", { name: m.userEditor.save, exact: true }).click();
    await page.locator("[data-toast]").filter({ hasText: m.userEditor.saved }).first().waitFor();
    const u = await root.client.get<Tok>(`/api/user/${lena.id}`);
    expect(u.data).toMatchObject({ rpm_limit: 60, quota_week: 1_250_000, tpm_limit: 0 });
    const own = await lena.client.get<Usage[]>("/api/usage/limits");
    expect(own.data.find((x) => x.scope === "user" && x.limit === "rpm")?.max).toBe(60);
    await ctx.close();
  });

  it("zh and en, light and dark, at 390 px: nothing wider than the window", async () => {
    for (const locale of flowLocales(import.meta.url)) {
      const m = MESSAGES[locale];
      for (const phone of [true, false]) {
        const tag = phone ? "phone" : "desktop";
        if (locale === "en" && !phone) continue; // shot above
        {
          const { ctx, page } = await open(lena, locale, "/app/tokens", phone);
          await meter(page.getByTestId("token-row-limited"), "rpm").waitFor();
          if (phone) await noWiderThanWindow(page);
          await shoot(page, locale, `token-list-${tag}`);
          await page.goto(`${server.url}/app/wallet`);
          await meter(page.getByTestId("wallet-limits"), "rpm").waitFor();
          await page.getByText(m.limits.wallet.title).first().waitFor();
          if (phone) await noWiderThanWindow(page);
          await shoot(page, locale, `wallet-${tag}`);
          await ctx.close();
        }
        {
          const { ctx, page } = await open(root, locale, "/admin/settings?tab=ratelimit", phone);
          await page.getByTestId("group-limits-row-default").waitFor();
          if (phone) await noWiderThanWindow(page);
          await page.getByTestId("group-limits").scrollIntoViewIfNeeded();
          await shoot(page, locale, `settings-${tag}`);
          await page.goto(`${server.url}/user/edit/${lena.id}`);
          await meter(page.getByTestId("user-editor-meters"), "rpm").waitFor();
          if (phone) await noWiderThanWindow(page);
          await shoot(page, locale, `user-editor-${tag}`);
          await ctx.close();
        }
      }
    }
    // the wallet's empty state: the root has no limits
    const { ctx, page } = await open(root, "zh", "/app/wallet", true);
    await page.getByTestId("wallet-limits-empty").waitFor();
    expect(await page.getByTestId("wallet-limits-empty").textContent()).toBe(MESSAGES.zh.limits.wallet.empty);
    await shoot(page, "zh", "wallet-empty-phone");
    await ctx.close();
  }, 240_000);
});
