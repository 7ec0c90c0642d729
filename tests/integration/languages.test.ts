// The server's refusals in the asker's language (docs/i18n.md): the console's by the
// NEXT_LOCALE cookie, then Accept-Language; the relay's (an API client has no session) by
// Accept-Language. A wrong password, a token over its quota and a rate limit, in each of the
// eight languages, against the built server and a counting upstream. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { loginAs, makeUser, setOptions, setupRoot } from "../support/accounts";
import { startServer, type TestServer } from "../support/server";
import { startCountingUpstream, type CountingUpstream } from "../support/counting-upstream";
import { LOCALES, type Locale } from "@/lib/i18n/locale";
import { renderMessage, serverCatalogues, type MessageKey } from "@/lib/i18n/server-messages";

let server: TestServer;
let root: ApiClient;
let up: CountingUpstream;
let alice: { id: number; client: ApiClient };

// A relay message against a catalogue template, its {name} parameters standing for any text
// (the relay appends the call's request id).
function matches(message: string, locale: Locale, key: MessageKey): boolean {
  const template = serverCatalogues[locale][key];
  const pattern = template.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${pattern.join(".+?")} \\(request id: [\\w-]+\\)$`, "s").test(message);
}

const chat = (key: string, language: string) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "accept-language": language },
    body: JSON.stringify({ model: "m-lang", messages: [{ role: "user", content: "hi" }] }),
  });

async function newToken(name: string, extra: Record<string, unknown>): Promise<string> {
  const r = await alice.client.post<{ key: string }[]>("/api/token/", { name, ...extra });
  expect(r.success, r.message).toBe(true);
  return r.data[0]!.key;
}

beforeAll(async () => {
  up = await startCountingUpstream();
  server = await startServer();
  root = await setupRoot(server);
  await setOptions(root, { ModelRatio: JSON.stringify({ "m-lang": 1 }) });
  const r = await root.post("/api/channel/", { name: "counting", type: 1, key: "sk-upstream-counting", base_url: up.url, models: "m-lang", group: "default" });
  expect(r.success, r.message).toBe(true);
  alice = await makeUser(server, root, "alice");
  expect((await root.put("/api/user/", { id: alice.id, quota: 100_000_000 })).success).toBe(true);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await up?.close();
});

describe("the console", () => {
  it.each(LOCALES)("refuses a wrong password in the session's language (%s)", async (locale) => {
    const r = await new ApiClient(server.url, locale).login("root", "not-the-password");
    expect([r.success, r.message]).toEqual([false, renderMessage(locale, "login_failed")]);
  });

  it("takes Accept-Language when there is no cookie, the cookie when there is one", async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/user/login`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ username: "root", password: "nope-nope" }),
      });
    expect(((await (await post({ "accept-language": "ru-RU,ru;q=0.9,en;q=0.8" })).json()) as { message: string }).message).toBe(
      renderMessage("ru", "login_failed"),
    );
    expect(((await (await post({ "accept-language": "zh-Hant-TW" })).json()) as { message: string }).message).toBe(renderMessage("zh-TW", "login_failed"));
    expect(((await (await post({ "accept-language": "es", cookie: "NEXT_LOCALE=vi" })).json()) as { message: string }).message).toBe(
      renderMessage("vi", "login_failed"),
    );
    expect(((await (await post({ "accept-language": "de" })).json()) as { message: string }).message).toBe(renderMessage("zh", "login_failed"));
  });
});

describe("the relay", () => {
  it.each(LOCALES)("a token over its quota is refused in the caller's language (%s)", async (locale) => {
    const key = await newToken(`spent-${locale}`, { remain_quota: 1, unlimited_quota: false });
    const r = await chat(key, locale);
    expect(r.status).toBe(403);
    const { error } = (await r.json()) as { error: { message: string } };
    expect(matches(error.message, locale, "quota_insufficient_token") || matches(error.message, locale, "token_exhausted"), error.message).toBe(true);
  });

  it.each(LOCALES)("a rate limit is refused in the caller's language (%s)", async (locale) => {
    const key = await newToken(`rpm-${locale}`, { unlimited_quota: true, rpm_limit: 1 });
    expect((await chat(key, locale)).status).toBe(200);
    const r = await chat(key, locale);
    expect(r.status).toBe(429);
    const { error } = (await r.json()) as { error: { message: string } };
    expect(matches(error.message, locale, "usage_limit_token_rpm"), error.message).toBe(true);
  });
});

describe("the playground", () => {
  it("refuses in the console's language (its cookie), not the browser's Accept-Language", async () => {
    const poor = await makeUser(server, root, "poor");
    expect((await root.put("/api/user/", { id: poor.id, quota: 0 })).success).toBe(true);
    const fr = await loginAs(server, "poor", "user-pass-1", "fr");
    const r = await fr.raw("POST", "/pg/chat/completions", { model: "m-lang", messages: [{ role: "user", content: "hi" }] }, { "accept-language": "en" });
    expect(r.status).toBe(403);
    const { error } = (await r.json()) as { error: { message: string } };
    expect(matches(error.message, "fr", "quota_insufficient_user"), error.message).toBe(true);
  });
});
