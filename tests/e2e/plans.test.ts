// Subscription plans in the console (docs/console-ui.md, "Plans"; docs/plans.md): the admin
// creates a plan in the /admin/plans drawer (the quota typed in dollars, stored as exact
// units; a quota that is no whole number of units refused under its field), a user buys it
// in the wallet with the balance (confirm dialog, then done), the wallet shows the
// subscription with its meter, a relay call through a mock upstream moves the meter, the
// billing preference is switched, and the admin sees the subscriber (the plan's subscriber
// list and the user list's plan column), resets the period, grants the plan to another user
// and revokes it, each after a confirmation. Screenshots in zh and en, light and dark, at
// 1280 px and 390 px (test-results/screenshots/plans/), where no page is wider than the window.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { renderQuota } from "@/lib/client/format";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { startStripeMock, type StripeMock } from "../support/payments";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shooter, type Locale } from "./browser";

const shoot = shooter("plans");
const PER_UNIT = 500_000;
const DISPLAY = { displayInCurrency: true, quotaPerUnit: PER_UNIT };
const MODEL = "gpt-plan";
const RATIO = 1000; // a call of the mock's usage costs some hundredths of a dollar
let callCost = 0; // what the call was charged: its usage log's quota

let server: TestServer;
let browser: Browser;
let mock: MockUpstream;
let stripe: StripeMock;
let root: ApiClient;
let buyer: { id: number; client: ApiClient };
let other: { id: number; client: ApiClient };
let planId = 0;
const pageErrors: string[] = [];

type PlanRow = { id: number; name: string; price: string; quota: number | string; reset_period: string; models: string[]; upgrade_group: string };
type Sub = { id: number; plan_id: number; status: string; period_used: number | string; period_quota: number | string };
type Mine = { subscriptions: Sub[]; billing_preference: string; wallet_fallback: boolean };

beforeAll(async () => {
  mock = await startMockUpstream("openai");
  stripe = await startStripeMock();
  server = await startServer({ env: { STRIPE_API_BASE: stripe.url } });
  browser = await launch();
  root = await setupRoot(server);
  await setOptions(root, {
    DisplayInCurrencyEnabled: "true",
    QuotaPerUnit: String(PER_UNIT),
    ModelRatio: JSON.stringify({ [MODEL]: RATIO }),
    CompletionRatio: JSON.stringify({ [MODEL]: 1 }),
    CacheRatio: "{}",
    GroupRatio: JSON.stringify({ default: 1, vip: 1 }),
    ServerAddress: server.url,
    StripeApiSecret: "sk_test_plans_e2e_4eC39HqLyjWDarjtT1zdp7dc",
  });
  const ch = await root.post("/api/channel/", { name: "plan-mock", type: 1, key: mock.key, base_url: mock.url, models: MODEL, group: "default,vip" });
  expect(ch.success, ch.message).toBe(true);
  buyer = await makeUser(server, root, "planbuyer");
  other = await makeUser(server, root, "plangift");
  expect((await root.put("/api/user/", { id: buyer.id, quota: 10 * PER_UNIT })).success).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
  await stripe?.close();
  expect(pageErrors).toEqual([]);
});

async function open(client: ApiClient, locale: Locale, path: string, width = 1280): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([
    { name: "NEXT_LOCALE", value: locale, url: server.url },
    { name: "session", value: client.cookie.replace(/^session=/, ""), url: server.url },
  ]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(`${server.url}${path}`);
  return { ctx, page };
}

const mine = async () => (await buyer.client.get<Mine>("/api/user/plan")).data;
const activeSub = async () => (await mine()).subscriptions.find((s) => s.plan_id === planId && s.status === "active");

async function noWiderThanWindow(page: Page) {
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(w.scroll).toBeLessThanOrEqual(w.inner);
}

