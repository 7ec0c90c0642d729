// The preset actions of the settings page (docs/pricing.md, "Fetch, reset and fill"): on a
// fresh install "fetch presets" saves the preset prices and a channel's preset model is
// callable in external-operation mode; "reset presets" removes the models still at their
// preset values (the admin's own stay) and the model is refused; the unset-model list names
// it and its fill action prices it again. A preset source URL (flexible, openrouter, mixed)
// served by a local HTTP server replaces the built-in table, fetched under the outbound policy.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import { PRESET_RATIOS } from "@/lib/options/presets/ratios";

let server: TestServer;
let upstream: MockUpstream;
let root: ApiClient;
let key: string;
let source: http.Server;
let sourceUrl: string;
// what the local preset source answers, by path
const files = new Map<string, { status: number; body: string }>();

async function chat(model: string) {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "price me" }] }),
  });
  return { status: res.status, body: (await res.json()) as { error?: { message: string } } };
}

const options = async () => new Map((await root.get<{ key: string; value: string }[]>("/api/option/")).data.map((o) => [o.key, o.value]));
const map = async (k: string) => JSON.parse((await options()).get(k)!) as Record<string, number>;
const unset = async () => {
  const r = await root.get<string[]>("/api/option/unset_models");
  expect(r.success, r.message).toBe(true);
  return r.data;
};

beforeAll(async () => {
  server = await startServer();
  upstream = await startMockUpstream("openai");
  source = http.createServer((req, res) => {
    const f = files.get(req.url ?? "");
    res.writeHead(f?.status ?? 404, { "content-type": "application/json" });
    res.end(f?.body ?? "{}");
  });
  await new Promise<void>((r) => source.listen(0, "127.0.0.1", r));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;

  // external operation (self-use off); the mock upstream and the source are on 127.0.0.1,
  // so setupRoot turns on fetch_setting.allow_private_ip
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
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "preset", unlimited_quota: true });
  key = t.data[0].key;
});

afterAll(async () => {
  await server?.stop();
  await upstream?.close();
  await new Promise((r) => source?.close(r));
});

describe("built-in presets", () => {
  it("fetch presets on a fresh install saves them, and a preset model is callable", async () => {
    const r = await root.post<{ source: string; added: number }>("/api/option/preset_ratio/fetch");
    expect(r.success, r.message).toBe(true);
    expect(r.data.source).toBe("builtin");
    expect(await map("ModelRatio")).toEqual(PRESET_RATIOS.ModelRatio);
    expect(await map("CompletionRatio")).toEqual(PRESET_RATIOS.CompletionRatio);
    expect((await chat("gpt-4o")).status).toBe(200);
    expect(await unset()).toEqual(["mystery-model"]);
  });

  it("reset presets removes the preset models but keeps the admin's own and changed ones", async () => {
    const own = Object.assign({}, PRESET_RATIOS.ModelRatio, { "mystery-model": 2, "deepseek-chat": 0.5 });
    await setOptions(root, { ModelRatio: JSON.stringify(own) });
    const r = await root.post<{ removed: number; kept: string[] }>("/api/option/preset_ratio/reset");
    expect(r.success, r.message).toBe(true);
    expect(r.data.kept).toEqual(["deepseek-chat"]);
    expect(await map("ModelRatio")).toEqual({ "mystery-model": 2, "deepseek-chat": 0.5 });
    expect(await map("CompletionRatio")).toEqual({ "deepseek-chat": PRESET_RATIOS.CompletionRatio["deepseek-chat"] });
    expect(await map("ModelPrice")).toEqual({});
    const refused = await chat("gpt-4o");
    expect(refused.status).not.toBe(200);
    expect(refused.body.error?.message).toContain("gpt-4o");
    expect((await chat("mystery-model")).status).toBe(200);
    expect(await unset()).toEqual(["gpt-4o"]);
  });

  it("the unset-model list's fill action prices the unset models the presets know", async () => {
    await setOptions(root, { ModelRatio: JSON.stringify({ "deepseek-chat": 0.5 }) });
    expect(await unset()).toEqual(["gpt-4o", "mystery-model"]);
    const r = await root.post<{ filled: string[]; missing: string[] }>("/api/option/unset_models/fill", {});
    expect(r.success, r.message).toBe(true);
    expect(r.data).toEqual({ filled: ["gpt-4o"], missing: ["mystery-model"] });
    expect(await map("ModelRatio")).toEqual({ "deepseek-chat": 0.5, "gpt-4o": 1.25 });
    expect((await map("CacheRatio"))["gpt-4o"]).toBe(0.5);
    expect((await chat("gpt-4o")).status).toBe(200);
    expect(await unset()).toEqual(["mystery-model"]);
  });

  it("fetch presets again keeps the admin's prices", async () => {
    const r = await root.post("/api/option/preset_ratio/fetch");
    expect(r.success, r.message).toBe(true);
    const ratios = await map("ModelRatio");
    expect(ratios["deepseek-chat"]).toBe(0.5);
    expect(ratios["gpt-4o-mini"]).toBe(PRESET_RATIOS.ModelRatio["gpt-4o-mini"]);
  });

  it("are for admins: an admin may run them, a user may not", async () => {
    const { client: admin } = await makeUser(server, root, "admin1", 10);
    const { client: plain } = await makeUser(server, root, "plain1");
    const calls: Array<[string, string]> = [
      ["POST", "/api/option/preset_ratio/fetch"],
      ["GET", "/api/option/unset_models"],
      ["POST", "/api/option/unset_models/fill"],
    ];
    for (const [method, path] of calls) {
      expect((await plain.call(method, path, method === "POST" ? {} : undefined)).status, path).toBe(403);
      const r = await admin.call(method, path, method === "POST" ? {} : undefined);
      expect(r.success, `${path}: ${r.message}`).toBe(true);
    }
    expect((await plain.post("/api/option/preset_ratio/reset")).status).toBe(403);
    // the source is the root's: an admin cannot point the server at a URL
    const refused = await admin.put("/api/option/", { key: "PresetRatioSourceUrl", value: "http://127.0.0.1:1/x" });
    expect(refused.success).toBe(false);
  });
});

