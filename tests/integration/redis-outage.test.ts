// Redis out of reach (docs/operations.md, "When Redis is unreachable"), PostgreSQL project
// only (SQLite is one node). Node A reaches Redis through a TCP relay of the test's, which
// is closed at first and cut later; node B talks to Redis directly, with the same prefix:
//   - A starts and serves while Redis is down: /healthz 200, /readyz 503 naming redis, a
//     console login (rate-limited, counted in A's memory meanwhile) and a relay call work;
//     its log has one JSON line about it, no ioredis stack trace;
//   - a change B published while A was cut off is in force on A soon after A reconnects (A
//     reloads every cache when its subscription is made again);
//   - a change made through A while it is cut off reaches B once A is back (A publishes
//     every topic again).
import { randomBytes } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { loginAs, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { freePort, startServer, type TestServer } from "../support/server";

const enabled = process.env.TEST_DB === "postgresql";

// A TCP relay from a loopback port to the real Redis, opened and cut at will.
class RedisRelay {
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  constructor(readonly port: number) {}
  async open(): Promise<void> {
    this.server = net.createServer((client) => {
      const redis = net.connect(6379, "127.0.0.1");
      for (const s of [client, redis]) {
        this.sockets.add(s);
        s.on("error", () => {});
        s.on("close", () => this.sockets.delete(s));
      }
      client.pipe(redis).pipe(client);
    });
    await new Promise<void>((r) => this.server!.listen(this.port, "127.0.0.1", r));
  }
  async cut(): Promise<void> {
    const closed = this.server ? new Promise((r) => this.server!.close(r)) : Promise.resolve();
    for (const s of this.sockets) s.destroy();
    this.server = null;
    await closed;
  }
}

const systemName = async (s: TestServer) => (await fetch(`${s.url}/api/status`).then((r) => r.json())).data.system_name as string;

async function until<T>(read: () => Promise<T>, want: T, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  let got = await read();
  while (got !== want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    got = await read();
  }
  return got;
}

describe.skipIf(!enabled)("Redis out of reach", () => {
  let relay: RedisRelay;
  let a: TestServer;
  let b: TestServer;
  let rootB: ApiClient;
  let mock: MockUpstream;

  beforeAll(async () => {
    relay = new RedisRelay(await freePort());
    const shared = {
      REDIS_PREFIX: `gwtest:${randomBytes(6).toString("hex")}:`,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    };
    a = await startServer({ env: { ...shared, REDIS_URL: `redis://127.0.0.1:${relay.port}` } });
    b = await startServer({ env: { ...shared, REDIS_URL: "redis://127.0.0.1:6379" }, databaseUrl: a.databaseUrl });
    mock = await startMockUpstream("openai");
  });

  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await relay?.cut();
    await mock?.close();
  });

  it("a node starts and serves while Redis is down, and says so on /readyz and once in its log", async () => {
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${a.url}/readyz`);
    const body = (await ready.json()) as { checks: Record<string, string>; failed: string[] };
    expect(ready.status).toBe(503);
    expect(body.failed).toEqual(["redis"]);
    expect(body.checks.database).toBe("ok");

    // setup and a login through A (the login is rate-limited: counted in A's memory)
    const rootA = await setupRoot(a);
    expect((await rootA.get("/api/user/self")).success).toBe(true);
    await setOptions(rootA, { ModelRatio: JSON.stringify({ "m-outage": 1 }), ModelRequestRateLimitEnabled: "true" });
    const ch = await rootA.post("/api/channel/", { name: "outage", type: 1, key: mock.key, base_url: mock.url, models: "m-outage", group: "default" });
    expect(ch.success, ch.message).toBe(true);
    expect((await rootA.put("/api/user/", { id: 1, quota: 5_000_000 })).success).toBe(true);
    const t = await rootA.post<{ key: string }[]>("/api/token/", { name: "outage", unlimited_quota: true });
    expect(t.success, t.message).toBe(true);
    const call = await fetch(`${a.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.data[0].key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "m-outage", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(call.status, await call.clone().text()).toBe(200);
    await call.text();

    const out = a.logs();
    expect(out).not.toMatch(/\[ioredis\]|Unhandled error event/);
    const down = a.logLines().filter((l) => l.area === "redis" && l.msg === "redis unreachable; reconnecting");
    expect(down.length).toBeGreaterThanOrEqual(1);
    expect(down.length).toBeLessThanOrEqual(2); // one per client (commands, invalidations), not one per attempt
  });

  it("once Redis is back, a change published while the node was cut off is in force there", async () => {
    rootB = await loginAs(b, "root", ROOT_PASSWORD);
    await setOptions(rootB, { SystemName: "Changed On B" });
    // A heard nothing
    expect(await systemName(a)).not.toBe("Changed On B");
    await relay.open();
    expect(await until(() => fetch(`${a.url}/readyz`).then((r) => r.status), 200)).toBe(200);
    expect(await until(() => systemName(a), "Changed On B")).toBe("Changed On B");
    expect(a.logLines().some((l) => l.area === "redis" && l.msg === "redis reachable again")).toBe(true);
  });

  it("a change made on a node while it was cut off reaches the others once it is back", async () => {
    await relay.cut();
    expect(await until(() => fetch(`${a.url}/readyz`).then((r) => r.status), 503)).toBe(503);
    const rootA = await loginAs(a, "root", ROOT_PASSWORD);
    await setOptions(rootA, { SystemName: "Changed On A" });
    expect(await systemName(a)).toBe("Changed On A");
    await new Promise((r) => setTimeout(r, 300));
    expect(await systemName(b)).toBe("Changed On B");
    await relay.open();
    expect(await until(() => systemName(b), "Changed On A")).toBe("Changed On A");
  });
});
