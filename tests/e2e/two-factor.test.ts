// Two-factor authentication and passkeys in Chromium (docs/two-factor.md), in zh and en:
// /app/me sets up TOTP (the QR code and the key shown, the first code computed with otplib,
// the ten backup codes shown once), adds a passkey held by the DevTools virtual authenticator
// (CDP WebAuthn.enable + WebAuthn.addVirtualAuthenticator), confirms a sensitive action (a
// new access token) with the passkey, then the login page asks for the code after the
// password, and signs in with the passkey alone, also with the human check on (the passkey
// button sends the Turnstile widget's token). Screenshots of the security card, the setup
// and backup-code dialogs and the login step, light and dark, under
// test-results/screenshots/two-factor.
import path from "node:path";
import { generate } from "otplib";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTurnstileMock } from "../support/oauth-mocks";
import { startServer, type TestServer } from "../support/server";
import { seedUser, type SeededUser } from "../support/seed";
import { flowLocales, fmt, launch, MESSAGES, SCREENSHOTS, shooter, stubTurnstile, type Locale } from "./browser";

const DIR = path.join(process.cwd(), "test-results", "screenshots", "two-factor");
const shoot = shooter(DIR);
let server: TestServer;
let site: string; // the server under the name "localhost": WebAuthn refuses an IP address as the RP ID
let browser: Browser;
let root: SeededUser;
let verifier: Awaited<ReturnType<typeof startTurnstileMock>>;
const pageErrors: string[] = [];

async function setOption(key: string, value: string) {
  const r = await root.client.put("/api/option/", { key, value });
  expect(r.success, r.message).toBe(true);
}

beforeAll(async () => {
  verifier = await startTurnstileMock("ts-secret");
  server = await startServer({ env: { TURNSTILE_VERIFY_URL: verifier.url } });
  site = server.url.replace("127.0.0.1", "localhost");
  browser = await launch();
  root = await seedUser(server, { username: "root", role: 100 });
  for (const [key, value] of Object.entries({
    ServerAddress: site,
    PasskeyLoginEnabled: "true",
    TurnstileSiteKey: "site-key",
    TurnstileSecretKey: "ts-secret",
  })) {
    await setOption(key, value);
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await verifier?.close();
});

async function open(user: SeededUser, locale: Locale): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: locale === "zh" ? "zh-CN" : "en-US" });
  await ctx.addCookies([
    { name: "NEXT_LOCALE", value: locale, url: site },
    { name: "session", value: user.client.cookie.replace(/^session=/, ""), url: site },
  ]);
  const page = await ctx.newPage();
  page.setDefaultTimeout(30_000);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return { ctx, page };
}

// One element in light and dark.
async function shootCard(page: Page, card: Locator, locale: Locale, name: string) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    await page.waitForTimeout(150);
    if (SCREENSHOTS) await card.screenshot({ path: path.join(DIR, `${name}-${locale}-${theme}.png`) });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}

const totpAt = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset });

