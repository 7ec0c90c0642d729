// Browser test of the relay console pages (spec 3): root adds a channel pointed at a mock
// OpenAI upstream (models fetched from it), manages it in the channel list; a normal user
// creates a token and copies its key; the usage logs and the pricing page show real data.
// Screenshots of every page in zh and en, light and dark, go to test-results/screenshots/.
//
// The relay route (POST /v1/chat/completions) is not wired in any branch yet (server.ts
// hands every request to Next, and no branch has app/v1 or a relay entry point), so the
// test stops at the token step: it cannot call the gateway with the copied key.
import http from "node:http";
import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { startServer, type TestServer } from "../support/server";
import { query, seedUser, type SeededUser } from "../support/seed";

const SHOTS = "test-results/screenshots";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let server: TestServer;
let browser: Browser;
let upstream: http.Server;
let upstreamUrl = "";
let root: SeededUser;
let alice: SeededUser;
const upstreamCalls: string[] = [];

// A small OpenAI-style upstream: the model list and a chat completion with usage.
function startUpstream(): Promise<void> {
  upstream = http.createServer((req, res) => {
    upstreamCalls.push(`${req.method} ${req.url}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== "Bearer sk-upstream-secret") return send(401, { error: { message: "bad key" } });
    if (req.method === "GET" && req.url === "/v1/models") {
      return send(200, { object: "list", data: [{ id: "gpt-mock", object: "model" }, { id: "gpt-mock-mini", object: "model" }] });
    }
    if (req.method === "POST" && req.url === "/v1/chat/completions") {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const model = (JSON.parse(body || "{}") as { model?: string }).model ?? "gpt-mock";
        send(200, {
          id: "chatcmpl-mock",
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message: { role: "assistant", content: "Hello from the mock" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
        });
      });
      return;
    }
    send(404, { error: { message: "not found" } });
  });
  return new Promise((resolve) =>
    upstream.listen(0, "127.0.0.1", () => {
      upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

async function newContext(locale: "zh" | "en", theme: "light" | "dark"): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  await ctx.addInitScript((mode) => localStorage.setItem("theme-mode", mode), theme);
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  return ctx;
}

async function login(page: Page, user: SeededUser) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel("Username or email").fill(user.username);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

// Only the session cookie of a seeded user: the page itself must store the local user (the
// New-Api-User header comes from it) before its first API call.
async function asUser(ctx: BrowserContext, user: SeededUser) {
  const value = user.client.cookie.replace(/^session=/, "");
  await ctx.addCookies([{ name: "session", value, url: server.url }]);
}

const toast = (page: Page, text: string | RegExp) => page.locator("[data-toast]").filter({ hasText: text }).first();

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await startUpstream();
  server = await startServer();
  root = await seedUser(server, { username: "root", role: 100 });
  alice = await seedUser(server, { username: "alice", role: 1, quota: 5_000_000 });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
  // Prices for the pricing page (root's option API, validated by the server).
  for (const [key, value] of [
    ["ModelRatio", JSON.stringify({ "gpt-mock": 1.25 })],
    ["CompletionRatio", JSON.stringify({ "gpt-mock": 4 })],
    ["ModelPrice", JSON.stringify({ "gpt-mock-mini": 0.04 })],
  ]) {
    const r = await root.client.put("/api/option/", { key, value });
    expect(r.success, r.message).toBe(true);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => upstream?.close(r));
});

describe("relay console", () => {
  let channelId = 0;
  let copiedKey = "";

  it("root adds a channel pointed at the mock upstream, with models fetched from it", async () => {
    const ctx = await newContext("en", "light");
    const page = await ctx.newPage();
    await login(page, root);
    await page.goto(`${server.url}/channel/add`);
    await page.getByLabel("Name", { exact: true }).fill("mock-openai");
    await page.getByLabel("Base URL").fill(upstreamUrl);
    await page.getByLabel("Key", { exact: true }).fill("sk-upstream-secret");
    await page.getByRole("button", { name: "Fetch from upstream" }).click();
    await expect.poll(() => toast(page, "Fetched 2 models").count()).toBe(1);
    expect(upstreamCalls).toContain("GET /v1/models");
    // A bad model mapping is refused before any call.
    await page.getByLabel("Model mapping (JSON)").fill("{not json");
    await expect.poll(() => page.getByText("The model mapping is not a valid JSON object").count()).toBeGreaterThan(0);
    await page.getByLabel("Model mapping (JSON)").fill('{"gpt-4o": "gpt-mock"}');
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/admin\/channels$/);

    const rows = await query(server, 'SELECT "id", "models", "base_url", "key", "model_mapping" FROM "channels"');
    expect(rows).toHaveLength(1);
    channelId = Number(rows[0].id);
    expect(rows[0].models).toBe("gpt-mock,gpt-mock-mini");
    expect(rows[0].base_url).toBe(upstreamUrl);
    expect(String(rows[0].key)).not.toContain("sk-upstream-secret"); // sealed at rest
    expect(rows[0].model_mapping).toBe('{"gpt-4o": "gpt-mock"}');

    const row = page.getByTestId(`channel-row-${channelId}`);
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain("mock-openai");

    // Inline priority: must be an integer; weight: a negative one is stored as 0.
    const priority = page.getByLabel("Priority of mock-openai");
    await priority.fill("1.5");
    await priority.press("Enter");
    await expect.poll(() => toast(page, "Priority must be an integer").count()).toBe(1);
    await priority.fill("5");
    await priority.press("Enter");
    await expect.poll(async () => (await query(server, 'SELECT "priority" FROM "channels"'))[0].priority).toBe(5);
    const weight = page.getByLabel("Weight of mock-openai");
    await weight.fill("-3");
    await weight.press("Enter");
    await expect.poll(async () => (await query(server, 'SELECT "weight" FROM "channels"'))[0].weight).toBe(0);

    // Disable, then enable again.
    await page.getByRole("button", { name: "Disable mock-openai" }).click();
    await expect.poll(async () => (await query(server, 'SELECT "status" FROM "channels"'))[0].status).toBe(2);
    await page.getByRole("button", { name: "Enable mock-openai" }).click();
    await expect.poll(async () => (await query(server, 'SELECT "status" FROM "channels"'))[0].status).toBe(1);

    // The test button shows the server's answer (GET /api/channel/test/{id} is not in the API yet).
    await page.getByRole("button", { name: "Test mock-openai" }).click();
    await expect.poll(() => page.locator("[data-toast]").filter({ hasText: /mock-openai test (failed|succeeded)|tested successfully/ }).count()).toBeGreaterThan(0);

    // Batch tag needs a selection first.
    await page.getByRole("button", { name: "Batch actions" }).click();
    await page.getByRole("menuitem", { name: "Set tag for selected" }).click();
    await expect.poll(() => toast(page, "Please choose channels first").count()).toBe(1);
    await page.getByLabel("Select mock-openai").check();
    await page.getByRole("button", { name: "Batch actions" }).click();
    await page.getByRole("menuitem", { name: "Set tag for selected" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
    await expect.poll(() => toast(page, "The tag cannot be empty").count()).toBe(1);
    await page.getByRole("dialog").getByLabel("Tag").fill("mock");
    await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await query(server, 'SELECT "tag" FROM "channels"'))[0].tag).toBe("mock");

    // Tag mode aggregates and expands to the children; it is remembered locally.
    await page.getByRole("switch", { name: "Tag aggregation" }).click();
    const tagRow = page.getByTestId("tag-row-mock");
    await tagRow.waitFor();
    await tagRow.getByRole("button", { name: /mock/ }).first().click();
    await page.getByTestId(`channel-row-${channelId}`).waitFor();
    await page.reload();
    await page.getByTestId("tag-row-mock").waitFor();
    await page.getByRole("switch", { name: "Tag aggregation" }).click();
    await page.getByTestId(`channel-row-${channelId}`).waitFor();
    await ctx.close();
  });

  it("a normal user creates a token in /app/tokens and copies its key", async () => {
    const ctx = await newContext("en", "light");
    const page = await ctx.newPage();
    await login(page, alice);
    await page.goto(`${server.url}/app/tokens`);
    await page.getByText("Tokens are for your own use only").waitFor();
    await page.getByRole("button", { name: "Add token" }).click();
    const drawer = page.getByRole("dialog");
    // Name required, then a bad expiry is refused.
    await drawer.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => toast(page, "Please enter a token name").count()).toBe(1);
    await drawer.getByLabel("Name", { exact: true }).fill("my-app");
    await drawer.getByLabel("Expiry time").fill("2030-13-45 99:00");
    await drawer.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => toast(page, "The expiry time format is wrong").count()).toBe(1);
    await drawer.getByRole("button", { name: "1 month" }).click();
    await drawer.getByRole("button", { name: "$10", exact: true }).click();
    await drawer.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => toast(page, "Created 1 tokens").count()).toBe(1);

    const row = page.getByTestId("token-row-my-app");
    await row.waitFor();
    const masked = (await row.locator("code").textContent()) ?? "";
    expect(masked).toMatch(/^sk-[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/);
    const [token] = await query(server, 'SELECT "remain_quota", "expired_time", "user_id" FROM "tokens"');
    expect(Number(token.remain_quota)).toBe(10 * 500000);
    expect(Number(token.user_id)).toBe(alice.id);
    const monthAhead = Math.floor(Date.now() / 1000) + 30 * 86400;
    expect(Math.abs(Number(token.expired_time) - monthAhead)).toBeLessThan(120);

    await page.getByRole("button", { name: "Copy the key of my-app" }).click();
    await expect.poll(() => toast(page, "The key was copied").count()).toBe(1);
    copiedKey = await page.evaluate(() => navigator.clipboard.readText());
    expect(copiedKey).toMatch(/^sk-[A-Za-z0-9]{48}$/);
    expect(copiedKey.slice(3, 7)).toBe(masked.slice(3, 7));
    expect(copiedKey.slice(-4)).toBe(masked.slice(-4));

    // Disable greys the row; enabling again works while the token is valid.
    await page.getByRole("button", { name: "Disable my-app" }).click();
    await expect.poll(async () => (await row.getAttribute("class")) ?? "").toContain("opacity-50");
    await page.getByRole("button", { name: "Enable my-app" }).click();
    await expect.poll(async () => (await row.getAttribute("class")) ?? "").not.toContain("opacity-50");
    // An exhausted token cannot be enabled: the server's message is shown.
    await query(server, 'UPDATE "tokens" SET "status" = 2, "remain_quota" = 0');
    await page.reload();
    await page.getByRole("button", { name: "Enable my-app" }).click();
    await expect.poll(() => toast(page, "quota is exhausted").count()).toBe(1);
    await query(server, 'UPDATE "tokens" SET "status" = 1, "remain_quota" = 5000000');
    await ctx.close();
  });

  it("a fresh browser with only the session cookie loads the console without a login", async () => {
    const ctx = await newContext("en", "light");
    await asUser(ctx, alice);
    const page = await ctx.newPage();
    const unauthorized: string[] = [];
    page.on("response", (r) => {
      if (r.url().includes("/api/") && r.status() === 401) unauthorized.push(r.url());
    });
    await page.goto(`${server.url}/app/tokens`);
    await page.getByTestId("token-row-my-app").waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/tokens");
    expect(unauthorized).toEqual([]);
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem("user"))) ?? "null") as { id?: number } | null;
    expect(stored?.id).toBe(alice.id);
    await ctx.close();
  });

  it("the usage logs and the pricing page show the server's data", async () => {
    // The relay is not wired, so the only log rows are written here directly: one consumption.
    const now = Math.floor(Date.now() / 1000);
    await query(
      server,
      'INSERT INTO "logs" ("user_id", "created_at", "type", "content", "username", "token_name", "model_name", "quota", "prompt_tokens", "completion_tokens", "use_time", "is_stream", "channel_id", "channel_name", "group", "other") VALUES ($1, $2, 2, $3, $4, $5, $6, $7, 12, 8, 2, 0, $8, $9, $10, $11)',
      [alice.id, now - 60, "model ratio 1.25", "alice", "my-app", "gpt-mock", 35, channelId, "mock-openai", "default", JSON.stringify({ model_ratio: 1.25, completion_ratio: 4, group_ratio: 1, frt: 1200, admin_info: { use_channel: [channelId] } })],
    );
    const ctx = await newContext("en", "light");
    await asUser(ctx, alice);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/app/logs/api-usage`);
    const logRow = page.locator("[data-testid^=log-row-]").first();
    await logRow.waitFor();
    expect(await logRow.textContent()).toContain("gpt-mock");
    // Self view: no admin columns.
    expect(await page.getByRole("columnheader", { name: "Channel" }).count()).toBe(0);
    await logRow.getByRole("button", { name: "More" }).click();
    const detail = page.locator("[data-testid^=log-detail-]").first();
    await expect.poll(() => detail.textContent()).toContain("1.25");
    expect(await detail.textContent()).not.toContain("Admin info");
    await ctx.close();

    const adminCtx = await newContext("en", "light");
    await asUser(adminCtx, root);
    const admin = await adminCtx.newPage();
    await admin.goto(`${server.url}/app/logs/api-usage`);
    await admin.locator("[data-testid^=log-row-]").first().waitFor();
    expect(await admin.getByRole("columnheader", { name: "Channel" }).count()).toBe(1);
    await admin.getByRole("button", { name: "alice" }).click();
    await expect.poll(() => admin.getByRole("dialog").textContent()).toContain("alice");
    await adminCtx.close();

    // Pricing, logged out: the default group's ratio and the spec's formula.
    const anon = await newContext("en", "light");
    const p = await anon.newPage();
    await p.goto(`${server.url}/pricing`);
    await p.getByText("You are not logged in").waitFor();
    const mock = p.getByTestId("pricing-row-gpt-mock");
    await mock.waitFor();
    expect(await mock.textContent()).toContain("Prompt $2.5 / 1M tokens");
    expect(await mock.textContent()).toContain("Completion $10 / 1M tokens");
    expect(await p.getByTestId("pricing-row-gpt-mock-mini").textContent()).toContain("$0.04 / call");
    await p.getByPlaceholder("Fuzzy search model names").fill("gmmini");
    await expect.poll(() => p.locator("[data-testid^=pricing-row-]").count()).toBe(1);
    await p.getByLabel("Select gpt-mock-mini").check();
    await p.getByRole("button", { name: "Copy selected (1)" }).click();
    await expect.poll(() => p.evaluate(() => navigator.clipboard.readText())).toBe("gpt-mock-mini");
    await anon.close();
  });

  it("screenshots of every page in zh and en, light and dark", async () => {
    const pages: Array<[string, string, SeededUser | null]> = [
      ["channels", "/admin/channels", root],
      ["channel-add", "/channel/add", root],
      ["channel-edit", `/channel/edit/${channelId}`, root],
      ["tokens", "/app/tokens", alice],
      ["logs", "/app/logs/api-usage", root],
      ["pricing", "/pricing", alice],
    ];
    for (const locale of ["zh", "en"] as const) {
      for (const theme of ["light", "dark"] as const) {
        const ctx = await newContext(locale, theme);
        const page = await ctx.newPage();
        let current: SeededUser | null = null;
        for (const [name, path, user] of pages) {
          if (user !== current) {
            await ctx.clearCookies();
            await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
            if (user) await asUser(ctx, user);
            current = user;
          }
          await page.goto(server.url + path);
          // Data loaded: no loading row left (Next keeps prefetching, so never "networkidle").
          await page.waitForFunction(() => !/Loading…|加载中…/.test(document.body.innerText), null, { timeout: 20_000 });
          await page.waitForTimeout(400);
          expect(new URL(page.url()).pathname).toBe(path);
          await page.screenshot({ path: `${SHOTS}/relay-${name}-${locale}-${theme}.png`, fullPage: true });
        }
        await ctx.close();
      }
    }
    // The server log has no unexpected errors and never printed the upstream key or the token.
    expect(server.logs()).not.toContain("sk-upstream-secret");
    expect(server.logs()).not.toContain(copiedKey.slice(3));
  });
});
