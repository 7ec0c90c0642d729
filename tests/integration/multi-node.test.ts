// Two nodes on one PostgreSQL database and one Redis: a change made through one node is seen
// at once by the other (cache invalidation over Redis), and a token's rate limit is counted
// across both. Runs in the PostgreSQL project only (SQLite is a single-node database).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { loginAs, makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";

const enabled = process.env.TEST_DB === "postgresql";

let a: TestServer;
let b: TestServer;
let rootA: ApiClient;
let mock: MockUpstream;

const chatOn = (s: TestServer, key: string, model = "m-multi") =>
  fetch(`${s.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  });

describe.skipIf(!enabled)("multi-node mode (PostgreSQL + Redis)", () => {
  beforeAll(async () => {
    const shared = {
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_PREFIX: `gwtest:${randomBytes(6).toString("hex")}:`,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    };
    a = await startServer({ env: shared });
    b = await startServer({ env: shared, databaseUrl: a.databaseUrl });
    mock = await startMockUpstream("openai");
    rootA = await setupRoot(a);
    await setOptions(rootA, { ModelRatio: JSON.stringify({ "m-multi": 1 }) });
    const r = await rootA.post("/api/channel/", { name: "multi", type: 1, key: mock.key, base_url: mock.url, models: "m-multi", group: "default" });
    expect(r.success, r.message).toBe(true);
  });

  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await mock?.close();
  });

  it("shares sessions, options and channels between nodes", async () => {
    const rootB = await loginAs(b, "root", ROOT_PASSWORD);
    expect((await rootB.get("/api/user/self")).success).toBe(true);
    await setOptions(rootA, { SystemName: "Shared Name" });
    // node B reloads its options when node A's message arrives over Redis
    let name = "";
    for (let i = 0; i < 20 && name !== "Shared Name"; i++) {
      name = (await fetch(`${b.url}/api/status`).then((r) => r.json())).data.system_name;
      if (name !== "Shared Name") await new Promise((r) => setTimeout(r, 50));
    }
    expect(name).toBe("Shared Name");
  });

  it("drops a disabled token on the other node at once, and counts its rate limit across both", async () => {
    const u = await makeUser(a, rootA, "dave");
    expect((await rootA.put("/api/user/", { id: u.id, quota: 1_000_000 })).success).toBe(true);
    const created = await u.client.post<{ id: number; key: string }[]>("/api/token/", {
      name: "shared",
      unlimited_quota: true,
      rate_limit_enabled: true,
      rate_limit_period: 60,
      rate_limit_count: 3,
      rate_limit_success: 100,
    });
    const { id, key } = created.data[0];
    expect((await chatOn(b, key)).status).toBe(200); // node B caches the token
    expect((await chatOn(a, key)).status).toBe(200);
    expect((await chatOn(b, key)).status).toBe(200);
    expect((await chatOn(a, key)).status).toBe(429); // the 4th in the window, whichever node

    const off = await u.client.put("/api/token/?status_only=true", { id, status: 2 });
    expect(off.success, off.message).toBe(true);
    let status = 0;
    for (let i = 0; i < 20 && status !== 401; i++) {
      status = (await chatOn(b, key)).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
  });

  it("shows a channel written on one node in the other node's channel list within a second", async () => {
    const rootB = await loginAs(b, "root", ROOT_PASSWORD);
    type Row = { id: number; name: string; priority: number };
    const names = async () => {
      const r = await rootB.get<{ items: Row[] }>("/api/channel/search?keyword=mn-&page_size=100");
      expect(r.success, r.message).toBe(true);
      return r.data.items.map((c) => `${c.name}/${c.priority}`);
    };
    // node B's list index is loaded; then node A creates, updates and deletes: B reads only
    // the written rows again (lib/channels/list-index.ts), from the ids in A's message
    expect(await names()).toEqual([]);
    const eventually = async (want: string[]) => {
      let got: string[] = [];
      for (let i = 0; i < 20; i++) {
        got = await names();
        if (JSON.stringify(got) === JSON.stringify(want)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(got).toEqual(want);
    };
    const one = await rootA.post<{ id: number }>("/api/channel/", {
      name: "mn-one",
      type: 1,
      key: mock.key,
      base_url: mock.url,
      models: "m-multi",
      priority: 1,
    });
    const two = await rootA.post<{ id: number }>("/api/channel/", {
      name: "mn-two",
      type: 1,
      key: mock.key,
      base_url: mock.url,
      models: "m-multi",
      priority: 2,
    });
    expect(one.success && two.success).toBe(true);
    await eventually(["mn-two/2", "mn-one/1"]);
    const id = one.data.id;
    expect((await rootA.put("/api/channel/", { id, name: "mn-one-renamed", priority: 5 })).success).toBe(true);
    await eventually(["mn-one-renamed/5", "mn-two/2"]);
    expect((await rootA.del(`/api/channel/${id}/`)).success).toBe(true);
    await eventually(["mn-two/2"]);
  });
});
