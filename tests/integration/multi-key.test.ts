// Multi-key channels (docs/channels-tokens-billing.md, "Multi-key channels"): one channel
// holding three keys against a mock upstream that accepts them; round-robin spreads the calls
// over the keys; when one key starts answering 401 the calls keep succeeding, that key alone
// is disabled (its reason and time visible in GET /api/channel/{id}, no key ever in a
// response), and once every key fails the channel itself is disabled. The admin's key actions
// (append, enable, delete) and the opt-outs (auto_ban = 0, AutomaticDisableChannelEnabled off).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { requestKey, startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

type ChannelInfo = {
  is_multi_key: boolean;
  multi_key_size: number;
  multi_key_mode: string;
  multi_key_status_list: Record<string, number>;
  multi_key_disabled_reason: Record<string, string>;
  multi_key_disabled_time: Record<string, number>;
};
type Channel = { id: number; status: number; other_info: string; channel_info: ChannelInfo; key_set: boolean };

let server: TestServer;
let root: ApiClient;
let token: string;
let mock: MockUpstream;
const KEYS = ["sk-multi-key-one-000000000000000001", "sk-multi-key-two-000000000000000002", "sk-multi-key-three-0000000000000003"];
const EXTRA = "sk-multi-key-four-0000000000000004";

const chat = (model: string) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hello" }] }),
  });

async function get(id: number): Promise<Channel> {
  const r = await root.get<Channel>(`/api/channel/${id}`);
  expect(r.success, r.message).toBe(true);
  // no key, nor any part of one, in what the console receives
  const text = JSON.stringify(r);
  for (const k of [...KEYS, EXTRA]) expect(text).not.toContain(k.slice(-12));
  return r.data;
}

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 50; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// the keys the upstream saw, from request `from` on
const keysSeen = (from: number) => mock.requests.slice(from).map((r) => requestKey("openai", r));
const countOf = (seen: (string | undefined)[], k: string) => seen.filter((s) => s === k).length;

async function create(name: string, model: string, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await root.post<{ id: number }>("/api/channel/", {
    mode: "multi_to_single",
    multi_key_mode: "polling",
    type: 1,
    name,
    key: KEYS.join("\n"),
    base_url: mock.url,
    models: model,
    group: "default",
    ...extra,
  });
  expect(r.success, r.message).toBe(true);
  expect(JSON.stringify(r)).not.toContain(KEYS[0].slice(-12));
  return r.data.id;
}

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  for (const k of KEYS) mock.keys.add(k);
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify({ "m-multi": 1, "m-optout": 1, "m-off": 1 }),
    RetryTimes: "0",
    AutomaticDisableChannelEnabled: "true",
    ChannelDisableFailureCount: "100",
  });
  const user = await makeUser(server, root, "mk");
  expect((await root.put("/api/user/", { id: user.id, quota: 10_000_000 })).success).toBe(true);
  token = (await user.client.post<{ key: string }[]>("/api/token/", { name: "t", unlimited_quota: true })).data[0].key;
});

afterAll(async () => {
  await server?.stop();
  await mock?.close();
});

