// The wallet's online top-up and the root's order page in a browser, in Chinese and English
// (docs/payments.md): the form (quick amounts, amount forced to at least 1, method, code) ->
// the confirm view with the server's price -> back -> confirm -> the hidden form posted to a
// local epay stand-in, whose fields are signed; then the provider's signed notify credits the
// order and the return URL shows the success page, whose button leads back to the wallet and
// its history. /admin/topups: search, and a pending order completed by hand after a confirm
// dialog. Screenshots (test-results/screenshots/payments-*), light and dark.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { epaySign, signedNotify, startEpayStandIn, type Listening } from "../support/payments";
import { startServer, type TestServer } from "../support/server";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shoot, signIn, type Locale } from "./browser";

const LOCALES: Locale[] = flowLocales(import.meta.url);
const KEY = "e2e-epay-key-5Rz";
const PID = "2024";
const USER = { username: "shopper", password: "user-pass-1" };

let server: TestServer;
let browser: Browser;
let root: ApiClient;
let shopper: ApiClient;
let epay: Listening & { forms: Record<string, string>[] };
const pageErrors: string[] = [];

beforeAll(async () => {
  epay = await startEpayStandIn();
  server = await startServer();
  browser = await launch();
  root = await setupRoot(server);
  await setOptions(root, { ServerAddress: server.url, PayAddress: epay.url, EpayId: PID, EpayKey: KEY, Price: "7.3", MinTopUp: "1" });
  shopper = (await makeUser(server, root, USER.username, 1, USER.password)).client;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await epay?.close();
});

async function newPage(locale: Locale): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return { ctx, page };
}

async function login(page: Page, locale: Locale, username: string, password: string) {
  await signIn(page, server.url, username, password);
}

async function notify(params: Record<string, string>) {
  const res = await fetch(`${server.url}/api/user/epay/notify`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString(),
  });
  return res.text();
}

