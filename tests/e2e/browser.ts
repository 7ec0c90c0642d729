// Browser test support: Debian's Chromium through playwright-core, message lookup, toasts
// and screenshots in both themes.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import type { Locale } from "@/lib/i18n/locale";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import fr from "@/messages/fr.json";
import ja from "@/messages/ja.json";
import ru from "@/messages/ru.json";
import vi from "@/messages/vi.json";
import zhTW from "@/messages/zh-TW.json";
import zh from "@/messages/zh.json";

export type { Locale };

// The languages a browser test walks each of its flows in (docs/conventions.md, "Tests"): Chinese
// and English locally; in CI one of the two, the same for every flow of a file and chosen by the
// file's name, so that about half the files walk in each. The catalogues' keys and the pages'
// words in all eight languages are checked apart from the flows (tests/unit/i18n,
// tests/e2e/languages.test.ts); walking every flow twice cost a third of the browser tests'
// time on the two-core CI machine. FLOW_LOCALES=both walks both in CI too.
export function flowLocales(fileUrl: string): ("zh" | "en")[] {
  if (process.env.CI !== "true" || process.env.FLOW_LOCALES === "both") return ["zh", "en"];
  const name = path.basename(fileUrl);
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return [h % 2 === 0 ? "zh" : "en"];
}
export type Messages = typeof en;
export const MESSAGES: Record<Locale, Messages> = { zh, "zh-TW": zhTW, en, ja, fr, ru, vi, es };

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

// Signs the page's browser context in through the API (POST /api/user/login: the session cookie
// lands in the context's jar) and opens /app/tokens, where the login page's submit leads: what
// the login form does, without drawing the form first. The form itself is walked by the files
// that test signing in (languages, console-walk, two-factor, oauth-login); the rest sign in
// this way, a page load fewer each, on a machine where a page takes two seconds.
export async function signIn(page: Page, base: string, username: string, password: string, landing = "/app/tokens"): Promise<void> {
  const r = await page.request.post(`${base}/api/user/login`, { data: { username, password } });
  const body = (await r.json()) as { success: boolean; message?: string };
  if (!body.success) throw new Error(`sign-in of ${username} refused: ${body.message}`);
  await page.goto(`${base}${landing}`);
}

// Fills {name} placeholders of a message.
export function fmt(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, k: string) => (k in values ? String(values[k]) : whole));
}

// Waits for a toast that contains the text.
export async function expectToast(page: Page, text: string) {
  await page.locator("[data-toast]").filter({ hasText: text }).first().waitFor({ state: "visible" });
}

const SHOTS = path.join(process.cwd(), "test-results", "screenshots");

// A screenshot helper writing to test-results/screenshots/<folder> (or test-results/screenshots
// itself without a folder): the full page, or only the viewport while a dialog is
// open (sticky parts misdraw in a full-page shot), in the light and the dark theme, then back
// to light. Files are `<name>-<locale>-<theme>.png`.
//
// CI takes none (SCREENSHOTS=1 turns them on there; SCREENSHOTS=0 off anywhere): they are for
// the person who builds a screen to look at, nobody reads CI's, and the two themes' full-page
// captures of every shot cost about a tenth of the browser tests' time on two cores.
export const SCREENSHOTS = process.env.SCREENSHOTS ? process.env.SCREENSHOTS === "1" : process.env.CI !== "true";

export function shooter(folder = "") {
  const dir = path.join(SHOTS, folder);
  return async function shoot(page: Page, locale: Locale, name: string, fullPage = true) {
    if (!SCREENSHOTS) return;
    mkdirSync(dir, { recursive: true });
    for (const theme of ["light", "dark"] as const) {
      await page.evaluate((t) => {
        localStorage.setItem("theme-mode", t);
        document.documentElement.classList.toggle("dark", t === "dark");
        document.documentElement.style.colorScheme = t;
      }, theme);
      await page.waitForTimeout(150);
      await page.screenshot({ path: path.join(dir, `${name}-${locale}-${theme}.png`), fullPage });
    }
    await page.evaluate(() => {
      localStorage.setItem("theme-mode", "light");
      document.documentElement.classList.remove("dark");
      document.documentElement.style.colorScheme = "light";
    });
  };
}

// The same, under test-results/screenshots.
export const shoot = shooter();

// Cloudflare's Turnstile script is not reachable from the tests: a stand-in with its API
// (render calls back with a token, remove) answers "pass", which the local verifier accepts.
export async function stubTurnstile(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as unknown as { turnstile: unknown }).turnstile = {
      render: (_el: HTMLElement, opts: { callback: (t: string) => void }) => {
        setTimeout(() => opts.callback("pass"), 100);
        return "w1";
      },
      remove: () => {},
    };
  });
}
