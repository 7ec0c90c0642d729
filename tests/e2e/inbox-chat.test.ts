// Browser test of the inbox, the message admin and the embedded chat (docs/messages.md,
// docs/chat.md), in zh and en, light and dark: an admin sends an HTML message with a script,
// an onerror image and a javascript: link to two users picked in the drawer's table; each
// sees it unread with the bell's count, opens it (read time shown, nothing runs, the bell
// clears), and the admin's edit drawer shows one read, one unread. An unknown id goes back to
// the list. The chat: no usable token → the message and /app/tokens after 1.5 s; with a token
// the link is framed with the key and address filled in; an app link (Cherry Studio) is handed
// to the app, never framed; a broken entry says to contact the admin; /chat2link opens the
// first chat; a change of the Chats option shows on the next full load (the browser's stored
// copy is not trusted over the site status); stored chats that cannot be parsed are reported
// and reset. Also: a Markdown body with the same hostile parts renders inert, bob's bell
// shows his unread message, and the admin list remembers its page size under
// message-page-size. Screenshots under test-results/screenshots/inbox-chat.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { renderMessage } from "@/lib/i18n/server-messages";
import { startServer, type TestServer } from "../support/server";
import { seedUser, type SeededUser } from "../support/seed";
import { flowLocales, fmt, launch, MESSAGES, shooter, type Locale } from "./browser";

const shoot = shooter("inbox-chat");
let server: TestServer;
let browser: Browser;
let root: SeededUser;
let target: Server;
let targetUrl = "";
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  root = await seedUser(server, { username: "root", role: 100 });
  // the chat site to frame: a local page that shows what it was given
  target = createServer((req, res) => {
    const q = new URL(req.url ?? "/", "http://x").searchParams;
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(
      `<!doctype html><body style="font-family:sans-serif;background:#eef6ff"><h1>Local chat</h1><p id="key">${(q.get("key") ?? "").replace(/[<>&]/g, "")}</p><p id="address">${(q.get("address") ?? "").replace(/[<>&]/g, "")}</p></body>`,
    );
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", () => r()));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/chat-target`;
  await setChats(CHATS());
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => target?.close(r));
  expect(pageErrors).toEqual([]);
});

// The Chats option of these tests: a framed link, an app link and a broken entry.
const CHATS = () => [
  { "Local Chat": `${targetUrl}?key={key}&address={address}` },
  { "Cherry Studio": "cherrystudio://providers/api-keys?v=1&data={cherryConfig}" },
  { Broken: 42 },
];

async function setChats(chats: unknown[]) {
  const r = await root.client.put("/api/option/", { key: "Chats", value: JSON.stringify(chats) });
  expect(r.success, r.message).toBe(true);
}

