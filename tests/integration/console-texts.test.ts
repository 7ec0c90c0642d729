// The spec's texts the server owns (docs/relay.md, "Saturated group"; docs/oauth.md, "Sign-in
// that cannot start"; docs/relay-options.md, "Chat content in the usage log";
// docs/channels-tokens-billing.md, "Log rows in the reader's language"; docs/messages.md), over
// HTTP against the real server with local upstreams.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let key: string;
let user: { id: number; client: ApiClient };
const ups: MockUpstream[] = [];

const SATURATED = {
  en: "The current group's upstream load is saturated, please try later",
  zh: "当前分组上游负载已饱和，请稍后再试",
};

async function upstream(): Promise<MockUpstream> {
  const up = await startMockUpstream("openai");
  ups.push(up);
  return up;
}

async function addChannel(name: string, up: MockUpstream, models: string) {
  const r = await root.post("/api/channel/", { type: 1, group: "default", name, key: up.key, base_url: up.url, models });
  expect(r.success, r.message).toBe(true);
}

async function chat(model: string, language = "en"): Promise<{ status: number; error: { message: string; type: string; code: string | null } }> {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "accept-language": language },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hello" }] }),
  });
  return { status: res.status, ...((await res.json()) as { error: { message: string; type: string; code: string | null } }) };
}

beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
  await setOptions(root, { ModelRatio: JSON.stringify({ "m-sat": 1, "m-mixed": 1, "m-one-left": 1 }), RetryTimes: "1" });
  user = await makeUser(server, root, "sam");
  expect((await root.put("/api/user/", { id: user.id, quota: 1_000_000 })).success).toBe(true);
  key = (await user.client.post<{ key: string }[]>("/api/token/", { name: "t", unlimited_quota: true })).data[0].key;
});

afterAll(async () => {
  await server?.stop();
  for (const up of ups) await up.close();
});

describe("a saturated group", () => {
  it("answers 429 with the spec's sentence when every channel of the group for the model answered 429", async () => {
    const a = await upstream();
    const b = await upstream();
    a.behavior.failStatus = b.behavior.failStatus = 429;
    await addChannel("sat-a", a, "m-sat");
    await addChannel("sat-b", b, "m-sat");
    for (const language of ["en", "zh"] as const) {
      const r = await chat("m-sat", language);
      expect(r.status).toBe(429);
      expect(r.error.message).toContain(SATURATED[language]);
      expect(r.error).toMatchObject({ type: "rate_limit_error", code: "group_saturated" });
    }
    expect(a.requests.length).toBe(2);
    expect(b.requests.length).toBe(2);
    // hiding upstream errors does not hide our own sentence
    await setOptions(root, { "global.hide_upstream_error_enabled": "true" });
    try {
      expect((await chat("m-sat")).error.message).toContain(SATURATED.en);
    } finally {
      await setOptions(root, { "global.hide_upstream_error_enabled": "false" });
    }
  });

  it("passes the upstream's answer on when a channel failed otherwise, or another channel is left", async () => {
    const busy = await upstream();
    const broken = await upstream();
    busy.behavior.failStatus = 429;
    broken.behavior.failStatus = 503;
    await addChannel("mixed-busy", busy, "m-mixed");
    await addChannel("mixed-broken", broken, "m-mixed");
    const mixed = await chat("m-mixed");
    expect(mixed.error.message).not.toContain(SATURATED.en);
    expect(mixed.error.message).toContain("mock failure");

    // without retries one attempt is made: the other channel was never asked
    await setOptions(root, { RetryTimes: "0" });
    try {
      const c = await upstream();
      const d = await upstream();
      c.behavior.failStatus = d.behavior.failStatus = 429;
      await addChannel("left-c", c, "m-one-left");
      await addChannel("left-d", d, "m-one-left");
      const r = await chat("m-one-left");
      expect(r.status).toBe(429);
      expect(r.error.message).toContain("mock failure 429");
      expect(c.requests.length + d.requests.length).toBe(1);
    } finally {
      await setOptions(root, { RetryTimes: "1" });
    }
  });
});

describe("a sign-in button that cannot start", () => {
  it("sends the browser to the callback page with a code instead of answering JSON", async () => {
    const anon = new ApiClient(server.url);
    await setOptions(root, { GitHubOAuthEnabled: "true", GitHubClientId: "gh-client", ServerAddress: "" });
    const noAddress = await anon.raw("GET", "/api/oauth/github/authorize");
    expect(noAddress.status).toBe(302);
    expect(noAddress.headers.get("location")).toBe("/oauth/github?oauth_error=no_server_address");
    await setOptions(root, { GitHubOAuthEnabled: "false" });
    const off = await anon.raw("GET", "/api/oauth/github/authorize");
    expect(off.status).toBe(302);
    expect(off.headers.get("location")).toBe("/oauth/github?oauth_error=disabled");
  });
});

