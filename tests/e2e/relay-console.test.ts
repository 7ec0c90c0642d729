// Browser test of the relay console pages (docs/channels-tokens-billing.md): root adds a channel pointed at a mock
// OpenAI upstream (models fetched from it), manages it in the channel list; a normal user
// creates a token, copies its key and calls the gateway with it through the official
// OpenAI SDK (one plain and one streamed chat); the usage logs then show those calls with
// the quota the pricing formula gives, and the pricing page shows the prices.
// Screenshots of every page in zh and en, light and dark, go to test-results/screenshots/.
import http from "node:http";
import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { startServer, type TestServer } from "../support/server";
import { query, seedUser, type SeededUser } from "../support/seed";
import { flowLocales, MESSAGES, SCREENSHOTS } from "./browser";

const SHOTS = "test-results/screenshots";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let server: TestServer;
let browser: Browser;
let upstream: http.Server;
let upstreamUrl = "";
let root: SeededUser;
let alice: SeededUser;
const upstreamCalls: string[] = [];
let plainLogId = 0; // the non-streamed call's log row (set by the usage logs test)

// What the mock upstream reports per call: the plain answer and the stream differ, so that
// each log row can be told apart and priced on its own.
const PLAIN_USAGE = { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 };
const STREAM_USAGE = { prompt_tokens: 15, completion_tokens: 6, total_tokens: 21 };
const upstreamModels: string[] = [];

