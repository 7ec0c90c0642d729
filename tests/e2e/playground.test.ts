// Browser test of the chat playground (docs/console-ui.md): root prices a model and
// adds a channel pointed at a mock OpenAI upstream that streams; a user given quota by root
// logs in, opens /playground, picks the model, sends a message and watches the streamed
// reply complete, then clears the context. The call is billed to the user and logged with
// token name "playground". A reply in Markdown shows a real table and a highlighted code
// block, and the model's HTML stays inert text; replies can be copied, regenerated and
// stopped, and show their tokens and cost; conversations are kept across a reload, named,
// renamed and deleted. A lost session sends the browser to the login page.
// Screenshots in zh and en, light and dark, go to test-results/screenshots/.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startServer, type TestServer } from "../support/server";
import { query, seedUser, type SeededUser } from "../support/seed";
import { renderQuota } from "@/lib/client/format";
import { expectToast, fmt, launch, MESSAGES, shoot, signIn, type Locale } from "./browser";

let server: TestServer;
let browser: Browser;
let upstream: http.Server;
let upstreamUrl = "";
let root: SeededUser;
let bob: SeededUser;

const USAGE = { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39 };
const PIECES = ["Streamed ", "reply ", "from ", "the mock"];
// A Markdown reply: a table, a code block and an HTML image whose handler must never run.
const CODE = "def add(a, b):\n    return a + b  # sum";
const MARKDOWN = [
  "Here is a table:\n\n",
  "| Name | Price |\n|---|---|\n",
  "| apple | 3 |\n| pear | 4 |\n\n",
  "```python\n" + CODE + "\n```\n\n",
  'Inline <img src="x" onerror="window.__pwned = 1"> html.',
];
// A long reply, slow enough to be stopped halfway.
const LONG = Array.from({ length: 40 }, (_, i) => `word${i} `);
const REPLIES: Record<string, { pieces: string[]; gap: number }> = {
  "Show markdown": { pieces: MARKDOWN, gap: 60 },
  "Tell a long story": { pieces: LONG, gap: 150 },
};
const MODEL_RATIO = { "gpt-mock": 2, "gpt-mock-2": 1.5 };
const START_QUOTA = 1_000_000;
// What the mock upstream was asked, to check the request the page built.
const requests: Record<string, unknown>[] = [];

// An OpenAI-style upstream that streams its reply as SSE chunks, 120 ms apart, the last
// one carrying the usage.
function startUpstream(): Promise<void> {
  upstream = http.createServer((req, res) => {
    if (req.headers.authorization !== "Bearer sk-upstream-pg") {
      res.writeHead(401, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: "bad key" } }));
    }
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: "not found" } }));
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      const j = JSON.parse(body || "{}") as Record<string, unknown>;
      requests.push(j);
      const msgs = (j.messages ?? []) as { content: string }[];
      if (msgs[msgs.length - 1]?.content === "Please fail") {
        res.writeHead(400, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: "mock refused the request", type: "invalid_request_error" } }));
      }
      const model = String(j.model);
      const created = Math.floor(Date.now() / 1000);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const chunk = (o: object) => res.write(`data: ${JSON.stringify({ id: "chatcmpl-pg", object: "chat.completion.chunk", created, model, ...o })}\n\n`);
      chunk({ choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
      const { pieces, gap } = REPLIES[msgs[msgs.length - 1]?.content] ?? { pieces: PIECES, gap: 120 };
      for (const piece of pieces) {
        if (res.destroyed) break;
        await new Promise((r) => setTimeout(r, gap));
        chunk({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
      }
      chunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
      chunk({ choices: [], usage: USAGE });
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) =>
    upstream.listen(0, "127.0.0.1", () => {
      upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

// Every console message of level error and every uncaught page error, per page.
const problems = new Map<Page, string[]>();
async function newPage(locale: Locale, viewport = { width: 1440, height: 900 }): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  const list: string[] = [];
  problems.set(page, list);
  // A failed resource is named by its response (the console line does not say which).
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) list.push(`console: ${m.text()}`);
  });
  // Left out: the relay's own refusals (shown in the chat) and the sidebar's link prefetches
  // (?_rsc=).
  page.on("response", (r) => {
    if (r.status() >= 400 && !r.url().includes("/pg/") && !r.url().includes("_rsc=")) list.push(`${r.status()} ${r.url()}`);
  });
  page.on("pageerror", (e) => list.push(`pageerror: ${e.stack ?? e.message}`));
  return { ctx, page };
}

const userQuota = async () => Number((await query(server, 'SELECT "quota" FROM "users" WHERE "id" = $1', [bob.id]))[0].quota);
const lastAssistant = (page: Page) => page.getByTestId("chat-assistant").last();

beforeAll(async () => {
  await startUpstream();
  server = await startServer();
  root = await seedUser(server, { username: "root", role: 100 });
  bob = await seedUser(server, { username: "bob", role: 1 });
  browser = await launch();
  const ratio = await root.client.put("/api/option/", { key: "ModelRatio", value: JSON.stringify(MODEL_RATIO) });
  expect(ratio.success, ratio.message).toBe(true);
  const channel = await root.client.post("/api/channel/", {
    name: "mock-stream",
    type: 1,
    key: "sk-upstream-pg",
    base_url: upstreamUrl,
    models: "gpt-mock,gpt-mock-2",
    group: "default",
  });
  expect(channel.success, channel.message).toBe(true);
  const quota = await root.client.put("/api/user/", { id: bob.id, quota: START_QUOTA });
  expect(quota.success, quota.message).toBe(true);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => upstream?.close(r));
});

