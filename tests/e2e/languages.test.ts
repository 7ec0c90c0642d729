// The console in its eight languages (docs/i18n.md), against one built server and one browser.
// For each language: the first visit follows the browser's language; the language menu switches
// away (remembered over the browser's language across a reload) and back; the login page, the
// dashboard, the wallet, the tokens, the channels and every settings tab show no raw message
// key and no phrase left in another language (in zh, zh-TW, ja and ru no English phrase at
// all); a wrong password is refused in the language; the layouts hold at 1440 px and 390 px
// (no sideways scrolling of the document); and the dashboard, the settings page and the token
// drawer are photographed, light and dark (test-results/screenshots/languages/).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ROOT_PASSWORD, setupRoot } from "../support/accounts";
import { startServer, type TestServer } from "../support/server";
import { expectToast, launch, MESSAGES, shooter } from "./browser";
import { LOCALE_NAMES, LOCALES, LOCALE_TAGS, type Locale } from "@/lib/i18n/locale";
import { renderMessage } from "@/lib/i18n/server-messages";
// @ts-expect-error a plain ES module of the repository's scripts (scripts/i18n-check.mjs)
import { flatten } from "../../scripts/i18n-check.mjs";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const SETTINGS_TABS = ["operation", "ratelimit", "models", "system", "other"] as const;
const PAGES = ["/app/dashboard", "/app/wallet", "/app/tokens", "/admin/channels", ...SETTINGS_TABS.map((tab) => `/admin/settings?tab=${tab}`)];
const PHONE_PAGES = ["/app/dashboard", "/app/wallet", "/app/tokens", "/admin/channels", ...SETTINGS_TABS.map((tab) => `/admin/settings?tab=${tab}`)];
const shoot = shooter("languages");
// The 390 px pass: every language locally; in CI the two whose words run longest (French has the
// most characters, Russian the widest letters): a layout that holds for them holds for the others,
// and the pass over all eight cost a fifth of this file's time (docs/conventions.md, "Tests").
const PHONE_LOCALES: readonly Locale[] = process.env.CI === "true" && process.env.FLOW_LOCALES !== "both" ? ["fr", "ru"] : LOCALES;

const flat: Record<Locale, Record<string, string>> = Object.fromEntries(LOCALES.map((l) => [l, flatten(MESSAGES[l])])) as never;
const NAMESPACES = new Set(Object.keys(MESSAGES.en));
const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;
const NON_LATIN = new Set<Locale>(["zh", "zh-TW", "ja", "ru"]);
// English the glossaries keep (docs/i18n.md), and the relay's literal "upstream error" (the
// text clients receive when HideUpstreamError is on, quoted by the setting's hint)
const KEPT_ENGLISH = ["Powered by", "upstream error"];

// The longest literal run of an ICU message (its text between arguments and branches).
function literal(message: string): string {
  return message
    .split(/[{}#]/)
    .map((s) => s.trim())
    .sort((a, b) => b.length - a.length)[0]!;
}

// What another language would leave on a page of `locale`: English phrases (and, for the
// languages written in Chinese characters, Chinese ones) whose translation differs.
function foreignPhrases(locale: Locale): string[] {
  const mine = flat[locale];
  const out: string[] = [];
  const sources: Locale[] = locale === "en" ? [] : locale === "ja" || locale === "zh-TW" ? ["en", "zh"] : ["en"];
  for (const source of sources) {
    for (const [key, value] of Object.entries(flat[source]!)) {
      if (mine[key] === value) continue;
      const run = literal(value);
      const long = source === "en" ? run.length >= 14 && run.includes(" ") : run.length >= 6 && CJK.test(run);
      if (long && !literal(mine[key]!).includes(run)) out.push(run);
    }
  }
  return out;
}

let server: TestServer;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer();
  const root = await setupRoot(server);
  const r = await root.post("/api/token/", { name: "app-key", remain_quota: 500000, unlimited_quota: false, expired_time: -1 });
  if (!r.success) throw new Error(`token: ${r.message}`);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(250);
}

// The page's visible text and its placeholders, labels and titles.
async function pageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attrs = Array.from(document.querySelectorAll("[placeholder],[aria-label],[title]")).flatMap((el) =>
      ["placeholder", "aria-label", "title"].map((a) => el.getAttribute(a) ?? ""),
    );
    return [document.body.innerText, ...attrs].join("\n");
  });
}

// What is wrong with the page's words for `locale`: raw keys and another language's phrases.
async function wordProblems(page: Page, locale: Locale, foreign: string[]): Promise<string[]> {
  const text = await pageText(page);
  const problems: string[] = [];
  for (const m of text.matchAll(/\b([A-Za-z]+)((?:\.[A-Za-z0-9_]+)+)\b/g)) if (NAMESPACES.has(m[1]!)) problems.push(`raw key ${m[0]}`);
  if (!["zh", "zh-TW", "ja"].includes(locale)) {
    const cjk = text.split("\n").find((line) => CJK.test(line));
    if (cjk) problems.push(`Chinese or Japanese text: ${cjk.slice(0, 80)}`);
  }
  for (const phrase of foreign) if (text.includes(phrase)) problems.push(`left over: ${phrase}`);
  // in the languages not written in Latin letters, any English phrase (two words or more, one
  // of them lowercase) is a leftover, whether or not it comes from a catalogue
  if (NON_LATIN.has(locale)) {
    for (const m of text.matchAll(/\b[A-Za-z][a-z]+(?: [A-Za-z][a-z]+)+\b/g)) {
      if (/(?:^| )[a-z]/.test(m[0]) && !KEPT_ENGLISH.includes(m[0])) problems.push(`English: ${m[0]}`);
    }
  }
  return problems;
}

