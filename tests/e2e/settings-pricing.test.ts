// The pricing settings and the Models tab in a browser (docs/pricing.md), against one real
// built server and one browser: the root fetches the preset ratios on the operation tab and a
// preset model becomes callable over plain HTTP at once; the visual editor refuses a cell that
// is not a number (请输入数字), an existing name (模型名称已存在) and a zero token price
// (模型价格不能为0), converts a token price into ratios and saves; the unset-model list fills
// from the presets; the Models tab saves a Claude thinking share and refuses 0.05 with the
// bound's message; the model mapping dialog checks its rules. Screenshots in zh and en,
// light and dark, under test-results/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { makeUser, ROOT_PASSWORD, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import { renderMessage } from "@/lib/i18n/server-messages";
import { PRESET_RATIOS } from "@/lib/options/presets/ratios";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shoot, signIn, type Locale } from "./browser";

let server: TestServer;
let browser: Browser;
let upstream: MockUpstream;
let root: ApiClient;
let key: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  upstream = await startMockUpstream("openai");
  browser = await launch();
  // external operation: a model needs a price
  root = await setupRoot(server, "root", { SelfUseModeEnabled: false });
  const ch = await root.post("/api/channel/", {
    name: "presets",
    type: 1,
    key: upstream.key,
    base_url: upstream.url,
    models: "gpt-4o,deepseek-chat,mystery-model",
    group: "default",
  });
  expect(ch.success, ch.message).toBe(true);
  const user = await makeUser(server, root, "buyer");
  expect((await root.put("/api/user/", { id: user.id, quota: 1_000_000 })).success).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "e2e", unlimited_quota: true });
  key = t.data[0].key;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.close();
});

async function chat(model: string) {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hello" }] }),
  });
  return res.status;
}

const option = async (k: string) => (await root.get<{ key: string; value: string }[]>("/api/option/")).data.find((o) => o.key === k)!.value;
const map = async (k: string) => JSON.parse(await option(k)) as Record<string, number>;

async function setFallbackOff() {
  for (const [k, v] of [
    ["fallback_pricing_enabled", "false"],
    ["fallback_single_price", ""],
  ]) {
    const r = await root.put("/api/option/", { key: k, value: v });
    expect(r.success, r.message).toBe(true);
  }
}

async function newPage(locale: Locale): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await signIn(page, server.url, "root", ROOT_PASSWORD);
  return { ctx, page };
}

// The settings section (a form) whose card has this title.
const section = (page: Page, title: string): Locator => page.locator("form").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
const dialog = (page: Page) => page.getByRole("dialog");

