// Browser test of the drawing and task logs (docs/tasks.md, "The pages"), in zh and en, light
// and dark: tasks made through the real relay against the local task upstream
// (tests/support/mock-task-upstream.ts) and polled to their end, plus a few rows written
// directly in the statuses a run passes through, then the pages with their filters (IDs,
// channel, start and end), status names, dialogs (record JSON, failure reason, prompts,
// image), the channel tag's copy and the admin notice. One browser for the file.
// Screenshots go to test-results/screenshots/task-logs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ApiClient } from "../support/client";
import { makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import { MJ_KEY, startMockTaskUpstream, SUNO_KEY, type MockTaskUpstream } from "../support/mock-task-upstream";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";
import { flowLocales, launch, MESSAGES, shooter, signIn, type Locale } from "./browser";

const shoot = shooter("task-logs");
let server: TestServer;
let browser: Browser;
let up: MockTaskUpstream;
let root: ApiClient;
let dave: { id: number; client: ApiClient };
const ids = { mjOk: "", mjFail: "", sunoOk: "", sunoFail: "", daveSong: "" };
const channels = { mj: 0, suno: 0 };
// rows of root's in the statuses a task passes through (never polled: nothing reserved)
const STATUS_ROWS = { "st-not-start": "NOT_START", "st-in-progress": "IN_PROGRESS", "st-queued": "QUEUED", "st-odd": "HALF_DONE" } as const;

async function loggedIn(locale: Locale, username: string, password: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await ctx.newPage();
  await signIn(page, server.url, username, password);
  return { ctx, page };
}

async function post(key: string, path: string, body: unknown, header: "mj" | "bearer") {
  const r = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers:
      header === "mj" ? { "content-type": "application/json", "mj-api-secret": key } : { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return (await r.json()) as Record<string, any>;
}

async function settled(admin: ApiClient) {
  for (let i = 0; i < 80; i++) {
    const mj = await admin.get<{ items: { status: string }[] }>("/api/mj/?p=1&page_size=100");
    const tasks = await admin.get<{ status: string }[]>("/api/task/?p=1&page_size=100");
    if (mj.data.items.every((t) => ["SUCCESS", "FAILURE"].includes(t.status)) && tasks.data.every((t) => ["SUCCESS", "FAILURE"].includes(t.status))) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("tasks did not end");
}

beforeAll(async () => {
  up = await startMockTaskUpstream();
  server = await startServer({ env: { TASK_POLL_INTERVAL_SECONDS: "1" } });
  browser = await launch();
  root = await setupRoot(server);
  await setOptions(root, {
    ModelPrice: JSON.stringify({ mj_imagine: 0.1, suno_music: 0.2 }),
    DrawingEnabled: "true",
    TaskEnabled: "true",
    ServerAddress: server.url,
  });
  for (const c of [
    { name: "mj", type: 2, key: MJ_KEY, base_url: up.url, models: "mj_imagine", group: "default" },
    { name: "suno", type: 36, key: SUNO_KEY, base_url: up.url, models: "suno_music", group: "default" },
  ]) {
    expect((await root.post("/api/channel/", c)).success).toBe(true);
  }
  const list = await root.get<{ items: { id: number; name: string }[] }>("/api/channel/?p=1&page_size=100");
  channels.mj = list.data.items.find((c) => c.name === "mj")!.id;
  channels.suno = list.data.items.find((c) => c.name === "suno")!.id;
  const rootKey = (await root.post<{ key: string }[]>("/api/token/", { name: "root", unlimited_quota: true })).data[0].key;
  expect((await root.put("/api/user/", { id: 1, quota: 10_000_000 })).success).toBe(true);
  dave = await makeUser(server, root, "dave");
  expect((await root.put("/api/user/", { id: dave.id, quota: 5_000_000 })).success).toBe(true);
  const daveKey = (await dave.client.post<{ key: string }[]>("/api/token/", { name: "d", unlimited_quota: true })).data[0].key;
  ids.mjOk = (await post(rootKey, "/mj/submit/imagine", { prompt: "a lighthouse at dusk, oil painting" }, "mj")).result;
  ids.mjFail = (await post(rootKey, "/mj/submit/imagine", { prompt: "this will fail" }, "mj")).result;
  ids.sunoOk = (await post(rootKey, "/suno/submit/music", { prompt: "a song of the sea" }, "bearer")).data;
  ids.sunoFail = (await post(rootKey, "/suno/submit/music", { prompt: "this will fail" }, "bearer")).data;
  ids.daveSong = (await post(daveKey, "/suno/submit/music", { prompt: "dave's own song" }, "bearer")).data;
  await settled(root);
  const now = Math.floor(Date.now() / 1000);
  for (const [taskId, status] of Object.entries(STATUS_ROWS)) {
    await query(
      server,
      'INSERT INTO "creative_tasks" ("task_id", "platform", "user_id", "channel_id", "action", "status", "submit_time", "progress") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [taskId, "suno", 1, channels.suno, "MUSIC", status, now, "30%"],
    );
  }
  // an Inpaint step waiting for its modal (docs/tasks.md, "Modals")
  await query(
    server,
    'INSERT INTO "image_tasks" ("mj_id", "user_id", "code", "action", "status", "submit_time", "progress") VALUES ($1, $2, $3, $4, $5, $6, $7)',
    ["st-modal", 1, 21, "INPAINT", "MODAL", Date.now(), "0%"],
  );
}, 180_000);

// Sets the picker named `label` to 00:00 of the day `offset` days from the browser's today:
// cleared first, so that the calendar opens at the current month and the time is 00:00.
async function pickDay(page: Page, locale: Locale, label: string, offset: number) {
  const p = MESSAGES[locale].dateTimePicker;
  const clear = page.getByRole("button", { name: p.clearLabel.replace("{label}", label), exact: true });
  if (await clear.count()) await clear.click();
  await page.getByRole("button", { name: label, exact: true }).click();
  const picker = page.getByRole("dialog", { name: label });
  const { day, otherMonth } = await page.evaluate((n) => {
    const d = new Date();
    const month = d.getMonth();
    d.setDate(d.getDate() + n);
    const pad = (x: number) => String(x).padStart(2, "0");
    return { day: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, otherMonth: d.getMonth() !== month };
  }, offset);
  // react-day-picker's navigation buttons are named "Go to the previous/next month" (zh: 上/下)
  if (otherMonth)
    await picker
      .locator(offset < 0 ? "button[aria-label*='revious'], button[aria-label*='上']" : "button[aria-label*='ext'], button[aria-label*='下']")
      .first()
      .click();
  await picker.locator(`td[data-day='${day}'] button`).click();
  await picker.getByRole("button", { name: p.done, exact: true }).click();
  await picker.waitFor({ state: "hidden" });
}

// The browser's today at 00:00:00, as the pickers show it.
const todayMidnight = (page: Page) =>
  page.evaluate(() => {
    const d = new Date();
    const pad = (x: number) => String(x).padStart(2, "0");
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} 00:00:00`;
  });

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await up?.close();
});

describe("the task log", () => {
  for (const locale of flowLocales(import.meta.url)) {
    it(`shows columns, status names, the record and failure dialogs, and filters (${locale})`, async () => {
      const m = MESSAGES[locale];
      const t = m.tasks;
      const { ctx, page } = await loggedIn(locale, "root", ROOT_PASSWORD);
      await page.goto(`${server.url}/app/logs/tasks`);
      expect(await page.getByRole("link", { name: m.shell.sidebar.taskLogs, exact: true }).count()).toBe(1);
      await page.getByTestId(`task-row-${ids.sunoOk}`).waitFor();
      for (const h of [
        t.col.submitTime,
        t.col.finishTime,
        t.col.progress,
        t.col.elapsed,
        t.col.channel,
        t.col.platform,
        t.col.action,
        t.col.taskId,
        t.col.status,
        t.col.failReason,
      ]) {
        expect(await page.getByRole("columnheader", { name: h, exact: true }).count(), h).toBe(1);
      }
      const ok = page.getByTestId(`task-row-${ids.sunoOk}`);
      await ok.getByText(t.status.SUCCESS, { exact: true }).waitFor();
      await ok.getByText(t.actions.MUSIC, { exact: true }).waitFor();
      await ok.getByText(t.none, { exact: true }).waitFor();
      const failed = page.getByTestId(`task-row-${ids.sunoFail}`);
      await failed.getByText(t.status.FAILURE, { exact: true }).waitFor();
      // the statuses on the way, and one no page knows
      await page.getByTestId("task-row-st-not-start").getByText(t.status.NOT_START, { exact: true }).waitFor();
      await page.getByTestId("task-row-st-in-progress").getByText(t.status.IN_PROGRESS, { exact: true }).waitFor();
      await page.getByTestId("task-row-st-queued").getByText(t.status.QUEUED, { exact: true }).waitFor();
      await page.getByTestId("task-row-st-odd").getByText(t.status.UNKNOWN, { exact: true }).waitFor();
      await shoot(page, locale, "tasks");

      // the start defaults to today 00:00, the end to none
      expect(await page.getByRole("button", { name: t.filters.start, exact: true }).textContent()).toBe(await todayMidnight(page));
      expect(await page.getByRole("button", { name: t.filters.end, exact: true }).textContent()).toBe(m.dateTimePicker.placeholder);

      // a click on the channel tag copies the channel's id
      await ok.getByTitle(t.copyChannel).click();
      await page.locator("[data-toast]").filter({ hasText: t.copied }).first().waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(String(channels.suno));

      // the task ID opens the whole record as JSON
      await ok.getByRole("button", { name: ids.sunoOk }).click();
      const dialog = page.getByRole("dialog", { name: t.recordTitle });
      await dialog.waitFor();
      expect(await dialog.getByTestId("task-json-dialog").textContent()).toContain(`"task_id": "${ids.sunoOk}"`);
      await shoot(page, locale, "tasks-record", false);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });

      // the failure reason opens in a dialog
      await failed.getByRole("button", { name: "the mock refused to sing" }).click();
      const reason = page.getByRole("dialog", { name: t.failReasonTitle });
      expect(await reason.getByTestId("task-text-dialog").textContent()).toBe("the mock refused to sing");
      await shoot(page, locale, "tasks-fail-reason", false);
      await page.keyboard.press("Escape");
      await reason.waitFor({ state: "hidden" });

      // filter by task ID
      await page.getByLabel(t.filters.taskId, { exact: true }).fill(ids.sunoFail);
      await page.getByRole("button", { name: t.search, exact: true }).click();
      await page.getByTestId(`task-row-${ids.sunoOk}`).waitFor({ state: "detached" });
      await page.getByTestId(`task-row-${ids.sunoFail}`).waitFor();
      expect(await page.locator("[data-testid^=task-row-]").count()).toBe(1);
      // a channel filter of another channel shows nothing
      await page.getByLabel(t.filters.taskId, { exact: true }).fill("");
      await page.getByLabel(t.filters.channelId, { exact: true }).fill(String(channels.mj));
      await page.getByRole("button", { name: t.search, exact: true }).click();
      await page.getByText(t.empty).waitFor();
      await shoot(page, locale, "tasks-filtered");

      // a start tomorrow leaves nothing; without a start, an end yesterday leaves nothing either
      await page.getByRole("button", { name: t.reset, exact: true }).click();
      await page.getByTestId(`task-row-${ids.sunoOk}`).waitFor();
      await pickDay(page, locale, t.filters.start, 1);
      await page.getByRole("button", { name: t.search, exact: true }).click();
      await page.getByText(t.empty).waitFor();
      await page.getByRole("button", { name: m.dateTimePicker.clearLabel.replace("{label}", t.filters.start), exact: true }).click();
      await page.getByRole("button", { name: t.search, exact: true }).click();
      await page.getByTestId(`task-row-${ids.sunoOk}`).waitFor();
      await pickDay(page, locale, t.filters.end, -1);
      await page.getByRole("button", { name: t.search, exact: true }).click();
      await page.getByText(t.empty).waitFor();
      await ctx.close();
    }, 90_000);
  }

  it("shows a user only their own tasks, without the channel column", async () => {
    const { ctx, page } = await loggedIn("en", "dave", "user-pass-1");
    const t = MESSAGES.en.tasks;
    await page.goto(`${server.url}/app/logs/tasks`);
    await page.getByTestId(`task-row-${ids.daveSong}`).waitFor();
    expect(await page.locator("[data-testid^=task-row-]").count()).toBe(1);
    expect(await page.getByRole("columnheader", { name: t.col.channel, exact: true }).count()).toBe(0);
    expect(await page.getByLabel(t.filters.channelId, { exact: true }).count()).toBe(0);
    await shoot(page, "en", "tasks-user");
    await ctx.close();
  }, 60_000);
});

describe("the drawing log", () => {
  for (const locale of flowLocales(import.meta.url)) {
    it(`shows the image tasks, their image, dialogs, filters and the callback notice (${locale})`, async () => {
      const m = MESSAGES[locale];
      const t = m.tasks;
      const { ctx, page } = await loggedIn(locale, "root", ROOT_PASSWORD);
      await page.goto(`${server.url}/app/logs/drawing`);
      await page.getByRole("note").getByText(t.notifyOff).waitFor();
      const ok = page.getByTestId(`drawing-row-${ids.mjOk}`);
      await ok.waitFor();
      for (const h of [
        t.col.submitTime,
        t.col.finishTime,
        t.col.channel,
        t.col.type,
        t.col.taskId,
        t.col.submitResult,
        t.col.status,
        t.col.progress,
        t.col.image,
        t.col.prompt,
        t.col.promptEn,
        t.col.failReason,
      ]) {
        expect(await page.getByRole("columnheader", { name: h, exact: true }).count(), h).toBe(1);
      }
      await ok.getByText(t.status.SUCCESS, { exact: true }).waitFor();
      await ok.getByText(t.mjActions.IMAGINE, { exact: true }).waitFor();
      await ok.getByText(t.codes["1"], { exact: true }).waitFor();
      const img = ok.getByRole("img", { name: t.imageOf.replace("{id}", ids.mjOk) });
      await img.waitFor();
      await page.waitForFunction((id) => {
        const el = document.querySelector(`[data-testid="drawing-row-${id}"] img`) as HTMLImageElement | null;
        return !!el && el.complete && el.naturalWidth > 0;
      }, ids.mjOk);
      const failed = page.getByTestId(`drawing-row-${ids.mjFail}`);
      await failed.getByText(t.status.FAILURE, { exact: true }).waitFor();
      await page.getByTestId("drawing-row-st-modal").getByText(t.status.MODAL, { exact: true }).waitFor();
      await shoot(page, locale, "drawing");

      // the image opens large; the prompt and the failure reason open in dialogs
      await img.click();
      const imageDialog = page.getByRole("dialog", { name: t.imageTitle });
      await imageDialog.waitFor();
      await shoot(page, locale, "drawing-image", false);
      await page.keyboard.press("Escape");
      await imageDialog.waitFor({ state: "hidden" });
      await failed.getByRole("button", { name: "banned by the mock" }).click();
      const reason = page.getByRole("dialog", { name: t.failReasonTitle });
      expect(await reason.getByTestId("task-text-dialog").textContent()).toBe("banned by the mock");
      await shoot(page, locale, "drawing-fail-reason", false);
      await page.keyboard.press("Escape");
      await reason.waitFor({ state: "hidden" });
      const prompt = "a lighthouse at dusk, oil painting";
      // the prompt and the English prompt (the mock's is the same text), each in its dialog
      for (const [i, title] of [t.col.prompt, t.col.promptEn].entries()) {
        await ok.getByRole("button", { name: prompt }).nth(i).click();
        const d = page.getByRole("dialog", { name: title });
        expect(await d.getByTestId("task-text-dialog").textContent()).toBe(prompt);
        if (i === 0) await shoot(page, locale, "drawing-prompt", false);
        await page.keyboard.press("Escape");
        await d.waitFor({ state: "hidden" });
      }

      // a click on the channel tag copies the channel's id
      await ok.getByTitle(t.copyChannel).click();
      await page.locator("[data-toast]").filter({ hasText: t.copied }).first().waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(String(channels.mj));

      // the channel filter: the image channel shows its tasks, another shows none
      await page.getByLabel(t.filters.channelId, { exact: true }).fill(String(channels.suno));
      await page.getByRole("button", { name: t.search, exact: true }).click();
      await page.getByText(t.empty).waitFor();
      await page.getByLabel(t.filters.channelId, { exact: true }).fill(String(channels.mj));
      await page.getByRole("button", { name: t.search, exact: true }).click();
      await ok.waitFor();
      expect(await page.locator("[data-testid^=drawing-row-]").count()).toBe(2);
      await page.getByLabel(t.filters.channelId, { exact: true }).fill("");

      // the range: a start tomorrow leaves nothing, an end yesterday too (the start is 30 days back)
      await pickDay(page, locale, t.filters.start, 1);
      await page.getByRole("button", { name: t.search, exact: true }).click();
      await page.getByText(t.empty).waitFor();
      await page.getByRole("button", { name: t.reset, exact: true }).click();
      await ok.waitFor();
      await pickDay(page, locale, t.filters.end, -1);
      await page.getByRole("button", { name: t.search, exact: true }).click();
      await page.getByText(t.empty).waitFor();
      await page.getByRole("button", { name: t.reset, exact: true }).click();
      await ok.waitFor();

      // filter by task ID
      await page.getByLabel(t.filters.taskId, { exact: true }).fill(ids.mjFail);
      await page.getByRole("button", { name: t.search, exact: true }).click();
      await page.getByTestId(`drawing-row-${ids.mjOk}`).waitFor({ state: "detached" });
      await page.getByTestId(`drawing-row-${ids.mjFail}`).waitFor();
      expect(await page.locator("[data-testid^=drawing-row-]").count()).toBe(1);
      await shoot(page, locale, "drawing-filtered");
      await ctx.close();
    }, 90_000);
  }

  it("hides both pages and their sidebar entries when DrawingEnabled and TaskEnabled are off", async () => {
    await setOptions(root, { DrawingEnabled: "false", TaskEnabled: "false" });
    const { ctx, page } = await loggedIn("en", "dave", "user-pass-1");
    const m = MESSAGES.en;
    await page.goto(`${server.url}/app/tokens`);
    expect(await page.getByRole("link", { name: m.shell.sidebar.drawingLogs }).count()).toBe(0);
    expect(await page.getByRole("link", { name: m.shell.sidebar.taskLogs }).count()).toBe(0);
    const r = await page.goto(`${server.url}/app/logs/tasks`);
    expect(r?.status()).toBe(404);
    await ctx.close();
    await setOptions(root, { DrawingEnabled: "true", TaskEnabled: "true" });
  }, 60_000);
});
