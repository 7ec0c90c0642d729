// Browser test of the statement (docs/statement.md): a user's statement in the wallet (kind
// labels, the kind and date filters, a reference's rows, the CSV download) and the same statement
// of that user from the admin's user editor, in zh and en, light and dark. Screenshots go to
// test-results/screenshots/statement.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ApiClient } from "../support/client";
import { makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import { flowLocales, fmt, launch, MESSAGES, shooter, signIn, type Locale } from "./browser";

let server: TestServer;
let browser: Browser;
let mock: MockUpstream;
let root: ApiClient;
let carol: { id: number; client: ApiClient };

const SHOTS = path.join(process.cwd(), "test-results", "screenshots", "statement");
const shoot = shooter("statement");

async function loggedIn(locale: Locale, username: string, password: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US", acceptDownloads: true });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  await signIn(page, server.url, username, password);
  return { ctx, page };
}

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  browser = await launch();
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify({ "gpt-4o-mini": 1.5 }),
    CompletionRatio: JSON.stringify({ "gpt-4o-mini": 4 }),
    CheckInEnabled: "true",
    CheckInQuota: "5000",
    CheckInMaxQuota: "5000",
  });
  expect(
    (await root.post("/api/channel/", { name: "mock", type: 1, key: mock.key, base_url: mock.url, models: "gpt-4o-mini", group: "default" })).success,
  ).toBe(true);
  carol = await makeUser(server, root, "carol");
  expect((await root.put("/api/user/", { id: carol.id, quota: 2_500_000 })).success).toBe(true);
  expect((await carol.client.post("/api/user/check_in")).success).toBe(true);
  const t = await carol.client.post<{ key: string }[]>("/api/token/", { name: "账单-key", unlimited_quota: true });
  for (let i = 0; i < 2; i++) {
    const r = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.data[0].key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], max_tokens: 40 }),
    });
    expect(r.status).toBe(200);
    await r.json();
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
});

type Row = { id: number; kind: string; delta: number; ref: string };
const checkIn = (rows: Row[]) => rows.find((r) => r.kind === "check_in")!;

