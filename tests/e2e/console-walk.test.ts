// The console walk (docs/console-ui.md), in Chinese and in English, against the real built server on
// a fresh database: setup, login as root, create a user, promote / demote / disable /
// enable, log in as that user, settings, change password, logout; plus the session-expired
// path of the error catalogue, the theme and the language menu. Screenshots of every page
// in both languages and both themes go to test-results/screenshots/.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { renderMessage, type MessageKey } from "@/lib/i18n/server-messages";
import { startServer, type TestServer } from "../support/server";
import { expectToast, flowLocales, fmt, launch, MESSAGES, shoot } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const ROOT = { username: "root", password: "rootpass123" };
const CAROL = { username: "carol", password: "carolpass1" };
const BOB = { username: "bob", display: "Bob", password: "bobpass123" };
const ALICE = { username: "alice", display: "Alice", password: "alicepass1", newPassword: "alicepass2" };

async function login(page: Page, base: string, m: (typeof MESSAGES)["zh"], username: string, password: string) {
  await page.getByLabel(m.login.username, { exact: true }).fill(username);
  await page.getByLabel(m.login.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: m.login.submit, exact: true }).click();
}

// PUT /api/option/ from the page, as the logged-in root.
function setOption(page: Page, key: string, value: string): Promise<boolean> {
  return page.evaluate(
    async ([k, v]) => {
      const id = JSON.parse(localStorage.getItem("user")!).id;
      const r = await fetch("/api/option/", {
        method: "PUT",
        headers: { "content-type": "application/json", "New-Api-User": String(id) },
        body: JSON.stringify({ key: k, value: v }),
      });
      return (await r.json()).success as boolean;
    },
    [key, value],
  );
}

async function logout(page: Page, m: (typeof MESSAGES)["zh"]) {
  await page.getByRole("button", { name: m.shell.userMenu }).click();
  await page.getByRole("menuitem", { name: m.shell.logout }).click();
  await page.waitForURL((u) => u.pathname === "/login");
}

