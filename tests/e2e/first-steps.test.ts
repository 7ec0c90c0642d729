// Browser test of the end of setup and the first steps (docs/console-ui.md, "First steps"):
// the setup page no longer recommends MySQL; after setup the new root lands on the home page
// signed in and sees four steps, each ticked from the data as it is done (a channel to a mock
// OpenAI upstream, its test, a token, a reply in the playground through the real relay), and
// the list is gone once all are done. Screenshots in zh and en, light and dark.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { ROOT_PASSWORD, loginAs } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { fmt, launch, MESSAGES, shooter } from "./browser";

const shoot = shooter("first-steps");
let server: TestServer;
let browser: Browser;
let upstream: MockUpstream;
let page: Page;
let root: ApiClient;
const zh = MESSAGES.zh;
const en = MESSAGES.en;
const STEPS = ["channel", "tested", "token", "playground"] as const;

const ticks = async () =>
  Object.fromEntries(await Promise.all(STEPS.map(async (s) => [s, await page.locator(`[data-step="${s}"]`).getAttribute("data-done")])));

beforeAll(async () => {
  upstream = await startMockUpstream("openai");
  server = await startServer();
  browser = await launch();
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: "zh-CN" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: "zh", url: server.url }]);
  page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  // the first page of a fresh server can take long on a loaded machine
  page.setDefaultNavigationTimeout(60_000);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.close();
});

describe("first steps after setup", () => {
  it("signs the new root in at the end of setup and shows the first steps", async () => {
    await page.goto(`${server.url}/setup`);
    await page.getByRole("heading", { name: zh.setup.title, level: 1 }).waitFor();
    // SQLite by default, PostgreSQL for several nodes; MySQL is not offered.
    const warning = page.getByText(zh.setup.sqliteWarning);
    await warning.waitFor();
    expect(await warning.textContent()).toContain("PostgreSQL");
    expect(await page.locator("body").textContent()).not.toContain("MySQL");

    await page.getByLabel(zh.setup.username, { exact: true }).fill("root");
    await page.getByLabel(zh.setup.password, { exact: true }).fill(ROOT_PASSWORD);
    await page.getByLabel(zh.setup.confirmPassword, { exact: true }).fill(ROOT_PASSWORD);
    await page.getByRole("button", { name: zh.setup.initialize }).click();
    await page.waitForURL((u) => u.pathname === "/", { timeout: 20_000 });

    // Signed in: the user menu, and the first steps, none done yet, each a link to its page.
    await page.getByRole("button", { name: zh.shell.userMenu }).waitFor();
    const steps = page.getByRole("region", { name: zh.home.firstSteps.title });
    await steps.waitFor();
    expect(await steps.textContent()).toContain(fmt(zh.home.firstSteps.progress, { done: 0, total: 4 }));
    expect(await ticks()).toEqual({ channel: "false", tested: "false", token: "false", playground: "false" });
    expect(await steps.getByRole("link", { name: zh.home.firstSteps.channel.title }).getAttribute("href")).toBe("/channel/add");
    expect(await steps.getByRole("link", { name: zh.home.firstSteps.tested.title }).getAttribute("href")).toBe("/admin/channels");
    expect(await steps.getByRole("link", { name: zh.home.firstSteps.token.title }).getAttribute("href")).toBe("/app/tokens");
    expect(await steps.getByRole("link", { name: zh.home.firstSteps.playground.title }).getAttribute("href")).toBe("/playground");
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null"))).toMatchObject({ username: "root", role: 100 });
    await shoot(page, "zh", "first-steps");
  });

  it("ticks each step from the data as it is done, and hides the list when all are", async () => {
    root = await loginAs(server, "root", ROOT_PASSWORD);
    // the mock upstream is on loopback (docs/outbound.md)
    const allow = await root.put("/api/option/", { key: "fetch_setting.allow_private_ip", value: "true" });
    expect(allow.success, allow.message).toBe(true);
    const channel = await root.post<{ id: number }>("/api/channel/", {
      name: "mock",
      type: 1,
      key: upstream.key,
      base_url: upstream.url,
      models: "gpt-4o-mini",
      group: "default",
    });
    expect(channel.success, channel.message).toBe(true);
    await page.reload();
    expect(await ticks()).toEqual({ channel: "true", tested: "false", token: "false", playground: "false" });

    const channels = await root.get<{ items: { id: number }[] }>("/api/channel/?p=1&page_size=10");
    const test = await root.get(`/api/channel/test/${channels.data.items[0].id}?model=gpt-4o-mini`);
    expect(test.success, test.message).toBe(true);
    // a fresh root holds no quota: it redeems a code of its own to pay for the playground
    const code = await root.post<string[]>("/api/redemption/", { name: "start", quota: 500000 });
    expect(code.success, code.message).toBe(true);
    const topup = await root.post("/api/user/topup", { key: code.data[0] });
    expect(topup.success, topup.message).toBe(true);
    const token = await root.post("/api/token/", { name: "first", remain_quota: 500000, expired_time: -1, unlimited_quota: true });
    expect(token.success, token.message).toBe(true);
    await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: server.url }]);
    await page.reload();
    expect(await ticks()).toEqual({ channel: "true", tested: "true", token: "true", playground: "false" });
    const steps = page.getByRole("region", { name: en.home.firstSteps.title });
    expect(await steps.textContent()).toContain(fmt(en.home.firstSteps.progress, { done: 3, total: 4 }));
    await shoot(page, "en", "first-steps");

    // The last step from its link: a reply in the playground through the relay.
    await steps.getByRole("link", { name: en.home.firstSteps.playground.title }).click();
    await page.waitForURL((u) => u.pathname === "/playground");
    await expect.poll(() => page.getByRole("combobox", { name: en.playground.model }).inputValue()).toBe("gpt-4o-mini");
    await page.getByLabel(en.playground.input).fill("hello there");
    await page.getByRole("button", { name: en.playground.send }).click();
    const reply = page.getByTestId("chat-assistant").last();
    await expect.poll(() => reply.getAttribute("data-status"), { timeout: 15_000 }).not.toBe("loading");
    await expect.poll(() => reply.getAttribute("data-status"), { timeout: 15_000, message: (await reply.textContent()) ?? "" }).toBe("complete");
    // The call is logged when it is settled, just after the stream ends.
    await expect
      .poll(
        async () => {
          await page.goto(`${server.url}/`);
          await page.getByRole("heading", { level: 1 }).first().waitFor();
          return page.getByRole("region", { name: en.home.firstSteps.title }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(0);
  });
});