describe.each(flowLocales(import.meta.url))("two-factor authentication and passkeys (%s)", (locale) => {
  const m = MESSAGES[locale];
  const t = m.twofa;

  it("sets up TOTP and a passkey on /app/me, then signs in with the code and with the passkey", async () => {
    const user = await seedUser(server, { username: `tf-${locale}` });
    const { ctx, page } = await open(user, locale);
    try {
      // The virtual authenticator of this page: a platform authenticator with user verification.
      const cdp = await ctx.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });

      await page.goto(`${site}/app/me`);
      const card = page.locator("section").filter({ has: page.getByRole("heading", { name: t.title, exact: true }) });
      await card.getByRole("button", { name: t.setup, exact: true }).waitFor();
      await expect.poll(() => card.getByText(t.noPasskeys).count()).toBe(1);
      await shootCard(page, card, locale, "security-card-off");

      // A passkey first (no second factor yet, so no question), held by the virtual authenticator.
      await card.getByRole("button", { name: t.addPasskey }).click();
      await page.getByRole("dialog").getByLabel(t.passkeyName).fill(`Laptop ${locale}`);
      await page.getByRole("dialog").getByRole("button", { name: t.continue }).click();
      await page.locator("[data-toast]").filter({ hasText: t.passkeyAdded }).first().waitFor();
      await card.getByText(`Laptop ${locale}`).waitFor();
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0].isResidentCredential).toBe(true);

      // TOTP setup now needs the existing factor: the passkey confirms it.
      await card.getByRole("button", { name: t.setup, exact: true }).click();
      const fresh = page.getByRole("dialog", { name: t.freshTitle });
      await fresh.waitFor();
      await shoot(page, locale, "fresh-factor-passkey", false);
      await fresh.getByRole("button", { name: t.usePasskey }).click();

      // Setup: the QR code and the key; a wrong code is refused with the server's message.
      const dialog = page.getByRole("dialog", { name: t.setupTitle });
      await dialog.getByRole("img", { name: t.qrAlt }).waitFor();
      const secret = (await dialog.locator("code").textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await shoot(page, locale, "setup-dialog", false);
      const right = await totpAt(secret);
      await dialog.getByLabel(t.firstCode).fill(right === "000000" ? "111111" : "000000");
      await dialog.getByRole("button", { name: t.enable, exact: true }).click();
      await page
        .locator("[data-toast]")
        .filter({ hasText: locale === "zh" ? "验证码错误或已使用" : "The code is wrong or has already been used" })
        .first()
        .waitFor();
      await dialog.getByLabel(t.firstCode).fill(right);
      await dialog.getByRole("button", { name: t.enable, exact: true }).click();

      // The ten backup codes, once.
      const codes = page.getByRole("dialog").getByRole("list", { name: t.backupTitle }).getByRole("listitem");
      await expect.poll(() => codes.count()).toBe(10);
      const backup = await codes.allTextContents();
      for (const c of backup) expect(c).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
      await shoot(page, locale, "backup-codes", false);
      await page.getByRole("button", { name: t.saved }).click();
      await card.getByText(fmt(t.backupLeft, { count: 10 })).waitFor();
      await page.mouse.move(0, 0);
      await shootCard(page, card, locale, "security-card-on");

      // A sensitive action once the fresh proof is gone: a backup code in the dialog gives it.
      await ctx.clearCookies({ name: "twofa_fresh" });
      await page.getByRole("button", { name: m.me.account.tokenButton }).click();
      await fresh.waitFor();
      await fresh.getByLabel(t.codeLabel).fill(backup[0]);
      await shoot(page, locale, "fresh-factor-code", false);
      await fresh.getByRole("button", { name: t.verify }).click();
      await expect.poll(() => page.getByLabel(m.me.account.tokenLabel).inputValue()).toMatch(/^[A-Za-z0-9]{32}$/);

      // Signed out: the password, then the code (the setup's step is used, so the next one).
      // off the console page first: its own requests, refused once the cookies are gone, would
      // send it to /login by themselves and abort this test's navigation
      await page.evaluate(() => localStorage.removeItem("user"));
      await page.goto("about:blank");
      await ctx.clearCookies();
      await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: site }]);
      await page.goto(`${site}/login`);
      await page.getByLabel(m.login.username).fill(user.username);
      await page.getByLabel(m.login.password, { exact: true }).fill(user.password);
      await page.getByRole("button", { name: m.login.submit, exact: true }).click();
      const step = page.getByRole("form", { name: t.loginStepTitle });
      await step.waitFor();
      expect((await ctx.cookies(site)).some((c) => c.name === "session")).toBe(false);
      await step.getByLabel(t.codeLabel).fill("12345");
      await step.getByRole("button", { name: t.verify }).click();
      await page.locator("[data-toast]").filter({ hasText: t.codeFormat }).first().waitFor();
      await step.getByLabel(t.codeLabel).fill("");
      await page.mouse.move(0, 0);
      await shoot(page, locale, "login-2fa-step");
      await step.getByLabel(t.codeLabel).fill(await totpAt(secret, 30));
      await step.getByRole("button", { name: t.verify }).click();
      await page.waitForURL((u) => u.pathname === "/app/tokens");
      expect((await ctx.cookies(site)).some((c) => c.name === "session")).toBe(true);

      // Signed out again: the passkey alone signs in.
      // off the console page first: its own requests, refused once the cookies are gone, would
      // send it to /login by themselves and abort this test's navigation
      await page.evaluate(() => localStorage.removeItem("user"));
      await page.goto("about:blank");
      await ctx.clearCookies();
      await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: site }]);
      await page.goto(`${site}/login`);
      await page.getByRole("button", { name: t.passkeyLogin }).click();
      await page.waitForURL((u) => u.pathname === "/app/tokens");
      await page.goto(`${site}/app/me`);
      await card.getByText(`Laptop ${locale}`).waitFor();
      await expect.poll(() => card.getByText(fmt(t.lastUsed, { time: "" }).trim(), { exact: false }).count()).toBeGreaterThan(0);

      // With the human check on, the passkey button sends the widget's token with its begin
      // call (the widget's stand-in: stubTurnstile).
      await setOption("TurnstileCheckEnabled", "true");
      try {
        await stubTurnstile(page);
        await page.evaluate(() => localStorage.removeItem("user"));
        await page.goto("about:blank");
        await ctx.clearCookies();
        await ctx.addCookies([{ name: "NEXT_LOCALE", value: locale, url: site }]);
        const before = verifier.calls.length;
        await page.goto(`${site}/login`);
        await page.getByTestId("turnstile").waitFor();
        await page.waitForTimeout(300);
        await page.getByRole("button", { name: t.passkeyLogin }).click();
        await page.waitForURL((u) => u.pathname === "/app/tokens");
        expect(verifier.calls.slice(before).map((c) => c.response)).toEqual(["pass"]);
      } finally {
        await setOption("TurnstileCheckEnabled", "false");
      }

      // The passkey removed: the fresh factor is asked first (the passkey itself answers it),
      // and the removal is among the user's security events (the audit log).
      await page.goto(`${site}/app/me`);
      await card.getByRole("button", { name: fmt(t.removePasskeyNamed, { name: `Laptop ${locale}` }) }).click();
      const freshAgain = page.getByRole("dialog", { name: t.freshTitle });
      await freshAgain.waitFor();
      await freshAgain.getByRole("button", { name: t.usePasskey }).click();
      await page.locator("[data-toast]").filter({ hasText: t.passkeyRemoved }).first().waitFor();
      await expect.poll(() => card.getByText(`Laptop ${locale}`).count()).toBe(0);
      const events = await page.evaluate(async () => {
        const id = (JSON.parse(localStorage.getItem("user") ?? "{}") as { id?: number }).id;
        const r = await fetch("/api/audit/self?p=1&page_size=50", { headers: { "New-Api-User": String(id) } });
        return ((await r.json()) as { data: { items: Array<{ action: string }> } }).data.items.map((e) => e.action);
      });
      expect(events).toContain("passkey_remove");
      expect(events).toContain("passkey_add");
      expect(pageErrors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