describe("operation tab: preset ratios and the visual editor", () => {
  it("fetches the presets, and a preset model is callable at once (zh)", async () => {
    const m = MESSAGES.zh.pricingEditor;
    // start from no price at all: reset presets leaves the maps without the preset models
    expect((await root.post("/api/option/preset_ratio/reset")).success).toBe(true);
    expect(await chat("gpt-4o")).not.toBe(200);
    const { ctx, page } = await newPage("zh");
    try {
      await page.goto(`${server.url}/admin/settings`);
      const other = section(page, m.otherTitle);
      await other.scrollIntoViewIfNeeded();
      await shoot(page, "zh", "pricing-other-ratios", false);
      await other.getByRole("button", { name: m.fetchPresets, exact: true }).click();
      // confirmation first
      await dialog(page).getByText(m.fetchConfirm).waitFor();
      await shoot(page, "zh", "pricing-fetch-confirm", false);
      await dialog(page).getByRole("button", { name: m.fetchPresets, exact: true }).click();
      await expectToast(page, fmt(m.fetched, { n: Object.keys(PRESET_RATIOS.ModelRatio).length + Object.keys(PRESET_RATIOS.ModelPrice).length }));
      expect(await map("ModelRatio")).toEqual(PRESET_RATIOS.ModelRatio);
      // right after "fetch presets", plain HTTP with a token
      expect(await chat("gpt-4o")).toBe(200);
      expect(await chat("deepseek-chat")).toBe(200);
    } finally {
      await ctx.close();
    }
  });

  it("edits a model, refuses a bad cell, a duplicate name and a zero price, and saves (zh)", async () => {
    const m = MESSAGES.zh.pricingEditor;
    const { ctx, page } = await newPage("zh");
    try {
      await page.goto(`${server.url}/admin/settings`);
      await page.getByRole("tab", { name: m.tabs.visual }).click();
      const editor = page.getByRole("tabpanel", { name: m.tabs.visual });
      // paging of 10
      expect(await editor.locator("tbody tr").count()).toBe(10);
      // ratio badge colours: gpt-4 (ratio 15) red
      await editor.getByRole("searchbox").fill("gpt-4o-mini");
      const row = editor.locator('tr[data-model="gpt-4o-mini"]');
      const ratio = row.getByLabel(`gpt-4o-mini ${m.columns.ratio}`);
      await ratio.fill("abc");
      await row.getByText(m.errors.notNumber).waitFor();
      await ratio.fill("0.1");
      await expect(row.getByText(m.errors.notNumber).count()).resolves.toBe(0);

      // add: an existing name is refused, then a zero token price, then a price converted to ratios
      await editor.getByRole("button", { name: m.addModel, exact: true }).click();
      await dialog(page).getByLabel(m.columns.name, { exact: true }).fill("gpt-4o");
      await dialog(page).getByLabel(m.columns.ratio, { exact: true }).fill("1");
      await dialog(page).getByRole("button", { name: m.confirm, exact: true }).click();
      await dialog(page).getByText(m.errors.nameExists).waitFor();
      await shoot(page, "zh", "pricing-add-duplicate", false);
      await dialog(page).getByLabel(m.columns.name, { exact: true }).fill("my-model");
      await dialog(page).getByLabel(m.modes.tokenPrice).check();
      await dialog(page).getByLabel(m.inputPrice, { exact: true }).fill("0");
      await dialog(page).getByLabel(m.outputPrice, { exact: true }).fill("1");
      await dialog(page).getByRole("button", { name: m.confirm, exact: true }).click();
      await dialog(page).getByText(m.errors.priceZero).waitFor();
      await dialog(page).getByLabel(m.inputPrice, { exact: true }).fill("4");
      await dialog(page).getByLabel(m.outputPrice, { exact: true }).fill("12");
      await dialog(page).getByRole("button", { name: m.confirm, exact: true }).click();
      await dialog(page).waitFor({ state: "detached" });
      await editor.locator('tr[data-model="my-model"]').waitFor();
      await editor.scrollIntoViewIfNeeded();
      await shoot(page, "zh", "pricing-visual-editor", false);

      // batch set: at least one model, then both values for both ratios
      await editor.getByRole("searchbox").fill("o3-mini");
      await editor.getByRole("button", { name: m.batchSet }).click();
      await dialog(page).getByRole("button", { name: m.confirm, exact: true }).click();
      await dialog(page).getByText(m.errors.selectModels).waitFor();
      await dialog(page).getByRole("button", { name: m.cancel, exact: true }).click();
      await editor.getByLabel(fmt(m.selectModel, { name: "o3-mini" }), { exact: true }).check();
      await editor.getByLabel(fmt(m.selectModel, { name: "o3-mini-2025-01-31" }), { exact: true }).check();
      await editor.getByRole("button", { name: m.batchSet }).click();
      await dialog(page).getByLabel(m.batchTarget).selectOption("bothRatios");
      await dialog(page).getByLabel(m.columns.ratio, { exact: true }).fill("0.6");
      await dialog(page).getByRole("button", { name: m.confirm, exact: true }).click();
      await dialog(page).getByText(m.errors.bothRequired).waitFor();
      await dialog(page).getByLabel(m.columns.completionRatio, { exact: true }).fill("5");
      await dialog(page).getByRole("button", { name: m.confirm, exact: true }).click();
      await dialog(page).waitFor({ state: "detached" });

      // a prompt-cache write ratio in its cell (docs/pricing.md, "Prompt-cache writes")
      const claude = "claude-haiku-4-5-20251001";
      await editor.getByRole("searchbox").fill(claude);
      const writes = editor.locator(`tr[data-model="${claude}"]`).getByLabel(`${claude} ${m.columns.createCache1hRatio}`);
      await expect(writes.inputValue()).resolves.toBe("2");
      await writes.fill("2.5");
      await shoot(page, "zh", "pricing-cache-write-cells", false);

      await editor.getByRole("button", { name: m.save, exact: true }).click();
      await expectToast(page, MESSAGES.zh.settingsKit.saved);
      await expect.poll(async () => (await map("ModelRatio"))["my-model"]).toBe(2);
      expect((await map("ModelRatio"))["o3-mini-2025-01-31"]).toBe(0.6);
      expect((await map("CompletionRatio"))["o3-mini"]).toBe(5);
      expect((await map("CompletionRatio"))["my-model"]).toBe(3);
      expect((await map("ModelRatio"))["gpt-4o-mini"]).toBe(0.1);
      expect((await map("ModelRatio"))["gpt-4o"]).toBe(1.25);
      expect((await map("CreateCache1hRatio"))[claude]).toBe(2.5);
      expect((await map("CreateCacheRatio"))[claude]).toBe(1.25);
    } finally {
      await ctx.close();
    }
  });

  it("fills the unset models from the presets (zh)", async () => {
    const m = MESSAGES.zh.pricingEditor;
    const ratios = await map("ModelRatio");
    delete ratios["deepseek-chat"];
    expect((await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify(ratios) })).success).toBe(true);
    const { ctx, page } = await newPage("zh");
    try {
      await page.goto(`${server.url}/admin/settings`);
      await page.getByRole("tab", { name: m.tabs.unset }).click();
      const list = page.getByRole("tabpanel", { name: m.tabs.unset });
      await list.getByText("deepseek-chat", { exact: true }).waitFor();
      await list.getByText("mystery-model", { exact: true }).waitFor();
      await list.scrollIntoViewIfNeeded();
      await shoot(page, "zh", "pricing-unset-models", false);
      await list.getByRole("button", { name: m.fillAll, exact: true }).click();
      await expectToast(page, fmt(m.filled, { n: 1, missing: 1 }));
      await list.getByText("deepseek-chat", { exact: true }).waitFor({ state: "detached" });
      expect((await map("ModelRatio"))["deepseek-chat"]).toBe(PRESET_RATIOS.ModelRatio["deepseek-chat"]);
    } finally {
      await ctx.close();
    }
  });

  it("fallback pricing: the combination is refused on the page as on the server, a valid one is saved (zh)", async () => {
    const m = MESSAGES.zh.pricingEditor;
    const { ctx, page } = await newPage("zh");
    try {
      await page.goto(`${server.url}/admin/settings`);
      const other = section(page, m.otherTitle);
      await other.getByRole("switch", { name: m.fallbackEnabled }).click();
      await other.getByLabel(m.fallbackSinglePrice, { exact: true }).fill("0.01");
      await other.getByLabel(m.fallbackInputRatio, { exact: true }).fill("1");
      const combination = renderMessage("zh", "fallback_pricing_combination");
      await other.getByText(combination).first().waitFor();
      await page.getByTestId("settings-save-bar").getByRole("button", { name: MESSAGES.zh.settingsKit.save, exact: true }).click();
      await expectToast(page, MESSAGES.zh.settingsKit.checkInput);
      expect(await option("fallback_pricing_enabled")).toBe("false");
      // a single price alone, enabled in the same save
      await other.getByLabel(m.fallbackInputRatio, { exact: true }).fill("");
      await page.getByTestId("settings-save-bar").getByRole("button", { name: MESSAGES.zh.settingsKit.save, exact: true }).click();
      await expectToast(page, MESSAGES.zh.settingsKit.saved);
      await expect.poll(() => option("fallback_pricing_enabled")).toBe("true");
      expect(await option("fallback_single_price")).toBe("0.01");
      // mystery-model has no price: fallback pricing makes it callable
      expect(await chat("mystery-model")).toBe(200);
      // the server refuses the same combination through plain HTTP
      const r = await root.put("/api/option/", { key: "fallback_input_ratio", value: "1" });
      expect(r.success).toBe(false);
      expect(r.message).toBe(renderMessage("en", "fallback_pricing_combination"));
      await setFallbackOff();
    } finally {
      await ctx.close();
    }
  });

  it("shows the spec's messages when the preset source fails (zh)", async () => {
    const m = MESSAGES.zh.pricingEditor;
    // a source nobody listens on: each action fails on the server
    expect((await root.put("/api/option/", { key: "PresetRatioSourceUrl", value: "http://127.0.0.1:9/none" })).success).toBe(true);
    const { ctx, page } = await newPage("zh");
    try {
      await page.goto(`${server.url}/admin/settings`);
      const other = section(page, m.otherTitle);
      await other.getByRole("button", { name: m.fetchPresets, exact: true }).click();
      await dialog(page).getByRole("button", { name: m.fetchPresets, exact: true }).click();
      await expectToast(page, m.fetchFailed);
      await other.getByRole("button", { name: m.resetPresets, exact: true }).click();
      await dialog(page).getByRole("button", { name: m.resetPresets, exact: true }).click();
      await expectToast(page, m.resetFailed);
      await page.getByRole("tab", { name: m.tabs.unset }).click();
      await page.getByRole("tabpanel", { name: m.tabs.unset }).getByRole("button", { name: m.fillAll, exact: true }).click();
      await expectToast(page, m.fillFailed);
    } finally {
      await ctx.close();
      expect((await root.put("/api/option/", { key: "PresetRatioSourceUrl", value: "" })).success).toBe(true);
    }
  });

  it("shows the sections and the editors in English", async () => {
    const m = MESSAGES.en.pricingEditor;
    const { ctx, page } = await newPage("en");
    try {
      await page.goto(`${server.url}/admin/settings`);
      await section(page, m.otherTitle).getByRole("button", { name: m.fetchPresets, exact: true }).waitFor();
      await section(page, m.otherTitle).scrollIntoViewIfNeeded();
      await shoot(page, "en", "pricing-other-ratios", false);
      await page.getByRole("tab", { name: m.tabs.visual }).click();
      const editor = page.getByRole("tabpanel", { name: m.tabs.visual });
      await editor.getByRole("button", { name: m.addModel, exact: true }).click();
      await dialog(page).getByLabel(m.columns.name, { exact: true }).fill("gpt-4o");
      await dialog(page).getByLabel(m.columns.ratio, { exact: true }).fill("1");
      await dialog(page).getByRole("button", { name: m.confirm, exact: true }).click();
      await dialog(page).getByText(m.errors.nameExists).waitFor();
      await shoot(page, "en", "pricing-add-duplicate", false);
      await dialog(page).getByRole("button", { name: m.cancel, exact: true }).click();
      await editor.scrollIntoViewIfNeeded();
      await shoot(page, "en", "pricing-visual-editor", false);
      await page.getByRole("tab", { name: m.tabs.unset }).click();
      await page.getByRole("tabpanel", { name: m.tabs.unset }).getByText("mystery-model", { exact: true }).waitFor();
      await shoot(page, "en", "pricing-unset-models", false);
      await page.getByRole("tab", { name: m.tabs.json }).click();
      await shoot(page, "en", "pricing-json", false);
      // the raw editors refuse text that does not parse, before anything is sent
      const json = page.getByRole("tabpanel", { name: m.tabs.json });
      await json.getByLabel(m.jsonLabels.ModelRatio).fill("{bad");
      await json.getByText(renderMessage("en", "option_invalid_json", { key: "ModelRatio" })).waitFor();
      await page.getByTestId("settings-save-bar").getByRole("button", { name: MESSAGES.en.settingsKit.save, exact: true }).click();
      await expectToast(page, MESSAGES.en.settingsKit.checkInput);
    } finally {
      await ctx.close();
    }
  });
});

