// Browser test of the admin permission sets (docs/permissions.md), in zh and en, light and dark:
// the root takes "test, enable, disable" from an admin in the user editor's checklist; the
// admin's channel list then offers neither those buttons nor "Show key" (not in the default
// set); granted channels:reveal, the row menu offers "Show key" and its dialog shows the key.
// Without billing:write the redemption rows have no buttons; without channels:write /channel/add
// shows the console's "insufficient permission" line instead of the form.
// Screenshots go to test-results/screenshots/permissions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { DEFAULT_ADMIN_PERMISSIONS } from "@/lib/auth/permissions";
import type { ApiClient } from "../support/client";
import { makeUser, ROOT_PASSWORD, setupRoot } from "../support/accounts";
import { startServer, type TestServer } from "../support/server";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shooter, signIn, type Locale } from "./browser";

let server: TestServer;
let browser: Browser;
let root: ApiClient;
let owner: { id: number; client: ApiClient };
let ownerKey = "";
const shoot = shooter("permissions");
const pageErrors: string[] = [];

async function loggedIn(locale: Locale, username: string, password: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(30_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await signIn(page, server.url, username, password);
  return { ctx, page };
}

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
  root = await setupRoot(server);
  const c = await root.post("/api/channel/", { type: 1, name: "perm-e2e", key: "sk-e2e-shown-key", models: "gpt-4o", base_url: "http://127.0.0.1:9" });
  expect(c.success, c.message).toBe(true);
  const code = await root.post("/api/redemption/", { name: "perm-code", quota: 1000 });
  expect(code.success, code.message).toBe(true);
  // a user with a token, whose list an admin reads with tokens:read
  owner = await makeUser(server, root, "tok-owner");
  const tok = await owner.client.post<{ key: string }[]>("/api/token/", { name: "owner-key", unlimited_quota: true });
  expect(tok.success, tok.message).toBe(true);
  const tokenId = (await owner.client.get<{ items: { id: number }[] }>("/api/token/?p=1&page_size=10")).data.items[0]!.id;
  ownerKey = (await owner.client.post<{ key: string }>(`/api/token/${tokenId}/key`)).data.key;
  expect(ownerKey.length).toBeGreaterThan(20);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe.each(flowLocales(import.meta.url))("admin permissions (%s)", (locale) => {
  const m = MESSAGES[locale];
  const p = m.permissions;
  const ch = m.channels;
  const username = `adm-${locale}`;

  it("the root narrows an admin in the user editor; the admin's channel list follows; a granted reveal shows the key", async () => {
    const { id } = await makeUser(server, root, username, 10, "admin-pass-1");
    const rootSide = await loggedIn(locale, "root", ROOT_PASSWORD);
    try {
      const page = rootSide.page;
      await page.goto(`${server.url}/user/edit/${id}`);
      const section = page.getByRole("region", { name: p.title, exact: true });
      await section.waitFor();
      const operate = section.getByRole("checkbox", { name: p.levels.channels_operate });
      const reveal = section.getByRole("checkbox", { name: p.levels.channels_reveal });
      expect(await operate.isChecked()).toBe(true);
      expect(await reveal.isChecked()).toBe(false);
      await section.getByText(p.defaultSet, { exact: true }).waitFor();
      await operate.uncheck();
      await section.getByText(p.customSet, { exact: true }).waitFor();
      await section.getByRole("button", { name: p.save, exact: true }).click();
      await expectToast(page, p.saved);
      await section.scrollIntoViewIfNeeded();
      await shoot(page, locale, "permission-editor");
    } finally {
      await rootSide.ctx.close();
    }
    const saved = await root.get<{ permissions: string[] }>(`/api/user/${id}/permissions`);
    expect(saved.data.permissions).toEqual(DEFAULT_ADMIN_PERMISSIONS.filter((x) => x !== "channels:operate"));

    const adminSide = await loggedIn(locale, username, "admin-pass-1");
    try {
      const page = adminSide.page;
      await page.goto(`${server.url}/admin/channels`);
      const row = page.getByTestId(/^channel-row-/).filter({ hasText: "perm-e2e" });
      await row.waitFor();
      // neither test nor disable, and no "Show key" in the row menu
      expect(await row.getByRole("button", { name: fmt(ch.testChannel, { name: "perm-e2e" }) }).count()).toBe(0);
      expect(await row.getByRole("button", { name: fmt(ch.disableChannel, { name: "perm-e2e" }) }).count()).toBe(0);
      await row.getByRole("button", { name: fmt(ch.moreFor, { name: "perm-e2e" }) }).click();
      await page.getByRole("menuitem", { name: ch.actions.copy }).waitFor();
      expect(await page.getByRole("menuitem", { name: ch.actions.revealKey }).count()).toBe(0);
      await shoot(page, locale, "channels-without-reveal", false);
      await page.keyboard.press("Escape");

      // granted channels:reveal (and operate back): at the next page load
      const r = await root.put(`/api/user/${id}/permissions`, { permissions: [...DEFAULT_ADMIN_PERMISSIONS, "channels:reveal"] });
      expect(r.success, r.message).toBe(true);
      await page.reload();
      await row.waitFor();
      await row.getByRole("button", { name: fmt(ch.testChannel, { name: "perm-e2e" }) }).waitFor();
      await row.getByRole("button", { name: fmt(ch.moreFor, { name: "perm-e2e" }) }).click();
      await page.getByRole("menuitem", { name: ch.actions.revealKey }).click();
      const dialog = page.getByRole("dialog", { name: fmt(ch.revealKeyTitle, { name: "perm-e2e" }) });
      await expect.poll(() => dialog.getByLabel(ch.revealKeyLabel).inputValue()).toBe("sk-e2e-shown-key");
      await shoot(page, locale, "channel-key-dialog", false);

      // without billing:write and channels:write: no buttons on a code's row, /channel/add denied
      const narrowed = DEFAULT_ADMIN_PERMISSIONS.filter((x) => x !== "billing:write" && x !== "channels:write");
      const n = await root.put(`/api/user/${id}/permissions`, { permissions: narrowed });
      expect(n.success, n.message).toBe(true);
      await page.goto(`${server.url}/admin/coupons`);
      const code = page.getByTestId(/^redemption-row-/).filter({ hasText: "perm-code" });
      await code.waitFor();
      expect(await code.getByRole("button").count()).toBe(0);
      await page.goto(`${server.url}/channel/add`);
      await page.getByRole("alert").filter({ hasText: m.errors.forbidden }).waitFor();
      expect(await page.getByRole("link", { name: ch.editor.back, exact: true }).count()).toBe(0);
      await shoot(page, locale, "channel-add-denied", false);

      // another user's tokens: no list without tokens:read (the default), the list with it, keys masked
      await page.goto(`${server.url}/user/edit/${owner.id}`);
      await page.getByRole("heading", { name: m.userEditor.bindings }).waitFor();
      expect(await page.getByTestId("user-tokens").count()).toBe(0);
      const g = await root.put(`/api/user/${id}/permissions`, { permissions: [...DEFAULT_ADMIN_PERMISSIONS, "tokens:read"] });
      expect(g.success, g.message).toBe(true);
      await page.reload();
      const tokens = page.getByTestId("user-tokens");
      await tokens.getByRole("cell", { name: "owner-key", exact: true }).waitFor();
      const shown = await tokens.locator("code").first().textContent();
      expect(shown).toContain("*");
      expect(shown).not.toContain(ownerKey.replace(/^sk-/, ""));
      await tokens.scrollIntoViewIfNeeded();
      await shoot(page, locale, "user-tokens", false);
    } finally {
      await adminSide.ctx.close();
    }
    expect(pageErrors).toEqual([]);
  }, 90_000);
});
