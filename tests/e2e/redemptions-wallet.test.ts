// Browser test of the redemption codes page and the wallet (docs/redemptions.md), in zh and
// en: the admin creates a batch, sees and copies the codes once, searches, disables one
// (greyed), sees a spent gift code greyed and a used code that cannot be enabled, and deletes
// the batch by name after a confirmation that shows the count; a user opens
// /app/wallet?code=…, sees the code recognised, changes it, is told to enter a code, redeems
// and sees the toast and the new balance. Screenshots in light and dark under test-results/screenshots/redemptions-wallet.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { renderMessage } from "@/lib/i18n/server-messages";
import { startServer, type TestServer } from "../support/server";
import { query, seedUser, type SeededUser } from "../support/seed";
import { flowLocales, fmt, launch, MESSAGES, shooter, type Locale } from "./browser";

let server: TestServer;
let browser: Browser;
let root: SeededUser;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  root = await seedUser(server, { username: "root", role: 100 });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(user: SeededUser, locale: Locale): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([
    { name: "NEXT_LOCALE", value: locale, url: server.url },
    { name: "session", value: user.client.cookie.replace(/^session=/, ""), url: server.url },
  ]);
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await ctx.newPage();
  page.setDefaultTimeout(30_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return { ctx, page };
}

// The page (or the viewport while a dialog is open) in light and dark.
const shoot = shooter("redemptions-wallet");

const toast = (page: Page, text: string) => page.locator("[data-toast]").filter({ hasText: text }).first();

async function createCodes(body: Record<string, unknown>): Promise<string[]> {
  const r = await root.client.post<string[]>("/api/redemption/", body);
  expect(r.success, r.message).toBe(true);
  return r.data;
}
async function idOf(name: string): Promise<number> {
  const rows = await query(server, 'SELECT "id" FROM "redemptions" WHERE "name" = $1 ORDER BY "id"', [name]);
  return Number(rows[0].id);
}

