// The critical rate limit on setup, login and register: a server started with
// CRITICAL_RATE_LIMIT=3 answers the fourth call from one address with 429.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { CRITICAL_RATE_LIMIT: "3" } });
});
afterAll(async () => {
  await server?.stop();
});

describe("critical rate limit", () => {
  it("answers 429 after setup and two login attempts from one address", async () => {
    const c = new ApiClient(server.url, "zh");
    const setup = await c.post("/api/setup", { username: "root", password: "root-pass-123", confirmPassword: "root-pass-123" });
    expect(setup.success).toBe(true);
    // the setup call was the first of the three
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await c.post("/api/user/login", { username: "root", password: "wrong-pass" })).status);
    expect(statuses).toEqual([200, 200]);
    const limited = await c.post("/api/user/login", { username: "root", password: "root-pass-123" });
    expect(limited.status).toBe(429);
    expect(limited.message).toBe("请求过于频繁，请稍后再试");
    // register shares the same critical window
    expect((await c.post("/api/user/register", { username: "x1", password: "12345678" })).status).toBe(429);
    // non-critical calls are not limited
    expect((await c.get("/api/status")).status).toBe(200);
  });
});

describe("critical rate limit on first-run setup", () => {
  let fresh: TestServer;
  beforeAll(async () => {
    fresh = await startServer({ env: { CRITICAL_RATE_LIMIT: "3" } });
  });
  afterAll(async () => {
    await fresh?.stop();
  });

  it("answers the fourth POST /api/setup from one address with 429, before anything is set up", async () => {
    const c = new ApiClient(fresh.url, "en");
    const statuses: number[] = [];
    // wrong confirmations: a client guessing its way through the form
    for (let i = 0; i < 3; i++) {
      statuses.push((await c.post("/api/setup", { username: "root", password: "root-pass-123", confirmPassword: `other-${i}-pass` })).status);
    }
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await c.post("/api/setup", { username: "root", password: "root-pass-123", confirmPassword: "root-pass-123" });
    expect(limited.status).toBe(429);
    expect(limited.success).toBe(false);
    expect(limited.message).toBe("Too many requests, please try again later");
    // the limited call did nothing: setup is still to be done, and reading its status is not limited
    const status = await c.get<{ status: boolean }>("/api/setup");
    expect(status.status).toBe(200);
    expect(status.data.status).toBe(false);
  });
});