describe("Models tab", () => {
  it.each(flowLocales(import.meta.url))("saves a Claude share and refuses 0.05 with the bound's message (%s)", async (locale) => {
    const m = MESSAGES[locale].modelsTab;
    const { ctx, page } = await newPage(locale);
    try {
      await page.goto(`${server.url}/admin/settings?tab=models`);
      const claude = section(page, m.claude);
      const share = claude.getByLabel(m.thinkingShare, { exact: true });
      await share.fill("0.05");
      const bound = renderMessage(locale, "option_out_of_range", { key: "claude.thinking_adapter_budget_tokens_percentage", min: 0.1, max: 1 });
      await claude.getByText(bound).waitFor();
      await page.getByTestId("settings-save-bar").getByRole("button", { name: MESSAGES[locale].settingsKit.save, exact: true }).click();
      await expectToast(page, MESSAGES[locale].settingsKit.checkInput);
      expect(await option("claude.thinking_adapter_budget_tokens_percentage")).not.toBe("0.05");
      await shoot(page, locale, "models-tab");
      await claude.scrollIntoViewIfNeeded();
      await shoot(page, locale, "models-claude", false);
      const value = locale === "zh" ? "0.5" : "0.7";
      await share.fill(value);
      await page.getByTestId("settings-save-bar").getByRole("button", { name: MESSAGES[locale].settingsKit.save, exact: true }).click();
      await expectToast(page, MESSAGES[locale].settingsKit.saved);
      await expect.poll(() => option("claude.thinking_adapter_budget_tokens_percentage")).toBe(value);
      await page.getByRole("heading", { name: MESSAGES[locale].modelMapping.title, exact: true }).scrollIntoViewIfNeeded();
      await shoot(page, locale, "models-mapping-table", false);
      // the server refuses the same value through plain HTTP with the same message
      const r = await root.put("/api/option/", { key: "claude.thinking_adapter_budget_tokens_percentage", value: "0.05" });
      expect(r.success).toBe(false);
      expect(r.message).toBe(renderMessage("en", "option_out_of_range", { key: "claude.thinking_adapter_budget_tokens_percentage", min: 0.1, max: 1 }));
    } finally {
      await ctx.close();
    }
  });

  it.for(flowLocales(import.meta.url))("model mapping dialog checks its rules (%s)", async (locale, testCtx) => {
    // the model mapping API comes from another branch (mapping-relay); without it the table
    // says it failed to load and offers no add button to press
    if ((await root.raw("GET", "/api/model_mapping/")).status === 404) return testCtx.skip();
    const m = MESSAGES[locale].modelMapping;
    const { ctx, page } = await newPage(locale);
    try {
      await page.goto(`${server.url}/admin/settings?tab=models`);
      const add = page.getByRole("button", { name: m.add, exact: true });
      await expect.poll(() => add.isEnabled()).toBe(true);
      await add.click();
      const d = dialog(page);
      await d.getByRole("button", { name: m.save, exact: true }).click();
      await d.getByText(renderMessage(locale, "mapping_virtual_name_required"), { exact: true }).waitFor();
      await d.getByLabel(m.virtualName, { exact: true }).fill(`smart-${locale}`);
      await d.getByRole("button", { name: m.save, exact: true }).click();
      await d.getByText(renderMessage(locale, "mapping_actual_models_required"), { exact: true }).waitFor();
      await d.getByRole("button", { name: m.pickModels }).click();
      const list = page.locator("[data-picker-list]");
      expect(await list.evaluate((el) => el.getBoundingClientRect().height)).toBe(400);
      await list.getByRole("option", { name: "gpt-4o", exact: true }).click();
      await page.keyboard.press("Escape");
      await d.getByRole("button", { name: m.addRow, exact: true }).click();
      await d.getByLabel(fmt(m.actualModel, { n: 2 }), { exact: true }).fill("gpt-4o");
      await d.getByRole("button", { name: m.save, exact: true }).click();
      await d.getByText(renderMessage(locale, "mapping_actual_model_repeated", { name: `smart-${locale}`, model: "gpt-4o" }), { exact: true }).waitFor();
      await d.getByLabel(fmt(m.actualModel, { n: 2 }), { exact: true }).fill("deepseek-chat");
      await d.getByLabel(fmt(m.priority, { n: 2 }), { exact: true }).fill("1.5");
      await d.getByRole("button", { name: m.save, exact: true }).click();
      await d.getByText(renderMessage(locale, "mapping_priorities_invalid"), { exact: true }).waitFor();
      await shoot(page, locale, "models-mapping-dialog", false);
      await d.getByLabel(fmt(m.priority, { n: 2 }), { exact: true }).fill("5");
      await d.getByRole("button", { name: m.save, exact: true }).click();
      await d.waitFor({ state: "detached" });
      await page.locator(`tr[data-virtual-model="smart-${locale}"]`).waitFor();
      const saved = await root.get<{ mapping: Record<string, Array<{ model: string; priorities: number }>> }>("/api/model_mapping/");
      expect(saved.data.mapping[`smart-${locale}`]).toEqual([
        { model: "gpt-4o", priorities: 0 },
        { model: "deepseek-chat", priorities: 5 },
      ]);
      // a second mapping of the same name is refused
      await add.click();
      await dialog(page).getByLabel(m.virtualName, { exact: true }).fill(`smart-${locale}`);
      await dialog(page)
        .getByLabel(fmt(m.actualModel, { n: 1 }), { exact: true })
        .fill("gpt-4o");
      await dialog(page).getByRole("button", { name: m.save, exact: true }).click();
      await dialog(page)
        .getByText(renderMessage(locale, "mapping_virtual_name_exists", { name: `smart-${locale}` }), { exact: true })
        .waitFor();
      await dialog(page).getByRole("button", { name: m.cancel, exact: true }).click();
      await shoot(page, locale, "models-mapping");
    } finally {
      await ctx.close();
    }
  });

  it("had no page errors", () => {
    expect(pageErrors).toEqual([]);
  });
});

