// Browser test of the data dashboard (docs/dashboard.md): a user's dashboard (stat cards equal
// to the sums of the user's logs, the four charts drawn, granularity hour / day / week), and an
// admin's view of all users and of one user with the top users and models, in zh and en,
// light and dark; and the performance tab, the channel list's 24-hour columns, the status page
// and the pricing page's badges (docs/performance.md) from relay-like log rows with known times.
// Screenshots go to test-results/screenshots (dashboard-*, perf-*).
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ApiClient } from "../support/client";
import { makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import { queryDb } from "../support/db";
import { startServer, type TestServer } from "../support/server";
import { flowLocales, launch, MESSAGES, shoot, signIn, type Locale } from "./browser";

const HOUR = 3600;
let server: TestServer;
let browser: Browser;
let root: ApiClient;
let dana: { id: number; client: ApiClient };
let erin: { id: number; client: ApiClient };

const MODELS = ["gpt-4o-mini", "claude-3-5-sonnet", "gemini-1.5-pro", "deepseek-chat", "qwen-max"];

async function insertLogs(rows: unknown[][]): Promise<void> {
  const head =
    'INSERT INTO "logs" ("user_id", "username", "type", "created_at", "model_name", "quota", "prompt_tokens", "completion_tokens", "token_name", "group") VALUES ';
  if (server.dbKind === "postgresql") {
    const c = new pg.Client({ connectionString: server.databaseUrl });
    await c.connect();
    const params: unknown[] = [];
    const tuples = rows.map((r) => `(${r.map((v) => (params.push(v), `$${params.length}`)).join(", ")})`);
    await c.query(head + tuples.join(", "), params);
    await c.end();
    return;
  }
  const conn = new Database(server.databaseUrl.replace(/^file:/, ""));
  conn.pragma("busy_timeout = 5000");
  const stmt = conn.prepare(head + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  conn.transaction(() => rows.forEach((r) => stmt.run(...r)))();
  conn.close();
}

async function loggedIn(locale: Locale, username: string, password: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US", timezoneId: "Asia/Shanghai" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  await signIn(page, server.url, username, password);
  return { ctx, page };
}

const quotaText = (q: number) => "$" + (q / 500000).toFixed(2);

// Relay calls' rows (docs/performance.md): erin's streamed successes with known TTFT and
// latency on channel `channel`, and upstream failures; 9 in 10 succeed.
async function insertCalls(channel: number, now: number): Promise<void> {
  const head =
    'INSERT INTO "logs" ("user_id", "username", "type", "created_at", "model_name", "completion_tokens", "token_name", "group", "channel_id", "is_stream", "latency_ms", "other") VALUES ';
  const rows: unknown[][] = [];
  for (let i = 0; i < 120; i++) {
    const model = MODELS[Math.floor(i / 10) % 2];
    const t = now - 60 - (i % 20) * 1800;
    const ok = i % 10 !== 9;
    const frt = 300 + (i % 7) * 60 + (model === MODELS[0] ? 0 : 400);
    const other = JSON.stringify(ok ? { frt, status_code: 200 } : { status_code: 502, error_type: "upstream_error" });
    rows.push([erin.id, "erin", ok ? 2 : 6, t, model, ok ? 200 : 0, "main", "default", channel, server.dbKind === "postgresql" ? true : 1, frt * 3, other]);
  }
  if (server.dbKind === "postgresql") {
    const c = new pg.Client({ connectionString: server.databaseUrl });
    await c.connect();
    const params: unknown[] = [];
    const tuples = rows.map((r) => `(${r.map((v) => (params.push(v), `$${params.length}`)).join(", ")})`);
    await c.query(head + tuples.join(", "), params);
    await c.end();
    return;
  }
  const conn = new Database(server.databaseUrl.replace(/^file:/, ""));
  conn.pragma("busy_timeout = 5000");
  const stmt = conn.prepare(head + `(${rows[0].map(() => "?").join(", ")})`);
  conn.transaction(() => rows.forEach((r) => stmt.run(...r)))();
  conn.close();
}
let channelId = 0;

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  root = await setupRoot(server);
  await setOptions(root, { DataExportEnabled: "true", DataExportDefaultTime: "day", DisplayInCurrencyEnabled: "true" });
  dana = await makeUser(server, root, "dana");
  erin = await makeUser(server, root, "erin");
  expect((await root.put("/api/user/", { id: dana.id, quota: 12_345_678 })).success).toBe(true);
  // ten days of usage for dana and erin, busier in the daytime, plus error logs that never count
  const now = Math.floor(Date.now() / 1000);
  const rows: unknown[][] = [];
  let seed = 7;
  const r = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
  for (let h = 0; h < 240; h++) {
    const t = Math.floor(now / HOUR) * HOUR - h * HOUR;
    const busy = 2 + Math.round(6 * Math.max(0, Math.sin((((t / HOUR) % 24) / 24) * Math.PI)));
    for (let i = 0; i < busy; i++) {
      const who = r() < 0.7 ? dana : erin;
      const model = MODELS[Math.min(MODELS.length - 1, Math.floor(r() * r() * MODELS.length * 1.6))];
      rows.push([
        who.id,
        who === dana ? "dana" : "erin",
        2,
        t + Math.floor(r() * 3599),
        model,
        2000 + Math.floor(r() * 60000),
        200 + Math.floor(r() * 3000),
        50 + Math.floor(r() * 800),
        "main",
        "default",
      ]);
    }
    if (h % 10 === 0) rows.push([dana.id, "dana", 6, t + 5, "gpt-4o-mini", 0, 999, 0, "main", "default"]);
  }
  await insertLogs(rows);
  // a channel serving two of the models to the default group (the status page lists them)
  expect(
    (
      await root.post("/api/channel/", {
        name: "perf",
        type: 1,
        key: "sk-perf",
        base_url: "http://127.0.0.1:9",
        models: MODELS.slice(0, 2).join(","),
        group: "default",
      })
    ).success,
  ).toBe(true);
  channelId = (await root.get<{ items: { id: number }[] }>("/api/channel/?p=1&page_size=10")).data.items[0].id;
  await insertCalls(channelId, now);
  expect((await root.post("/api/data/refresh")).success).toBe(true);
  // and a few written after the job ran: read from the logs until the next run
  await insertLogs([[dana.id, "dana", 2, now - 30, "gpt-4o-mini", 77_777, 1234, 321, "main", "default"]]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function cardValue(page: Page, id: string): Promise<string> {
  return (await page.getByTestId(id).textContent())?.trim() ?? "";
}

describe("the data dashboard", () => {
  for (const locale of flowLocales(import.meta.url)) {
    it(`shows a user's usage in charts and cards (${locale})`, async () => {
      const m = MESSAGES[locale].dashboard;
      const { ctx, page } = await loggedIn(locale, "dana", "user-pass-1");
      try {
        // the sidebar links to it (DataExportEnabled)
        await page.goto(`${server.url}/app/me`);
        await page.locator("aside").getByRole("link", { name: MESSAGES[locale].shell.sidebar.dashboard }).click();
        await page.waitForURL((u) => u.pathname === "/app/dashboard");
        await expect.poll(() => page.getByRole("heading", { level: 1, name: m.title }).count()).toBeGreaterThan(0);
        for (const chart of ["chart-quota", "chart-calls", "chart-tokens", "chart-share"])
          await page.getByTestId(chart).locator("svg.recharts-surface").first().waitFor();
        // granularity defaults to DataExportDefaultTime (day)
        expect(await page.getByLabel(m.granularity, { exact: true }).inputValue()).toBe("day");

        // the cards equal the sums of dana's consumption logs over the whole hours shown (7 days)
        const nowSec = Math.floor(Date.now() / 1000);
        const start = Math.floor((nowSec - 7 * 86400) / HOUR) * HOUR;
        const [s] = await queryDb<Record<string, unknown>>(
          server,
          "SELECT COUNT(*) AS c, COALESCE(SUM(quota), 0) AS q FROM logs WHERE type = 2 AND user_id = $1 AND created_at >= $2",
          [dana.id, start],
        );
        expect(await cardValue(page, "card-used")).toBe(quotaText(Number(s.q)));
        expect(await cardValue(page, "card-calls")).toBe(Number(s.c).toLocaleString(locale === "zh" ? "zh-CN" : "en-US"));
        expect(await cardValue(page, "card-balance")).toBe(quotaText(12_345_678));
        // the bars per day: 8 days touched by 7 days of hours
        expect(await page.getByTestId("chart-quota").locator(".recharts-bar-rectangle").count()).toBeGreaterThan(8);
        await shoot(page, locale, "dashboard-user-day");

        await page.getByLabel(m.granularity, { exact: true }).selectOption("hour");
        await page.getByLabel(m.range, { exact: true }).selectOption("24h");
        await page.getByTestId("chart-quota").locator(".recharts-bar-rectangle").first().waitFor();
        await shoot(page, locale, "dashboard-user-hour");

        await page.getByLabel(m.granularity, { exact: true }).selectOption("week");
        await page.getByLabel(m.range, { exact: true }).selectOption("30d");
        await page.getByTestId("chart-quota").locator(".recharts-bar-rectangle").first().waitFor();
        const wk = await page.getByTestId("chart-quota").locator(".recharts-xAxis .recharts-cartesian-axis-tick").count();
        expect(wk).toBeGreaterThanOrEqual(2);
        expect(wk).toBeLessThanOrEqual(6);
        // past 31 days there are no hourly bars: the hour choice is drawn by the day, and comes
        // back with a shorter range
        const granularity = page.getByLabel(m.granularity, { exact: true });
        await granularity.selectOption("hour");
        await page.getByLabel(m.range, { exact: true }).selectOption("90d");
        await expect.poll(() => granularity.inputValue()).toBe("day");
        expect(await granularity.locator('option[value="hour"]').isDisabled()).toBe(true);
        await page.getByLabel(m.range, { exact: true }).selectOption("7d");
        await expect.poll(() => granularity.inputValue()).toBe("hour");
        // no admin controls for a user
        expect(await page.getByLabel(m.scope, { exact: true }).count()).toBe(0);
      } finally {
        await ctx.close();
      }
    });

    it(`lets an admin see all users, one user, and the top users and models (${locale})`, async () => {
      const m = MESSAGES[locale].dashboard;
      const { ctx, page } = await loggedIn(locale, "root", ROOT_PASSWORD);
      try {
        await page.goto(`${server.url}/app/dashboard`);
        await page.getByLabel(m.scope, { exact: true }).selectOption("all");
        await page.getByTestId("top-users").waitFor();
        const users = await page.getByTestId("top-users").locator("tbody tr").allTextContents();
        expect(users).toHaveLength(2);
        expect(users.join(" ")).toContain("dana");
        expect(users.join(" ")).toContain("erin");
        expect(await page.getByTestId("top-models").locator("tbody tr").count()).toBe(MODELS.length);
        await page.getByRole("button", { name: m.refresh }).click();
        await page.getByTestId("top-users").waitFor();
        await shoot(page, locale, "dashboard-admin-all");

        await page.getByLabel(m.scope, { exact: true }).selectOption("user");
        await page.getByText(m.enterUsername).waitFor();
        await page.getByPlaceholder(m.usernamePlaceholder).fill("erin");
        await page.getByRole("button", { name: m.show, exact: true }).click();
        await expect.poll(async () => (await page.getByTestId("top-users").locator("tbody tr").allTextContents()).join("|")).toContain("erin");
        expect(await page.getByTestId("top-users").locator("tbody tr").count()).toBe(1);
        await shoot(page, locale, "dashboard-admin-user");
      } finally {
        await ctx.close();
      }
    });
  }

  for (const locale of flowLocales(import.meta.url)) {
    it(`shows the performance tab, the channels' 24 hours, the status page and the pricing badges (${locale})`, async () => {
      const m = MESSAGES[locale];
      const { ctx, page } = await loggedIn(locale, "root", ROOT_PASSWORD);
      try {
        await page.goto(`${server.url}/app/dashboard`);
        await page.getByRole("tab", { name: m.dashboard.tabs.performance }).click();
        for (const chart of ["perf-chart-success_rate", "perf-chart-ttft_p50_ms"])
          await page.getByTestId(chart).locator("svg.recharts-surface").first().waitFor();
        // 60 calls of each model, 54 successes: 90.0%
        await expect.poll(() => page.getByTestId(`perf-row-${MODELS[0]}`).textContent()).toContain("90.0%");
        expect(await page.getByTestId("perf-table").locator("tbody tr").count()).toBe(2);
        await shoot(page, locale, "perf-tab-models");
        await page.getByLabel(m.perf.view, { exact: true }).selectOption("channels");
        await expect.poll(() => page.getByTestId(`perf-row-#${channelId}`).textContent()).toContain("90.0%");
        // named, not only numbered
        expect(await page.getByTestId(`perf-row-#${channelId}`).locator("td").first().textContent()).toBe(`perf #${channelId}`);
        await shoot(page, locale, "perf-tab-channels");

        await page.goto(`${server.url}/admin/channels`);
        await expect.poll(() => page.getByTestId(`channel-success-${channelId}`).textContent()).toBe("90.0%");
        // the 24 hours take one cell: at 1360 px the row's last action is in view, not behind the table's sideways scroll
        const lastCell = page
          .locator("tr", { has: page.getByTestId(`channel-success-${channelId}`) })
          .locator("td")
          .last();
        const box = (await lastCell.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(1360);
        await shoot(page, locale, "perf-channel-list", false);

        // the status page: a 404 while off
        await setOptions(root, { StatusPageEnabled: "false" });
        expect((await page.goto(`${server.url}/status`))?.status()).toBe(404);
        await setOptions(root, { StatusPageEnabled: "true" });
        expect((await page.goto(`${server.url}/status`))?.status()).toBe(200);
        await expect.poll(() => page.getByTestId(`status-day-${MODELS[1]}`).textContent()).toContain("90.0%");
        await shoot(page, locale, "perf-status-page");
        await page.goto(`${server.url}/pricing`);
        await expect.poll(() => page.getByTestId(`pricing-health-${MODELS[0]}`).textContent()).toContain("90.0%");
        await shoot(page, locale, "perf-pricing-badges", false);
      } finally {
        await ctx.close();
        await setOptions(root, { StatusPageEnabled: "false" });
      }
    });
  }

  it("says so when the admin has switched the dashboard off", async () => {
    await setOptions(root, { DataExportEnabled: "false" });
    const { ctx, page } = await loggedIn("en", "dana", "user-pass-1");
    try {
      await page.goto(`${server.url}/app/dashboard`);
      await page.getByText("The admin has not enabled the data dashboard").first().waitFor();
      expect(await page.locator("aside").getByRole("link", { name: MESSAGES.en.shell.sidebar.dashboard }).count()).toBe(0);
    } finally {
      await ctx.close();
      await setOptions(root, { DataExportEnabled: "true" });
    }
  });
});