// The document wider than the window, naming the elements that stick out (to say which).
async function overflow(page: Page): Promise<string | null> {
  const { scroll, inner, out } = await page.evaluate(() => {
    const width = window.innerWidth;
    const wide: string[] = [];
    // an element inside a scrolling or clipping box cannot widen the document
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (getComputedStyle(p).overflowX !== "visible") return true;
      return false;
    };
    for (const el of Array.from(document.querySelectorAll("body *"))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 0.5 && wide.length < 3 && !clipped(el))
        wide.push(`${el.tagName.toLowerCase()}.${String(el.getAttribute("class") ?? "").slice(0, 60)} "${(el.textContent ?? "").slice(0, 40)}"`);
    }
    return { scroll: document.documentElement.scrollWidth, inner: width, out: wide };
  });
  return scroll > inner + 1 ? `${scroll} px wide in ${inner} px: ${out.join("; ")}` : null;
}

describe.each(LOCALES)("%s", (locale) => {
  const m = MESSAGES[locale];
  const foreign = foreignPhrases(locale);
  let ctx: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // no cookie: the first visit's language comes from the browser's Accept-Language
    ctx = await browser.newContext({ viewport: DESKTOP, locale: LOCALE_TAGS[locale] });
    page = await ctx.newPage();
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (e) => pageErrors.push(`${locale}: ${e.message}`));
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("the first visit speaks the browser's language, the menu switches and remembers, the login refuses in it", async () => {
    const lang = () => page.evaluate(() => document.documentElement.lang);
    await page.goto(`${server.url}/login`);
    await settle(page);
    expect(await lang()).toBe(LOCALE_TAGS[locale]);
    // away through the language menu and back: each item is named in its own language
    const other: Locale = locale === "zh" ? "en" : "zh";
    await page.getByRole("button", { name: m.shell.language }).click();
    await page.getByRole("menuitem", { name: LOCALE_NAMES[other] }).click();
    await page.waitForFunction((tag) => document.documentElement.lang === tag, LOCALE_TAGS[other]);
    // the choice is remembered over the browser's language
    await page.reload();
    expect(await lang()).toBe(LOCALE_TAGS[other]);
    await page.getByRole("button", { name: MESSAGES[other].shell.language }).click();
    await page.getByRole("menuitem", { name: LOCALE_NAMES[locale] }).click();
    await page.waitForFunction((tag) => document.documentElement.lang === tag, LOCALE_TAGS[locale]);
    expect((await ctx.cookies(server.url)).find((c) => c.name === "NEXT_LOCALE")?.value).toBe(locale);
    expect(await page.evaluate(() => localStorage.getItem("i18nextLng"))).toBe(locale);
    await settle(page);
    expect(await wordProblems(page, locale, foreign)).toEqual([]);
    await page.getByLabel(m.login.username, { exact: true }).fill("root");
    await page.getByLabel(m.login.password, { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: m.login.submit, exact: true }).click();
    await expectToast(page, renderMessage(locale, "login_failed"));
    await page.getByLabel(m.login.password, { exact: true }).fill(ROOT_PASSWORD);
    await page.getByRole("button", { name: m.login.submit, exact: true }).click();
    await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  });

  it("every page shows no raw key and no other language, and holds at 1440 px", async () => {
    const problems: string[] = [];
    for (const path of PAGES) {
      await page.goto(`${server.url}${path}`);
      await settle(page);
      for (const p of await wordProblems(page, locale, foreign)) problems.push(`${path}: ${p}`);
      const wide = await overflow(page);
      if (wide) problems.push(`${path}: ${wide}`);
      if (path === "/app/dashboard") await shoot(page, locale, "dashboard");
      if (path === "/admin/settings?tab=operation") await shoot(page, locale, "settings");
    }
    expect(problems).toEqual([]);
  });

  it("the token drawer, and the pages at 390 px", async () => {
    await page.goto(`${server.url}/app/tokens`);
    await page.getByRole("button", { name: m.tokens.add, exact: true }).click();
    const drawer = page.getByRole("dialog");
    await drawer.waitFor();
    await page.waitForTimeout(400);
    expect(await wordProblems(page, locale, foreign)).toEqual([]);
    await shoot(page, locale, "token-drawer", false);
    if (!PHONE_LOCALES.includes(locale)) return;
    const problems: string[] = [];
    await page.setViewportSize(PHONE);
    for (const path of PHONE_PAGES) {
      await page.goto(`${server.url}${path}`);
      await settle(page);
      const wide = await overflow(page);
      if (wide) problems.push(`${path}: ${wide}`);
    }
    await page.goto(`${server.url}/app/tokens`);
    await page.getByRole("button", { name: m.tokens.add, exact: true }).click();
    await page.getByRole("dialog").waitFor();
    await page.waitForTimeout(400);
    const wide = await overflow(page);
    if (wide) problems.push(`token drawer: ${wide}`);
    await shoot(page, locale, "token-drawer-phone", false);
    await page.setViewportSize(DESKTOP);
    expect(problems).toEqual([]);
  });
});

describe("afterwards", () => {
  it("no page threw", () => {
    expect(pageErrors).toEqual([]);
  });
});