describe("a multi-key channel", () => {
  let id: number;

  it("stores its keys sealed together and shows only their statuses", async () => {
    id = await create("multi", "m-multi");
    const c = await get(id);
    expect(c.key_set).toBe(true);
    expect(c.channel_info).toMatchObject({ is_multi_key: true, multi_key_size: 3, multi_key_mode: "polling", multi_key_status_list: {} });
    const rows = await query(server, `SELECT "key" FROM "channels" WHERE "id" = ${id}`);
    const stored = String((rows[0] as { key: string }).key);
    expect(stored).toMatch(/^v1\./);
    for (const k of KEYS) expect(stored).not.toContain(k.slice(-12));
    // a key of several lines cannot be one of a multi-key channel's; a single-key channel has no key list to append to
    const bad = await root.post("/api/channel/", { mode: "multi_to_single", type: 1, name: "x", key: '["a\\nb"]', models: "m", base_url: mock.url });
    expect(bad.success).toBe(false);
    const single = await root.post<{ id: number }>("/api/channel/", { type: 1, name: "single", key: KEYS[0], base_url: mock.url, models: "m-single" });
    expect((await root.put("/api/channel/", { id: single.data.id, key: EXTRA, key_mode: "append" })).success).toBe(false);
    expect((await root.del(`/api/channel/${single.data.id}`)).success).toBe(true);
  });

  it("spreads the calls over its keys in turn", async () => {
    const from = mock.requests.length;
    for (let i = 0; i < 6; i++) expect((await chat("m-multi")).status).toBe(200);
    const seen = keysSeen(from);
    for (const k of KEYS) expect(countOf(seen, k)).toBe(2);
  });

  it("keeps serving when one key starts answering 401, and disables that key alone", async () => {
    mock.keys.delete(KEYS[1]);
    const from = mock.requests.length;
    const before = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 6; i++) {
      const r = await chat("m-multi");
      expect(r.status, await r.clone().text()).toBe(200);
    }
    // the failing key was tried (then replaced at once by another key of the same channel)
    expect(countOf(keysSeen(from), KEYS[1])).toBeGreaterThanOrEqual(1);
    let c!: Channel;
    await until(async () => (c = await get(id)).channel_info.multi_key_status_list["1"] === 3, "the key's disabling");
    expect(c.status).toBe(1);
    expect(c.channel_info.multi_key_status_list).toEqual({ "1": 3 });
    expect(c.channel_info.multi_key_disabled_reason["1"]).toMatch(/^status 401: /);
    expect(c.channel_info.multi_key_disabled_time["1"]).toBeGreaterThanOrEqual(before);
    // from now on the other two keys serve, in turn
    const after = mock.requests.length;
    for (let i = 0; i < 4; i++) expect((await chat("m-multi")).status).toBe(200);
    const seen = keysSeen(after);
    expect(countOf(seen, KEYS[1])).toBe(0);
    expect(countOf(seen, KEYS[0])).toBe(2);
    expect(countOf(seen, KEYS[2])).toBe(2);
  });

  it("lets the admin append keys, enable a key again, and delete one", async () => {
    mock.keys.add(EXTRA);
    const appended = await root.put<Channel>("/api/channel/", { id, key: `${KEYS[0]}\n${EXTRA}`, key_mode: "append" });
    expect(appended.success, appended.message).toBe(true);
    // the line already stored is not added twice; the statuses stay
    expect(appended.data.channel_info).toMatchObject({ multi_key_size: 4, multi_key_status_list: { "1": 3 } });
    const from = mock.requests.length;
    for (let i = 0; i < 3; i++) expect((await chat("m-multi")).status).toBe(200);
    expect(countOf(keysSeen(from), EXTRA)).toBe(1);
    // a blank key keeps them all; the mode can change
    expect((await root.put<Channel>("/api/channel/", { id, key: "", multi_key_mode: "random" })).data.channel_info).toMatchObject({
      multi_key_size: 4,
      multi_key_mode: "random",
    });
    mock.keys.add(KEYS[1]);
    const enabled = await root.post<Channel>("/api/channel/multi_key/manage", { channel_id: id, action: "enable_key", key_index: 1 });
    expect(enabled.success, enabled.message).toBe(true);
    expect(enabled.data.channel_info.multi_key_status_list).toEqual({});
    const removed = await root.post<Channel>("/api/channel/multi_key/manage", { channel_id: id, action: "delete_key", key_index: 3 });
    expect(removed.data.channel_info.multi_key_size).toBe(3);
    const bad = await root.post("/api/channel/multi_key/manage", { channel_id: id, action: "delete_key", key_index: 7 });
    expect(bad.success).toBe(false);
    // the extra key is gone: back to polling, three calls use the three original keys
    await root.put("/api/channel/", { id, multi_key_mode: "polling" });
    const at = mock.requests.length;
    for (let i = 0; i < 3; i++) expect((await chat("m-multi")).status).toBe(200);
    const seen = keysSeen(at);
    expect(countOf(seen, EXTRA)).toBe(0);
    for (const k of KEYS) expect(countOf(seen, k)).toBe(1);
  });

  it("is disabled itself once no key is left", async () => {
    for (const k of KEYS) mock.keys.delete(k);
    try {
      // every key is tried once, each is disabled, and the call fails only then
      const r = await chat("m-multi");
      expect(r.status).toBe(401);
      expect(await r.text()).not.toContain("sk-multi-key");
      let c!: Channel;
      await until(async () => (c = await get(id)).status === 3, "the channel's disabling");
      expect(c.channel_info.multi_key_status_list).toEqual({ "0": 3, "1": 3, "2": 3 });
      expect(JSON.parse(c.other_info).status_reason).toMatch(/^every key is disabled/);
      // nothing routes to it any more
      expect((await chat("m-multi")).status).toBe(503);
    } finally {
      for (const k of KEYS) mock.keys.add(k);
    }
    // the admin enables the keys and the channel again
    expect((await root.post("/api/channel/multi_key/manage", { channel_id: id, action: "enable_all_keys" })).success).toBe(true);
    expect((await root.put("/api/channel/", { id, status: 1 })).success).toBe(true);
    expect((await chat("m-multi")).status).toBe(200);
  });
});

describe("a key that fails where disabling is off", () => {
  it("is not disabled on a channel that opted out (auto_ban = 0), and the call still succeeds on another key", async () => {
    const id = await create("optout", "m-optout", { auto_ban: 0 });
    mock.keys.delete(KEYS[0]);
    try {
      for (let i = 0; i < 3; i++) expect((await chat("m-optout")).status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect((await get(id)).channel_info.multi_key_status_list).toEqual({});
    } finally {
      mock.keys.add(KEYS[0]);
    }
  });

  it("is not disabled when AutomaticDisableChannelEnabled is off", async () => {
    const id = await create("off", "m-off");
    await setOptions(root, { AutomaticDisableChannelEnabled: "false" });
    mock.keys.delete(KEYS[2]);
    try {
      for (let i = 0; i < 3; i++) expect((await chat("m-off")).status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect((await get(id)).channel_info.multi_key_status_list).toEqual({});
    } finally {
      mock.keys.add(KEYS[2]);
      await setOptions(root, { AutomaticDisableChannelEnabled: "true" });
    }
  });
});