describe("plans in the console", () => {
  it("the admin creates a plan in the drawer; the quota typed in dollars is stored as exact units", async () => {
    const m = MESSAGES.en.plans;
    const { ctx, page } = await open(root, "en", "/admin/plans");
    await page.getByText(m.empty, { exact: true }).waitFor();
    await page.getByRole("button", { name: m.add, exact: true }).first().click();
    const form = page.getByTestId("plan-form");
    await form.getByLabel(m.form.name, { exact: true }).fill("Pro 5h");
    await form.getByLabel(m.form.description, { exact: true }).fill("A dollar every five hours for a week");
    await form.getByLabel(m.form.price, { exact: true }).fill("2.5");
    await form.getByRole("button", { name: m.duration.week, exact: true }).click();
    await expect.poll(() => form.getByLabel(m.form.duration, { exact: true }).inputValue()).toBe("7");
    const quota = form.getByLabel(fmt(m.form.quotaMoney, { unit: "USD" }), { exact: true });
    // no amount: refused under the field, nothing saved
    await quota.fill("-1");
    await page.getByRole("button", { name: m.form.submit, exact: true }).click();
    await form.getByRole("alert").filter({ hasText: m.form.quotaInvalid }).waitFor();
    await quota.fill("1.29");
    await form.getByText(fmt(m.form.quotaIs, { units: "645000" }), { exact: true }).waitFor();
    await form.getByLabel(m.form.resetPeriod, { exact: true }).selectOption("5h");
    await form.getByLabel(m.form.upgradeGroup, { exact: true }).selectOption("vip");
    await form.getByLabel(m.form.expiryGroup, { exact: true }).selectOption("default");
    await form.getByTestId("plan-models").getByLabel(MODEL, { exact: true }).check();
    await form.getByLabel(m.form.maxPerUser, { exact: true }).fill("3");
    await shoot(page, "en", "plans-drawer", false);
    await page.getByRole("button", { name: m.form.submit, exact: true }).click();
    await expectToast(page, fmt(m.form.created, { name: "Pro 5h" }));
    const plans = (await root.get<PlanRow[]>("/api/plan/")).data;
    expect(plans).toHaveLength(1);
    planId = plans[0].id;
    expect(plans[0]).toMatchObject({ name: "Pro 5h", price: "2.50", reset_period: "5h", models: [MODEL], upgrade_group: "vip" });
    expect(String(plans[0].quota)).toBe("645000");
    await page.getByTestId(`plan-row-${planId}`).waitFor();
    await ctx.close();
  });

  it("the buyer buys it with the balance: a confirm dialog, then the wallet shows it with its meter", async () => {
    const m = MESSAGES.en.wallet.plans;
    const before = (await buyer.client.get<{ quota: number }>("/api/user/self")).data.quota;
    const { ctx, page } = await open(buyer.client, "en", "/app/wallet");
    const offer = page.getByTestId(`plan-offer-${planId}`);
    await offer.waitFor();
    expect(await offer.textContent()).toContain("$2.50");
    await offer.getByRole("button", { name: fmt(m.buyOf, { name: "Pro 5h" }), exact: true }).click();
    const dialog = page.getByTestId("plan-buy");
    await dialog.waitFor();
    expect(await dialog.getByLabel(m.payBalance, { exact: true }).isChecked()).toBe(true);
    await shoot(page, "en", "plans-wallet-buy", false);
    await page.getByRole("button", { name: m.pay, exact: true }).click();
    await expectToast(page, fmt(m.bought, { name: "Pro 5h" }));
    const sub = await activeSub();
    expect(sub).toBeDefined();
    // the price in quota: 2.50 USD × QuotaPerUnit
    const after = (await buyer.client.get<{ quota: number }>("/api/user/self")).data.quota;
    expect(before - after).toBe(2.5 * PER_UNIT);
    const card = page.getByTestId(`subscription-${sub!.id}`);
    await card.waitFor();
    const meter = card.getByTestId(`plan-meter-${sub!.id}`);
    expect(await meter.getByTestId("meter-used").textContent()).toBe(
      fmt(MESSAGES.en.plans.meter.used, { used: renderQuota(0, DISPLAY), total: renderQuota(645000, DISPLAY) }),
    );
    // the balance card names the plan
    await expect.poll(() => page.getByTestId("wallet-plan").textContent()).toBe("Pro 5h");
    await ctx.close();
  });

  it("a relay call moves the meter", async () => {
    const tok = await buyer.client.post<{ key: string }[]>("/api/token/", { name: "plan-key", unlimited_quota: true });
    expect(tok.success, tok.message).toBe(true);
    const balance = async () => (await buyer.client.get<{ quota: number }>("/api/user/self")).data.quota;
    const balanceBefore = await balance();
    const openai = new OpenAI({ apiKey: tok.data[0].key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hello" }] });
    await expect
      .poll(async () => (await buyer.client.get<{ items: { quota: number }[] }>("/api/log/self?p=1&page_size=10&type=2")).data.items.length, {
        timeout: 10_000,
      })
      .toBe(1);
    callCost = (await buyer.client.get<{ items: { quota: number }[] }>("/api/log/self?p=1&page_size=10&type=2")).data.items[0].quota;
    expect(callCost).toBeGreaterThanOrEqual(RATIO * (USAGE.prompt + USAGE.completion) * 0.5);
    // charged to the plan (plan first is the default), not to the balance
    await expect.poll(async () => Number((await activeSub())?.period_used), { timeout: 10_000 }).toBe(callCost);
    expect(await balance()).toBe(balanceBefore);
    const sub = (await activeSub())!;
    const { ctx, page } = await open(buyer.client, "en", "/app/wallet");
    const meter = page.getByTestId(`plan-meter-${sub.id}`);
    await expect
      .poll(() => meter.getByTestId("meter-used").textContent())
      .toBe(fmt(MESSAGES.en.plans.meter.used, { used: renderQuota(callCost, DISPLAY), total: renderQuota(645000, DISPLAY) }));
    expect(await meter.getByTestId("meter-left").textContent()).toBe(fmt(MESSAGES.en.plans.meter.left, { left: renderQuota(645000 - callCost, DISPLAY) }));
    expect(Number(await meter.getByRole("meter").getAttribute("aria-valuenow"))).toBe(callCost);
    // the billing preference: balance first, then no fallback to the balance
    const pref = page.getByTestId("plan-preference");
    await pref.getByLabel(MESSAGES.en.wallet.plans.walletFirst, { exact: true }).check();
    await expectToast(page, MESSAGES.en.wallet.plans.preferenceSaved);
    await expect.poll(async () => (await mine()).billing_preference).toBe("wallet_first");
    const fallback = pref.getByRole("switch");
    const was = (await mine()).wallet_fallback;
    await fallback.click();
    await expect.poll(async () => (await mine()).wallet_fallback).toBe(!was);
    await pref.getByLabel(MESSAGES.en.wallet.plans.planFirst, { exact: true }).check();
    await expect.poll(async () => (await mine()).billing_preference).toBe("plan_first");
    await ctx.close();
  });

  it("the buyer cancels the Stripe renewal after a confirmation; the plan stays active to its end", async () => {
    const m = MESSAGES.en.wallet.plans;
    const sub = (await activeSub())!;
    // the subscription as Stripe's Checkout would have left it (docs/plans.md, "Stripe")
    await query(server, 'UPDATE "subscriptions" SET "stripe_subscription_id" = $1 WHERE "id" = $2', ["sub_e2e_1", sub.id]);
    const { ctx, page } = await open(buyer.client, "en", "/app/wallet");
    const card = page.getByTestId(`subscription-${sub.id}`);
    await card.getByText(m.autoRenew, { exact: true }).waitFor();
    await card.getByRole("button", { name: m.cancelRenewal, exact: true }).click();
    const dialog = page.getByRole("dialog", { name: m.cancelTitle });
    await dialog.waitFor();
    await shoot(page, "en", "plans-wallet-cancel", false);
    // Cancel keeps it renewing; nothing is sent to Stripe
    await dialog.getByRole("button", { name: MESSAGES.en.settingsKit.cancel, exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    expect(stripe.subscriptionUpdates).toEqual([]);
    await card.getByRole("button", { name: m.cancelRenewal, exact: true }).click();
    await dialog.getByRole("button", { name: m.cancelAction, exact: true }).click();
    await expectToast(page, m.cancelled);
    await expect.poll(() => card.getByTestId("subscription-end").textContent()).toContain(m.endsAt.split("{time}")[0]);
    await card.getByRole("button", { name: m.cancelRenewal, exact: true }).waitFor({ state: "detached" });
    expect(stripe.subscriptionUpdates).toMatchObject([{ id: "sub_e2e_1", body: { cancel_at_period_end: "true" } }]);
    expect((await activeSub())?.status).toBe("active");
    await ctx.close();
  });

  it("the admin sees the subscriber, resets the period, grants the plan and revokes it, each confirmed", async () => {
    const m = MESSAGES.en.plans;
    // the user list's plan column
    const users = await open(root, "en", "/admin/users");
    const row = users.page.getByTestId("user-row-planbuyer");
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain("Pro 5h");
    await users.ctx.close();

    const { ctx, page } = await open(root, "en", "/admin/plans");
    await page.getByRole("button", { name: fmt(m.subscribersOf, { name: "Pro 5h" }), exact: true }).click();
    const drawer = page.getByTestId("plan-subscribers");
    const subRow = drawer.getByTestId("subscriber-row-planbuyer");
    await subRow.waitFor();
    expect(await subRow.textContent()).toContain(renderQuota(callCost, DISPLAY));
    // cancel changes nothing
    await subRow.getByRole("button", { name: fmt(m.subs.resetOf, { name: "planbuyer" }), exact: true }).click();
    await page.getByRole("dialog", { name: m.subs.resetTitle }).getByRole("button", { name: MESSAGES.en.settingsKit.cancel, exact: true }).click();
    expect(Number((await activeSub())!.period_used)).toBe(callCost);
    await subRow.getByRole("button", { name: fmt(m.subs.resetOf, { name: "planbuyer" }), exact: true }).click();
    const confirmReset = page.getByRole("dialog", { name: m.subs.resetTitle });
    expect(await confirmReset.textContent()).toContain(fmt(m.subs.resetConfirm, { name: "planbuyer", plan: "Pro 5h" }));
    await confirmReset.getByRole("button", { name: m.subs.reset, exact: true }).click();
    await expectToast(page, fmt(m.subs.resetDone, { name: "planbuyer", plan: "Pro 5h" }));
    expect(Number((await activeSub())!.period_used)).toBe(0);

    // grant to another user found by the search
    await drawer.getByLabel(m.subs.userSearch, { exact: true }).fill("plangift");
    await drawer.getByRole("button", { name: m.subs.search, exact: true }).click();
    await drawer.getByRole("button", { name: fmt(m.subs.grantTo, { name: "plangift" }), exact: true }).click();
    await page.getByRole("dialog", { name: m.subs.grantTitle }).getByRole("button", { name: m.subs.grant, exact: true }).click();
    await expectToast(page, fmt(m.subs.grantDone, { name: "plangift", plan: "Pro 5h" }));
    const gifted = (await other.client.get<Mine>("/api/user/plan")).data.subscriptions.filter((s) => s.status === "active");
    expect(gifted.map((s) => s.plan_id)).toEqual([planId]);
    const giftRow = drawer.getByTestId("subscriber-row-plangift");
    await giftRow.waitFor();
    await shoot(page, "en", "plans-subscribers", false);
    await giftRow.getByRole("button", { name: fmt(m.subs.revokeOf, { name: "plangift" }), exact: true }).click();
    await page.getByRole("dialog", { name: m.subs.revokeTitle }).getByRole("button", { name: m.subs.revoke, exact: true }).click();
    await expectToast(page, fmt(m.subs.revokeDone, { name: "plangift", plan: "Pro 5h" }));
    await expect.poll(async () => (await other.client.get<Mine>("/api/user/plan")).data.subscriptions.filter((s) => s.status === "active").length).toBe(0);
    await ctx.close();
  });

  it.each(flowLocales(import.meta.url))(
    "draws the plan pages in %s, light and dark, at 1280 and 390 px",
    async (locale) => {
      const m = MESSAGES[locale];
      for (const width of [1280, 390]) {
        const tag = width === 390 ? "-phone" : "";
        const admin = await open(root, locale, "/admin/plans", width);
        await admin.page.getByTestId(`plan-row-${planId}`).waitFor();
        await noWiderThanWindow(admin.page);
        await shoot(admin.page, locale, `plans-admin${tag}`);
        await admin.page.getByRole("button", { name: fmt(m.plans.editOf, { name: "Pro 5h" }), exact: true }).click();
        await admin.page.getByTestId("plan-form").waitFor();
        await shoot(admin.page, locale, `plans-edit${tag}`, false);
        await admin.ctx.close();
        const wallet = await open(buyer.client, locale, "/app/wallet", width);
        await wallet.page.getByTestId("plans-section").waitFor();
        await wallet.page.getByTestId("plan-preference").waitFor();
        await noWiderThanWindow(wallet.page);
        await shoot(wallet.page, locale, `plans-wallet${tag}`);
        await wallet.ctx.close();
        const users = await open(root, locale, "/admin/users", width);
        await users.page.getByTestId("user-row-planbuyer").waitFor();
        await noWiderThanWindow(users.page);
        await shoot(users.page, locale, `plans-users${tag}`);
        await users.ctx.close();
      }
    },
    480_000,
  );
});
