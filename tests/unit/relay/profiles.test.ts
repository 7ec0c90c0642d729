// The adapters' profiles (docs/providers.md): the console's calls to a provider go to the
// provider's own address when the channel's base URL is empty, and a type whose key has a
// shape of its own checks it.
import { describe, expect, it } from "vitest";
import { checkChannelKeys, checkChannelOther } from "@/lib/channel-admin/type-profiles";
import { AppError } from "@/lib/errors";
import { LOCALES } from "@/lib/i18n/locale";
import { renderMessage } from "@/lib/i18n/server-messages";
import { adapterFor, supportedChannelTypes } from "@/lib/relay/providers/registry";
import type { ConsoleHttp, LocalizedText } from "@/lib/relay/providers/types";

function recorder() {
  const urls: string[] = [];
  const headers: Record<string, string>[] = [];
  const answer = async (url: string, h: Record<string, string>) => {
    urls.push(url);
    headers.push(h);
    return { data: [{ id: "m1" }], models: [{ name: "models/m1", id: "m1" }] } as Record<string, unknown>;
  };
  const http: ConsoleHttp = { getJson: answer, postJson: (url, h) => answer(url, h) };
  return { urls, headers, http };
}

const withDefault = supportedChannelTypes().filter((t) => adapterFor(t)!.profile.listModels && adapterFor(t)!.profile.defaultBaseUrl);

describe("fetch models with an empty base URL", () => {
  it("covers the types that have a default address", () => expect(withDefault.length).toBeGreaterThan(5));
  it.each(withDefault)("type %i asks its own provider", async (type) => {
    const p = adapterFor(type)!.profile;
    const { urls, http } = recorder();
    await p.listModels!({ type, base_url: "", key: "k-0123456789", other: "" }, http).catch(() => {});
    expect(urls.length).toBeGreaterThan(0);
    const host = new URL(p.defaultBaseUrl.replace("{", "").replace("}", "")).host;
    for (const u of urls) expect(new URL(u).host).toBe(host);
  });
  it("Moonshot, Perplexity, Mistral, xAI and Ollama never send their key to api.openai.com", async () => {
    for (const type of [25, 27, 42, 48, 4]) {
      const { urls, http } = recorder();
      await adapterFor(type)!.profile.listModels!({ type, base_url: "", key: "k-0123456789", other: "" }, http);
      expect(
        urls.some((u) => u.includes("api.openai.com")),
        `type ${type}`,
      ).toBe(false);
    }
  });
  it("a base URL given is used instead", async () => {
    const { urls, http } = recorder();
    await adapterFor(25)!.profile.listModels!({ type: 25, base_url: "http://127.0.0.1:9/", key: "k", other: "" }, http);
    expect(urls).toEqual(["http://127.0.0.1:9/v1/models"]);
  });
});

describe("key shapes", () => {
  // a reason in each of the eight languages, each its own (docs/i18n.md)
  const inEveryLanguage = (why: LocalizedText | undefined, what: string) => {
    expect(Object.keys(why ?? {}).sort(), what).toEqual([...LOCALES].sort());
    for (const l of LOCALES) expect(why![l].trim(), `${what} ${l}`).not.toBe("");
    for (const l of LOCALES) if (l !== "en") expect(why![l], `${what} ${l}`).not.toBe(why!.en);
  };
  it("every type that names a key format checks it, and refuses a bare word in every language", () => {
    for (const type of supportedChannelTypes()) {
      const p = adapterFor(type)!.profile;
      if (!p.keyFormat) continue;
      expect(p.checkKey, `type ${type}`).toBeTypeOf("function");
      inEveryLanguage(p.checkKey!("justoneword"), `type ${type}`);
    }
    inEveryLanguage(adapterFor(39)!.profile.checkOther!("nope"), "type 39 other");
  });
  it("refuses a key or an other in the request's language, the key's number included", () => {
    const refusal = (f: () => void) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        return e as AppError;
      }
      throw new Error("not refused");
    };
    const one = refusal(() => checkChannelKeys(15, ["onlyTheApiKey"], "en"));
    expect(renderMessage("en", one.key, one.params)).toBe(
      "The key of this channel type must look like APIKey|SecretKey: the Qianfan application's API Key and Secret Key, joined by |",
    );
    const batch = refusal(() => checkChannelKeys(23, ["1300|AKID1|sk1", "AKID2|sk2"], "fr"));
    expect(batch.params).toMatchObject({ format: "AppId|SecretId|SecretKey", detail: expect.stringMatching(/^clé 2 : trois parties séparées par \|/) });
    expect(String(batch.params?.detail)).not.toContain("AKID2");
    const other = refusal(() => checkChannelOther(39, "not-an-account", "ja"));
    expect(renderMessage("ja", other.key, other.params)).toContain("Cloudflare のアカウント ID（other）");
    expect(() => checkChannelKeys(15, ["ak|sk"], "zh")).not.toThrow();
  });
  // spec 3 section 3: the compound key formats
  it.each([
    [15, "APIKey|SecretKey"],
    [18, "APPID|APISecret|APIKey"],
    [23, "AppId|SecretId|SecretKey"],
    [33, "Ak|Sk|Region"],
  ])("type %i is served and shows the format %s", (type, format) => {
    expect(adapterFor(type)?.profile.keyFormat).toBe(format);
  });
  it("FastGPT (22, APIKey-AppId) is not served: its answers carry no usage to bill (docs/providers.md)", () => {
    expect(adapterFor(22)).toBeUndefined();
  });
});