describe("wallet top-up", () => {
  it.each(LOCALES)("form -> confirm -> back -> confirm -> provider, then notify and the success page (%s)", async (locale) => {
    const m = MESSAGES[locale].payments;
    const { ctx, page } = await newPage(locale);
    await login(page, locale, USER.username, USER.password);
    const quotaBefore = (await shopper.get<{ quota: number }>("/api/user/self")).data.quota;
    // the overview's "Top up" link switches from the statement tab to the top-up tab
    await page.goto(`${server.url}/app/wallet?tab=statement`);
    const form = page.getByTestId("topup-form");
    await page.getByTestId("statement-section").waitFor();
    expect(await form.isVisible()).toBe(false);
    await page.getByRole("link", { name: MESSAGES[locale].wallet.topUp, exact: true }).click();
    await form.waitFor();
    await page.waitForURL((u) => u.searchParams.get("tab") === "topup");
    expect(await page.getByTestId("statement-section").isVisible()).toBe(false);
    const amount = form.getByLabel(m.amount, { exact: true });
    // the amount is forced to a whole number of at least 1
    await amount.fill("0");
    await amount.blur();
    expect(await amount.inputValue()).toBe("1");
    await form.getByRole("button", { name: fmt(m.presetDollars, { n: 50 }), exact: true }).click();
    expect(await amount.inputValue()).toBe("50");
    await form.getByRole("button", { name: fmt(m.presetDollars, { n: 10 }), exact: true }).click();
    await form.getByLabel(m.methods.wx, { exact: true }).check();
    await form.getByLabel(m.code, { exact: true }).fill("spring");
    await shoot(page, locale, "payments-wallet-form");
    await form.getByRole("button", { name: m.next, exact: true }).click();
    const confirm = page.getByTestId("topup-confirm");
    await confirm.waitFor();
    expect(await page.getByTestId("topup-price").textContent()).toBe("¥73.00");
    await expect(confirm.textContent()).resolves.toContain(m.methods.wx);
    await shoot(page, locale, "payments-wallet-confirm");
    // back keeps what was typed
    await confirm.getByRole("button", { name: m.back, exact: true }).click();
    await form.waitFor();
    expect(await amount.inputValue()).toBe("10");
    expect(await form.getByLabel(m.methods.wx, { exact: true }).isChecked()).toBe(true);
    await form.getByRole("button", { name: m.next, exact: true }).click();
    await confirm.waitFor();
    const formsBefore = epay.forms.length;
    await confirm.getByRole("button", { name: m.pay, exact: true }).click();
    await page.waitForURL(`${epay.url}/submit.php`);
    expect(epay.forms).toHaveLength(formsBefore + 1);
    const posted = epay.forms[formsBefore];
    expect(posted).toMatchObject({
      pid: PID,
      type: "wxpay",
      money: "73.00",
      name: "TUC10",
      sign_type: "MD5",
      return_url: `${server.url}/app/wallet/topup-success`,
    });
    expect(posted.sign).toBe(epaySign(posted, KEY));
    // the provider reports the payment, then sends the payer back
    const answer = await notify(
      signedNotify(
        { pid: PID, trade_no: "EPAY1", out_trade_no: posted.out_trade_no, type: "wxpay", name: posted.name, money: "73.00", trade_status: "TRADE_SUCCESS" },
        KEY,
      ),
    );
    expect(answer).toBe("success");
    expect((await shopper.get<{ quota: number }>("/api/user/self")).data.quota).toBe(quotaBefore + 10 * 500000);
    await page.goto(posted.return_url);
    await page.getByRole("heading", { name: m.successTitle }).waitFor();
    await shoot(page, locale, "payments-topup-success");
    await page.getByRole("link", { name: m.toWallet, exact: true }).click();
    await page.waitForURL(`${server.url}/app/wallet`);
    const row = page.getByTestId(`topup-row-${posted.out_trade_no}`);
    await row.waitFor();
    expect(await row.textContent()).toContain(m.status.success);
    await shoot(page, locale, "payments-wallet-history");
    await ctx.close();
  });

  it("says online top-up is off when the admin has not configured it", async () => {
    await setOptions(root, { EpayKey: "" });
    try {
      const { ctx, page } = await newPage("en");
      await login(page, "en", USER.username, USER.password);
      await page.goto(`${server.url}/app/wallet`);
      await page.getByText(MESSAGES.en.payments.off).first().waitFor();
      // no online method: the overview offers no "Top up" link
      expect(await page.getByRole("link", { name: MESSAGES.en.wallet.topUp, exact: true }).count()).toBe(0);
      expect(await page.getByRole("button", { name: MESSAGES.en.payments.next, exact: true }).isDisabled()).toBe(true);
      await ctx.close();
    } finally {
      await setOptions(root, { EpayKey: KEY });
    }
  });
});

describe("Stripe in the settings and the wallet", () => {
  it.each(LOCALES)("the root sets the Stripe options; the wallet then offers Stripe at its price (%s)", async (locale) => {
    const m = MESSAGES[locale];
    const unit = locale === "zh" ? "9" : "8.5";
    const { ctx, page } = await newPage(locale);
    await login(page, locale, "root", ROOT_PASSWORD);
    await page.goto(`${server.url}/admin/settings?tab=system`);
    const stripe = page.locator("form").filter({ has: page.getByRole("heading", { name: m.settings.system.stripe, exact: true }) });
    await stripe.waitFor();
    await stripe.getByLabel(m.settings.labels.StripeApiSecret).fill("sk_test_e2e_never_shown");
    await stripe.getByLabel(m.settings.labels.StripeWebhookSecret).fill("whsec_e2e_never_shown");
    await stripe.getByLabel(m.settings.labels.StripeUnitPrice, { exact: true }).fill(unit);
    await page.getByTestId("settings-save-bar").getByRole("button", { name: m.settingsKit.save, exact: true }).click();
    await expectToast(page, m.settingsKit.saved);
    await page.reload();
    await stripe.waitFor();
    expect(await stripe.locator('[data-secret-state="set"]').count()).toBe(2);
    expect(await page.content()).not.toContain("sk_test_e2e_never_shown");
    await shoot(page, locale, "payments-settings-stripe");
    await ctx.close();
    const { ctx: ctx2, page: wallet } = await newPage(locale);
    await login(wallet, locale, USER.username, USER.password);
    await wallet.goto(`${server.url}/app/wallet`);
    const form = wallet.getByTestId("topup-form");
    await form.getByLabel(m.payments.methods.stripe, { exact: true }).check();
    await form.getByRole("button", { name: fmt(m.payments.presetDollars, { n: 1 }), exact: true }).click();
    await form.getByRole("button", { name: m.payments.next, exact: true }).click();
    expect(await wallet.getByTestId("topup-price").textContent()).toBe(`$${Number(unit).toFixed(2)}`);
    await wallet.getByRole("button", { name: m.payments.back, exact: true }).click();
    await form.waitFor();
    // with a Stripe Price, Stripe sets the charge: the confirm view names no figure
    await setOptions(root, { StripePriceId: "price_e2e_topup" });
    try {
      await form.getByRole("button", { name: m.payments.next, exact: true }).click();
      expect(await wallet.getByTestId("topup-price").textContent()).toBe(m.payments.pricedByStripe);
      await shoot(wallet, locale, "payments-wallet-confirm-stripe-price");
    } finally {
      await setOptions(root, { StripePriceId: "" });
    }
    await ctx2.close();
  });
});