describe("chat playground", () => {
  it("streams a reply from the picked model, bills the user and logs it as playground", async () => {
    const t = MESSAGES.en.playground;
    const { ctx, page } = await newPage("en");
    await signIn(page, server.url, bob.username, bob.password);
    await page.goto(`${server.url}/playground`);
    await page.getByRole("heading", { name: t.title }).waitFor();

    // The greeting exchange, and the defaults of the side panel.
    await expect.poll(() => page.getByTestId("chat-user").allTextContents()).toEqual([t.greetingUser]);
    expect(await page.getByTestId("chat-assistant").allTextContents()).toEqual([t.greetingAssistant]);
    expect(await page.getByLabel(t.systemPrompt).inputValue()).toBe(t.defaultSystemPrompt);
    expect(await page.getByLabel(t.maxTokens).inputValue()).toBe("0");
    // The groups of GET /api/user/self/groups, with ratios; the user's own is chosen.
    await expect.poll(() => page.getByLabel(t.group).locator("option").allTextContents()).toContainEqual(expect.stringMatching(/^default .*\(ratio 1\)$/));
    expect(await page.getByLabel(t.group).inputValue()).toBe("default");

    // Pick the second model through the search.
    const model = page.getByRole("combobox", { name: t.model });
    const listbox = page.getByRole("listbox", { name: t.model });
    await model.click();
    await expect.poll(() => listbox.getByRole("option").allTextContents()).toEqual(["gpt-mock", "gpt-mock-2"]);
    await model.fill("mock-2");
    await expect.poll(() => listbox.getByRole("option").allTextContents()).toEqual(["gpt-mock-2"]);
    await listbox.getByRole("option", { name: "gpt-mock-2" }).click();
    expect(await model.inputValue()).toBe("gpt-mock-2");

    // Temperature: 0 until the slider (0.1..1, thumb at 0.1) is moved; three steps give 0.4.
    // Max tokens stays 0 (not sent).
    expect(await page.getByTestId("temperature-value").textContent()).toBe("0");
    const slider = page.getByRole("slider", { name: t.temperature });
    await slider.focus();
    for (let i = 0; i < 3; i++) await slider.press("ArrowRight");
    await expect.poll(() => page.getByTestId("temperature-value").textContent()).toBe("0.4");

    await page.getByLabel(t.input).fill("What is two plus two?");
    await page.getByRole("button", { name: t.send }).click();
    const reply = lastAssistant(page);
    await expect.poll(() => reply.getAttribute("data-status")).toBe("incomplete");
    await expect.poll(() => reply.getAttribute("data-status"), { timeout: 10_000 }).toBe("complete");
    expect(await reply.textContent()).toBe(PIECES.join(""));
    expect(await page.getByTestId("chat-user").allTextContents()).toEqual([t.greetingUser, "What is two plus two?"]);
    expect(problems.get(page)).toEqual([]);

    // The request the upstream saw: system prompt first, the greeting, the question.
    expect(requests).toHaveLength(1);
    const sent = requests[0] as {
      model: string;
      temperature: number;
      max_tokens?: number;
      stream_options?: unknown;
      messages: { role: string; content: string }[];
    };
    expect(sent.stream_options).toEqual({ include_usage: true });
    expect(sent.model).toBe("gpt-mock-2");
    expect(sent.temperature).toBe(0.4);
    expect(sent.max_tokens).toBeUndefined();
    expect(sent.messages).toEqual([
      { role: "system", content: t.defaultSystemPrompt },
      { role: "user", content: t.greetingUser },
      { role: "assistant", content: t.greetingAssistant },
      { role: "user", content: "What is two plus two?" },
    ]);

    // Billed to the user: round(model ratio × (prompt + completion)), completion ratio 1.
    const cost = Math.round(MODEL_RATIO["gpt-mock-2"] * (USAGE.prompt_tokens + USAGE.completion_tokens));
    await expect.poll(userQuota, { timeout: 10_000 }).toBe(START_QUOTA - cost);
    await expect
      .poll(
        async () =>
          (await query(server, 'SELECT "token_name", "model_name", "quota", "user_id" FROM "logs" WHERE "type" = 2')).map((r) => ({
            ...r,
            quota: Number(r.quota),
            user_id: Number(r.user_id),
          })),
        {
          timeout: 10_000,
        },
      )
      .toEqual([{ token_name: "playground", model_name: "gpt-mock-2", quota: cost, user_id: bob.id }]);

    await shoot(page, "en", "playground-chat");

    // Clear context: back to the greeting exchange only.
    await page.getByRole("button", { name: t.clear }).click();
    await expect.poll(() => page.getByTestId("chat-user").allTextContents()).toEqual([t.greetingUser]);
    expect(await page.getByTestId("chat-assistant").allTextContents()).toEqual([t.greetingAssistant]);

    // Max tokens and an empty system prompt: max_tokens sent as an integer, no system message.
    await page.getByLabel(t.maxTokens).fill("64");
    await page.getByLabel(t.systemPrompt).fill("");
    await page.getByLabel(t.input).fill("Again");
    await page.getByLabel(t.input).press("Enter");
    await expect.poll(() => lastAssistant(page).getAttribute("data-status"), { timeout: 10_000 }).toBe("complete");
    const second = requests[1] as { max_tokens?: number; messages: { role: string }[] };
    expect(second.max_tokens).toBe(64);
    expect(second.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(problems.get(page)).toEqual([]);
    await ctx.close();
  });

  it("renders a Markdown reply (table, highlighted code, inert HTML), copies it, shows its cost, regenerates and stops", async () => {
    const t = MESSAGES.en.playground;
    const { ctx, page } = await newPage("en");
    await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await signIn(page, server.url, bob.username, bob.password);
    await page.goto(`${server.url}/playground`);
    await expect.poll(() => page.getByRole("combobox", { name: t.model }).inputValue()).toBe("gpt-mock");
    const before = requests.length;

    await page.getByLabel(t.input).fill("Show markdown");
    await page.getByRole("button", { name: t.send }).click();
    const reply = lastAssistant(page);
    await expect.poll(() => reply.getAttribute("data-status"), { timeout: 10_000 }).toBe("complete");
    // A real table, a code element highlighted by its language, and the model's HTML as text.
    await reply.locator("table").waitFor();
    expect(await reply.locator("th").allTextContents()).toEqual(["Name", "Price"]);
    expect(await reply.locator("tbody tr").count()).toBe(2);
    const code = reply.locator("pre code");
    expect(await code.getAttribute("class")).toContain("hljs");
    expect(await code.locator(".hljs-keyword").first().textContent()).toBe("def");
    expect(await code.locator(".hljs-comment").textContent()).toBe("# sum");
    expect(await reply.locator("img").count()).toBe(0);
    expect(await reply.textContent()).toContain('<img src="x" onerror="window.__pwned = 1">');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    // The stream's usage and the cost by the price table, equal to what was billed.
    const status = (await root.client.get<{ display_in_currency: boolean; quota_per_unit: number }>("/api/status")).data!;
    const cost = Math.round(MODEL_RATIO["gpt-mock"] * (USAGE.prompt_tokens + USAGE.completion_tokens));
    const usage = page.getByTestId("reply-usage").last();
    const costText = fmt(t.replyCost, { cost: renderQuota(cost, { displayInCurrency: status.display_in_currency, quotaPerUnit: status.quota_per_unit }) });
    expect(await usage.textContent()).toBe(`${fmt(t.replyTokens, { prompt: USAGE.prompt_tokens, completion: USAGE.completion_tokens })} · ${costText}`);
    await expect
      .poll(async () => (await query(server, 'SELECT "quota" FROM "logs" WHERE "type" = 2 ORDER BY "id" DESC LIMIT 1')).map((r) => Number(r.quota)))
      .toEqual([cost]);

    // Copy the code block, then the whole reply.
    await reply.locator("pre").hover();
    await page.getByRole("button", { name: t.copyCode }).click();
    await expectToast(page, t.copied);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
    await page.getByRole("button", { name: t.copyReply }).last().click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(MARKDOWN.join(""));
    await shoot(page, "en", "playground-markdown");

    // Regenerate: the same question again, the new reply in the old one's place.
    await page.getByRole("button", { name: t.regenerate }).click();
    await expect.poll(() => requests.length, { timeout: 10_000 }).toBe(before + 2);
    await expect.poll(() => lastAssistant(page).getAttribute("data-status"), { timeout: 10_000 }).toBe("complete");
    expect(requests[before + 1]).toEqual(requests[before]);
    expect(await page.getByTestId("chat-assistant").count()).toBe(2);
    expect(await page.getByTestId("chat-user").allTextContents()).toEqual([t.greetingUser, "Show markdown"]);

    // Stop: the reply keeps what had arrived, and the chat can go on.
    await page.getByLabel(t.input).fill("Tell a long story");
    await page.getByRole("button", { name: t.send }).click();
    await expect.poll(() => lastAssistant(page).textContent(), { timeout: 10_000 }).toContain("word2 ");
    await page.getByRole("button", { name: t.stop }).click();
    await expect.poll(() => lastAssistant(page).getAttribute("data-status")).toBe("complete");
    const stopped = (await lastAssistant(page).textContent()) ?? "";
    await page.waitForTimeout(600);
    expect(await lastAssistant(page).textContent()).toBe(stopped);
    expect(stopped.length).toBeLessThan(LONG.join("").length);
    await page.getByRole("button", { name: t.send }).waitFor();
    expect(problems.get(page)).toEqual([]);
    await ctx.close();
  });

  it("keeps conversations across a reload: named from the first question, new, renamed, deleted", async () => {
    const t = MESSAGES.zh.playground;
    const { ctx, page } = await newPage("zh");
    await signIn(page, server.url, bob.username, bob.password);
    await page.goto(`${server.url}/playground`);
    await expect.poll(() => page.getByRole("combobox", { name: t.model }).inputValue()).toBe("gpt-mock");
    const list = page.getByRole("region", { name: t.conversations });
    expect(await page.getByTestId("conversation-name").textContent()).toBe(t.untitled);

    await page.getByLabel(t.input).fill("Show markdown");
    await page.getByRole("button", { name: t.send }).click();
    await expect.poll(() => lastAssistant(page).getAttribute("data-status"), { timeout: 10_000 }).toBe("complete");
    expect(await page.getByTestId("conversation-name").textContent()).toBe("Show markdown");

    // A second conversation, renamed.
    await list.getByRole("button", { name: t.newConversation }).click();
    await expect.poll(() => page.getByTestId("chat-assistant").allTextContents()).toEqual([t.greetingAssistant]);
    await list.getByRole("button", { name: fmt(t.renameConversation, { name: t.untitled }) }).click();
    await page.getByLabel(t.conversationName).fill("我的笔记");
    await page.getByRole("dialog").getByRole("button", { name: t.save }).click();
    await expect.poll(() => page.getByTestId("conversation-name").textContent()).toBe("我的笔记");
    await page.getByLabel(t.input).fill("Again");
    await page.getByRole("button", { name: t.send }).click();
    await expect.poll(() => lastAssistant(page).getAttribute("data-status"), { timeout: 10_000 }).toBe("complete");
    await shoot(page, "zh", "playground-conversations");

    // A reload keeps both, the active one first, with their messages and rendering.
    await page.reload();
    await expect.poll(() => page.getByTestId("conversation-name").textContent()).toBe("我的笔记");
    expect(await list.getByRole("listitem").allTextContents()).toEqual(["我的笔记", "Show markdown"]);
    expect(await page.getByTestId("chat-user").allTextContents()).toEqual([t.greetingUser, "Again"]);
    await list.getByRole("button", { name: "Show markdown", exact: true }).click();
    await expect.poll(() => page.getByTestId("chat-user").allTextContents()).toEqual([t.greetingUser, "Show markdown"]);
    await lastAssistant(page).locator("table").waitFor();
    expect(await page.getByTestId("reply-usage").last().textContent()).toContain(String(USAGE.prompt_tokens));

    // Delete the renamed one: asked first, then gone, also after a reload.
    await list.getByRole("button", { name: fmt(t.deleteConversation, { name: "我的笔记" }) }).click();
    await page.getByRole("dialog").getByRole("button", { name: t.delete }).click();
    await expect.poll(() => list.getByRole("listitem").allTextContents()).toEqual(["Show markdown"]);
    await page.reload();
    await expect.poll(() => page.getByTestId("conversation-name").textContent()).toBe("Show markdown");
    expect(await list.getByRole("listitem").allTextContents()).toEqual(["Show markdown"]);
    expect(problems.get(page)).toEqual([]);
    await ctx.close();
  });

  it("shows an upstream refusal as an error reply, and can go on after it", async () => {
    const t = MESSAGES.en.playground;
    const { ctx, page } = await newPage("en");
    await signIn(page, server.url, bob.username, bob.password);
    await page.goto(`${server.url}/playground`);
    await expect.poll(() => page.getByRole("combobox", { name: t.model }).inputValue()).toBe("gpt-mock");
    await page.getByLabel(t.input).fill("Please fail");
    await page.getByRole("button", { name: t.send }).click();
    const reply = lastAssistant(page);
    await expect.poll(() => reply.getAttribute("data-status"), { timeout: 10_000 }).toBe("error");
    expect((await reply.textContent())?.length).toBeGreaterThan(0);
    await shoot(page, "en", "playground-error");
    // The failed reply is not sent again as context.
    await page.getByLabel(t.input).fill("Retry");
    await page.getByRole("button", { name: t.send }).click();
    await expect.poll(() => lastAssistant(page).getAttribute("data-status"), { timeout: 10_000 }).toBe("complete");
    const last = requests[requests.length - 1] as { messages: { role: string; content: string }[] };
    expect(last.messages.slice(-2)).toEqual([
      { role: "user", content: "Please fail" },
      { role: "user", content: "Retry" },
    ]);
    expect(problems.get(page)?.filter((p) => p.startsWith("pageerror"))).toEqual([]);
    await ctx.close();
  });

  it("a lost session sends the browser to log in again; ?expired says why", async () => {
    const t = MESSAGES.zh.playground;
    const { ctx, page } = await newPage("zh");
    await signIn(page, server.url, bob.username, bob.password);
    await page.goto(`${server.url}/playground`);
    await page.getByRole("heading", { name: t.title }).waitFor();
    await shoot(page, "zh", "playground");

    await ctx.clearCookies({ name: "session" });
    await page.getByLabel(t.input).fill("你好");
    await page.getByRole("button", { name: t.send }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    const url = new URL(page.url());
    expect(url.searchParams.get("expired")).toBe("true");
    expect(url.searchParams.get("returnTo")).toBe("/playground");

    await signIn(page, server.url, bob.username, bob.password);
    await page.goto(`${server.url}/playground?expired=true`);
    await page.getByRole("alert").filter({ hasText: t.expired }).waitFor();
    expect(problems.get(page)?.filter((p) => p.startsWith("pageerror"))).toEqual([]);
    await ctx.close();
  });

  it("collapses the side panel on a phone", async () => {
    const t = MESSAGES.en.playground;
    const { ctx, page } = await newPage("en", { width: 390, height: 844 });
    await signIn(page, server.url, bob.username, bob.password);
    await page.goto(`${server.url}/playground`);
    const toggle = page.getByRole("button", { name: t.showSettings });
    await toggle.waitFor();
    expect(await page.getByLabel(t.systemPrompt).isVisible()).toBe(false);
    await toggle.click();
    expect(await page.getByLabel(t.systemPrompt).isVisible()).toBe(true);
    await shoot(page, "en", "playground-mobile");
    await page.getByRole("button", { name: t.hideSettings }).click();
    expect(await page.getByLabel(t.systemPrompt).isVisible()).toBe(false);
    await ctx.close();
  });
});
