// The console's forms refuse with the server's message, under the field and in a toast
// (docs/console-ui.md, "Forms"): the token drawer, the admin's user editor and the channel
// editor, in zh and en, with screenshots of each in light and dark.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { renderMessage } from "@/lib/i18n/server-messages";
import { setupRoot, ROOT_PASSWORD } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shoot, signIn, type Locale } from "./browser";

let server: TestServer;
let browser: Browser;
let root: ApiClient;
let bobId = 0;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  root = await setupRoot(server);
  const r = await root.post<{ id: number }>("/api/user/", { username: "bob", password: "user-pass-1", display_name: "Bob" });
  expect(r.success).toBe(true);
  bobId = r.data.id;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(locale: Locale): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await signIn(page, server.url, "root", ROOT_PASSWORD);
  return page;
}

describe.each(flowLocales(import.meta.url))("forms (%s)", (locale) => {
  const m = MESSAGES[locale];
  const sm = (key: Parameters<typeof renderMessage>[1]) => renderMessage(locale, key);

  it("token drawer: the server's messages under the fields", async () => {
    const page = await open(locale);
    await page.goto(`${server.url}/app/tokens`);
    await page.getByRole("button", { name: m.tokens.add }).click();
    const drawer = page.getByRole("dialog");
    await drawer.getByLabel(m.tokens.form.name, { exact: true }).fill("n".repeat(51));
    await drawer.getByLabel(m.tokens.form.count, { exact: true }).fill("101");
    // yesterday 00:00 with the picker (docs/console-ui.md, "Dates")
    await drawer.getByRole("button", { name: m.tokens.form.expiry, exact: true }).click();
    const picker = page.getByRole("dialog", { name: m.tokens.form.expiry });
    const { day, otherMonth } = await page.evaluate(() => {
      const d = new Date();
      const month = d.getMonth();
      d.setDate(d.getDate() - 1);
      const pad = (x: number) => String(x).padStart(2, "0");
      return { day: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, otherMonth: d.getMonth() !== month };
    });
    if (otherMonth) await picker.locator("button[aria-label*='revious'], button[aria-label*='上']").first().click();
    await picker.locator(`td[data-day='${day}'] button`).click();
    await picker.getByRole("button", { name: m.dateTimePicker.done, exact: true }).click();
    await picker.waitFor({ state: "hidden" });
    await drawer.getByRole("button", { name: m.tokens.form.submit }).click();
    const alerts = drawer.locator('p[role="alert"]');
    await expect.poll(() => alerts.allTextContents()).toEqual([sm("token_name_too_long"), sm("token_batch_count_invalid"), sm("token_expiry_past")]);
    await expectToast(page, sm("token_name_too_long"));
    await shoot(page, locale, "forms-token-drawer-refused", false);
    // fixing a field clears its message as it is typed
    await drawer.getByLabel(m.tokens.form.name, { exact: true }).fill("ok");
    await expect.poll(() => alerts.count()).toBe(2);
    await page.context().close();
  });

  it("user editor: the server's messages under the fields; a valid edit saves", async () => {
    const page = await open(locale);
    await page.goto(`${server.url}/admin/users`);
    const row = page.getByTestId("user-row-bob");
    await row.getByRole("button", { name: fmt(m.users.actions.editUser, { name: "Bob" }) }).click();
    const edit = page.getByRole("dialog");
    await edit.getByLabel(m.userEditor.password, { exact: true }).fill("short");
    await edit.getByLabel(m.userEditor.quota, { exact: true }).fill("-5");
    await edit.getByRole("button", { name: m.userEditor.save }).click();
    const alerts = edit.locator('p[role="alert"]');
    await expect.poll(() => alerts.allTextContents()).toEqual([sm("password_too_short"), sm("quota_invalid")]);
    await shoot(page, locale, "forms-user-editor-refused", false);
    await edit.getByLabel(m.userEditor.password, { exact: true }).fill("");
    // a new quota in each locale, so that each run changes it
    const quota = locale === "zh" ? 1000 : 2000;
    // typed in dollars, the display unit (docs/console-ui.md, "Quota display")
    await edit.getByLabel(m.userEditor.quota, { exact: true }).fill(String(quota / 500000));
    await edit.getByRole("button", { name: m.userEditor.save }).click();
    // a quota change asks first (operator-console.test.ts)
    await page
      .getByRole("dialog", { name: fmt(m.userEditor.quotaTitle, { name: "Bob" }) })
      .getByRole("button", { name: m.userEditor.save })
      .click();
    await expectToast(page, fmt(m.userEditor.quotaDone, { name: "Bob", to: `$${quota / 500000}` }));
    await expect.poll(async () => (await root.get<{ quota: number }>(`/api/user/${bobId}`)).data.quota).toBe(quota);
    await page.context().close();
  });

  it("channel editor: the server's messages under the fields, live for the JSON ones; valid input saves", async () => {
    const page = await open(locale);
    await page.goto(`${server.url}/channel/add`);
    const statusMapping = page.getByLabel(m.channels.editor.statusCodeMapping, { exact: true });
    await statusMapping.fill('{"400":');
    // a JSON field is refused as it is typed, before any save
    await expect.poll(() => page.locator('p[role="alert"]').allTextContents()).toEqual([sm("channel_status_code_mapping_invalid")]);
    await page.getByLabel(m.channels.col.priority, { exact: true }).fill("1.5");
    await page.getByRole("button", { name: m.channels.save, exact: true }).click();
    const alerts = page.locator('p[role="alert"]');
    await expect
      .poll(() => alerts.allTextContents())
      .toEqual([
        sm("channel_name_required"),
        sm("channel_key_required"),
        sm("channel_models_required"),
        sm("priority_must_be_integer"),
        sm("channel_status_code_mapping_invalid"),
      ]);
    // the toast names the server's first refusal for the same body
    await expectToast(page, fmt(m.errors.prefixed, { message: sm("priority_must_be_integer") }));
    await shoot(page, locale, "forms-channel-editor-refused");
    const name = `form-channel-${locale}`;
    await page.getByLabel(m.channels.fields.name, { exact: true }).fill(name);
    await page.getByLabel(m.channels.fields.key, { exact: true }).fill("sk-form");
    await page.getByLabel(m.channels.editor.customModel, { exact: true }).fill("m-form");
    await page.getByRole("button", { name: m.channels.editor.addModel }).click();
    await page.getByLabel(m.channels.col.priority, { exact: true }).fill("2");
    await statusMapping.fill('{"400": "500"}');
    await expect.poll(() => alerts.count()).toBe(0);
    await page.getByRole("button", { name: m.channels.save, exact: true }).click();
    await page.waitForURL(/\/admin\/channels$/);
    type Ch = { id: number; name: string; priority: number; weight: number; models: string; status_code_mapping: string };
    const list = await root.get<{ items: Ch[] }>(`/api/channel/?p=1&page_size=50`);
    const saved = list.data.items.find((c) => c.name === name)!;
    expect(saved).toMatchObject({ priority: 2, models: "m-form", status_code_mapping: '{"400": "500"}' });
    // on edit: a blank name is refused, a negative weight becomes 0 (as the server does)
    await page.goto(`${server.url}/channel/edit/${saved.id}`);
    await page.getByLabel(m.channels.fields.name, { exact: true }).fill(" ");
    await page.getByLabel(m.channels.col.weight, { exact: true }).fill("-3");
    await page.getByRole("button", { name: m.channels.save, exact: true }).click();
    await expect.poll(() => alerts.allTextContents()).toEqual([sm("channel_name_required")]);
    await page.getByLabel(m.channels.fields.name, { exact: true }).fill(name);
    await page.getByRole("button", { name: m.channels.save, exact: true }).click();
    await page.waitForURL(/\/admin\/channels$/);
    expect((await root.get<Ch>(`/api/channel/${saved.id}`)).data.weight).toBe(0);
    await page.context().close();
  });

  it("no page errors", () => {
    expect(pageErrors).toEqual([]);
  });
});