describe.each(flowLocales(import.meta.url))("console walk (%s)", (locale) => {
  const m = MESSAGES[locale];
  // the forms refuse with the server's message (docs/console-ui.md, "Forms")
  const sm = (key: MessageKey) => renderMessage(locale, key);
  let server: TestServer;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: "zh-CN" });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (msg) => {
      // Refused calls (401 after the session is cut, wrong password) are expected; scripts' errors are not.
      if (msg.type() === "error" && !/Failed to load resource/.test(msg.text())) pageErrors.push(msg.text());
    });
  });
  // A failing step leaves a picture of the page behind.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === "fail") await page.screenshot({ path: `test-results/failure-${locale}-${ctx.task.name.slice(0, 40)}.png`, fullPage: true });
  });
  afterAll(async () => {
    await page?.context().close();
    await server?.stop();
  });

  it("sets up the system", async () => {
    await page.goto(server.url + "/");
    await page.waitForURL((u) => u.pathname === "/setup");
    if (locale === "en") {
      // The language menu: sets NEXT_LOCALE and i18nextLng, then refreshes.
      await page.getByRole("button", { name: MESSAGES.zh.shell.language }).click();
      await page.getByRole("menuitem", { name: "English" }).click();
      await page.getByRole("heading", { name: m.setup.title, level: 1 }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem("i18nextLng"))).toBe("en");
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("en-US");
    }
    await page.getByRole("heading", { name: m.setup.title, level: 1 }).waitFor();
    await page.getByText(m.setup.sqliteTitle).waitFor();
    await page.getByRole("button", { name: m.setup.modeExplain }).click();
    await page.getByRole("dialog").getByText(m.setup.modeDescription.self).waitFor();
    await shoot(page, locale, "setup-mode-dialog", false);
    await page.getByRole("button", { name: m.setup.understood }).click();
    await shoot(page, locale, "setup");

    await page.getByLabel(m.setup.username, { exact: true }).fill(ROOT.username);
    await page.getByLabel(m.setup.password, { exact: true }).fill("short");
    await page.getByLabel(m.setup.confirmPassword, { exact: true }).fill("short");
    await page.getByRole("button", { name: m.setup.initialize }).click();
    await expectToast(page, sm("setup_password_short"));
    await page.getByLabel(m.setup.password, { exact: true }).fill(ROOT.password);
    await page.getByLabel(m.setup.confirmPassword, { exact: true }).fill(ROOT.password + "x");
    await page.getByRole("button", { name: m.setup.initialize }).click();
    await expectToast(page, sm("setup_password_mismatch"));
    await page.getByLabel(m.setup.confirmPassword, { exact: true }).fill(ROOT.password);
    await page.getByRole("button", { name: m.setup.initialize }).click();
    // Success, then the home page 1.5 s later, the new root signed in (first steps:
    // tests/e2e/first-steps.test.ts); signed out for the public pages.
    await page.waitForURL((u) => u.pathname === "/", { timeout: 20_000 });
    await page.getByRole("heading", { name: m.home.firstSteps.title }).waitFor();
    await logout(page, m);
    await page.goto(server.url + "/");
  });

  it("shows the public pages", async () => {
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    expect(await page.getByRole("complementary").count()).toBe(0); // no sidebar on home
    await shoot(page, locale, "home");
    await page.getByRole("link", { name: m.shell.nav.about, exact: true }).click();
    await page.getByRole("heading", { name: m.about.title, level: 1 }).waitFor();
    await shoot(page, locale, "about");
    await page.goto(server.url + "/no/such/page");
    await page.getByRole("heading", { name: m.notFound.title }).waitFor();
    await shoot(page, locale, "not-found");
    await page.goto(server.url + "/register");
    await page.getByRole("heading", { name: m.register.title, level: 1 }).waitFor();
    await page.getByLabel(m.register.password, { exact: true }).fill("1234567");
    await page.getByLabel(m.register.username, { exact: true }).fill("bob");
    await page.getByRole("button", { name: m.register.submit, exact: true }).click();
    await expectToast(page, sm("password_too_short"));
    await shoot(page, locale, "register");
  });

  it("remembers the dark theme across a reload", async () => {
    await page.getByRole("button", { name: m.shell.switchToDark }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await page.getByRole("button", { name: m.shell.switchToLight }).click();
    expect(await page.evaluate(() => localStorage.getItem("theme-mode"))).toBe("light");
  });

  it("logs in as root and returns to the page asked for", async () => {
    await page.goto(server.url + "/admin/users");
    await page.waitForURL((u) => u.pathname === "/login" && u.searchParams.get("returnTo") === "/admin/users");
    await page.getByRole("button", { name: m.login.submit, exact: true }).click();
    await expectToast(page, sm("login_required_fields"));
    await shoot(page, locale, "login");
    await login(page, server.url, m, ROOT.username, "wrong-password");
    await expectToast(page, fmt(m.errors.prefixed, { message: "" }).trim());
    await login(page, server.url, m, ROOT.username, ROOT.password);
    await page.waitForURL((u) => u.pathname === "/admin/users");
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null"));
    expect(stored).toMatchObject({ username: "root", role: 100 });
    await page.getByTestId("user-row-root").waitFor();
  });

  it("creates a user and manages it", async () => {
    const add = page.getByRole("button", { name: m.users.addUser });
    await add.click();
    const drawer = page.getByRole("dialog");
    await drawer.getByRole("button", { name: m.users.add.submit }).click();
    await expectToast(page, sm("username_password_empty"));
    await drawer.getByLabel(m.users.add.username, { exact: true }).fill(ALICE.username);
    await drawer.getByLabel(m.users.add.displayName, { exact: true }).fill(ALICE.display);
    await drawer.getByLabel(m.users.add.password, { exact: true }).fill(ALICE.password);
    await shoot(page, locale, "users-add-drawer", false);
    await drawer.getByRole("button", { name: m.users.add.submit }).click();
    await expectToast(page, m.users.add.created);
    const row = page.getByTestId(`user-row-${ALICE.username}`);
    await row.waitFor();
    await row.getByText(m.users.role.user, { exact: true }).waitFor();
    await row.getByText(m.users.status.enabled, { exact: true }).waitFor();

    // each action asks first (operator-console.test.ts checks the dialog and cancelling)
    const act = async (key: "promote" | "demote" | "disable" | "enable") => {
      await row.getByRole("button", { name: fmt(m.users.actions[`${key}User`], { name: ALICE.display }) }).click();
      await page.getByRole("dialog").getByRole("button", { name: m.users.actions[key], exact: true }).click();
    };
    await act("promote");
    await row.getByText(m.users.role.admin, { exact: true }).waitFor();
    await act("demote");
    await row.getByText(m.users.role.user, { exact: true }).waitFor();
    await act("disable");
    await row.getByText(m.users.status.banned, { exact: true }).waitFor();
    await act("enable");
    await row.getByText(m.users.status.enabled, { exact: true }).waitFor();
    await shoot(page, locale, "users");

    // A deregistered row says so and offers no actions.
    await add.click();
    await drawer.getByLabel(m.users.add.username, { exact: true }).fill(BOB.username);
    await drawer.getByLabel(m.users.add.displayName, { exact: true }).fill(BOB.display);
    await drawer.getByLabel(m.users.add.password, { exact: true }).fill(BOB.password);
    await drawer.getByRole("button", { name: m.users.add.submit }).click();
    const bob = page.getByTestId(`user-row-${BOB.username}`);
    await bob.getByRole("button", { name: fmt(m.users.actions.deleteUser, { name: BOB.display }) }).click();
    await page.getByRole("dialog").getByRole("button", { name: m.users.actions.delete }).click();
    await bob.getByText(m.users.status.deregistered, { exact: true }).waitFor();
    expect(await bob.getByRole("button").count()).toBe(0);

    // Daily check-in and the inviter's reward are options of the settings page (another
    // screen); set them directly.
    expect(await setOption(page, "CheckInEnabled", "true")).toBe(true);
    expect(await setOption(page, "QuotaForInviter", "500000")).toBe(true);

    // The edit drawer: password blank, group and quota editable for another user.
    await row.getByRole("button", { name: fmt(m.users.actions.editUser, { name: ALICE.display }) }).click();
    const edit = page.getByRole("dialog");
    expect(await edit.getByLabel(m.userEditor.password, { exact: true }).inputValue()).toBe("");
    await edit.getByLabel(m.userEditor.quota, { exact: true }).fill("2"); // dollars: 1000000 units
    await edit.getByLabel(m.userEditor.remark, { exact: true }).fill("e2e");
    await shoot(page, locale, "users-edit-drawer", false);
    await edit.getByRole("button", { name: m.userEditor.save }).click();
    await page
      .getByRole("dialog", { name: fmt(m.userEditor.quotaTitle, { name: ALICE.display }) })
      .getByRole("button", { name: m.userEditor.save })
      .click();
    await expectToast(page, fmt(m.userEditor.quotaDone, { name: ALICE.display, to: "$2.00" }));
    await row.getByText("e2e", { exact: true }).waitFor();

    const id = (await row.locator("td").first().innerText()).trim();
    await page.goto(`${server.url}/user/edit/${id}`);
    await page.getByRole("heading", { name: fmt(m.userEditor.title, { id }), level: 1 }).waitFor();
    await page.getByLabel(m.userEditor.group, { exact: true }).waitFor();
    await shoot(page, locale, "user-edit-id");
    await page.goto(`${server.url}/user/edit`);
    await page.getByRole("heading", { name: m.userEditor.titleSelf, level: 1 }).waitFor();
    expect(await page.getByLabel(m.userEditor.group, { exact: true }).count()).toBe(0);
    await shoot(page, locale, "user-edit-self");
    await logout(page, m);
  });

  it("logs in as the new user and uses the personal settings", async () => {
    await login(page, server.url, m, ALICE.username, ALICE.password);
    await page.waitForURL((u) => u.pathname === "/app/tokens");
    // No admin group for a normal user.
    expect(await page.getByRole("link", { name: m.shell.sidebar.users }).count()).toBe(0);
    await page.getByRole("link", { name: m.shell.sidebar.me }).click();
    await page.getByRole("heading", { name: m.me.title, level: 1 }).waitFor();
    await page.getByText("$2.00").first().waitFor(); // the 1000000 units root gave
    await shoot(page, locale, "me");

    await page.getByRole("button", { name: m.me.checkIn.button }).click();
    await expectToast(page, m.me.checkIn.won.split("{quota}")[0].trim());
    await page.getByRole("button", { name: m.me.checkIn.already }).waitFor();
    expect(await page.getByRole("button", { name: m.me.checkIn.already }).isDisabled()).toBe(true);

    await page.getByRole("button", { name: m.me.account.tokenButton }).click();
    await expectToast(page, m.me.account.tokenCopied);
    const token = await page.getByRole("textbox", { name: m.me.account.tokenLabel }).inputValue();
    expect(token.length).toBeGreaterThan(10);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    // Someone registers through alice's invitation link (another browser); alice earns
    // the inviter's reward and moves it to her balance.
    const link = await page.getByRole("textbox", { name: m.me.invite.link }).inputValue();
    expect(link).toMatch(/\/register\?aff=\w+$/);
    const visitor = await browser.newContext({ locale: "zh-CN" });
    await visitor.addCookies([{ name: "NEXT_LOCALE", value: locale, url: server.url }]);
    const other = await visitor.newPage();
    await other.goto(link);
    await other.getByLabel(m.register.username, { exact: true }).fill(CAROL.username);
    await other.getByLabel(m.register.password, { exact: true }).fill(CAROL.password);
    await other.getByLabel(m.register.password2, { exact: true }).fill(CAROL.password + "x");
    await other.getByRole("button", { name: m.register.submit, exact: true }).click();
    await expectToast(other, sm("passwords_differ"));
    await other.getByLabel(m.register.password2, { exact: true }).fill(CAROL.password);
    await other.getByRole("button", { name: m.register.submit, exact: true }).click();
    await other.waitForURL((u) => u.pathname === "/login");
    await visitor.close();
    await page.reload();
    await page.getByRole("button", { name: m.me.invite.transferButton }).click();
    const transfer = page.getByRole("dialog");
    // typed in dollars (docs/console-ui.md, "Quota display"): $0.50 is under the minimum
    await transfer.getByLabel(m.me.invite.amount, { exact: true }).fill("0.5");
    await transfer.getByRole("button", { name: m.me.invite.transfer, exact: true }).click();
    await expectToast(page, fmt(m.validation.transferMin, { min: "$1.00" }));
    await transfer.getByLabel(m.me.invite.amount, { exact: true }).fill("1");
    await shoot(page, locale, "me-transfer", false);
    await transfer.getByRole("button", { name: m.me.invite.transfer, exact: true }).click();
    await page.locator('[data-toast="success"]').first().waitFor();
    // The button turns disabled once the refreshed invitation data arrives.
    await expect.poll(() => page.getByRole("button", { name: m.me.invite.transferButton }).isDisabled()).toBe(true);

    const save = page.getByRole("button", { name: m.me.settings.save });
    await save.click();
    await expectToast(page, m.me.settings.nothingChanged);
    await page.getByRole("tab", { name: m.me.settings.tabOther }).click();
    await page.getByRole("switch", { name: m.me.settings.showIp }).click();
    await save.click();
    await page.locator('[data-toast="success"]').first().waitFor();
    await page.waitForTimeout(300);
    await save.click();
    await expectToast(page, m.me.settings.nothingChanged);
    await page.reload();
    await page.getByRole("tab", { name: m.me.settings.tabOther }).click();
    expect(await page.getByRole("switch", { name: m.me.settings.showIp }).getAttribute("aria-checked")).toBe("true");

    // Webhook must be https.
    await page.getByRole("tab", { name: m.me.settings.tabNotify }).click();
    await page.getByRole("radio", { name: m.me.settings.notifyWebhook }).check();
    await page.getByLabel(m.me.settings.webhookUrl, { exact: true }).fill("http://hook.example");
    await save.click();
    await expectToast(page, sm("webhook_https_only"));
    await page.getByRole("radio", { name: m.me.settings.notifyEmail }).check();

    await page.getByRole("button", { name: m.me.account.changePassword }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(m.me.account.originalPassword, { exact: true }).fill(ALICE.password);
    await dialog.getByLabel(m.me.account.newPassword, { exact: true }).fill(ALICE.newPassword);
    await dialog.getByLabel(m.me.account.confirmPassword, { exact: true }).fill(ALICE.newPassword + "x");
    await shoot(page, locale, "me-change-password", false);
    await dialog.getByRole("button", { name: m.me.account.confirm }).click();
    await expectToast(page, sm("passwords_differ"));
    await dialog.getByLabel(m.me.account.confirmPassword, { exact: true }).fill(ALICE.newPassword);
    await dialog.getByRole("button", { name: m.me.account.confirm }).click();
    await expectToast(page, m.me.account.passwordChanged);
    await logout(page, m);
  });

  it("logs in with the new password; a lost session goes to the expired login", async () => {
    await login(page, server.url, m, ALICE.username, ALICE.newPassword);
    await page.waitForURL((u) => u.pathname === "/app/tokens");
    // The page's own calls must be answered before the session is cut. (The inbox bell's
    // unread-count poll answers 401 too once it is cut, which signs out the same way.)
    const calls = ["/api/user/self", "/api/user/models", "/api/user/aff"].map((p) => page.waitForResponse((r) => new URL(r.url()).pathname === p));
    await page.goto(server.url + "/app/me");
    await Promise.all(calls);
    await page.getByRole("button", { name: m.me.settings.save }).waitFor();
    // The session ends behind the page's back: the next call answers 401.
    await page.context().clearCookies({ name: "session" });
    await page.getByRole("tab", { name: m.me.settings.tabOther }).click();
    await page.getByRole("switch", { name: m.me.settings.showIp }).click();
    await page.getByRole("button", { name: m.me.settings.save }).click();
    await page.waitForURL((u) => u.pathname === "/login" && u.searchParams.get("expired") === "true" && u.searchParams.get("returnTo") === "/app/me");
    await page.getByText(m.login.expired).first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem("user"))).toBeNull();
    await shoot(page, locale, "login-expired");
  });

  it("deletes the account after the exact username is typed", async () => {
    await login(page, server.url, m, ALICE.username, ALICE.newPassword);
    await page.waitForURL((u) => u.pathname === "/app/me");
    await page.getByRole("button", { name: m.me.account.deleteAccount }).click();
    const dialog = page.getByRole("dialog");
    const confirmField = dialog.getByLabel(fmt(m.me.account.typeUsername, { username: ALICE.username }), { exact: true });
    await confirmField.fill(ALICE.username.toUpperCase());
    await dialog.getByRole("button", { name: m.me.account.deleteConfirm }).click();
    await expectToast(page, m.validation.deleteConfirmMismatch);
    await confirmField.fill(ALICE.username);
    await dialog.getByRole("button", { name: m.me.account.deleteConfirm }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    await login(page, server.url, m, ALICE.username, ALICE.newPassword);
    await page.locator('[data-toast="error"]').first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
  });

  it("raised no script errors on any page", () => {
    expect(pageErrors).toEqual([]);
  });
});
