// One quota display rule and one date-time picker (docs/console-ui.md, "Quota display" and
// "Dates"): the display currency chosen in the settings shows the same amount the same way in
// the token list, the user list and the wallet; a token quota typed in the display unit is
// stored as exact units; an expiry picked with the picker is stored as the API's seconds.
// zh and en, light and dark, at 390 px.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shooter, signIn, type Locale } from "./browser";

const shoot = shooter("quota-display");
let server: TestServer;
let browser: Browser;
let root: ApiClient;
let carol: { id: number; client: ApiClient };
const pageErrors: string[] = [];

// 1,250,000 units: $2.50, ¥18.25 at 7.3 yuan a dollar, 1.3M as units
const BALANCE = 1_250_000;

type Token = { id: number; name: string; remain_quota: number; expired_time: number };

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  root = await setupRoot(server);
  carol = await makeUser(server, root, "carol");
  expect((await root.put("/api/user/", { id: carol.id, username: "carol", quota: BALANCE })).success).toBe(true);
  expect((await carol.client.post("/api/token/", { name: "shown", remain_quota: BALANCE, expired_time: -1 })).success).toBe(true);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedInPage(locale: Locale, username: string, password: string, width = 1280): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width, height: 860 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await signIn(page, server.url, username, password);
  return page;
}

const tokens = async () => (await carol.client.get<{ items: Token[] }>("/api/token/?p=1&page_size=100")).data.items;

// What the three pages show for carol's balance and token.
async function shown(admin: Page, user: Page) {
  await admin.goto(`${server.url}/admin/users`);
  const row = await admin.getByTestId("user-row-carol").textContent();
  await user.goto(`${server.url}/app/tokens`);
  const tokenRow = await user.getByTestId("token-row-shown").textContent();
  await user.goto(`${server.url}/app/wallet`);
  await expect.poll(() => user.getByTestId("balance-value").textContent()).not.toBe("…");
  const wallet = await user.getByTestId("balance-value").textContent();
  return { row: row ?? "", tokenRow: tokenRow ?? "", wallet: wallet ?? "" };
}

// Sets the picker named `label` to 00:00 of tomorrow in the browser's time zone; answers those seconds.
async function pickTomorrow(page: Page, locale: Locale, label: string): Promise<number> {
  const p = MESSAGES[locale].dateTimePicker;
  const clear = page.getByRole("button", { name: fmt(p.clearLabel, { label }), exact: true });
  if (await clear.count()) await clear.click();
  await page.getByRole("button", { name: label, exact: true }).click();
  const picker = page.getByRole("dialog", { name: label });
  const { day, otherMonth, seconds } = await page.evaluate(() => {
    const d = new Date();
    const month = d.getMonth();
    d.setDate(d.getDate() + 1);
    d.setHours(0, 0, 0, 0);
    const pad = (x: number) => String(x).padStart(2, "0");
    return { day: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, otherMonth: d.getMonth() !== month, seconds: d.getTime() / 1000 };
  });
  if (otherMonth) await picker.locator("button[aria-label*='ext'], button[aria-label*='下']").first().click();
  await picker.locator(`td[data-day='${day}'] button`).click();
  await picker.getByRole("button", { name: p.done, exact: true }).click();
  await picker.waitFor({ state: "hidden" });
  return seconds;
}

