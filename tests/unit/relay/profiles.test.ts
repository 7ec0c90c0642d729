// The adapters' profiles (docs/providers.md): the console's calls to a provider go to the
// provider's own address when the channel's base URL is empty, and a type whose key has a
// shape of its own checks it.
import { describe, expect, it } from "vitest";
import { adapterFor, supportedChannelTypes } from "@/lib/relay/providers/registry";
import type { ConsoleHttp } from "@/lib/relay/providers/types";

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
  it("every type that names a key format checks it, and refuses a bare word", () => {
    for (const type of supportedChannelTypes()) {
      const p = adapterFor(type)!.profile;
      if (!p.keyFormat) continue;
      expect(p.checkKey, `type ${type}`).toBeTypeOf("function");
      expect(p.checkKey!("justoneword"), `type ${type}`).toBeTypeOf("string");
    }
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