describe("chat-content logging", () => {
  it("is announced in the site status", async () => {
    const anon = new ApiClient(server.url);
    expect((await anon.get<{ log_chat_content_enabled: boolean }>("/api/status")).data.log_chat_content_enabled).toBe(false);
    await setOptions(root, { LogChatContentEnabled: "true" });
    expect((await anon.get<{ log_chat_content_enabled: boolean }>("/api/status")).data.log_chat_content_enabled).toBe(true);
    await setOptions(root, { LogChatContentEnabled: "false" });
  });
});

type LogRow = { type: number; content: string; quota: number; other: string };

async function ownLogs(type: number): Promise<LogRow[]> {
  return (await user.client.get<{ items: LogRow[] }>(`/api/log/self/?p=1&page_size=50&type=${type}`)).data.items;
}

describe("log rows written for a person", () => {
  it("carry a message key and its parameters beside the English content", async () => {
    const codes = await root.post<string[]>("/api/redemption/", { name: "texts", count: 1, quota: 5_000_000 });
    expect(codes.success, codes.message).toBe(true);
    expect((await user.client.post("/api/user/topup", { key: codes.data[0] })).success).toBe(true);
    const [redeemed] = await ownLogs(1);
    expect(redeemed.content).toMatch(/^redeemed code #\d+: \+5000000$/);
    expect(JSON.parse(redeemed.other).message).toEqual({ key: "redeem", params: { id: expect.any(Number), quota: 5_000_000 } });

    await setOptions(root, { CheckInEnabled: "true", CheckInQuota: "1000", CheckInMaxQuota: "1000" });
    expect((await user.client.post("/api/user/check_in")).success).toBe(true);
    const [checkedIn] = await ownLogs(5);
    expect(JSON.parse(checkedIn.other).message).toEqual({ key: "check_in", params: { day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), quota: 1000 } });

    const self = await user.client.get<{ quota: number }>("/api/user/self");
    expect((await root.put("/api/user/", { id: user.id, quota: self.data.quota + 500_000 })).success).toBe(true);
    const [set] = await ownLogs(3);
    expect(set.content).toContain("set quota from");
    expect(JSON.parse(set.other).message).toEqual({
      key: "admin_set_quota",
      params: { admin: "root", admin_id: expect.any(Number), from: self.data.quota, to: self.data.quota + 500_000 },
    });
  });
});

describe("the inbox", () => {
  it("tells how many users a message was sent to", async () => {
    const other = await makeUser(server, root, "tess");
    const sent = await root.post<{ id: number }>("/api/admin/messages", {
      title: "Hello",
      content: "Both of you",
      format: "markdown",
      user_ids: [user.id, other.id],
    });
    expect(sent.success, sent.message).toBe(true);
    const inbox = await user.client.get<{ items: { id: number; stats: { total_recipients: number } }[] }>("/api/user/messages?p=1&page_size=10");
    expect(inbox.data.items.find((m) => m.id === sent.data.id)?.stats).toEqual({ total_recipients: 2 });
    const one = await other.client.get<{ stats: { total_recipients: number } }>(`/api/user/messages/${sent.data.id}`);
    expect(one.data.stats).toEqual({ total_recipients: 2 });
  });
});

describe("copying a channel", () => {
  it("in the spec's form: the loaded channel without its id, posted to POST /api/channel/ with a key", async () => {
    const up = await upstream();
    await addChannel("origin", up, "m-sat");
    const list = await root.get<{ items: { id: number; name: string }[] }>("/api/channel/search?keyword=origin");
    const loaded = await root.get<Record<string, unknown>>(`/api/channel/${list.data.items.find((c) => c.name === "origin")!.id}`);
    const { id: _id, ...copy } = loaded.data;
    const r = await root.post<{ id: number; name: string; key_set: boolean }>("/api/channel/", {
      ...copy,
      name: "origin_copy",
      created_time: null,
      balance: 0,
      used_quota: 0,
      key: up.key,
    });
    expect(r.success, r.message).toBe(true);
    expect(r.data).toMatchObject({ name: "origin_copy", key_set: true, models: "m-sat", group: "default", base_url: up.url });
    // without a key (no list ever shows one) the refusal says what is missing
    const keyless = await root.post("/api/channel/", { ...copy, name: "origin_copy2" });
    expect(keyless.success).toBe(false);
    expect(keyless.message).toMatch(/key/i);
  });

  it("that was deleted since the list was loaded asks for a refresh", async () => {
    const r = await root.post("/api/channel/copy/987654");
    expect(r.success).toBe(false);
    expect(r.message).toBe("Channel not found, please refresh the page and retry");
  });
});
