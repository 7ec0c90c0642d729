// The usage log's detail shows the virtual model a call asked for (docs/relay.md, "Virtual
// models"): a call for a virtual model served by its actual model, then the logs page in
// en and zh, light and dark (screenshots under test-results/screenshots/).
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { renderQuota } from "@/lib/client/format";
import { flowLocales, launch, MESSAGES, shoot } from "./browser";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import { execDb } from "../support/db";
import { SCAN_WINDOW } from "@/lib/logs/scan-window";
import { seedUser, type SeededUser } from "../support/seed";

let server: TestServer;
let browser: Browser;
let mock: MockUpstream;
let root: SeededUser;

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  root = await seedUser(server, { username: "root", role: 100, quota: 1_000_000 });
  for (const [key, value] of [
    ["ModelRatio", JSON.stringify({ "gpt-actual": 1 })],
    ["CacheRatio", "{}"],
  ]) {
    const r = await root.client.put("/api/option/", { key, value });
    expect(r.success, r.message).toBe(true);
  }
  expect(
    (await root.client.post("/api/channel/", { name: "actual", type: 1, key: mock.key, base_url: mock.url, models: "gpt-actual", group: "default" })).success,
  ).toBe(true);
  const m = await root.client.put("/api/model_mapping/", { mapping: { "smart-alias": [{ model: "gpt-actual", priorities: 0 }] } });
  expect(m.success, m.message).toBe(true);
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
});

