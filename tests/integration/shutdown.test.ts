// Graceful shutdown (docs/deploy.md): after SIGTERM the node keeps serving while /readyz
// answers 503 (the drain delay), then refuses new connections, lets a stream under way finish,
// bills it, and exits 0; a stream that outlives the grace period is cut and still billed.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { queryDb } from "../support/db";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";

const MODEL = "drain-model";
let mock: MockUpstream;
const servers: TestServer[] = [];

beforeAll(async () => {
  mock = await startMockUpstream("openai");
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  await mock?.close();
});

async function nodeWithKey(env: Record<string, string>): Promise<{ server: TestServer; key: string; userId: number }> {
  const server = await startServer({ env });
  servers.push(server);
  const root = await setupRoot(server);
  await setOptions(root, { ModelRatio: JSON.stringify({ [MODEL]: 1 }), RetryTimes: "0" });
  const c = await root.post("/api/channel/", { name: "drain", type: 1, key: mock.key, base_url: mock.url, models: MODEL, group: "default" });
  expect(c.success, c.message).toBe(true);
  const user = await makeUser(server, root, "drainer");
  expect((await root.put("/api/user/", { id: user.id, quota: 5_000_000 })).success).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "d", unlimited_quota: true });
  return { server, key: t.data[0].key, userId: user.id };
}

/** A streamed chat read to its end on a connection of its own: the text received and whether it ended with [DONE]. */
function streamChat(server: TestServer, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.url}/v1/chat/completions`,
      { method: "POST", agent: false, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } },
      (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("close", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ model: MODEL, stream: true, messages: [{ role: "user", content: "one two three four" }] }));
  });
}

const readyz = (server: TestServer) =>
  fetch(`${server.url}/readyz`).then(
    (r) => r.status,
    () => 0, // refused
  );

async function logRows(server: TestServer, userId: number) {
  return queryDb<{ quota: number | bigint }>(server, `SELECT "quota" FROM "logs" WHERE "user_id" = ${userId} AND "type" = 2`);
}

describe("graceful shutdown", () => {
  it("drains, finishes the stream under way, bills it, refuses new connections, exits 0", async () => {
    const { server, key, userId } = await nodeWithKey({ SHUTDOWN_DRAIN_DELAY_MS: "1500", SHUTDOWN_GRACE_MS: "10000" });
    mock.behavior = { pauseMs: 2500 };
    const call = streamChat(server, key);
    await new Promise((r) => setTimeout(r, 300)); // the stream has started
    expect(await readyz(server)).toBe(200);
    server.signal("SIGTERM");
    // during the drain delay: not ready, but still serving new connections
    await expect.poll(() => readyz(server)).toBe(503);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    // after it: the socket is closed
    await expect.poll(() => readyz(server), { timeout: 5000 }).toBe(0);
    const done = await call;
    expect(done.status).toBe(200);
    expect(done.body).toContain("data: [DONE]");
    expect(await server.exited()).toBe(0);
    const rows = await logRows(server, userId);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].quota)).toBeGreaterThan(0);
  });

  it("a stream that outlives the grace period is cut, and still billed before the exit", async () => {
    const { server, key, userId } = await nodeWithKey({ SHUTDOWN_DRAIN_DELAY_MS: "0", SHUTDOWN_GRACE_MS: "500" });
    mock.behavior = { pauseMs: 20_000 };
    const call = streamChat(server, key);
    await new Promise((r) => setTimeout(r, 300));
    server.signal("SIGTERM");
    const done = await call;
    expect(done.body).not.toContain("data: [DONE]");
    expect(await server.exited()).toBe(0);
    // the cut call went through its abort path: one log row (its partial answer billed)
    expect(await logRows(server, userId)).toHaveLength(1);
  });
});