describe("the statement in the wallet", () => {
  for (const locale of flowLocales(import.meta.url)) {
    it(`shows, filters and exports the user's movements (${locale})`, async () => {
      const m = MESSAGES[locale];
      const s = m.statement;
      const rows = (await carol.client.get<{ items: Row[]; total: number }>("/api/user/ledger/self?page_size=100")).data;
      expect(rows.total).toBe(6); // adjust, check-in, 2 × (reserve + settle)
      const { ctx, page } = await loggedIn(locale, "carol", "user-pass-1");
      await page.goto(`${server.url}/app/wallet?tab=statement`);
      const section = page.getByTestId("statement-section");
      for (const r of rows.items) await section.getByTestId(`ledger-row-${r.id}`).waitFor();
      for (const kind of ["admin_adjust", "check_in", "relay_reserve", "relay_settle"] as const) {
        expect(await section.locator("tbody").getByText(s.kinds[kind], { exact: true }).count()).toBeGreaterThan(0);
      }
      const adjust = rows.items.find((r) => r.kind === "admin_adjust")!;
      // signed amounts in the site's currency display (500000 units = $1), balance after each
      await expect.poll(() => section.getByTestId(`ledger-row-${adjust.id}`).textContent()).toContain("+$5.00$5.00");
      const reserve = rows.items.find((r) => r.kind === "relay_reserve")!;
      const usd = (-reserve.delta / 500000).toFixed(6).replace(/(\.\d\d\d*?)0+$/, "$1");
      expect(await section.getByTestId(`ledger-row-${reserve.id}`).textContent()).toContain(`-$${usd}`);
      expect(await section.getByTestId(`ledger-row-${checkIn(rows.items).id}`).textContent()).toContain("+$0.01$5.01");
      await shoot(page, locale, "statement-wallet");

      // the kind filter
      await section.getByLabel(s.filters.kind, { exact: true }).selectOption("check_in");
      await section.getByRole("button", { name: s.search, exact: true }).click();
      await expect.poll(() => section.locator("tbody tr").count()).toBe(1);
      await section.getByTestId(`ledger-row-${checkIn(rows.items).id}`).waitFor();

      // the CSV of what is filtered: BOM, header, the one check-in row with its label
      const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("button", { name: s.export, exact: true }).click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^statement-${carol.id}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
      const file = path.join(SHOTS, `statement-${locale}.csv`);
      mkdirSync(SHOTS, { recursive: true });
      await download.saveAs(file);
      const bytes = readFileSync(file);
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = bytes.subarray(3).toString("utf8").split("\r\n");
      expect(lines[0]).toBe("id,time_utc,created_at,kind,kind_label,delta,delta_usd,balance_after,balance_after_usd,ref,token_id,token_name");
      expect(lines.filter(Boolean)).toHaveLength(2);
      expect(lines[1]).toContain(`,check_in,${s.kinds.check_in},5000,0.010000,`);
      await page.locator("[data-toast]").filter({ hasText: s.exported }).first().waitFor();

      // a reference shows one call's rows: the reservation and its settlement
      await section.getByRole("button", { name: m.statement.reset, exact: true }).click();
      await section.getByTestId(`ledger-row-${reserve.id}`).waitFor();
      await section.getByRole("button", { name: reserve.ref, exact: true }).first().click();
      await expect.poll(() => section.locator("tbody tr").count()).toBe(rows.items.filter((r) => r.ref === reserve.ref).length);
      expect(await section.getByLabel(s.filters.ref, { exact: true }).inputValue()).toBe(reserve.ref);

      // the date filter: a start time tomorrow leaves nothing
      await section.getByRole("button", { name: m.statement.reset, exact: true }).click();
      await section.getByRole("button", { name: s.filters.start, exact: true }).click();
      const picker = page.getByRole("dialog", { name: s.filters.start });
      const tomorrow = new Date(Date.now() + 86_400_000);
      const pad = (n: number) => String(n).padStart(2, "0");
      const day = `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}`;
      if (tomorrow.getMonth() !== new Date().getMonth()) await picker.locator("button[aria-label*='Next'], button[aria-label*='下']").first().click();
      await picker.locator(`td[data-day='${day}'] button`).click();
      await picker.getByRole("button", { name: m.dateTimePicker.done }).click();
      await section.getByRole("button", { name: s.search, exact: true }).click();
      await section.getByText(s.empty).waitFor();
      await shoot(page, locale, "statement-wallet-empty", false);
      await ctx.close();
    });
  }
});

describe("the statement from the user editor", () => {
  for (const locale of flowLocales(import.meta.url)) {
    it(`the admin opens a user's statement (${locale})`, async () => {
      const m = MESSAGES[locale];
      const { ctx, page } = await loggedIn(locale, "root", ROOT_PASSWORD);
      await page.goto(`${server.url}/admin/users`);
      await page.getByRole("button", { name: fmt(m.users.actions.editUser, { name: "carol" }) }).click();
      await page.getByRole("button", { name: m.statement.open, exact: true }).click();
      const dialog = page.getByRole("dialog", { name: fmt(m.statement.dialogTitle, { name: "carol" }) });
      await dialog.getByTestId("statement-section").waitFor();
      await expect.poll(() => dialog.locator("tbody tr").count()).toBe(6);
      expect(await dialog.locator("tbody").getByText(m.statement.kinds.check_in, { exact: true }).count()).toBe(1);
      await dialog.getByLabel(m.statement.filters.kind, { exact: true }).selectOption("admin_adjust");
      await dialog.getByRole("button", { name: m.statement.search, exact: true }).click();
      await expect.poll(() => dialog.locator("tbody tr").count()).toBe(1);
      await dialog.getByLabel(m.statement.filters.kind, { exact: true }).selectOption("");
      await dialog.getByRole("button", { name: m.statement.search, exact: true }).click();
      await expect.poll(() => dialog.locator("tbody tr").count()).toBe(6);
      await shoot(page, locale, "statement-admin", false);
      await ctx.close();
    });
  }
});
