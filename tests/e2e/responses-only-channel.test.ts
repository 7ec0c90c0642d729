// The channel editor's "Responses API only" switch (docs/relay.md, "The Responses API"): shown
// for OpenAI-wire types and not for Anthropic; turned on, saved into the channel's setting with
// its other keys kept, shown back on edit, and the channel then serves a chat client through
// /v1/responses. Screenshots in en and zh, light and dark. Also the multi-key switch
// (docs/channels-tokens-billing.md, "Multi-key channels"): a channel of three keys made in
// the editor, one key refused by the upstream and disabled, shown with its reason and
// enabled again from the key table.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { flowLocales, fmt, launch, MESSAGES, shoot } from "./browser";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import { query, seedUser, type SeededUser } from "../support/seed";

let server: TestServer;
let browser: Browser;
let mock: MockUpstream;
let root: SeededUser;
let plain: MockUpstream;

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  mock.behavior = { responsesOnly: true };
  plain = await startMockUpstream("openai");
  root = await seedUser(server, { username: "root", role: 100, quota: 1_000_000 });
  for (const [key, value] of [
    ["ModelRatio", JSON.stringify({ "o3-pro": 1, "m-keys": 1 })],
    ["AutomaticDisableChannelEnabled", "true"],
    ["CacheRatio", "{}"],
  ]) {
    const r = await root.client.put("/api/option/", { key, value });
    expect(r.success, r.message).toBe(true);
  }
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mock?.close();
  await plain?.close();
});

