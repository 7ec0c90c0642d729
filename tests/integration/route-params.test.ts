// Path parameters are parsed by route({ params }) (lib/http/route.ts, lib/http/params.ts):
// a bad [id] answers the same envelope message as any other bad parameter, in the caller's
// language, before any verb runs; a good one reaches the verb as a number.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { seedUser, type SeededUser } from "../support/seed";

let server: TestServer;
let root: SeededUser;

beforeAll(async () => {
  server = await startServer();
  root = await seedUser(server, { username: "root", role: 100 });
});
afterAll(async () => {
  await server?.stop();
});

const BAD: [string, string][] = [
  ["GET", "/api/channel/abc"],
  ["DELETE", "/api/channel/0"],
  ["GET", "/api/channel/test/x"],
  ["GET", "/api/channel/fetch_models/-1"],
  ["POST", "/api/channel/copy/1.5"],
  ["GET", "/api/channel/update_balance/abc"],
  ["GET", "/api/token/abc"],
  ["DELETE", "/api/token/0"],
  ["POST", "/api/token/1e400/key"],
  ["GET", "/api/user/abc"],
  ["GET", "/api/user/abc/info"],
  ["GET", "/api/user/99999999999/info"],
  ["GET", "/api/channel/1e20"],
];

describe("path parameters", () => {
  it("a bad id answers the invalid-parameter envelope, in English and in Chinese", async () => {
    const zh = new ApiClient(server.url, "zh");
    await zh.login(root.username, root.password);
    for (const [method, path] of BAD) {
      const en = await root.client.call(method, path);
      expect([path, en.status, en.success, en.message]).toEqual([path, 400, false, "Invalid parameter"]);
      const cn = await zh.call(method, path);
      expect([path, cn.success, cn.message]).toEqual([path, false, "无效的参数"]);
    }
  });

  it("a good id reaches the verb", async () => {
    const made = await root.client.post<{ id: number }[] | { id: number }>("/api/token/", { name: "t1", expired_time: -1, unlimited_quota: true });
    expect(made.success, made.message).toBe(true);
    const id = Array.isArray(made.data) ? made.data[0].id : made.data.id;
    const got = await root.client.get<{ id: number; name: string }>(`/api/token/${id}`);
    expect([got.success, got.data.id, got.data.name]).toEqual([true, id, "t1"]);
    const missing = await root.client.get(`/api/channel/${id + 1000}`);
    expect(missing.success).toBe(false);
    expect(missing.message).not.toBe("Invalid parameter");
  });

  it("numbers beyond the columns' range in a query answer 400 naming the parameter, never a 500", async () => {
    const named: [string, string, string][] = [
      ["GET", "/api/log/?type=1e20", "type"],
      ["GET", "/api/log/?channel=1e20", "channel"],
      ["GET", "/api/log/?start_timestamp=1e20", "start_timestamp"],
      ["GET", "/api/log/self/?end_timestamp=1e20", "end_timestamp"],
      ["GET", "/api/log/stat?start_timestamp=1e20", "start_timestamp"],
      ["DELETE", "/api/log/?target_timestamp=1e20", "target_timestamp"],
      ["GET", "/api/user/?p=1e20", "p"],
    ];
    for (const [method, path, param] of named) {
      const r = await root.client.call(method, path);
      expect([path, r.status, r.success, r.message]).toEqual([path, 400, false, `Invalid parameter: ${param}`]);
    }
    // a page beyond the last is an empty page, as any page past the end
    const tokens = await root.client.call("GET", "/api/token/?p=1e20");
    expect([tokens.status, tokens.success]).toEqual([200, true]);
  });
});