describe("Other ratios: restore server defaults (root)", () => {
  it("asks first, restores the four price options, and says when it failed (en)", async () => {
    const m = MESSAGES.en.pricingEditor;
    expect((await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ "mine-only": 3 }) })).success).toBe(true);
    const { ctx, page } = await newPage("en");
    try {
      await page.goto(`${server.url}/admin/settings`);
      const other = section(page, m.otherTitle);
      await other.scrollIntoViewIfNeeded();
      // a failure first: the request is answered 500 in the browser, nothing is restored
      await page.route("**/api/option/rest_model_ratio", (r) => r.fulfill({ status: 500, body: "" }));
      await other.getByRole("button", { name: m.restoreDefaults, exact: true }).click();
      await dialog(page).getByText(m.restoreConfirm).waitFor();
      await dialog(page).getByRole("button", { name: m.restoreDefaults, exact: true }).click();
      await expectToast(page, m.restoreFailed);
      expect(await map("ModelRatio")).toEqual({ "mine-only": 3 });
      await page.unroute("**/api/option/rest_model_ratio");
      // cancelled: nothing happens
      await other.getByRole("button", { name: m.restoreDefaults, exact: true }).click();
      await dialog(page).getByRole("button", { name: MESSAGES.en.settingsKit.cancel, exact: true }).click();
      await dialog(page).waitFor({ state: "detached" });
      expect(await map("ModelRatio")).toEqual({ "mine-only": 3 });
      await other.getByRole("button", { name: m.restoreDefaults, exact: true }).click();
      await dialog(page).getByRole("button", { name: m.restoreDefaults, exact: true }).click();
      await expectToast(page, m.restored);
      expect(await map("ModelRatio")).toEqual(PRESET_RATIOS.ModelRatio);
      expect(await map("ModelPrice")).toEqual(PRESET_RATIOS.ModelPrice);
      await shoot(page, "en", "pricing-restore-defaults", false);
    } finally {
      await ctx.close();
    }
  });
});
