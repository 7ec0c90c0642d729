// Model mapping end to end (docs/relay.md, "Virtual models"): the console API with its roles
// and refusals, then the relay serving a virtual model by its actual models in turn, through
// the official OpenAI SDK, with two local mock upstreams (the first answering 500, or a
// closed port), the usage log showing both names, and the served model's price billed.
// On PostgreSQL, a change made on one node reaches a second one over Redis.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { loginAs, makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

type Mapping = Record<string, { model: string; priorities: number }[]>;
type LogRow = { model_name: string; quota: number; is_stream: boolean; token_name: string; other: string };

let server: TestServer;
let root: ApiClient;
let admin: ApiClient;
let adminZh: ApiClient;
let plain: { id: number; client: ApiClient };
let good: MockUpstream;
let bad: MockUpstream;
let closedUrl: string;

// Prices (cache ratio 1, group ratio 1), with the mocks' usage (21 prompt tokens, 9 completion):
// model-a: ratio 1, completion 1 -> 30; model-b: ratio 2, completion 3 -> 2 × (21 + 27) = 96.
const COST_A = 1 * (USAGE.prompt + USAGE.completion * 1);
const COST_B = 2 * (USAGE.prompt + USAGE.completion * 3);
// priced-smart has a per-call price of its own: $0.01 × 500000 units.
const COST_PRICED = 0.01 * 500000;

async function addChannel(body: Record<string, unknown>): Promise<number> {
  const r = await root.post("/api/channel/", body);
  expect(r.success, r.message).toBe(true);
  const list = await root.get<{ items: { id: number; name: string }[] }>("/api/channel/?p=1&page_size=100");
  return list.data.items.find((c) => c.name === body.name)!.id;
}

async function putMapping(client: ApiClient, mapping: unknown) {
  return client.put<null>("/api/model_mapping/", { mapping });
}

async function newToken(name: string): Promise<string> {
  const t = await plain.client.post<{ key: string }[]>("/api/token/", { name, unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  return t.data[0].key;
}

async function userQuota(): Promise<number> {
  return (await plain.client.get<{ quota: number }>("/api/user/self")).data.quota;
}

// The consume rows of one token (each test uses its own), newest first.
async function logsOf(tokenName: string, n: number): Promise<LogRow[]> {
  for (let i = 0; i < 60; i++) {
    const r = await root.get<{ items: LogRow[]; total: number }>(`/api/log/?p=1&page_size=50&type=2&token_name=${tokenName}`);
    if (r.data.items.length >= n) return r.data.items; // page and count are two reads
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`the logs of ${tokenName} did not arrive`);
}

beforeAll(async () => {
  server = await startServer();
  good = await startMockUpstream("openai");
  bad = await startMockUpstream("openai");
  bad.behavior.failStatus = 500;
  // a port that refuses connections: bound, then closed
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", () => r()));
  closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise((r) => probe.close(r));

  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify({ "model-a": 1, "model-b": 2, "model-r": 1, "model-c": 1 }),
    CompletionRatio: JSON.stringify({ "model-a": 1, "model-b": 3, "model-r": 1 }),
    ModelPrice: JSON.stringify({ "priced-smart": 0.01 }),
    CacheRatio: "{}",
    RetryTimes: "1",
  });
  await addChannel({ name: "failing-a", type: 1, key: bad.key, base_url: bad.url, models: "model-a", group: "default" });
  await addChannel({ name: "refusing-r", type: 1, key: good.key, base_url: closedUrl, models: "model-r", group: "default" });
  await addChannel({ name: "good-b", type: 1, key: good.key, base_url: good.url, models: "model-b", group: "default" });
  await makeUser(server, root, "mapadmin", 10);
  admin = await loginAs(server, "mapadmin", "user-pass-1");
  adminZh = await loginAs(server, "mapadmin", "user-pass-1", "zh");
  plain = await makeUser(server, root, "mapuser");
  expect((await root.put("/api/user/", { id: plain.id, quota: 5_000_000 })).success).toBe(true);
});

afterAll(async () => {
  await server?.stop();
  await good?.close();
  await bad?.close();
});

