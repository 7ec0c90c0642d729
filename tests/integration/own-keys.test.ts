// Names that are properties of Object.prototype (docs/conventions.md, "Own keys"): a console
// body with a "__proto__" key (a virtual model so named, written out or escaped) is refused
// with a clear message instead of answering "saved" and leaving it out; "constructor" and "toString" are names like others, saved and served; the
// pricing page gives a model named "toString" no price it inherited. The upstream is a mock
// on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client";
import { loginAs, makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let up: MockUpstream;
let key = "";

type Mapping = Record<string, Array<{ model: string; priorities: number }>>;
const mapping = async () => (await root.get<{ mapping: Mapping }>("/api/model_mapping/")).data.mapping;

beforeAll(async () => {
  server = await startServer();
  up = await startMockUpstream("openai");
  root = await setupRoot(server); // fetch_setting.allow_private_ip on: the mock is on 127.0.0.1
  await setOptions(root, { ModelRatio: JSON.stringify({ "ok-model": 1 }), RetryTimes: "0" });
  const ch = await root.post("/api/channel/", { name: "ok", type: 1, key: up.key, base_url: up.url, models: "ok-model,toString", group: "default" });
  expect(ch.success, ch.message).toBe(true);
  const user = await makeUser(server, root, "own-user");
  expect((await root.put("/api/user/", { id: user.id, quota: 10_000_000 })).success).toBe(true);
  key = (await user.client.post<{ key: string }[]>("/api/token/", { name: "t", unlimited_quota: true })).data[0].key;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await up?.close();
});

describe("names of Object.prototype's properties", () => {
  it("PUT /api/model_mapping/ refuses a virtual model named __proto__ (en, zh, escaped) and keeps the saved mapping", async () => {
    const saved = await root.put("/api/model_mapping/", { mapping: { smart: [{ model: "ok-model", priorities: 0 }] } });
    expect(saved.success, saved.message).toBe(true);
    // the body as a client sends it: JSON text with the name as a key
    const body = '{"mapping": {"__proto__": [{"model": "ok-model", "priorities": 0}], "other": [{"model": "ok-model", "priorities": 1}]}}';
    const refused = await root.put("/api/model_mapping/", body);
    expect(refused).toMatchObject({ success: false, message: "A name in the request cannot be __proto__" });
    const zh = await loginAs(server, "root", "root-pass-123", "zh");
    expect((await zh.put("/api/model_mapping/", body)).message).toBe("请求中的名称不能是 __proto__");
    const escaped = '{"mapping": {"\\u005f_proto__": [{"model": "ok-model", "priorities": 0}]}}';
    expect((await root.put("/api/model_mapping/", escaped)).message).toBe("A name in the request cannot be __proto__");
    // the option path, whose value is JSON text inside the body, says which rule
    const option = await root.put("/api/option/", { key: "model_mapping", value: '{"__proto__": [{"model": "ok-model", "priorities": 0}]}' });
    expect(option).toMatchObject({ success: false, message: "A virtual model cannot be named __proto__" });
    expect(await mapping()).toEqual({ smart: [{ model: "ok-model", priorities: 0 }] });
  });

  it('"constructor" and "toString" are saved, listed and served like any name', async () => {
    const both = { constructor: [{ model: "ok-model", priorities: 0 }], toString: [{ model: "ok-model", priorities: 0 }] };
    const saved = await root.put("/api/model_mapping/", { mapping: both });
    expect(saved.success, saved.message).toBe(true);
    expect(await mapping()).toEqual(both);
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "constructor", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(up.requests.at(-1)!.json.model).toBe("ok-model");
  });

  it("the pricing page gives a model named toString no inherited price", async () => {
    const page = await root.get<Array<Record<string, unknown>>>("/api/pricing");
    expect(page.success, page.message).toBe(true);
    const row = page.data.find((r) => r.model_name === "toString");
    expect(row).toMatchObject({ model_name: "toString", quota_type: 0, model_ratio: 0, completion_ratio: 1, model_price: 0, price_set: false });
  });
});
