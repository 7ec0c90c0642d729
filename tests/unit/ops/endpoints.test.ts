// lib/ops/endpoints.ts without a database: what the integration test cannot stage cheaply
// (a database or Redis that hangs rather than fails, a node that is draining, Redis down),
// with the dependencies replaced by stand-ins and the handler behind a local node:http server.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const state = vi.hoisted(() => ({
  draining: false,
  query: (): Promise<unknown> => Promise.resolve([]),
  ping: null as null | (() => Promise<string>),
  redisStatus: "ready",
  token: undefined as string | undefined,
}));

vi.mock("@/lib/env", () => ({
  env: () => ({ databaseKind: "postgresql", MIGRATIONS_DIR: "./prisma/migrations", DATABASE_URL: "postgresql://x/y", METRICS_TOKEN: state.token }),
}));
vi.mock("@/lib/db/client", () => ({ db: () => ({ $queryRawUnsafe: () => state.query() }), sqlitePath: (u: string) => u }));
vi.mock("@/lib/cache/redis", () => ({ redis: () => (state.ping ? { status: state.redisStatus, ping: state.ping } : null) }));
vi.mock("@/lib/lifecycle", () => ({ isDraining: () => state.draining }));
vi.mock("@/lib/billing/store", () => ({ billingQueueDepth: () => 3 }));
vi.mock("@/lib/logs/writer", () => ({ pendingLogCount: () => 7 }));

const { handleOps, initOps, opsEndpoint, READY_CHECK_TIMEOUT_MS } = await import("@/lib/ops/endpoints");
const { readdirSync } = await import("node:fs");
const shipped = readdirSync("prisma/migrations/postgresql")
  .filter((f) => f.endsWith(".sql"))
  .map((name) => ({ name }));

let server: http.Server;
let base: string;
beforeAll(async () => {
  state.token = "on";
  await initOps();
  server = http.createServer((req, res) => {
    const which = opsEndpoint(req.url ?? "/");
    if (!which) {
      res.writeHead(418);
      res.end();
      return;
    }
    void handleOps(which, req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  state.draining = false;
  state.query = () => Promise.resolve(shipped);
  state.ping = null;
  state.token = undefined;
});

const ready = async () => {
  const t0 = Date.now();
  const r = await fetch(`${base}/readyz`);
  return { status: r.status, body: (await r.json()) as { status: string; checks?: Record<string, string>; failed?: string[] }, ms: Date.now() - t0 };
};

describe("opsEndpoint", () => {
  it("names the three paths, with or without a query string, and nothing else", () => {
    expect(opsEndpoint("/healthz")).toBe("healthz");
    expect(opsEndpoint("/readyz?x=1")).toBe("readyz");
    expect(opsEndpoint("/metrics")).toBe("metrics");
    for (const p of ["/healthzz", "/readyz/", "/metricsx", "/v1/chat/completions", "/", "/api/status"]) expect(opsEndpoint(p), p).toBeNull();
  });
});

describe("/readyz", () => {
  it("is ready when the query answers with every shipped migration", async () => {
    expect(await ready()).toMatchObject({ status: 200, body: { status: "ok", checks: { database: "ok", migrations: "ok", redis: "not configured" } } });
  });

  it("counts the migrations not applied", async () => {
    state.query = () => Promise.resolve(shipped.slice(0, -2));
    expect(await ready()).toMatchObject({ status: 503, body: { checks: { database: "ok", migrations: "2 pending" }, failed: ["migrations"] } });
  });

  it("answers 503 within the bound when the database hangs, and one query serves concurrent probes", async () => {
    let queries = 0;
    state.query = () => {
      queries++;
      return new Promise(() => {});
    };
    const [a, b] = await Promise.all([ready(), ready()]);
    expect(a).toMatchObject({ status: 503, body: { status: "unavailable", checks: { database: "timeout" } } });
    expect(b.status).toBe(503);
    expect(a.ms).toBeGreaterThanOrEqual(READY_CHECK_TIMEOUT_MS - 50);
    expect(a.ms).toBeLessThan(READY_CHECK_TIMEOUT_MS + 1000);
    expect(queries).toBe(1);
  });

  it("checks Redis when it is configured: ok, failed, hung, reconnecting", async () => {
    state.ping = () => Promise.resolve("PONG");
    expect(await ready()).toMatchObject({ status: 200, body: { checks: { redis: "ok" } } });
    state.ping = () => Promise.reject(new Error("connect ECONNREFUSED"));
    expect(await ready()).toMatchObject({ status: 503, body: { checks: { database: "ok", redis: "failed" }, failed: ["redis"] } });
    state.ping = () => new Promise(() => {});
    expect(await ready()).toMatchObject({ status: 503, body: { checks: { redis: "timeout" } } });
    // while the client reconnects the answer comes at once, without a ping
    state.redisStatus = "reconnecting";
    const t0 = Date.now();
    expect(await ready()).toMatchObject({ status: 503, body: { checks: { redis: "failed" }, failed: ["redis"] } });
    expect(Date.now() - t0).toBeLessThan(500);
    state.redisStatus = "ready";
  });

  it("never shows the error itself", async () => {
    state.query = () => Promise.reject(new Error("password authentication failed for user secret-user"));
    const r = await ready();
    expect(r.status).toBe(503);
    expect(JSON.stringify(r.body)).not.toContain("secret-user");
  });

  it("answers 503 draining from the shutdown on, without checking anything", async () => {
    state.draining = true;
    state.query = () => Promise.reject(new Error("must not be called"));
    expect(await ready()).toMatchObject({ status: 503, body: { status: "draining" } });
  });
});

describe("/metrics", () => {
  it("is off without METRICS_TOKEN and checks the bearer token with it", async () => {
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer " } })).status).toBe(404);
    state.token = "tok-0123456789";
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer tok-012345678" } })).status).toBe(401);
    const r = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer tok-0123456789" } });
    expect(r.status).toBe(200);
    const text = await r.text();
    // the queue depths are read at scrape time
    expect(text).toMatch(/^gateway_billing_queue_depth 3$/m);
    expect(text).toMatch(/^gateway_log_queue_depth 7$/m);
    expect(text).toMatch(/^# TYPE nodejs_eventloop_lag_seconds gauge$/m);
  });
});