describe.each(flowLocales(import.meta.url))("quota display and the date-time picker (%s)", (locale) => {
  const m = MESSAGES[locale];
  const s = m.settings;

  it("switching the display currency in the settings shows one amount the same way in the token list, the user list and the wallet", async () => {
    await setOptions(root, { DisplayInCurrencyEnabled: "true", QuotaDisplayType: "USD" });
    const admin = await signedInPage(locale, "root", ROOT_PASSWORD);
    const user = await signedInPage(locale, "carol", "user-pass-1");
    try {
      // USD: $2.50 everywhere
      let v = await shown(admin, user);
      expect(v.row).toContain(fmt(m.users.remaining, { quota: "$2.50" }));
      expect(v.tokenRow).toContain("$2.50");
      expect(v.wallet).toBe("$2.50");

      // the root picks the yuan in Operation › General and saves from the bar
      await admin.goto(`${server.url}/admin/settings`);
      const select = admin.getByLabel(s.labels.QuotaDisplayType, { exact: true });
      await select.selectOption("CNY");
      await admin.getByTestId("settings-save-bar").getByRole("button", { name: m.settingsKit.save, exact: true }).click();
      await expectToast(admin, m.settingsKit.saved);
      expect((await root.get<{ key: string; value: string }[]>("/api/option/")).data.find((o) => o.key === "QuotaDisplayType")?.value).toBe("CNY");
      await select.scrollIntoViewIfNeeded();
      await shoot(admin, locale, "settings-display-currency", false);

      // ¥18.25 (1,250,000 units × 7.3 / 500000) everywhere
      v = await shown(admin, user);
      expect(v.row).toContain(fmt(m.users.remaining, { quota: "¥18.25" }));
      expect(v.tokenRow).toContain("¥18.25");
      expect(v.wallet).toBe("¥18.25");
      await shoot(user, locale, "wallet-cny");

      // a custom currency at its own rate
      await setOptions(root, { QuotaDisplayType: "CUSTOM", CustomCurrencySymbol: "€", CustomCurrencyExchangeRate: "0.92" });
      v = await shown(admin, user);
      expect(v.row).toContain(fmt(m.users.remaining, { quota: "€2.30" }));
      expect(v.tokenRow).toContain("€2.30");
      expect(v.wallet).toBe("€2.30");

      // currency off: shortened units everywhere
      await setOptions(root, { DisplayInCurrencyEnabled: "false" });
      v = await shown(admin, user);
      expect(v.row).toContain(fmt(m.users.remaining, { quota: "1.3M" }));
      expect(v.tokenRow).toContain("1.3M");
      expect(v.wallet).toBe("1.3M");
      await admin.goto(`${server.url}/admin/users`);
      await admin.getByTestId("user-row-carol").waitFor();
      await shoot(admin, locale, "users-units");
    } finally {
      await setOptions(root, { DisplayInCurrencyEnabled: "true", QuotaDisplayType: "USD" });
      await admin.context().close();
      await user.context().close();
    }
  });

  it("a token quota typed in the display unit is stored as exact units; an expiry picked with the picker is stored in seconds (390 px)", async () => {
    const name = `typed-${locale}`;
    const f = m.tokens.form;
    const page = await signedInPage(locale, "carol", "user-pass-1", 390);
    try {
      await page.goto(`${server.url}/app/tokens`);
      await page.getByRole("button", { name: m.tokens.add }).click();
      const drawer = page.getByRole("dialog");
      await drawer.getByLabel(f.name, { exact: true }).fill(name);
      const quota = drawer.getByLabel(f.quota, { exact: true });
      // the default $1 shows as dollars, the unit beside it, the units below
      expect(await quota.inputValue()).toBe("1");
      await drawer.getByText(fmt(m.quotaInput.equalsUnits, { units: "500,000" })).waitFor();
      // 2.5 dollars, and a fraction of a unit that rounds to the nearest (0.0000031 $ = 1.55 units → 2)
      await quota.fill("2.5000031");
      await drawer.getByText(fmt(m.quotaInput.equalsUnits, { units: "1,250,002" })).waitFor();
      await quota.fill("abc");
      await drawer.getByText(m.quotaInput.invalid).waitFor();
      await quota.fill("2.5");
      await drawer.getByText(fmt(m.quotaInput.equalsUnits, { units: "1,250,000" })).waitFor();
      const expiry = await pickTomorrow(page, locale, f.expiry);
      await shoot(page, locale, "token-drawer-390", false);
      await drawer.getByRole("button", { name: f.submit }).click();
      await expectToast(page, fmt(m.tokens.form.created, { count: 1 }));
      const saved = (await tokens()).find((t) => t.name === name);
      expect(saved).toMatchObject({ remain_quota: 1_250_000, expired_time: expiry });

      // in yuan the same drawer prefills the stored units as yuan and stores what is typed
      await setOptions(root, { QuotaDisplayType: "CNY" });
      await page.reload();
      await page.getByTestId(`token-row-${name}`).waitFor();
      await page.getByTestId(`token-row-${name}`).getByText("¥18.25").first().waitFor();
      await page.getByRole("button", { name: fmt(m.tokens.editOf, { name }), exact: true }).click();
      const edit = page.getByRole("dialog");
      const editQuota = edit.getByLabel(f.quota, { exact: true });
      await expect.poll(() => editQuota.inputValue()).toBe("18.25");
      await edit.getByText("¥", { exact: true }).waitFor();
      await editQuota.fill("7.3");
      await edit.getByText(fmt(m.quotaInput.equalsUnits, { units: "500,000" })).waitFor();
      await shoot(page, locale, "token-drawer-cny-390", false);
      await edit.getByRole("button", { name: f.submit }).click();
      await expectToast(page, f.saved);
      expect((await tokens()).find((t) => t.name === name)).toMatchObject({ remain_quota: 500_000, expired_time: expiry });
    } finally {
      await setOptions(root, { QuotaDisplayType: "USD" });
      await page.context().close();
    }
  });

  it("left no browser errors", () => {
    expect(pageErrors).toEqual([]);
  });
});
