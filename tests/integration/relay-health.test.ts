// Channel health and the edges of a relay call: channel tests and their response time,
// automatic disabling (threshold and keywords, never when the channel opts out) and
// re-enabling after a passing test, the playground billed to the console user, a client
// that goes away (the reservation comes back), and the body-size limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let user: { id: number; client: ApiClient };
let key: string;
let mock: MockUpstream;
let broken: MockUpstream;

type Channel = { id: number; name: string; status: number; response_time: number; other_info: string };

async function channel(name: string): Promise<Channel> {
  const list = await root.get<{ items: Channel[] }>("/api/channel/?p=1&page_size=100");
  return list.data.items.find((c) => c.name === name)!;
}

async function addChannel(body: Record<string, unknown>): Promise<number> {
  const r = await root.post("/api/channel/", { type: 1, group: "default", ...body });
  expect(r.success, r.message).toBe(true);
  return (await channel(body.name as string)).id;
}

const chat = (model: string, extra: RequestInit = {}) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hello" }] }),
    ...extra,
  });

async function quota(): Promise<number> {
  return (await user.client.get<{ quota: number }>("/api/user/self")).data.quota;
}

async function ledgerSum(): Promise<number> {
  const rows = await query(server, `SELECT COALESCE(SUM("delta"), 0) AS s FROM "quota_ledger" WHERE "user_id" = ${user.id}`);
  return Number((rows[0] as { s: unknown }).s);
}

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 50; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  server = await startServer({ env: { RELAY_MAX_BODY_BYTES: "4096" } });
  mock = await startMockUpstream("openai");
  broken = await startMockUpstream("openai");
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify({ "m-ok": 1, "m-flaky": 1, "m-keyword": 1, "m-optout": 1, "m-slow": 1, "m-retry": 1 }),
    RetryTimes: "0",
    AutomaticDisableChannelEnabled: "true",
    AutomaticEnableChannelEnabled: "true",
    ChannelDisableFailureCount: "2",
  });
  user = await makeUser(server, root, "carol");
  expect((await root.put("/api/user/", { id: user.id, quota: 1_000_000 })).success).toBe(true);
  key = (await user.client.post<{ key: string }[]>("/api/token/", { name: "t", unlimited_quota: true })).data[0].key;
});

afterAll(async () => {
  await server?.stop();
  await mock?.close();
  await broken?.close();
});

describe("channel tests", () => {
  it("tests a channel through its adapter and records the response time", async () => {
    const id = await addChannel({ name: "ok", key: mock.key, base_url: mock.url, models: "m-ok" });
    const r = await root.call<never>("GET", `/api/channel/test/${id}?model=m-ok`);
    expect(r).toMatchObject({ success: true });
    expect((r as unknown as { time: number }).time).toBeGreaterThan(0);
    expect(mock.requests.at(-1)!.json.model).toBe("m-ok");
    expect((await channel("ok")).response_time).toBeGreaterThanOrEqual(0);
    const denied = await user.client.call("GET", `/api/channel/test/${id}`);
    expect(denied.status).toBe(403);
  });

  it("says whether a failed test is worth retrying: not a bad key or an unknown model, yes a 5xx", async () => {
    const badKey = await addChannel({ name: "bad-key", key: "sk-wrong-key-0123456789", base_url: mock.url, models: "m-badkey" });
    const r = (await root.call<never>("GET", `/api/channel/test/${badKey}`)) as unknown as { success: boolean; isRetryable: boolean; message: string };
    expect(r).toMatchObject({ success: false, isRetryable: false });
    expect(r.message).toMatch(/^401/);
    expect(r.message).not.toContain("sk-wrong-key-0123456789");
    const ok = await channel("ok");
    broken.behavior.failStatus = 404;
    const gone = await addChannel({ name: "unknown-model", key: broken.key, base_url: broken.url, models: "m-gone" });
    try {
      expect(await root.call<never>("GET", `/api/channel/test/${gone}`)).toMatchObject({ success: false, isRetryable: false });
      broken.behavior.failStatus = 503;
      expect(await root.call<never>("GET", `/api/channel/test/${gone}`)).toMatchObject({ success: false, isRetryable: true });
    } finally {
      broken.behavior.failStatus = undefined;
      expect((await root.del(`/api/channel/${gone}/`)).success).toBe(true);
    }
    expect(await root.call<never>("GET", `/api/channel/test/${ok.id}?model=m-ok`)).toMatchObject({ success: true, isRetryable: false });
    expect((await root.del(`/api/channel/${badKey}/`)).success).toBe(true);
  });

  it("tests all channels as a background job whose final counts the page polls", async () => {
    type Progress = { running: boolean; total: number; tested: number; passed: number; failed: number; started_at: number; finished_at: number };
    const badKey = await addChannel({ name: "bad-key-2", key: "sk-wrong-key-9876543210", base_url: mock.url, models: "m-badkey" });
    mock.behavior.delayMs = 1500; // each test takes a while: the job is still running on the second call
    try {
      const first = await root.get<Progress>("/api/channel/test");
      // answered at once, before any test finished
      expect(first).toMatchObject({ success: true, message: "Testing all enabled channels started", data: { running: true, tested: 0 } });
      const second = await root.get<Progress>("/api/channel/test");
      expect(second).toMatchObject({ success: true, message: "Channel testing is already running", data: { running: true } });
      expect((await user.client.call("GET", "/api/channel/test/progress")).status).toBe(403);
      let p: Progress | undefined;
      await until(async () => {
        p = (await root.get<Progress>("/api/channel/test/progress")).data;
        return !p.running;
      }, "the test-all job");
      // the enabled channels now: "ok" (passes) and "bad-key-2" (401)
      expect(p).toMatchObject({ running: false, total: 2, tested: 2, passed: 1, failed: 1 });
      expect(p!.finished_at).toBeGreaterThanOrEqual(p!.started_at);
      // a new call starts a new job
      const again = await root.get<Progress>("/api/channel/test");
      expect(again.message).toBe("Testing all enabled channels started");
      await until(async () => !(await root.get<Progress>("/api/channel/test/progress")).data.running, "the second job");
    } finally {
      mock.behavior.delayMs = undefined;
      expect((await root.del(`/api/channel/${badKey}/`)).success).toBe(true);
    }
  });
});