// The logs page as root, in `locale`, at that window size.
async function openLogs(locale: "en" | "zh", width: number, height: number) {
  const ctx = await browser.newContext({ viewport: { width, height }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([
    { name: "NEXT_LOCALE", value: locale, url: server.url },
    { name: "session", value: root.client.cookie.replace(/^session=/, ""), url: server.url },
  ]);
  const page = await ctx.newPage();
  await page.goto(`${server.url}/app/logs/api-usage`);
  return { ctx, page };
}

describe("usage log detail of a virtual model's call", () => {
  it("shows the served model in the row and the virtual model in the detail", async () => {
    const t = await root.client.post<{ key: string }[]>("/api/token/", { name: "virt", unlimited_quota: true });
    expect(t.success, t.message).toBe(true);
    const openai = new OpenAI({ apiKey: t.data[0].key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await openai.chat.completions.create({ model: "smart-alias", messages: [{ role: "user", content: "hello" }] });
    let id = 0;
    for (let i = 0; i < 40 && !id; i++) {
      const r = await root.client.get<{ items: { id: number }[] }>("/api/log/?p=1&page_size=10&type=2");
      id = r.data.items[0]?.id ?? 0;
      if (!id) await new Promise((res) => setTimeout(res, 100));
    }
    expect(id).toBeGreaterThan(0);

    for (const locale of flowLocales(import.meta.url)) {
      const { ctx, page } = await openLogs(locale, 1440, 900);
      const row = page.getByTestId(`log-row-${id}`);
      await row.waitFor();
      expect((await row.locator("td").allTextContents()).map((c) => c.trim())).toContain("gpt-actual");
      await row.getByRole("button", { name: MESSAGES[locale].logs.showDetail }).click();
      const detail = page.getByTestId(`log-detail-${id}`);
      await expect.poll(() => detail.textContent()).toContain(`${MESSAGES[locale].logs.detail.virtualModel}smart-alias`);
      await shoot(page, locale, "model-mapping-log-detail");
      await ctx.close();
    }
  });

  it("fits a 1366 px screen with the admin's columns, shows a tiny cost and no unset model price", async () => {
    const r = await root.client.get<{ items: { id: number; quota: number }[] }>("/api/log/?p=1&page_size=10&type=2");
    const log = r.data.items[0];
    expect(log.quota).toBeGreaterThan(0);
    expect(log.quota).toBeLessThan(2500); // under half a cent: $0.00 before
    for (const locale of flowLocales(import.meta.url)) {
      const { ctx, page } = await openLogs(locale, 1366, 800);
      const row = page.getByTestId(`log-row-${log.id}`);
      await row.waitFor();
      // the summary's cost is the stat's quota in dollars, not rounded to $0.00
      const cost = renderQuota(log.quota, { displayInCurrency: true, quotaPerUnit: 500000 });
      expect(cost).not.toBe("$0.00");
      await expect.poll(() => page.getByRole("group", { name: MESSAGES[locale].logs.summary }).textContent()).toContain(cost);
      const fit = await page.locator("table").evaluate((t) => ({ table: t.scrollWidth, card: t.parentElement!.clientWidth }));
      expect(fit.table, JSON.stringify(fit)).toBeLessThanOrEqual(fit.card);
      const more = row.getByRole("button", { name: MESSAGES[locale].logs.showDetail });
      const box = await more.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(1366);
      await more.click();
      const detail = page.getByTestId(`log-detail-${log.id}`);
      const d = MESSAGES[locale].logs.detail;
      await expect.poll(() => detail.textContent()).toContain(d.modelRatio);
      // a ratio-priced call: its model_price is -1, "not set", and not shown
      expect(await detail.textContent()).not.toContain(d.modelPrice);
      await shoot(page, locale, "usage-logs-1366");
      await ctx.close();
    }
  });

  it("says when a search by model name read only the newest rows of its range", async () => {
    // more rows today than one search by an unindexed filter reads (lib/logs/scan-window.ts)
    const now = Math.floor(Date.now() / 1000);
    const n = SCAN_WINDOW + 50;
    const insert = `INSERT INTO "logs" ("user_id", "username", "type", "created_at", "model_name", "token_name", "quota")`;
    // within the last five minutes: the page's default range starts at the browser's midnight,
    // which may be less than an hour ago
    const select = `SELECT ${root.id}, 'root', 2, ${now} - (i % 300), 'bulk-model', 'bulk', 1`;
    await execDb(
      server,
      server.dbKind === "postgresql"
        ? `${insert} ${select} FROM generate_series(0, ${n - 1}) AS i`
        : `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${n - 1}) ${insert} ${select} FROM s`,
    );
    for (const locale of flowLocales(import.meta.url)) {
      const { ctx, page } = await openLogs(locale, 1366, 800);
      await page.locator("tbody tr").first().waitFor();
      expect(await page.getByTestId("log-scan-window").count()).toBe(0);
      await page.getByLabel(MESSAGES[locale].logs.filters.modelName).fill("no-such-model");
      await page.getByRole("button", { name: MESSAGES[locale].logs.search, exact: true }).click();
      const note = page.getByTestId("log-scan-window");
      await note.waitFor();
      expect(await note.textContent()).toContain(SCAN_WINDOW.toLocaleString("en-US"));
      expect(await page.getByText(MESSAGES[locale].logs.empty).count()).toBe(1);
      await shoot(page, locale, "usage-logs-scan-window");
      // an admin's token name alone: the list reads its index, the summary no rollup holds and
      // sums the newest rows only (lib/rollups/log-stat.ts), which the page says under it
      expect(await page.getByTestId("log-stat-scan-window").count()).toBe(0);
      await page.getByLabel(MESSAGES[locale].logs.filters.modelName).fill("");
      await page.getByLabel(MESSAGES[locale].logs.filters.tokenName).fill("bulk");
      await page.getByRole("button", { name: MESSAGES[locale].logs.search, exact: true }).click();
      const statNote = page.getByTestId("log-stat-scan-window");
      await statNote.waitFor();
      expect(await statNote.textContent()).toContain(SCAN_WINDOW.toLocaleString("en-US"));
      await page.getByTestId("log-scan-window").waitFor({ state: "detached" });
      await shoot(page, locale, "usage-logs-stat-scan-window");
      await ctx.close();
    }
  });
});
