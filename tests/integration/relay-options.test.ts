// The relay options of docs/options.md without another test, shown through the real server:
// global.auto_retry_enabled and global.auto_retry_status_codes (which failures move to
// another channel when RetryTimes is 0), global.hide_upstream_error_enabled (the client's
// error message), and ModelRequestRateLimitDurationMinutes (the per-user window: named in
// the 429 message, and its length shown in-process on the same code with a moved clock).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import { useServerEnvironment } from "../support/seed";

let server: TestServer;
let root: ApiClient;
let key: string;
let bad: MockUpstream;
let good: MockUpstream;

beforeAll(async () => {
  server = await startServer();
  bad = await startMockUpstream("openai");
  good = await startMockUpstream("openai");
  root = await setupRoot(server);
  await setOptions(root, { ModelRatio: JSON.stringify({ "opt-model": 1 }), RetryTimes: "0" });
  // the failing channel first (higher priority), the working one behind it
  for (const [name, up, priority] of [
    ["opt-bad", bad, 10],
    ["opt-good", good, 0],
  ] as const) {
    const c = await root.post("/api/channel/", { name, type: 1, key: up.key, base_url: up.url, models: "opt-model", group: "default", priority });
    expect(c.success, c.message).toBe(true);
  }
  const user = await makeUser(server, root, "alice");
  expect((await root.put("/api/user/", { id: user.id, quota: 50_000_000 })).success).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "t", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  key = t.data[0].key;
});

afterAll(async () => {
  await server?.stop();
  await bad?.close();
  await good?.close();
});

async function chat(): Promise<{ status: number; body: { error?: { message: string; code: unknown }; choices?: unknown[] } }> {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "opt-model", messages: [{ role: "user", content: "hi" }] }),
  });
  return { status: res.status, body: await res.json() };
}

// the requests each upstream received during fn
async function counted(fn: () => Promise<void>): Promise<{ bad: number; good: number }> {
  const b = bad.requests.length;
  const g = good.requests.length;
  await fn();
  return { bad: bad.requests.length - b, good: good.requests.length - g };
}

describe("global.auto_retry_enabled and global.auto_retry_status_codes", () => {
  it("with RetryTimes 0, a failure moves to another channel only when auto-retry is on and its status is listed", async () => {
    bad.behavior.failStatus = 500;
    let r: Awaited<ReturnType<typeof chat>> = { status: 0, body: {} };
    // off: RetryTimes 0 is no retry at all
    let n = await counted(async () => {
      r = await chat();
    });
    expect(r.status).toBe(500);
    expect(n).toEqual({ bad: 1, good: 0 });

    await setOptions(root, { "global.auto_retry_enabled": "true", "global.auto_retry_count": "1", "global.auto_retry_status_codes": "5xx" });
    n = await counted(async () => {
      r = await chat();
    });
    expect(r.status).toBe(200);
    expect(r.body.choices).toHaveLength(1);
    expect(n).toEqual({ bad: 1, good: 1 });

    // a status not in the list is not retried; an exact code is
    await setOptions(root, { "global.auto_retry_status_codes": "429" });
    n = await counted(async () => {
      r = await chat();
    });
    expect(r.status).toBe(500);
    expect(n).toEqual({ bad: 1, good: 0 });
    bad.behavior.failStatus = 429;
    n = await counted(async () => {
      r = await chat();
    });
    expect(r.status).toBe(200);
    expect(n).toEqual({ bad: 1, good: 1 });

    await setOptions(root, { "global.auto_retry_enabled": "false", "global.auto_retry_status_codes": "5xx,4xx" });
    bad.behavior.failStatus = undefined;
  });
});

describe("global.hide_upstream_error_enabled", () => {
  it("replaces the upstream's message with 'upstream error' when on", async () => {
    bad.behavior.failStatus = 500;
    bad.behavior.failMessage = "upstream detail the client should not see";
    try {
      let r = await chat();
      expect(r.status).toBe(500);
      expect(r.body.error?.message).toContain("upstream detail the client should not see");
      await setOptions(root, { "global.hide_upstream_error_enabled": "true" });
      r = await chat();
      expect(r.status).toBe(500);
      // with the call's request id, as every relay error (docs/operations.md, "Request ids")
      expect(r.body.error).toMatchObject({ message: expect.stringMatching(/^upstream error \(request id: [0-9a-f-]{36}\)$/), code: "upstream_error" });
      expect(JSON.stringify(r.body)).not.toContain("upstream detail");
    } finally {
      await setOptions(root, { "global.hide_upstream_error_enabled": "false" });
      bad.behavior.failStatus = undefined;
      bad.behavior.failMessage = undefined;
    }
  });
});

describe("ModelRequestRateLimitDurationMinutes", () => {
  it("names the window in the 429 answer", async () => {
    await setOptions(root, { ModelRequestRateLimitEnabled: "true", ModelRequestRateLimitCount: "1", ModelRequestRateLimitDurationMinutes: "7" });
    try {
      expect((await chat()).status).toBe(200);
      const r = await chat();
      expect(r.status).toBe(429);
      expect(r.body.error?.message).toMatch(/\b7\b/);
    } finally {
      await setOptions(root, { ModelRequestRateLimitEnabled: "false", ModelRequestRateLimitCount: "0" });
    }
  });

  it("is the length of the per-user window (the relay's own code, in-process, with a moved clock)", async () => {
    useServerEnvironment(server);
    const options = await import("@/lib/options/store");
    const rate = await import("@/lib/relay/rate-limit");
    const subject = {
      userId: 990001,
      group: "default",
      token: { id: 1, rate_limit_enabled: false, rate_limit_period: 60, rate_limit_count: 0, rate_limit_success: 0 },
    };
    options.applyOption("ModelRequestRateLimitEnabled", "true");
    options.applyOption("ModelRequestRateLimitCount", "1");
    options.applyOption("ModelRequestRateLimitDurationMinutes", "3");
    const start = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(start);
    try {
      await rate.checkRateLimit(subject);
      await expect(rate.checkRateLimit(subject)).rejects.toMatchObject({ key: "model_rate_limited", params: { minutes: 3 } });
      // two minutes on: still inside the 3-minute window
      clock.mockReturnValue(start + 2 * 60_000);
      await expect(rate.checkRateLimit(subject)).rejects.toMatchObject({ key: "model_rate_limited" });
      // past three minutes: a new window
      clock.mockReturnValue(start + 3 * 60_000 + 1);
      await rate.checkRateLimit(subject);
      // with a 1-minute window, a minute and a bit is already a new one
      options.applyOption("ModelRequestRateLimitDurationMinutes", "1");
      const other = Object.assign({}, subject, { userId: 990002 });
      clock.mockReturnValue(start);
      await rate.checkRateLimit(other);
      await expect(rate.checkRateLimit(other)).rejects.toMatchObject({ key: "model_rate_limited", params: { minutes: 1 } });
      clock.mockReturnValue(start + 60_000 + 1);
      await rate.checkRateLimit(other);
    } finally {
      clock.mockRestore();
      options.applyOption("ModelRequestRateLimitEnabled", "false");
    }
  });
});