async function open(user: SeededUser, locale: Locale): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([
    { name: "NEXT_LOCALE", value: locale, url: server.url },
    { name: "session", value: user.client.cookie.replace(/^session=/, ""), url: server.url },
  ]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(30_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  // an alert() from a message body would be a script that ran: recorded as a failure
  page.on("dialog", (d) => {
    pageErrors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  return { ctx, page };
}

const toast = (page: Page, text: string) => page.locator("[data-toast]").filter({ hasText: text }).first();

const HOSTILE =
  '<p>Hello <b>bold</b> world</p><script>window.__pwned = "script"</script><img src="/nothing.png" onerror="window.__pwned = \'img\'">' +
  '<a href="javascript:window.__pwned = \'link\'" id="bad-link">click me</a>';
// The same parts in a Markdown body: raw HTML is allowed there, then sanitized.
const HOSTILE_MD = [
  "Hello **markdown** world",
  "",
  '<script>window.__pwned = "md-script"</script>',
  "",
  '<img src="/nothing.png" onerror="window.__pwned = \'md-img\'">',
  "",
  "[x](javascript:alert(1))",
].join("\n");

describe.each(flowLocales(import.meta.url))("inbox, message admin and chat (%s)", (locale) => {
  const m = MESSAGES[locale];
  const sm = (key: Parameters<typeof renderMessage>[1]) => renderMessage(locale, key);
  let alice: SeededUser;
  let bob: SeededUser;
  let messageId = 0;
  const title = `Maintenance ${locale}`;

  beforeAll(async () => {
    alice = await seedUser(server, { username: `${locale}ualice` });
    bob = await seedUser(server, { username: `${locale}ubob` });
  });

  it("the admin sends an HTML message to two users picked in the drawer", async () => {
    const { ctx, page } = await open(root, locale);
    try {
      await page.goto(`${server.url}/admin/messages`);
      await page.getByRole("heading", { name: m.messages.title }).waitFor();
      expect(await page.locator('aside a[href="/admin/messages"]').count()).toBeGreaterThan(0);
      // the form refuses a blank title with the server's message
      await page.getByRole("button", { name: m.messages.add }).click();
      const drawer = page.getByRole("dialog");
      await drawer.getByRole("button", { name: m.messages.form.send }).click();
      await toast(page, sm("message_title_blank")).waitFor();
      await drawer.getByLabel(m.messages.form.title).fill(title);
      await drawer.getByLabel("HTML").check();
      await drawer.getByLabel(m.messages.form.content).fill(HOSTILE);
      await drawer.getByRole("button", { name: m.messages.form.send }).click();
      await toast(page, sm("message_recipients_required")).waitFor();
      await drawer.getByLabel(m.messages.picker.search).fill(`${locale}u`);
      await drawer.getByRole("button", { name: m.messages.picker.searchButton }).click();
      await drawer
        .getByRole("cell", { name: `${locale}ubob`, exact: true })
        .first()
        .waitFor();
      await drawer.getByLabel(m.messages.picker.selectPage).check();
      await drawer
        .getByTestId("picked-count")
        .filter({ hasText: fmt(m.messages.picker.chosen, { count: 2 }) })
        .waitFor();
      await shoot(page, locale, "message-create", false);
      await drawer.getByRole("button", { name: m.messages.form.send }).click();
      await toast(page, fmt(m.messages.form.sent, { count: 2 })).waitFor();
      const row = page.locator("tr").filter({ hasText: title });
      await row.waitFor();
      messageId = Number(await row.locator("td").first().textContent());
      expect(await row.textContent()).toContain("HTML");
      await shoot(page, locale, "message-admin");
    } finally {
      await ctx.close();
    }
  });

  it("each recipient sees it unread with the bell's count, opens it inert, and the bell clears", async () => {
    for (const user of [alice]) {
      const { ctx, page } = await open(user, locale);
      try {
        await page.goto(`${server.url}/app/inbox`);
        await page.getByRole("heading", { name: m.inbox.title }).waitFor();
        await page.getByTestId("unread-badge").filter({ hasText: "1" }).waitFor();
        const item = page.getByTestId(`inbox-item-${messageId}`);
        await item.waitFor();
        expect(await item.getAttribute("data-unread")).toBe("true");
        expect(await item.textContent()).toContain(m.inbox.unread);
        // the preview is the text without markup
        expect(await item.textContent()).toContain("Hello bold world");
        expect(await item.textContent()).not.toContain("<b>");
        await shoot(page, locale, "inbox-list");
        await item.click();
        await page.waitForURL(`**/app/inbox/${messageId}`);
        const detail = page.getByTestId("message-detail");
        await detail.waitFor();
        await page
          .getByTestId("read-at")
          .filter({ hasText: /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/ })
          .waitFor();
        expect(await detail.locator("b").textContent()).toBe("bold");
        expect(await detail.getByText("HTML", { exact: true }).count()).toBe(1);
        // nothing of the hostile markup survives or runs
        const body = page.getByTestId("message-body");
        expect(await body.locator("script").count()).toBe(0);
        expect(await body.locator("[onerror]").count()).toBe(0);
        const href = await body.locator("a").first().getAttribute("href");
        expect(href ?? "").not.toMatch(/^javascript:/i);
        await body.getByText("click me").click();
        await page.waitForTimeout(300);
        expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
        await page.getByTestId("unread-badge").waitFor({ state: "detached" });
        await shoot(page, locale, "inbox-detail");
        await page.goto(`${server.url}/app/inbox`);
        await page.getByTestId(`inbox-item-${messageId}`).waitFor();
        expect(await page.getByTestId(`inbox-item-${messageId}`).getAttribute("data-unread")).toBeNull();
      } finally {
        await ctx.close();
      }
    }
    // bob's bell shows his unread message too; he does not open it (the edit drawer below
    // checks one read, one unread)
    {
      const { ctx, page } = await open(bob, locale);
      try {
        await page.goto(`${server.url}/app/inbox`);
        await page.getByTestId("unread-badge").filter({ hasText: "1" }).waitFor();
        await page.getByRole("link", { name: fmt(m.shell.inboxUnread, { count: "1" }) }).waitFor();
        expect(await page.getByTestId(`inbox-item-${messageId}`).getAttribute("data-unread")).toBe("true");
        await shoot(page, locale, "inbox-bell-bob", false);
      } finally {
        await ctx.close();
      }
    }
    expect((await bob.client.get<{ unread_count: number }>("/api/user/messages/unread_count")).data.unread_count).toBe(1);
  });

  it("a Markdown body with a script, an onerror image and a javascript: link renders inert", async () => {
    const sent = await root.client.post<{ id: number }>("/api/admin/messages", {
      title: `Markdown ${locale}`,
      content: HOSTILE_MD,
      format: "markdown",
      user_ids: [alice.id],
    });
    expect(sent.success, sent.message).toBe(true);
    const { ctx, page } = await open(alice, locale);
    try {
      await page.goto(`${server.url}/app/inbox/${sent.data.id}`);
      const body = page.getByTestId("message-body");
      await body.locator("strong").filter({ hasText: "markdown" }).waitFor();
      // no format tag for Markdown (the spec shows one only for other formats)
      expect(await page.getByTestId("message-detail").getByText("HTML", { exact: true }).count()).toBe(0);
      expect(await body.locator("script").count()).toBe(0);
      expect(await body.locator("[onerror]").count()).toBe(0);
      const link = body.getByText("x", { exact: true });
      expect((await link.getAttribute("href")) ?? "").not.toMatch(/^\s*javascript:/i);
      await link.click();
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
      await page.getByTestId("unread-badge").waitFor({ state: "detached" });
      await shoot(page, locale, "inbox-markdown");
    } finally {
      await ctx.close();
    }
  });

  it("an unknown message says so and goes back to the list", async () => {
    const { ctx, page } = await open(bob, locale);
    try {
      await page.goto(`${server.url}/app/inbox/999999`);
      await toast(page, sm("message_not_found")).waitFor();
      await page.waitForURL(/\/app\/inbox$/);
    } finally {
      await ctx.close();
    }
  });

  it("the admin's edit drawer shows one read, one unread; the list remembers its page size", async () => {
    const { ctx, page } = await open(root, locale);
    try {
      await page.goto(`${server.url}/admin/messages`);
      // the page size is kept under its own key, message-page-size, across a reload
      const sizeSelect = page.getByLabel(m.pagination.pageSize);
      await sizeSelect.selectOption("20");
      await page.waitForFunction(() => localStorage.getItem("message-page-size") === "20");
      const listed = page.waitForResponse((r) => r.url().includes("/api/admin/messages?") && r.url().includes("page_size=20"));
      await page.reload();
      await listed;
      expect(await sizeSelect.inputValue()).toBe("20");
      expect(await page.evaluate(() => [localStorage.getItem("message-page-size"), localStorage.getItem("page-size")])).toEqual(["20", null]);
      await shoot(page, locale, "message-page-size");
      await page.getByRole("button", { name: fmt(m.messages.editOf, { title, id: messageId }) }).click();
      const drawer = page.getByRole("dialog");
      await drawer.getByTestId("read-count").filter({ hasText: "1" }).waitFor();
      expect(await drawer.getByTestId("total-recipients").textContent()).toBe("2");
      const read = drawer.getByTestId(`recipient-${alice.username}`);
      await read.waitFor();
      expect(await read.getAttribute("data-read")).toBe("true");
      expect(await read.textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
      expect(await drawer.getByTestId(`recipient-${bob.username}`).getAttribute("data-read")).toBe("false");
      await shoot(page, locale, "message-edit", false);
      // an edit keeps the read records
      await drawer.getByLabel(m.messages.form.title).fill(`${title} (edited)`);
      await drawer.getByRole("button", { name: m.messages.form.save }).click();
      await toast(page, m.messages.form.saved).waitFor();
      await page
        .locator("tr")
        .filter({ hasText: `${title} (edited)` })
        .waitFor();
    } finally {
      await ctx.close();
    }
  });

  it("the embedded chat: no token, then framed with the key; app link; broken entry; chat2link; a changed option; unparsable stored chats", async () => {
    const { ctx, page } = await open(alice, locale);
    try {
      await page.goto(`${server.url}/app/inbox`);
      await page.locator('aside a[href="/chat/0"]').first().waitFor();
      await page.goto(`${server.url}/chat/0`);
      await page.getByTestId("chat-state").filter({ hasText: m.chat.noToken }).waitFor();
      const shownAt = Date.now();
      await page.waitForURL(/\/app\/tokens$/, { timeout: 10_000 });
      expect(Date.now() - shownAt).toBeGreaterThan(1000);

      const created = await alice.client.post<{ key: string }[]>("/api/token/", { name: "chat", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
      expect(created.success, created.message).toBe(true);
      const key = created.data[0].key;
      await page.goto(`${server.url}/chat/0`);
      const frame = page.getByTestId("chat-frame");
      await frame.waitFor();
      const src = (await frame.getAttribute("src")) ?? "";
      expect(src.startsWith(targetUrl)).toBe(true);
      const inner = page.frameLocator('[data-testid="chat-frame"]');
      expect(await inner.locator("#key").textContent()).toBe(key);
      expect(await inner.locator("#address").textContent()).toBe(server.url);
      await shoot(page, locale, "chat-embed");

      // an app link is handed to the app (the page navigates to it), never framed
      await page.goto(`${server.url}/chat/1`);
      const app = page.locator('[data-testid="chat-state"][data-kind="app"]');
      await app.waitFor();
      expect(await app.textContent()).toContain(fmt(m.chat.appOpened, { name: "Cherry Studio" }));
      await app.getByRole("button", { name: fmt(m.chat.openAgain, { name: "Cherry Studio" }) }).waitFor();
      expect(await page.locator("iframe").count()).toBe(0);
      await shoot(page, locale, "chat-app");

      // The admin changes Chats between two visits: each full load follows the site status,
      // not the copy the previous visit left in localStorage.
      await setChats([{ "Local Chat v2": `${targetUrl}?v=2&key={key}&address={address}` }]);
      await page.goto(`${server.url}/chat/0`);
      await frame.waitFor();
      expect(await frame.getAttribute("src")).toContain(`${targetUrl}?v=2&key=`);
      await shoot(page, locale, "chat-embed-changed");
      await setChats([{ Broken: 42 }]);
      await page.goto(`${server.url}/chat2link`);
      await page.getByRole("alert").filter({ hasText: m.chat.contactAdmin }).first().waitFor();
      expect(page.url()).toMatch(/\/chat2link$/);
      await setChats(CHATS());
      await page.goto(`${server.url}/chat/0`);
      await frame.waitFor();
      expect(await frame.getAttribute("src")).toContain(`${targetUrl}?key=`);

      await page.goto(`${server.url}/chat/2`);
      await page.getByTestId("chat-state").filter({ hasText: m.chat.contactAdmin }).waitFor();
      await toast(page, m.chat.contactAdmin).waitFor();
      await page.goto(`${server.url}/chat/9`);
      await page.getByTestId("chat-state").filter({ hasText: m.chat.contactAdmin }).waitFor();

      await page.goto(`${server.url}/chat2link`);
      await page.waitForURL(/\/chat\/0$/);
      await page.getByTestId("chat-frame").waitFor();

      // stored chats that cannot be parsed: reported and reset from the site status
      await page.evaluate(() => localStorage.setItem("chats", "{not json"));
      await page.goto(`${server.url}/chat/0`);
      await toast(page, m.chat.parseFailed).waitFor();
      await page.getByTestId("chat-frame").waitFor();
      const stored = await page.evaluate(() => localStorage.getItem("chats"));
      expect(JSON.parse(stored ?? "null")).toHaveLength(3);
    } finally {
      await ctx.close();
    }
  });
});