describe("the model mapping API", () => {
  it("is for admins: a plain user is refused every call", async () => {
    expect((await plain.client.get("/api/model_mapping/")).status).toBe(403);
    expect((await putMapping(plain.client, { x: [{ model: "model-b", priorities: 0 }] })).status).toBe(403);
    expect((await plain.client.post("/api/model_mapping/reload")).status).toBe(403);
    expect((await new ApiClient(server.url).get("/api/model_mapping/")).status).toBe(401);
  });

  it("saves and reads the mapping as sent, names trimmed", async () => {
    expect((await admin.get<{ mapping: Mapping }>("/api/model_mapping/")).data).toEqual({ mapping: {} });
    const saved = await putMapping(admin, {
      " smart ": [
        { model: "model-c", priorities: 20 },
        { model: "model-a", priorities: 10 },
        { model: "model-b", priorities: 5 },
      ],
    });
    expect(saved).toMatchObject({ success: true, message: "Model mapping saved" });
    const got = await admin.get<{ mapping: Mapping }>("/api/model_mapping/");
    expect(got.success).toBe(true);
    expect(got.data.mapping).toEqual({
      smart: [
        { model: "model-c", priorities: 20 },
        { model: "model-a", priorities: 10 },
        { model: "model-b", priorities: 5 },
      ],
    });
  });

  it("refuses bad input with the spec's messages, in English and Chinese, and keeps what was saved", async () => {
    const before = (await admin.get<{ mapping: Mapping }>("/api/model_mapping/")).data.mapping;
    const cases: [unknown, string, string][] = [
      [{ smart: [] }, "At least one actual model is required", "至少需要一个实际模型"],
      [{ "": [{ model: "model-b", priorities: 0 }] }, "The virtual model name is required", "虚拟模型名称不能为空"],
      [{ smart: [{ model: "model-b", priorities: -1 }] }, "Priorities must be integers of at least 0", "优先级必须是大于或等于 0 的整数"],
      [{ smart: [{ model: "model-b", priorities: 1.5 }] }, "Priorities must be integers of at least 0", "优先级必须是大于或等于 0 的整数"],
      [{ smart: [{ model: "", priorities: 1 }] }, "The actual model name is required", "实际模型名称不能为空"],
      [
        {
          smart: [
            { model: "model-b", priorities: 1 },
            { model: "model-b", priorities: 2 },
          ],
        },
        "Actual model names must not repeat within a mapping: model-b in smart",
        "同一映射中的实际模型不能重复：smart 中的 model-b",
      ],
      [{ smart: [{ model: "smart", priorities: 1 }] }, "The virtual model smart cannot map to itself", "虚拟模型 smart 不能映射到自身"],
      // a rename onto an existing name: both keys end up the same once trimmed
      [
        { smart: [{ model: "model-b", priorities: 1 }], "smart ": [{ model: "model-a", priorities: 1 }] },
        "Virtual model name already exists: smart",
        "虚拟模型名称已存在：smart",
      ],
    ];
    for (const [mapping, en, zh] of cases) {
      const r = await putMapping(admin, mapping);
      expect(r.success, JSON.stringify(mapping)).toBe(false);
      expect(r.message).toBe(en);
      expect((await putMapping(adminZh, mapping)).message).toBe(zh);
    }
    const noField = await admin.put("/api/model_mapping/", { smart: [] });
    expect(noField.status).toBe(400);
    expect(noField.success).toBe(false);
    // the option itself is checked by the same rules
    const viaOption = await root.put("/api/option/", { key: "model_mapping", value: JSON.stringify({ smart: [] }) });
    expect(viaOption).toMatchObject({ success: false, message: "At least one actual model is required" });
    expect((await admin.get<{ mapping: Mapping }>("/api/model_mapping/")).data.mapping).toEqual(before);
  });

  it("reload reads the stored mapping from the database into the cache, and refuses a stored one that breaks the rules", async () => {
    const before = (await admin.get<{ mapping: Mapping }>("/api/model_mapping/")).data.mapping;
    const edited = Object.assign({}, before, { handmade: [{ model: "model-b", priorities: 0 }] });
    await query(server, `UPDATE "options" SET "value" = $1 WHERE "key" = 'model_mapping'`, [JSON.stringify(edited)]);
    // the cache still holds the saved mapping until the reload
    expect((await admin.get<{ mapping: Mapping }>("/api/model_mapping/")).data.mapping).toEqual(before);
    const r = await admin.post<{ mapping: Mapping }>("/api/model_mapping/reload");
    expect(r).toMatchObject({ success: true, message: "Model mapping reloaded from the database" });
    expect(r.data.mapping).toEqual(edited);
    expect((await admin.get<{ mapping: Mapping }>("/api/model_mapping/")).data.mapping).toEqual(edited);

    await query(server, `UPDATE "options" SET "value" = $1 WHERE "key" = 'model_mapping'`, [JSON.stringify({ broken: [] })]);
    const refused = await admin.post("/api/model_mapping/reload");
    expect(refused).toMatchObject({ success: false, message: "At least one actual model is required" });
    expect((await admin.get<{ mapping: Mapping }>("/api/model_mapping/")).data.mapping).toEqual(edited);
    // put the row back as the cache has it
    expect((await putMapping(admin, edited)).success).toBe(true);
  });
});

