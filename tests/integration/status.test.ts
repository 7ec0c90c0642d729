import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe("GET /api/status", () => {
  it("answers the public site status with setup not done, with or without the trailing slash", async () => {
    for (const path of ["/api/status", "/api/status/"]) {
      const res = await fetch(server.url + path);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.success).toBe(true);
      expect(body.data.setup).toBe(false);
      expect(body.data.quota_per_unit).toBe(500000);
      expect(body.data.system_name).toBeTypeOf("string");
    }
  });

  it("sends every page to /setup while setup is not done", async () => {
    for (const path of ["/", "/login", "/app/me", "/admin/users"]) {
      const res = await fetch(server.url + path, { redirect: "manual" });
      expect(res.status).toBe(307);
      expect(res.headers.get("location")).toMatch(/\/setup$/);
    }
  });
});