describe("automatic disabling and enabling", () => {
  it("disables after the threshold of consecutive failures, then a passing test enables it again", async () => {
    broken.behavior.failStatus = 503;
    const id = await addChannel({ name: "flaky", key: broken.key, base_url: broken.url, models: "m-flaky" });
    expect((await chat("m-flaky")).status).toBe(503);
    expect((await channel("flaky")).status).toBe(1);
    expect((await chat("m-flaky")).status).toBe(503);
    await until(async () => (await channel("flaky")).status === 3, "auto-disable");
    expect(JSON.parse((await channel("flaky")).other_info).status_reason).toMatch(/2 consecutive failures/);
    expect((await chat("m-flaky")).status).toBe(503); // no channel left for the model
    broken.behavior.failStatus = undefined;
    const t = await root.call("GET", `/api/channel/test/${id}`);
    expect(t.success).toBe(true);
    expect((await channel("flaky")).status).toBe(1);
    expect((await chat("m-flaky")).status).toBe(200);
  });

  it("disables at once on a configured keyword, but never a channel that opted out", async () => {
    broken.behavior.failStatus = 400;
    broken.behavior.failMessage = "Your credit balance is too low to access the API";
    try {
      await addChannel({ name: "keyword", key: broken.key, base_url: broken.url, models: "m-keyword" });
      await addChannel({ name: "optout", key: broken.key, base_url: broken.url, models: "m-optout", auto_ban: 0 });
      expect((await chat("m-keyword")).status).toBe(400);
      await until(async () => (await channel("keyword")).status === 3, "keyword disable");
      for (let i = 0; i < 3; i++) expect((await chat("m-optout")).status).toBe(400);
      await new Promise((r) => setTimeout(r, 300));
      expect((await channel("optout")).status).toBe(1);
    } finally {
      broken.behavior.failStatus = undefined;
      broken.behavior.failMessage = undefined;
    }
  });
});

describe("retries on a model with one channel", () => {
  it("count one failure per call toward the disable threshold, and never retry a 429 on the channel that sent it", async () => {
    const up = await startMockUpstream("openai");
    await setOptions(root, { RetryTimes: "3" });
    try {
      await addChannel({ name: "retry", key: up.key, base_url: up.url, models: "m-retry" });
      // a 503 is retried on the same channel (no other is left): four attempts, one failure counted
      up.behavior.failStatus = 503;
      expect((await chat("m-retry")).status).toBe(503);
      expect(up.requests).toHaveLength(4);
      await new Promise((r) => setTimeout(r, 300));
      expect((await channel("retry")).status).toBe(1); // 1 failure of the 2 the threshold asks
      // a 429 asks to be left alone: one attempt only
      up.requests.length = 0;
      up.behavior.failStatus = 429;
      expect((await chat("m-retry")).status).toBe(429);
      expect(up.requests).toHaveLength(1);
      // the second failing call reaches the threshold
      await until(async () => (await channel("retry")).status === 3, "auto-disable after two calls");
      expect(JSON.parse((await channel("retry")).other_info).status_reason).toMatch(/2 consecutive failures/);
    } finally {
      await setOptions(root, { RetryTimes: "0" });
      await up.close();
    }
  });
});

describe("edges of a call", () => {
  it("bills the playground to the console user with no token", async () => {
    const before = await quota();
    const res = await user.client.raw("POST", "/pg/chat/completions", { model: "m-ok", stream: true, messages: [{ role: "user", content: "pg" }] });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("data: [DONE]");
    // the log row is queued only after the settlement commits
    await until(async () => {
      const logs = await user.client.get<{ items: { token_name: string }[] }>("/api/log/self/?p=1&page_size=50&type=2");
      return logs.data.items.some((l) => l.token_name === "playground");
    }, "the playground's log row");
    expect(await quota()).toBeLessThan(before);
    expect(await ledgerSum()).toBe(await quota());
    const anonymous = await fetch(`${server.url}/pg/chat/completions`, { method: "POST", body: "{}" });
    expect(anonymous.status).toBe(401);
  });

  it("returns the whole reservation when the client goes away before the answer", async () => {
    mock.behavior.delayMs = 1500;
    try {
      await addChannel({ name: "slow", key: mock.key, base_url: mock.url, models: "m-slow" });
      const before = await quota();
      const ctl = new AbortController();
      const pending = chat("m-slow", { signal: ctl.signal }).catch((e) => e);
      await until(async () => (await quota()) < before, "the reservation");
      ctl.abort();
      await pending;
      await until(async () => (await quota()) === before, "the refund");
      expect(await ledgerSum()).toBe(before);
    } finally {
      mock.behavior.delayMs = undefined;
    }
  });

  it("refuses a body over the limit with 413 in the OpenAI shape", async () => {
    const r = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "m-ok", messages: [{ role: "user", content: "x".repeat(10_000) }] }),
    });
    expect(r.status).toBe(413);
    expect((await r.json()).error.message).toBeTruthy();
  });
});