describe("/admin/topups", () => {
  it.each(LOCALES)("lists and searches orders, and completes a pending one by hand (%s)", async (locale) => {
    const m = MESSAGES[locale].payments;
    const pending = (await shopper.post("/api/user/pay", { amount: 2, payment_method: "zfb", top_up_code: `grp-${locale}` })) as unknown as {
      data: Record<string, string>;
    };
    const tradeNo = pending.data.out_trade_no;
    const { ctx, page } = await newPage(locale);
    await login(page, locale, "root", ROOT_PASSWORD);
    await page.goto(`${server.url}/app/tokens`);
    await page.getByRole("link", { name: MESSAGES[locale].shell.sidebar.topups }).first().click();
    await page.waitForURL(`${server.url}/admin/topups`);
    await page.getByRole("heading", { name: m.adminTitle }).waitFor();
    const search = page.getByRole("search");
    await search.getByLabel(m.adminSearch).fill(tradeNo);
    await search.getByRole("button", { name: m.search }).click();
    const row = page.getByTestId(`order-row-${tradeNo}`);
    await row.waitFor();
    expect(await row.textContent()).toContain(m.status.pending);
    expect(await row.textContent()).toContain(`grp-${locale}`);
    expect(await page.locator("tbody tr").count()).toBe(1);
    await search.getByLabel(m.adminSearch).fill("");
    await search.getByRole("button", { name: m.search }).click();
    await page.locator("tbody tr").nth(1).waitFor();
    await shoot(page, locale, "payments-admin-topups");
    await row.getByRole("button", { name: fmt(m.completeOf, { trade_no: tradeNo }) }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText(m.completeTitle).waitFor();
    await shoot(page, locale, "payments-admin-complete-dialog", false);
    await dialog.getByRole("button", { name: m.complete, exact: true }).click();
    await expectToast(page, locale === "zh" ? "订单已完成，额度已到账" : "Order completed, the quota was credited");
    await row.getByText(m.status.success).waitFor();
    expect(await row.textContent()).toContain(m.by.admin);
    expect(await row.getByRole("button").count()).toBe(0);
    await ctx.close();
  });

  it("shows the page to the root only", async () => {
    const { ctx, page } = await newPage("en");
    await makeUser(server, root, "helper-admin", 10, "admin-pass-1");
    await login(page, "en", "helper-admin", "admin-pass-1");
    await page.goto(`${server.url}/admin/topups`);
    await page.getByText(MESSAGES.en.payments.rootOnly).waitFor();
    expect(await page.getByRole("link", { name: MESSAGES.en.shell.sidebar.topups }).count()).toBe(0);
    await ctx.close();
    expect(pageErrors).toEqual([]);
  });
});