describe("a preset source URL", () => {
  beforeAll(async () => {
    await root.post("/api/option/rest_model_ratio");
    // the model list OpenRouter publishes (USD per token), and the two files of the other shapes
    files.set("/or/models", {
      status: 200,
      body: JSON.stringify({
        data: [
          { id: "acme/mystery-model", pricing: { prompt: "0.000004", completion: "0.000012", input_cache_read: "0.000001" } },
          { id: "acme/free-model:free", pricing: { prompt: "0", completion: "0" } },
        ],
      }),
    });
    files.set("/flex/prompt_ratio.json", { status: 200, body: JSON.stringify({ data: { "mystery-model": 3 } }) });
    files.set("/flex/completion_ratio.json", { status: 200, body: JSON.stringify({ "mystery-model": 2 }) });
    files.set("/mixed/prompt_ratio.json", { status: 200, body: JSON.stringify({ "mystery-model": { input: 10, cached_input: 1 } }) });
    files.set("/mixed/completion_ratio.json", { status: 200, body: JSON.stringify({ "mystery-model": { output: 30 } }) });
    files.set("/broken/prompt_ratio.json", { status: 500, body: "{}" });
    files.set("/broken/completion_ratio.json", { status: 200, body: "{}" });
  });

  it("openrouter: ratio = input per 1M / 2, completion = output / input", async () => {
    await setOptions(root, { PresetRatioSourceUrl: `${sourceUrl}/or/models`, PresetRatioSourceKind: "openrouter" });
    const r = await root.post<{ source: string; added: number }>("/api/option/preset_ratio/fetch");
    expect(r.success, r.message).toBe(true);
    expect(r.data).toMatchObject({ source: "openrouter", added: 1 });
    expect((await map("ModelRatio"))["mystery-model"]).toBe(2);
    expect((await map("CompletionRatio"))["mystery-model"]).toBe(3);
    expect((await map("CacheRatio"))["mystery-model"]).toBe(0.25);
    expect((await map("ModelRatio"))["gpt-4o"]).toBe(1.25); // the admin's (here the defaults') entries stay
    expect((await chat("mystery-model")).status).toBe(200);
    // reset removes the source's values
    expect((await root.post("/api/option/preset_ratio/reset")).success).toBe(true);
    expect((await map("ModelRatio"))["mystery-model"]).toBeUndefined();
  });

  it("flexible and mixed: two files under the URL", async () => {
    await setOptions(root, { PresetRatioSourceUrl: `${sourceUrl}/flex/`, PresetRatioSourceKind: "flexible" });
    expect((await options()).get("PresetRatioSourceUrl")).toBe(`${sourceUrl}/flex`);
    expect((await root.post("/api/option/preset_ratio/fetch")).success).toBe(true);
    expect((await map("ModelRatio"))["mystery-model"]).toBe(3);
    expect((await map("CompletionRatio"))["mystery-model"]).toBe(2);
    expect((await root.post("/api/option/preset_ratio/reset")).success).toBe(true);

    await setOptions(root, { PresetRatioSourceUrl: `${sourceUrl}/mixed`, PresetRatioSourceKind: "mixed" });
    const r = await root.post<{ filled: string[] }>("/api/option/unset_models/fill", { models: ["mystery-model"] });
    expect(r.success, r.message).toBe(true);
    expect(r.data.filled).toEqual(["mystery-model"]);
    expect((await map("ModelRatio"))["mystery-model"]).toBe(5);
    expect((await map("CompletionRatio"))["mystery-model"]).toBe(3);
    expect((await map("CacheRatio"))["mystery-model"]).toBe(0.1);
  });

  it("a failing source changes nothing and says why", async () => {
    const before = await options();
    await setOptions(root, { PresetRatioSourceUrl: `${sourceUrl}/broken`, PresetRatioSourceKind: "flexible" });
    const r = await root.post("/api/option/preset_ratio/fetch");
    expect(r.success).toBe(false);
    expect(r.message).toContain("HTTP 500");
    const after = await options();
    for (const k of ["ModelRatio", "CompletionRatio", "CacheRatio", "ModelPrice"]) expect(after.get(k), k).toBe(before.get(k));
    expect((await root.post("/api/option/preset_ratio/reset")).success).toBe(false);

    // the source goes through the outbound policy: a loopback address is refused unless allowed
    await setOptions(root, { PresetRatioSourceUrl: `${sourceUrl}/flex`, "fetch_setting.allow_private_ip": "false" });
    const refused = await root.post("/api/option/preset_ratio/fetch");
    expect(refused.success).toBe(false);
    expect(refused.message).toContain("fetch_setting.allow_private_ip");
    await setOptions(root, { "fetch_setting.allow_private_ip": "true" });

    expect((await root.put("/api/option/", { key: "PresetRatioSourceKind", value: "other" })).success).toBe(false);
    expect((await root.put("/api/option/", { key: "PresetRatioSourceUrl", value: "ftp://x" })).success).toBe(false);
  });
});
