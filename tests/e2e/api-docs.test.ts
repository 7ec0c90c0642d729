// Browser test of the API reference (docs/api-reference.md, "The console page"): a user
// reaches /docs/api from the sidebar; it opens on the relay API; an operation shows a curl
// and an OpenAI Python SDK example with the site's base URL, each copied by its button; the
// console API stays one tab away. Screenshots in zh and en, light and dark.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startServer, type TestServer } from "../support/server";
import { seedUser, type SeededUser } from "../support/seed";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shooter, signIn, type Locale } from "./browser";

const shoot = shooter("api-docs");
let server: TestServer;
let browser: Browser;
let bob: SeededUser;

beforeAll(async () => {
  server = await startServer();
  await seedUser(server, { username: "root", role: 100 });
  bob = await seedUser(server, { username: "bob", role: 1 });
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedIn(locale: Locale): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  await signIn(page, server.url, bob.username, bob.password);
  return page;
}

describe.each(flowLocales(import.meta.url))("API reference (%s)", (locale) => {
  const t = MESSAGES[locale];
  it("is in the sidebar, opens on the relay API, and shows copyable examples with the base URL", async () => {
    const page = await signedIn(locale);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}/app/tokens`);
    await page.getByRole("complementary").getByRole("link", { name: t.shell.sidebar.apiDocs }).click();
    await page.waitForURL((u) => u.pathname === "/docs/api");
    expect(await page.getByRole("tab", { name: t.apiDocs.relayTab }).getAttribute("aria-selected")).toBe("true");

    const chat = page.getByTestId("api-operation").filter({ hasText: "/v1/chat/completions" }).first();
    await chat.locator("summary").first().click();
    const curl = chat.getByTestId("example-curl");
    const python = chat.getByTestId("example-python");
    await curl.waitFor();
    const curlText = (await curl.locator("pre").textContent()) ?? "";
    expect(curlText).toContain(`curl -X POST '${server.url}/v1/chat/completions'`);
    expect(curlText).toContain('"model": "gpt-4o-mini"');
    const pythonText = (await python.locator("pre").textContent()) ?? "";
    expect(pythonText).toContain(`base_url="${server.url}/v1"`);
    expect(pythonText).toContain("client.chat.completions.create(");

    await curl.getByRole("button", { name: fmt(t.apiDocs.copyExample, { lang: "curl" }) }).click();
    await expectToast(page, t.apiDocs.copied);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(curlText);
    await python.getByRole("button", { name: fmt(t.apiDocs.copyExample, { lang: t.apiDocs.python }) }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(pythonText);
    await shoot(page, locale, "api-docs-relay");

    // The console API, one tab away, with its access-token examples.
    await page.getByRole("tab", { name: t.apiDocs.consoleTab }).click();
    const self = page.getByTestId("api-operation").filter({ hasText: "/api/user/self" }).first();
    await self.locator("summary").first().click();
    expect(await self.getByTestId("example-curl").locator("pre").textContent()).toContain("New-Api-User: 1");
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