describe("the Responses-only switch of the channel editor", () => {
  it("is saved into the setting, shown back, and makes the channel serve chat clients through /v1/responses", async () => {
    const en = MESSAGES.en.channelResponses;
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    await ctx.addCookies([
      { name: "NEXT_LOCALE", value: "en", url: server.url },
      { name: "session", value: root.client.cookie.replace(/^session=/, ""), url: server.url },
    ]);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/channel/add`);
    await page.getByLabel("Name", { exact: true }).fill("pro-only");
    await page.getByLabel("Base URL").fill(mock.url);
    await page.getByLabel("Key", { exact: true }).fill(mock.key);
    await page.getByLabel("Custom model").fill("o3-pro");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    // an Anthropic channel has no such switch
    await page.getByLabel("Type", { exact: true }).selectOption("14");
    await expect.poll(() => page.getByRole("switch", { name: en.label }).count()).toBe(0);
    await page.getByLabel("Type", { exact: true }).selectOption("1");
    const sw = page.getByRole("switch", { name: en.label });
    await sw.waitFor();
    expect(await sw.getAttribute("aria-checked")).toBe("false");
    await sw.click();
    expect(await sw.getAttribute("aria-checked")).toBe("true");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/admin\/channels$/);

    const rows = await query(server, 'SELECT "id", "setting" FROM "channels" WHERE "name" = \'pro-only\'');
    expect(JSON.parse(String(rows[0].setting))).toEqual({ responses_only: true });
    const id = Number(rows[0].id);

    // the flag serves: a chat client, answered through /v1/responses
    const t = await root.client.post<{ key: string }[]>("/api/token/", { name: "pro", unlimited_quota: true });
    const openai = new OpenAI({ apiKey: t.data[0].key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const r = await openai.chat.completions.create({ model: "o3-pro", messages: [{ role: "user", content: "hi" }] });
    expect(r.choices[0].message.content).toBe("hi there");
    expect(mock.requests.at(-1)!.url).toBe("/v1/responses");

    // another key of the setting survives the editor; the switch shows the stored flag
    expect((await root.client.put("/api/channel/", { id, setting: JSON.stringify({ responses_only: true, proxy: "" }) })).success).toBe(true);
    for (const locale of flowLocales(import.meta.url)) {
      await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
      await page.goto(`${server.url}/channel/edit/${id}`);
      const shown = page.getByRole("switch", { name: MESSAGES[locale].channelResponses.label });
      await shown.waitFor();
      expect(await shown.getAttribute("aria-checked")).toBe("true");
      await expect.poll(() => page.getByText(MESSAGES[locale].channelResponses.hint).count()).toBe(1);
      await shoot(page, locale, "channel-edit-responses-only");
    }
    await page.getByRole("switch", { name: MESSAGES.zh.channelResponses.label }).click();
    await page.getByRole("button", { name: MESSAGES.zh.channels.save }).click();
    await page.waitForURL(/\/admin\/channels$/);
    const after = await query(server, `SELECT "setting" FROM "channels" WHERE "id" = ${id}`);
    expect(JSON.parse(String(after[0].setting))).toEqual({ proxy: "" });
    await ctx.close();
  });

  it("makes a multi-key channel, and shows a refused key disabled with its reason, then enables it again", async () => {
    const keys = ["sk-e2e-multi-0000000000000001", "sk-e2e-multi-0000000000000002", "sk-e2e-multi-0000000000000003"];
    for (const k of keys) plain.keys.add(k);
    const en = MESSAGES.en.channels.multiKey;
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    await ctx.addCookies([
      { name: "NEXT_LOCALE", value: "en", url: server.url },
      { name: "session", value: root.client.cookie.replace(/^session=/, ""), url: server.url },
    ]);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/channel/add`);
    await page.getByLabel("Name", { exact: true }).fill("three-keys");
    await page.getByLabel("Base URL").fill(plain.url);
    await page.getByLabel("Key", { exact: true }).fill(keys.join("\n"));
    await page.getByRole("switch", { name: en.switch }).click();
    // the two ways of using several key lines exclude each other
    await expect.poll(() => page.getByRole("switch", { name: MESSAGES.en.channels.editor.batch }).count()).toBe(0);
    await page.getByLabel(en.mode).selectOption("polling");
    await page.getByLabel("Custom model").fill("m-keys");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/admin\/channels$/);
    // the list says how many keys are enabled
    await page.getByText(fmt(en.badge, { enabled: 3, size: 3 })).waitFor();

    const rows = await query(server, 'SELECT "id", "channel_info" FROM "channels" WHERE "name" = \'three-keys\'');
    expect(JSON.parse(String(rows[0].channel_info))).toMatchObject({ is_multi_key: true, multi_key_size: 3, multi_key_mode: "polling" });
    const id = Number(rows[0].id);

    // key #1 is refused from now on: the calls still succeed, and that key is disabled
    plain.keys.delete(keys[1]);
    const t = await root.client.post<{ key: string }[]>("/api/token/", { name: "keys", unlimited_quota: true });
    const openai = new OpenAI({ apiKey: t.data[0].key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    for (let i = 0; i < 3; i++) await openai.chat.completions.create({ model: "m-keys", messages: [{ role: "user", content: "hi" }] });
    await expect
      .poll(
        async () => JSON.parse(String((await query(server, `SELECT "channel_info" FROM "channels" WHERE "id" = ${id}`))[0].channel_info)).multi_key_status_list,
      )
      .toEqual({ "1": 3 });

    for (const locale of flowLocales(import.meta.url)) {
      await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
      await page.goto(`${server.url}/channel/edit/${id}`);
      const table = page.getByTestId("multi-key-keys");
      await table.waitFor();
      await expect.poll(() => table.getByText(/^status 401: /).count()).toBe(1);
      await table.getByText(fmt(MESSAGES[locale].channels.multiKey.enabledOf, { enabled: 2, size: 3 })).waitFor();
      // no key, nor a part of one, on the page
      const html = await page.content();
      for (const k of keys) expect(html).not.toContain(k.slice(-10));
      await shoot(page, locale, "channel-edit-multi-key");
    }
    plain.keys.add(keys[1]);
    await page.getByRole("button", { name: fmt(MESSAGES.zh.channels.multiKey.enableKey, { index: 1 }) }).click();
    await page
      .getByTestId("multi-key-keys")
      .getByText(fmt(MESSAGES.zh.channels.multiKey.enabledOf, { enabled: 3, size: 3 }))
      .waitFor();
    await ctx.close();
  });
});
