// LogChatContentEnabled in the console (docs/relay-options.md, "Chat content in the usage
// log"): a chat call made with the option on shows its system prompt, context, input and
// answer in the usage log's detail, in en and zh (screenshots under test-results/screenshots/).
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { flowLocales, launch, MESSAGES, shoot } from "./browser";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
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
    ["ModelRatio", JSON.stringify({ "gpt-content": 1 })],
    ["LogChatContentEnabled", "true"],
  ]) {
    const r = await root.client.put("/api/option/", { key, value });
    expect(r.success, r.message).toBe(true);
  }
  expect(
    (await root.client.post("/api/channel/", { name: "content", type: 1, key: mock.key, base_url: mock.url, models: "gpt-content", group: "default" })).success,
  ).toBe(true);
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
});

describe("usage log detail with chat content", () => {
  it("shows the system prompt, the context, the input and the answer", async () => {
    const t = await root.client.post<{ key: string }[]>("/api/token/", { name: "content", unlimited_quota: true });
    expect(t.success, t.message).toBe(true);
    const openai = new OpenAI({ apiKey: t.data[0].key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await openai.chat.completions.create({
      model: "gpt-content",
      messages: [
        { role: "system", content: "You answer in one line." },
        { role: "user", content: "Where is the lighthouse?" },
        { role: "assistant", content: "On the northern cape." },
        { role: "user", content: "How tall is it?" },
      ],
    });
    let id = 0;
    for (let i = 0; i < 40 && !id; i++) {
      const r = await root.client.get<{ items: { id: number }[] }>("/api/log/?p=1&page_size=10&type=2");
      id = r.data.items[0]?.id ?? 0;
      if (!id) await new Promise((res) => setTimeout(res, 100));
    }
    expect(id).toBeGreaterThan(0);

    for (const locale of flowLocales(import.meta.url)) {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
      await ctx.addCookies([
        { name: "NEXT_LOCALE", value: locale, url: server.url },
        { name: "session", value: root.client.cookie.replace(/^session=/, ""), url: server.url },
      ]);
      const page = await ctx.newPage();
      await page.goto(`${server.url}/app/logs/api-usage`);
      const row = page.getByTestId(`log-row-${id}`);
      await row.waitFor();
      await row.getByRole("button", { name: MESSAGES[locale].logs.showDetail }).click();
      const detail = page.getByTestId(`log-detail-${id}`);
      const d = MESSAGES[locale].logs.detail;
      await expect.poll(() => detail.textContent()).toContain(`${d.systemPrompt}You answer in one line.`);
      const text = (await detail.textContent()) ?? "";
      expect(text).toContain(`${d.context}user: Where is the lighthouse?\nassistant: On the northern cape.`);
      expect(text).toContain(`${d.input}How tall is it?`);
      expect(text).toContain(`${d.output}echo: How tall is it?`);
      await shoot(page, locale, "chat-content-log-detail");
      await ctx.close();
    }
  });

  it("the Monitoring section edits the channel test's time limit and the failure count apart", async () => {
    for (const locale of flowLocales(import.meta.url)) {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
      await ctx.addCookies([
        { name: "NEXT_LOCALE", value: locale, url: server.url },
        { name: "session", value: root.client.cookie.replace(/^session=/, ""), url: server.url },
      ]);
      const page = await ctx.newPage();
      await page.goto(`${server.url}/admin/settings`);
      const s = MESSAGES[locale].settings;
      const threshold = page.getByLabel(s.labels.ChannelDisableThreshold, { exact: true });
      await threshold.waitFor();
      expect(await threshold.inputValue()).toBe("5");
      expect(await page.getByLabel(s.labels.ChannelDisableFailureCount, { exact: true }).inputValue()).toBe("5");
      await expect.poll(() => page.getByText(s.operation.hints.failureCount).count()).toBe(1);
      await shoot(page, locale, "settings-monitoring-thresholds", false);
      await ctx.close();
    }
  });
});