// A small OpenAI-style upstream: the model list, and a chat completion with usage, as one
// JSON answer or as SSE chunks whose last one carries the usage.
function startUpstream(): Promise<void> {
  upstream = http.createServer((req, res) => {
    upstreamCalls.push(`${req.method} ${req.url}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== "Bearer sk-upstream-secret") return send(401, { error: { message: "bad key" } });
    if (req.method === "GET" && req.url === "/v1/models") {
      return send(200, {
        object: "list",
        data: [
          { id: "gpt-mock", object: "model" },
          { id: "gpt-mock-mini", object: "model" },
        ],
      });
    }
    if (req.method === "POST" && req.url === "/v1/chat/completions") {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const j = JSON.parse(body || "{}") as { model?: string; stream?: boolean };
        const model = j.model ?? "gpt-mock";
        upstreamModels.push(model);
        const created = Math.floor(Date.now() / 1000);
        if (!j.stream) {
          return send(200, {
            id: "chatcmpl-mock",
            object: "chat.completion",
            created,
            model,
            choices: [{ index: 0, message: { role: "assistant", content: "Hello from the mock" }, finish_reason: "stop" }],
            usage: PLAIN_USAGE,
          });
        }
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        const chunk = (o: object) => res.write(`data: ${JSON.stringify({ id: "chatcmpl-mock-s", object: "chat.completion.chunk", created, model, ...o })}\n\n`);
        chunk({ choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
        for (const piece of ["Streamed ", "from ", "the mock"]) chunk({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
        chunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
        chunk({ choices: [], usage: STREAM_USAGE });
        res.end("data: [DONE]\n\n");
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

// Prices set through PUT /api/option/ (root), and the quota the price formula gives (docs/product-rules.md):
// round(group ratio × model ratio × (prompt + completion × completion ratio)), group ratio 1.
const MODEL_RATIO: Record<string, number> = { "gpt-mock": 1.25, "gpt-4o": 2.5 };
const COMPLETION_RATIO: Record<string, number> = { "gpt-mock": 4, "gpt-4o": 3 };
const expectedQuota = (model: string, u: { prompt_tokens: number; completion_tokens: number }) =>
  Math.round(MODEL_RATIO[model] * (u.prompt_tokens + u.completion_tokens * COMPLETION_RATIO[model]));

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
    ["ModelRatio", JSON.stringify(MODEL_RATIO)],
    ["CompletionRatio", JSON.stringify(COMPLETION_RATIO)],
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
    // Each type's fields are as its adapter describes them (GET /api/channel/types): Azure
    // asks for its API version and has no default address; Moonshot has one and no `other`.
    const type = page.getByLabel("Type", { exact: true });
    await type.selectOption("3");
    await expect.poll(() => page.getByLabel("API version").count()).toBe(1);
    expect(await page.getByLabel("Base URL").getAttribute("placeholder")).toBe("Required: this provider has no default address");
    if (SCREENSHOTS) await page.screenshot({ path: `${SHOTS}/channel-add-azure-en-light.png`, fullPage: true });
    // The model box offers the type's known models first (its adapter's profile).
    const picker = page.getByTestId("model-picker");
    await expect.poll(async () => (await picker.locator("label").allTextContents()).slice(0, 2)).toEqual(["gpt-4o", "gpt-4o-mini"]);
    await type.selectOption("14");
    await expect.poll(async () => (await picker.locator("label").allTextContents())[0]).toBe("claude-sonnet-4-20250514");
    await type.selectOption("25");
    await expect.poll(() => page.getByLabel("Base URL").getAttribute("placeholder")).toBe("https://api.moonshot.cn");
    await expect.poll(async () => (await picker.locator("label").allTextContents())[0]).toBe("moonshot-v1-8k");
    expect(await page.getByLabel("API version").count()).toBe(0);
    await type.selectOption("1");
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
    await expect
      .poll(() =>
        page
          .locator("[data-toast]")
          .filter({ hasText: /mock-openai test (failed|succeeded)|tested successfully/ })
          .count(),
      )
      .toBeGreaterThan(0);

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
    if (SCREENSHOTS) await page.screenshot({ path: `${SHOTS}/kit-channels-tag-mode-en-light.png`, fullPage: true });
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
    // Name required.
    await drawer.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => toast(page, "The token name cannot be empty").count()).toBe(1);
    await drawer.getByLabel("Name", { exact: true }).fill("my-app");
    // the expiry is picked, never typed (docs/console-ui.md, "Dates"): no malformed date to refuse
    await drawer.getByRole("button", { name: "1 month" }).click();
    await drawer.getByRole("button", { name: "$10.00", exact: true }).click();
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

  it("the copied key calls the gateway through the OpenAI SDK, plain and streamed", async () => {
    // The channel also serves gpt-4o, which its mapping sends upstream as gpt-mock.
    const r = await root.client.put("/api/channel/", { id: channelId, models: "gpt-mock,gpt-mock-mini,gpt-4o" });
    expect(r.success, r.message).toBe(true);
    const openai = new OpenAI({ apiKey: copiedKey, baseURL: server.url + "/v1", maxRetries: 0 });

    const plain = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "Say hello" }] });
    expect(plain.choices[0].message.content).toBe("Hello from the mock");
    expect(plain.usage).toMatchObject(PLAIN_USAGE);
    expect(upstreamModels.at(-1)).toBe("gpt-mock");

    const stream = await openai.chat.completions.create({
      model: "gpt-mock",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "Stream please" }],
    });
    let text = "";
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("Streamed from the mock");
    expect(usage).toMatchObject(STREAM_USAGE);

    // Both calls are billed to the token and logged (logs are written in batches).
    const plainCost = expectedQuota("gpt-4o", PLAIN_USAGE);
    const streamCost = expectedQuota("gpt-mock", STREAM_USAGE);
    expect([plainCost, streamCost]).toEqual([90, 49]);
    await expect.poll(async () => Number((await query(server, 'SELECT COUNT(*) AS n FROM "logs" WHERE "type" = 2'))[0].n), { timeout: 10_000 }).toBe(2);
    const [token] = await query(server, 'SELECT "remain_quota", "used_quota" FROM "tokens"');
    expect(Number(token.used_quota)).toBe(plainCost + streamCost);
    expect(Number(token.remain_quota)).toBe(5_000_000 - plainCost - streamCost);
  });

  it("the usage logs show those calls with the formula's quota; root sees channel and admin data", async () => {
    const status = (await (await fetch(server.url + "/api/status")).json()) as { data: { display_in_currency: boolean; quota_per_unit: number } };
    const shown = (q: number) => (status.data.display_in_currency ? "$" + (q / status.data.quota_per_unit).toFixed(6) : String(q));
    const rows = await query(
      server,
      'SELECT "id", "model_name", "is_stream", "quota", "prompt_tokens", "completion_tokens" FROM "logs" WHERE "type" = 2 ORDER BY "id"',
    );
    expect(rows).toHaveLength(2);
    const [plainLog, streamLog] = rows.map((r) => ({ id: Number(r.id), quota: Number(r.quota) }));
    plainLogId = plainLog.id;
    expect(plainLog.quota).toBe(expectedQuota("gpt-4o", PLAIN_USAGE));
    expect(streamLog.quota).toBe(expectedQuota("gpt-mock", STREAM_USAGE));

    const ctx = await newContext("en", "light");
    await asUser(ctx, alice);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/app/logs/api-usage`);
    const plainRow = page.getByTestId(`log-row-${plainLog.id}`);
    const streamRow = page.getByTestId(`log-row-${streamLog.id}`);
    await plainRow.waitFor();
    const cells = async (row: typeof plainRow) => (await row.locator("td").allTextContents()).map((c) => c.trim());
    const plainCells = await cells(plainRow);
    expect(plainCells).toEqual(expect.arrayContaining(["gpt-4o", "12", "8", shown(plainLog.quota)]));
    expect(plainCells.join(" ")).toContain("Non-stream");
    const streamCells = await cells(streamRow);
    expect(streamCells).toEqual(expect.arrayContaining(["gpt-mock", "15", "6", shown(streamLog.quota)]));
    expect(streamCells.join(" ")).toContain("Stream");
    // Self view: no admin columns, no admin info.
    expect(await page.getByRole("columnheader", { name: "Channel" }).count()).toBe(0);
    await plainRow.getByRole("button", { name: "More" }).click();
    const detail = page.getByTestId(`log-detail-${plainLog.id}`);
    await expect.poll(() => detail.textContent()).toContain("Model ratio2.5");
    expect(await detail.textContent()).toContain("Completion ratio3");
    expect(await detail.textContent()).not.toContain("Admin info");
    await ctx.close();

    const adminCtx = await newContext("en", "light");
    await asUser(adminCtx, root);
    const admin = await adminCtx.newPage();
    await admin.goto(`${server.url}/app/logs/api-usage`);
    const adminRow = admin.getByTestId(`log-row-${plainLog.id}`);
    await adminRow.waitFor();
    expect(await admin.getByRole("columnheader", { name: "Channel" }).count()).toBe(1);
    expect(await cells(adminRow)).toEqual(expect.arrayContaining([`${channelId} · mock-openai`, "alice", "gpt-4o", shown(plainLog.quota)]));
    await adminRow.getByRole("button", { name: "More" }).click();
    const adminDetail = admin.getByTestId(`log-detail-${plainLog.id}`);
    await expect.poll(() => adminDetail.textContent()).toContain("Admin info");
    const pairs = await adminDetail.evaluate((dl) => {
      const out: Record<string, string> = {};
      const items = Array.from(dl.children);
      for (let i = 0; i + 1 < items.length; i += 2) out[items[i].textContent ?? ""] = items[i + 1].textContent ?? "";
      return out;
    });
    expect(pairs).toMatchObject({
      "Model ratio": "2.5",
      "Completion ratio": "3",
      "Group ratio": "1",
      "Upstream model": "gpt-mock",
      "Admin info": JSON.stringify({ use_channel: [String(channelId)] }),
    });
    // The streamed call carries its first-token time.
    await admin.getByTestId(`log-row-${streamLog.id}`).getByRole("button", { name: "More" }).click();
    await expect.poll(() => admin.getByTestId(`log-detail-${streamLog.id}`).textContent()).toContain("First token time");
    await admin.getByRole("button", { name: "alice" }).first().click();
    await expect.poll(() => admin.getByRole("dialog").textContent()).toContain("alice");
    await adminCtx.close();
  });

  it("the pricing page shows the server's prices", async () => {
    // Pricing, logged out: the default group's ratio and the price formula.
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
    for (const locale of flowLocales(import.meta.url)) {
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
          // Layout: the page-size choice keeps its own width; the sidebar column reaches the
          // footer on a page taller than the window; a switch's label sits beside it.
          const layout = await page.evaluate(() => {
            const sel = document.querySelector("select[aria-label='Page size'], select[aria-label='每页条数']");
            const aside = document.querySelector("aside");
            const sw = document.querySelector("[role=switch]");
            const label = sw ? document.querySelector(`label[for='${sw.id}']`) : null;
            const box = (e: Element | null | undefined) => e?.getBoundingClientRect() ?? null;
            return {
              select: box(sel)?.width ?? null,
              sidebarBottom: box(aside?.parentElement)?.bottom ?? null,
              footerTop: box(document.querySelector("footer"))?.top ?? null,
              switchTop: box(sw)?.top ?? null,
              switchRight: box(sw)?.right ?? null,
              labelTop: box(label)?.top ?? null,
              labelLeft: box(label)?.left ?? null,
            };
          });
          if (layout.select !== null) expect(layout.select).toBeLessThan(200);
          if (layout.sidebarBottom !== null && layout.footerTop !== null) expect(layout.sidebarBottom).toBeGreaterThan(layout.footerTop);
          if (layout.switchTop !== null && layout.labelTop !== null) {
            expect(Math.abs(layout.labelTop - layout.switchTop)).toBeLessThanOrEqual(2);
            expect(layout.labelLeft!).toBeGreaterThan(layout.switchRight!);
          }
          if (SCREENSHOTS) await page.screenshot({ path: `${SHOTS}/relay-${name}-${locale}-${theme}.png`, fullPage: true });
        }
        await ctx.close();
      }
    }
    // The server log has no unexpected errors and never printed the upstream key or the token.
    expect(server.logs()).not.toContain("sk-upstream-secret");
    expect(server.logs()).not.toContain(copiedKey.slice(3));
  });

  it("the table kit: the column menu is remembered per table, the date-time picker filters the logs", async () => {
    const ctx = await newContext("en", "light");
    await asUser(ctx, root);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/app/logs/api-usage`);
    const table = page.locator("table").first();
    await page.getByTestId(`log-row-${plainLogId}`).waitFor();
    expect(await table.getByRole("columnheader", { name: "Cost", exact: true }).count()).toBe(1);
    // Hide a column: gone at once and after a reload, kept under table-columns:<id>.
    await page.getByRole("button", { name: "Columns" }).click();
    await page.getByRole("dialog").getByLabel("Cost", { exact: true }).uncheck();
    await page.keyboard.press("Escape");
    expect(await table.getByRole("columnheader", { name: "Cost", exact: true }).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("table-columns:usage-logs-admin"))).toBe('["quota"]');
    await page.reload();
    await page.getByTestId(`log-row-${plainLogId}`).waitFor();
    expect(await table.getByRole("columnheader", { name: "Cost", exact: true }).count()).toBe(0);
    expect(await table.getByRole("columnheader", { name: "Model", exact: true }).count()).toBe(1);
    // The channels table has its own choice.
    expect(await page.evaluate(() => localStorage.getItem("table-columns:channels"))).toBeNull();
    await page.getByRole("button", { name: "Columns" }).click();
    await page.getByRole("button", { name: "Show all columns" }).click();
    await page.keyboard.press("Escape");
    await table.getByRole("columnheader", { name: "Cost", exact: true }).waitFor();

    // Start time tomorrow (picked in the calendar): no log in range; cleared: the logs again.
    await page.getByRole("button", { name: "Start time", exact: true }).click();
    const picker = page.getByRole("dialog", { name: "Start time" });
    const tomorrow = new Date(Date.now() + 86_400_000);
    const pad = (n: number) => String(n).padStart(2, "0");
    const day = `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}`;
    if (tomorrow.getMonth() !== new Date().getMonth()) await picker.getByRole("button", { name: "Go to the Next Month" }).click();
    await picker.locator(`td[data-day='${day}'] button`).click();
    await picker.getByLabel("Hour").fill("8");
    if (SCREENSHOTS) await page.screenshot({ path: `${SHOTS}/kit-date-picker-en-light.png` });
    await picker.getByRole("button", { name: "Done" }).click();
    const want = `${day} 08:00:00`;
    await expect.poll(() => page.getByRole("button", { name: "Start time", exact: true }).textContent()).toBe(want);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("No logs in this range").waitFor();
    await page.getByRole("button", { name: "Clear Start time" }).click();
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByTestId(`log-row-${plainLogId}`).waitFor();

    // A failed load shows the message and a retry, which loads the list again.
    await page.route("**/api/log/?*", (route) => route.fulfill({ status: 500, contentType: "application/json", body: '{"success":false,"message":"x"}' }));
    await page.reload();
    await page.getByRole("alert").filter({ hasText: "Loading failed" }).waitFor();
    await page.unroute("**/api/log/?*");
    await page.getByRole("button", { name: "Retry", exact: true }).click();
    await page.getByTestId(`log-row-${plainLogId}`).waitFor();
    await ctx.close();
  });

  it("at a phone width the tables scroll inside their card and the page keeps its width", async () => {
    const pages: Array<[string, string, SeededUser]> = [
      ["channels", "/admin/channels", root],
      ["users", "/admin/users", root],
      ["logs", "/app/logs/api-usage", root],
      ["tokens", "/app/tokens", alice],
    ];
    for (const locale of flowLocales(import.meta.url)) {
      for (const theme of ["light", "dark"] as const) {
        const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
        await ctx.addInitScript((mode) => localStorage.setItem("theme-mode", mode), theme);
        const page = await ctx.newPage();
        let current: SeededUser | null = null;
        for (const [name, path, user] of pages) {
          if (user !== current) {
            await ctx.clearCookies();
            await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
            await asUser(ctx, user);
            current = user;
          }
          await page.goto(server.url + path);
          await page.locator("tbody tr[data-testid]").first().waitFor();
          await page.waitForTimeout(300);
          const widths = await page.evaluate(() => {
            const card = document.querySelector("table")?.parentElement;
            return { page: document.documentElement.scrollWidth, card: card?.clientWidth ?? 0, table: card?.scrollWidth ?? 0 };
          });
          expect(widths.page, `${name} ${locale} ${theme}`).toBeLessThanOrEqual(390);
          expect(widths.card).toBeLessThanOrEqual(390);
          expect(widths.table).toBeGreaterThan(widths.card); // the table is wider: it scrolls inside its card
          if (SCREENSHOTS) await page.screenshot({ path: `${SHOTS}/phone-${name}-${locale}-${theme}.png`, fullPage: true });
          if (name === "logs") {
            // The picker's popover fits the phone's width too.
            const start = MESSAGES[locale].logs.filters.start;
            await page.getByRole("button", { name: start, exact: true }).click();
            const box = await page.getByRole("dialog", { name: start }).boundingBox();
            expect(box!.x).toBeGreaterThanOrEqual(0);
            expect(box!.x + box!.width).toBeLessThanOrEqual(390);
            if (SCREENSHOTS) await page.screenshot({ path: `${SHOTS}/phone-date-picker-${locale}-${theme}.png` });
            await page.keyboard.press("Escape");
          }
        }
        await ctx.close();
      }
    }
  });
});
