// The spec's texts the server owns (docs/relay.md, "Saturated group"; docs/oauth.md, "Sign-in
// that cannot start"; docs/relay-options.md, "Chat content in the usage log"), over HTTP
// against the real server with local upstreams.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let key: string;
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
  const user = await makeUser(server, root, "sam");
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
