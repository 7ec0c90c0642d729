// The usage log's detail says when a call's usage was cut to what the call could have used
// (docs/channels-tokens-billing.md, "Bounds of one call"): a local upstream that reports 10^7
// completion tokens for a call with max_tokens 50, then the logs page in en and zh, light and
// dark (screenshots under test-results/screenshots/). The same detail shows a Claude call's
// prompt-cache writes, 5-minute and 1-hour, with their ratios (docs/pricing.md, "Prompt-cache writes").
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { flowLocales, launch, MESSAGES, shoot } from "./browser";
import { startServer, type TestServer } from "../support/server";
import { seedUser, type SeededUser } from "../support/seed";

let server: TestServer;
let browser: Browser;
let upstream: http.Server;
let root: SeededUser;

// OpenAI's chat wire, whole answers, with an absurd completion count
function startUpstream(): Promise<string> {
  upstream = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/v1/messages") {
        const claude = JSON.stringify({
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "claude-cw",
          content: [{ type: "text", text: "hi" }],
          stop_reason: "end_turn",
          usage: {
            input_tokens: 10,
            cache_read_input_tokens: 40,
            cache_creation_input_tokens: 30,
            cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 20 },
            output_tokens: 5,
          },
        });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(claude);
        return;
      }
      const text =
        '{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-bounded",' +
        '"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],' +
        '"usage":{"prompt_tokens":12,"completion_tokens":10000000,"total_tokens":10000012}}';
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    });
  });
  return new Promise((resolve) => upstream.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  server = await startServer();
  const url = await startUpstream();
  root = await seedUser(server, { username: "root", role: 100, quota: 1_000_000 });
  for (const [key, value] of [
    ["ModelRatio", { "gpt-bounded": 1, "claude-cw": 1 }],
    ["CreateCacheRatio", { "claude-cw": 1.25 }],
    ["CreateCache1hRatio", { "claude-cw": 2 }],
  ] as const) {
    const r = await root.client.put("/api/option/", { key, value: JSON.stringify(value) });
    expect(r.success, r.message).toBe(true);
  }
  const ch = await root.client.post("/api/channel/", { name: "absurd", type: 1, key: "sk-upstream", base_url: url, models: "gpt-bounded", group: "default" });
  expect(ch.success, ch.message).toBe(true);
  const claude = await root.client.post("/api/channel/", {
    name: "claude",
    type: 14,
    key: "sk-ant-upstream",
    base_url: url,
    models: "claude-cw",
    group: "default",
  });
  expect(claude.success, claude.message).toBe(true);
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => upstream?.close(r));
});

describe("usage log detail of a bounded call", () => {
  it("shows that the usage was bounded, in en and zh", async () => {
    const t = await root.client.post<{ key: string }[]>("/api/token/", { name: "bounded", unlimited_quota: true });
    expect(t.success, t.message).toBe(true);
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.data[0].key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-bounded", max_tokens: 50, messages: [{ role: "user", content: "hello" }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    let id = 0;
    for (let i = 0; i < 40 && !id; i++) {
      const r = await root.client.get<{ items: { id: number; completion_tokens: number }[] }>("/api/log/?p=1&page_size=10&type=2");
      const row = r.data.items[0];
      if (row) {
        expect(row.completion_tokens).toBe(50);
        id = row.id;
      } else await new Promise((r) => setTimeout(r, 100));
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
      await expect.poll(() => detail.textContent()).toContain(`${d.usageBounded}${d.usageBoundedText}`);
      await shoot(page, locale, "usage-bounded-log-detail");
      await ctx.close();
    }
  });

  it("shows a Claude call's cache writes by lifetime with their ratios, in en and zh", async () => {
    const t = await root.client.post<{ key: string }[]>("/api/token/", { name: "claude", unlimited_quota: true });
    expect(t.success, t.message).toBe(true);
    const res = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": t.data[0].key, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({ model: "claude-cw", max_tokens: 50, messages: [{ role: "user", content: "hello" }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    let id = 0;
    for (let i = 0; i < 40 && !id; i++) {
      const r = await root.client.get<{ items: { id: number; quota: number }[] }>("/api/log/?p=1&page_size=10&type=2&model_name=claude-cw");
      const row = r.data.items[0];
      if (row) {
        // 10 + 40 (cache ratio 1: none set) + 10 × 1.25 + 20 × 2 + 5 = 107.5 → 108
        expect(Number(row.quota)).toBe(108);
        id = row.id;
      } else await new Promise((r) => setTimeout(r, 100));
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
      await expect.poll(() => detail.textContent()).toContain(`${d.cacheCreationTokens1h}20`);
      const text = (await detail.textContent()) ?? "";
      for (const part of [`${d.cacheCreationTokens}30`, `${d.cacheCreationTokens5m}10`, `${d.cacheCreationRatio5m}1.25`, `${d.cacheCreationRatio1h}2`]) {
        expect(text).toContain(part);
      }
      await shoot(page, locale, "cache-write-log-detail");
      await ctx.close();
    }
  });
});
