// Browser test of the drawing and task logs (docs/tasks.md, "The pages"), in zh and en, light
// and dark: tasks made through the real relay against the local task upstream
// (tests/support/mock-task-upstream.ts) and polled to their end, then the pages with their
// filters, status names, dialogs (record JSON, failure reason, image) and the admin notice.
// Screenshots go to /tmp/task-logs-shots.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ApiClient } from "../support/client";
import { makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import { MJ_KEY, startMockTaskUpstream, SUNO_KEY, type MockTaskUpstream } from "../support/mock-task-upstream";
import { startServer, type TestServer } from "../support/server";
import { launch, MESSAGES, shooter, type Locale } from "./browser";

const SHOTS = "/tmp/task-logs-shots";
const shoot = shooter(SHOTS);
let server: TestServer;
let browser: Browser;
let up: MockTaskUpstream;
let root: ApiClient;
let dave: { id: number; client: ApiClient };
const ids = { mjOk: "", mjFail: "", sunoOk: "", sunoFail: "", daveSong: "" };

async function loggedIn(locale: Locale, username: string, password: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await ctx.newPage();
  const m = MESSAGES[locale];
  await page.goto(`${server.url}/login`);
  await page.getByLabel(m.login.username, { exact: true }).fill(username);
  await page.getByLabel(m.login.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: m.login.submit, exact: true }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
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
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await up?.close();
});

describe("the task log", () => {
  for (const locale of ["zh", "en"] as const) {
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
      await shoot(page, locale, "tasks");

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
      await page.getByLabel(t.filters.channelId, { exact: true }).fill("1");
      await page.getByRole("button", { name: t.search, exact: true }).click();
      await page.getByText(t.empty).waitFor();
      await shoot(page, locale, "tasks-filtered");
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
  for (const locale of ["zh", "en"] as const) {
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