describe("the relay serves a virtual model by its actual models", () => {
  beforeAll(async () => {
    const saved = await putMapping(admin, {
      // model-c has no channel (skipped), model-a's channel answers 500, model-b's serves
      smart: [
        { model: "model-c", priorities: 20 },
        { model: "model-a", priorities: 10 },
        { model: "model-b", priorities: 5 },
      ],
      // model-r's channel refuses connections; equal priorities keep the list's order
      "smart-stream": [
        { model: "model-r", priorities: 1 },
        { model: "model-b", priorities: 1 },
      ],
      "priced-smart": [
        { model: "model-a", priorities: 1 },
        { model: "model-b", priorities: 0 },
      ],
      ghost: [{ model: "model-c", priorities: 0 }],
    });
    expect(saved.success, saved.message).toBe(true);
  });

  it("falls back to the second actual model when the first answers 500, logs both names and bills the served model's price", async () => {
    const key = await newToken("fallback");
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const badBefore = bad.requests.length;
    const goodBefore = good.requests.length;
    const quotaBefore = await userQuota();
    const r = await openai.chat.completions.create({ model: "smart", messages: [{ role: "user", content: "virtual hello" }] });
    expect(r.choices[0].message.content).toContain("virtual hello");
    expect(r.model).toBe("smart"); // the client sees the name it asked for
    expect(bad.requests.length).toBe(badBefore + 1);
    expect(bad.requests.at(-1)!.json.model).toBe("model-a");
    expect(good.requests.length).toBe(goodBefore + 1);
    expect(good.requests.at(-1)!.json.model).toBe("model-b");

    const [row] = await logsOf("fallback", 1);
    expect(row.model_name).toBe("model-b");
    const other = JSON.parse(row.other);
    expect(other.virtual_model).toBe("smart");
    expect(other.virtual_priced).toBeUndefined();
    expect(other.model_ratio).toBe(2);
    expect(other.completion_ratio).toBe(3);
    expect(other.admin_info.use_channel).toHaveLength(2);
    expect(other.retry_count).toBe(1);
    expect(row.quota).toBe(COST_B);
    expect(quotaBefore - (await userQuota())).toBe(COST_B);
  });

  it("falls back while streaming when the first actual model's upstream refuses the connection", async () => {
    const key = await newToken("fallback-stream");
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const quotaBefore = await userQuota();
    const stream = await openai.chat.completions.create({
      model: "smart-stream",
      messages: [{ role: "user", content: "stream through the chain" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toContain("stream through the chain");
    expect(usage?.prompt_tokens).toBe(USAGE.prompt);
    expect(good.requests.at(-1)!.json.model).toBe("model-b");

    const [row] = await logsOf("fallback-stream", 1);
    expect(row.is_stream).toBe(true);
    expect(row.model_name).toBe("model-b");
    const other = JSON.parse(row.other);
    expect(other.virtual_model).toBe("smart-stream");
    expect(other.admin_info.use_channel).toHaveLength(2);
    expect(row.quota).toBe(COST_B);
    expect(quotaBefore - (await userQuota())).toBe(COST_B);
  });

  it("bills a virtual model's own price when it has one, whichever actual model served", async () => {
    const key = await newToken("priced");
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const quotaBefore = await userQuota();
    const r = await openai.chat.completions.create({ model: "priced-smart", messages: [{ role: "user", content: "own price" }] });
    expect(r.choices[0].message.content).toContain("own price");
    const [row] = await logsOf("priced", 1);
    expect(row.model_name).toBe("model-b");
    const other = JSON.parse(row.other);
    expect(other.virtual_model).toBe("priced-smart");
    expect(other.virtual_priced).toBe(true);
    expect(other.model_price).toBe(0.01);
    expect(row.quota).toBe(COST_PRICED);
    expect(quotaBefore - (await userQuota())).toBe(COST_PRICED);
  });

  it("spends one budget over the chain: with RetryTimes 0 there is no fallback, and the reservation comes back", async () => {
    await setOptions(root, { RetryTimes: "0" });
    try {
      const key = await newToken("no-retry");
      const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
      const quotaBefore = await userQuota();
      const goodBefore = good.requests.length;
      await expect(openai.chat.completions.create({ model: "smart", messages: [{ role: "user", content: "x" }] })).rejects.toMatchObject({ status: 500 });
      expect(good.requests.length).toBe(goodBefore);
      expect(await userQuota()).toBe(quotaBefore);
    } finally {
      await setOptions(root, { RetryTimes: "1" });
    }
  });

  it("answers a virtual model none of whose actual models has a channel as a model without channel", async () => {
    const key = await newToken("ghost");
    const r = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "ghost", messages: [{ role: "user", content: "x" }] }),
    });
    expect(r.status).toBe(503);
  });

  it("leaves other models as they were: a direct call to an actual model logs no virtual model", async () => {
    const key = await newToken("direct");
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await openai.chat.completions.create({ model: "model-b", messages: [{ role: "user", content: "direct" }] });
    const [row] = await logsOf("direct", 1);
    expect(row.model_name).toBe("model-b");
    expect(JSON.parse(row.other).virtual_model).toBeUndefined();
    expect(row.quota).toBe(COST_B);
    expect(COST_A).toBe(30); // model-a would have cost this: the fallback rows above are not it
  });

  it("lists the virtual models the token can reach in GET /v1/models, within the token's model limits", async () => {
    const key = await newToken("lister");
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const ids = (await openai.models.list()).data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(["smart", "smart-stream", "priced-smart", "model-a", "model-b"]));
    expect(ids).not.toContain("ghost");
    expect(ids).not.toContain("model-c");
    // the console's list (playground, token model limits) has them too
    const consoleList = (await plain.client.get<string[]>("/api/user/models")).data;
    expect(consoleList).toEqual(expect.arrayContaining(["smart", "smart-stream", "priced-smart", "model-b"]));
    expect(consoleList).not.toContain("ghost");

    const limited = await plain.client.post<{ key: string }[]>("/api/token/", {
      name: "limited",
      unlimited_quota: true,
      model_limits_enabled: true,
      model_limits: "smart",
    });
    const lim = new OpenAI({ apiKey: limited.data[0].key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    expect((await lim.models.list()).data.map((m) => m.id)).toEqual(["smart"]);
    // the limit names the virtual model; its actual models are reached through it
    const r = await lim.chat.completions.create({ model: "smart", messages: [{ role: "user", content: "limited" }] });
    expect(r.choices[0].message.content).toContain("limited");
    await expect(lim.chat.completions.create({ model: "model-b", messages: [{ role: "user", content: "x" }] })).rejects.toMatchObject({ status: 403 });
  });
});

describe.skipIf(process.env.TEST_DB !== "postgresql")("a mapping change reaches a second node (PostgreSQL + Redis)", () => {
  let a: TestServer;
  let b: TestServer;
  let mock: MockUpstream;

  beforeAll(async () => {
    const shared = {
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_PREFIX: `gwtest:${randomBytes(6).toString("hex")}:`,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    };
    a = await startServer({ env: shared });
    b = await startServer({ env: shared, databaseUrl: a.databaseUrl });
    mock = await startMockUpstream("openai");
  });

  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await mock?.close();
  });

  it("a save on node A and a reload are seen by node B", async () => {
    const rootA = await setupRoot(a);
    await setOptions(rootA, { ModelRatio: JSON.stringify({ "m-real": 1 }) });
    expect((await rootA.post("/api/channel/", { name: "real", type: 1, key: mock.key, base_url: mock.url, models: "m-real", group: "default" })).success).toBe(
      true,
    );
    const u = await makeUser(a, rootA, "nodeuser");
    expect((await rootA.put("/api/user/", { id: u.id, quota: 1_000_000 })).success).toBe(true);
    const t = await u.client.post<{ key: string }[]>("/api/token/", { name: "n", unlimited_quota: true });
    const key = t.data[0].key;
    const chatOnB = (model: string) =>
      fetch(`${b.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
      });
    // node B has no virtual model yet (and has read its options)
    expect((await chatOnB("virt-a")).status).not.toBe(200);

    expect((await rootA.put("/api/model_mapping/", { mapping: { "virt-a": [{ model: "m-real", priorities: 0 }] } })).success).toBe(true);
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      status = (await chatOnB("virt-a")).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);

    // a row changed in the database, then reloaded through node A: node B serves the new name
    await query(a, `UPDATE "options" SET "value" = $1 WHERE "key" = 'model_mapping'`, [JSON.stringify({ "virt-b": [{ model: "m-real", priorities: 0 }] })]);
    expect((await rootA.post("/api/model_mapping/reload")).success).toBe(true);
    status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      status = (await chatOnB("virt-b")).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
    const rootB = await loginAs(b, "root", "root-pass-123");
    expect((await rootB.get<{ mapping: Mapping }>("/api/model_mapping/")).data.mapping).toEqual({ "virt-b": [{ model: "m-real", priorities: 0 }] });
    expect((await chatOnB("virt-a")).status).not.toBe(200);
  });
});