describe.each(flowLocales(import.meta.url))("redemption codes and wallet (%s)", (locale) => {
  const m = MESSAGES[locale];
  const c = m.redemptions;
  const sm = (key: Parameters<typeof renderMessage>[1]) => renderMessage(locale, key);

  it("/admin/coupons: batch, keys shown once and copied, search, disable, greyed rows, delete by name", async () => {
    const batch = `promo-${locale}`;
    // a spent gift code and a used single code, made through the API
    const [gift] = await createCodes({ name: `gift-${locale}`, quota: 50000, is_gift: true, max_uses: 1 });
    const [single] = await createCodes({ name: `used-${locale}`, quota: 50000 });
    const taker = await seedUser(server, { username: `taker-${locale}` });
    expect((await taker.client.post("/api/user/topup", { key: gift })).success).toBe(true);
    expect((await taker.client.post("/api/user/topup", { key: single })).success).toBe(true);

    const { ctx, page } = await open(root, locale);
    try {
      await page.goto(`${server.url}/admin/coupons`);
      await page.getByRole("heading", { name: c.title }).waitFor();
      // the sidebar has the entry
      expect(await page.locator(`aside a[href="/admin/coupons"]`).count()).toBeGreaterThan(0);

      // the drawer refuses a long name with the server's message
      await page.getByRole("button", { name: c.add }).click();
      const drawer = page.getByRole("dialog");
      await drawer.getByLabel(c.form.name, { exact: true }).fill("n".repeat(21));
      await drawer.getByLabel(c.form.count, { exact: true }).fill("101");
      await drawer.getByRole("button", { name: c.form.submit }).click();
      await expect.poll(() => drawer.locator('p[role="alert"]').allTextContents()).toEqual([sm("redemption_name_length"), sm("redemption_count_invalid")]);
      await shoot(page, locale, "redemptions-drawer-refused", false);

      await drawer.getByLabel(c.form.name, { exact: true }).fill(batch);
      await drawer.getByLabel(c.form.count, { exact: true }).fill("3");
      await drawer.getByRole("button", { name: "$1.00", exact: true }).click();
      await drawer.getByRole("button", { name: c.form.submit }).click();

      const keysDialog = page.getByRole("dialog", { name: fmt(c.keys.title, { count: 3 }) });
      await keysDialog.waitFor();
      const keys = (await keysDialog.locator('[data-testid="created-keys"] code').allTextContents()).map((k) => k.trim());
      expect(keys).toHaveLength(3);
      for (const k of keys) expect(k).toMatch(/^[A-Za-z0-9]{32}$/);
      await shoot(page, locale, "redemptions-keys", false);
      await keysDialog.getByRole("button", { name: c.keys.copyAll }).click();
      await toast(page, c.keys.copied).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(keys.join("\n"));
      await keysDialog.getByRole("button", { name: c.keys.close, exact: true }).click();
      await keysDialog.waitFor({ state: "hidden" });

      // spent gift code greyed, used single code cannot be enabled or edited
      const giftId = await idOf(`gift-${locale}`);
      const usedId = await idOf(`used-${locale}`);
      await page.locator(`[data-testid="redemption-row-${giftId}"]`).waitFor();
      expect(await page.locator(`[data-testid="redemption-row-${giftId}"]`).getAttribute("data-greyed")).toBe("true");
      const usedRow = page.locator(`[data-testid="redemption-row-${usedId}"]`);
      expect(await usedRow.getAttribute("data-greyed")).toBeNull();
      expect(await usedRow.getByRole("button", { name: fmt(c.enableOf, { name: `used-${locale}`, id: usedId }) }).isDisabled()).toBe(true);
      expect(await usedRow.getByRole("button", { name: fmt(c.editOf, { name: `used-${locale}`, id: usedId }) }).isDisabled()).toBe(true);

      // search the batch, select one row, disable it: greyed, edit off, enable on
      await page.getByRole("search").getByRole("textbox").fill(batch);
      await page.getByRole("search").getByRole("button", { name: c.search }).click();
      await expect.poll(() => page.locator('[data-testid^="redemption-row-"]').count()).toBe(3);
      const first = page.locator('[data-testid^="redemption-row-"]').first();
      const firstId = Number((await first.getAttribute("data-testid"))!.replace("redemption-row-", ""));
      await page.getByRole("checkbox", { name: fmt(c.select, { name: batch, id: firstId }) }).check();
      await page.getByRole("button", { name: fmt(c.batchDisable, { count: 1 }) }).click();
      await toast(page, fmt(c.batchDisabled, { count: 1 })).waitFor();
      await expect.poll(() => page.locator(`[data-testid="redemption-row-${firstId}"]`).getAttribute("data-greyed")).toBe("true");
      const disabledRow = page.locator(`[data-testid="redemption-row-${firstId}"]`);
      expect(await disabledRow.getByRole("button", { name: fmt(c.editOf, { name: batch, id: firstId }) }).isDisabled()).toBe(true);
      expect(await disabledRow.getByRole("button", { name: fmt(c.enableOf, { name: batch, id: firstId }) }).isEnabled()).toBe(true);
      await shoot(page, locale, "redemptions-list");

      // delete by name: the count first, then the batch is gone
      await page.getByLabel(c.byName.name, { exact: true }).fill(batch);
      await page.getByRole("button", { name: c.byName.submit }).click();
      const confirm = page.getByRole("dialog", { name: c.byName.title });
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(fmt(c.byName.confirm, { name: batch, count: 3 }));
      await shoot(page, locale, "redemptions-delete-by-name", false);
      await confirm.getByRole("button", { name: c.confirmDelete }).click();
      await toast(page, fmt(c.deletedCount, { count: 3 })).waitFor();
      await page.getByText(c.empty).waitFor();
      expect((await root.client.get<{ count: number }>(`/api/redemption/count-by-name?name=${batch}`)).data.count).toBe(0);
    } finally {
      await ctx.close();
    }
    expect(pageErrors).toEqual([]);
  });

  it("/app/wallet?code=: recognised, change, required, redeemed with the toast and the new balance", async () => {
    const user = await seedUser(server, { username: `wallet-${locale}` });
    const [code] = await createCodes({ name: `w-${locale}`, quota: 500000 });
    const { ctx, page } = await open(user, locale);
    try {
      await page.goto(`${server.url}/app/wallet?code=${code}`);
      // the dialog opens by itself; while it is open the page behind it is hidden from the
      // accessibility tree, so the page is checked by its elements
      const dialog = page.getByRole("dialog", { name: m.wallet.redeem.title });
      await dialog.waitFor();
      expect(await page.locator("h1").first().textContent()).toBe(m.wallet.title);
      expect(await page.locator(`aside a[href="/app/wallet"]`).count()).toBeGreaterThan(0);
      const recognised = dialog.getByTestId("recognised-code");
      expect(await recognised.textContent()).toContain(m.wallet.redeem.recognised);
      expect(await recognised.textContent()).toContain(code.slice(0, 6));
      await expect.poll(() => page.getByTestId("balance-value").textContent()).toBe("$0.00");
      await shoot(page, locale, "wallet-recognised", false);

      // change: the field comes back empty; submitting it says a code is required
      await dialog.getByRole("button", { name: m.wallet.redeem.change }).click();
      const field = dialog.getByLabel(m.wallet.redeem.code, { exact: true });
      expect(await field.inputValue()).toBe("");
      await dialog.getByRole("button", { name: m.wallet.redeem.submit, exact: true }).click();
      await expect.poll(() => dialog.locator('p[role="alert"]').allTextContents()).toEqual([sm("redeem_code_required")]);
      // a wrong code: the server's refusal
      await field.fill("not-a-real-code");
      await dialog.getByRole("button", { name: m.wallet.redeem.submit, exact: true }).click();
      await toast(page, sm("redemption_invalid")).waitFor();
      await shoot(page, locale, "wallet-refused", false);

      await field.fill(code);
      await dialog.getByRole("button", { name: m.wallet.redeem.submit, exact: true }).click();
      await toast(page, fmt(m.wallet.redeem.success, { amount: "$1.00" })).waitFor();
      await dialog.waitFor({ state: "hidden" });
      await expect.poll(() => page.getByTestId("balance-value").textContent()).toBe("$1.00");
      await page.waitForURL((u) => u.pathname === "/app/wallet" && !u.searchParams.has("code"));
      await shoot(page, locale, "wallet-after");

      // the plan label and the redeem button; the spent code is refused from the button too
      await page.getByText(m.wallet.payAsYouGo, { exact: true }).waitFor();
      await page.getByRole("button", { name: m.wallet.redeem.open, exact: true }).click();
      await dialog.getByLabel(m.wallet.redeem.code, { exact: true }).fill(code);
      await dialog.getByRole("button", { name: m.wallet.redeem.submit, exact: true }).click();
      await toast(page, sm("redemption_invalid")).waitFor();
      await dialog.getByRole("button", { name: m.wallet.redeem.cancel, exact: true }).click();
      await dialog.waitFor({ state: "hidden" });

      // the statement tab (loaded with the page, before the redemption) shows the redemption
      // without a reload: the redemption revalidated it; the tab is written to the address
      await page.getByRole("tab", { name: m.statement.title }).click();
      const statement = page.getByTestId("statement-section");
      await expect.poll(() => statement.locator("tbody").getByText(m.statement.kinds.redeem, { exact: true }).count()).toBe(1);
      await page.waitForURL((u) => u.searchParams.get("tab") === "statement");

      // no online payment method: no top-up button; no TopUpLink: no buy button, a note instead
      expect(await page.getByRole("link", { name: m.wallet.topUp }).count()).toBe(0);
      expect(await page.getByRole("link", { name: m.wallet.buyCodes }).count()).toBe(0);
      await page.getByTestId("no-top-up-link").getByText(m.wallet.noTopUpLinkNote).waitFor();
      const saved = await root.client.put("/api/option/", { key: "TopUpLink", value: `${server.url}/about?shop=${locale}` });
      expect(saved.success, saved.message).toBe(true);
      await page.reload();
      const [shop] = await Promise.all([ctx.waitForEvent("page"), page.getByRole("link", { name: m.wallet.buyCodes }).click()]);
      expect(await page.getByTestId("no-top-up-link").count()).toBe(0);
      await shop.waitForURL((u) => u.pathname === "/about" && u.searchParams.get("shop") === locale);
      await shop.close();
      await shoot(page, locale, "wallet-statement-tab");
      await root.client.put("/api/option/", { key: "TopUpLink", value: "" });
    } finally {
      await ctx.close();
    }
    const [row] = await query(server, 'SELECT "quota" FROM "users" WHERE "id" = $1', [user.id]);
    expect(Number(row.quota)).toBe(500000);
    expect(pageErrors).toEqual([]);
  });
});
