// Revocable sessions on three nodes of one PostgreSQL database and one Redis behind the
// local balancer (docs/accounts-api.md, "Sessions"): each node knows a live session from
// memory, so an ending must reach the others through the invalidation channel. A cookie
// copied before logout, "sign out everywhere else" or a password change is refused on all
// three nodes within a second. PostgreSQL project only (SQLite is a single-node database).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setupRoot } from "../support/accounts";
import { startServer, type TestServer } from "../support/server";
import { startBalancer, type Balancer } from "../support/balancer.mjs";

const enabled = process.env.TEST_DB === "postgresql";
const WITHIN_MS = 1_000;

let nodes: TestServer[] = [];
let lb: Balancer;
let root: ApiClient;

// the same cookie and user header sent to one node directly
function on(node: TestServer, c: ApiClient): ApiClient {
  const copy = new ApiClient(node.url, c.locale);
  copy.cookie = c.cookie;
  copy.userId = c.userId;
  return copy;
}

const accepted = async (node: TestServer, c: ApiClient) => (await on(node, c).get("/api/user/self")).success === true;

// Polls every node until it refuses c; answers the slowest node's delay since `since`.
async function slowestRefusal(since: number, c: ApiClient): Promise<number> {
  const delays = await Promise.all(
    nodes.map(async (n) => {
      while (await accepted(n, c)) {
        if (Date.now() - since > 5_000) return Infinity;
        await new Promise((r) => setTimeout(r, 20));
      }
      return Date.now() - since;
    }),
  );
  return Math.max(...delays);
}

async function signIn(username: string, password: string): Promise<ApiClient> {
  const c = new ApiClient(lb.url);
  const r = await c.login(username, password);
  expect(r.success, r.message).toBe(true);
  return c;
}

// every node has looked the session up and keeps it in memory
async function warm(c: ApiClient): Promise<void> {
  for (const n of nodes) for (let i = 0; i < 3; i++) expect(await accepted(n, c)).toBe(true);
}

describe.skipIf(!enabled)("sessions on three nodes (PostgreSQL + Redis)", () => {
  beforeAll(async () => {
    const shared = {
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_PREFIX: `gwtest:${randomBytes(6).toString("hex")}:`,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    };
    const first = await startServer({ env: { ...shared, NODE_ID: "node-0" } });
    nodes = [first];
    // one after the other: on a busy machine two starts at once can pass startServer's bound
    for (let i = 1; i < 3; i++) nodes.push(await startServer({ env: { ...shared, NODE_ID: `node-${i}` }, databaseUrl: first.databaseUrl }));
    lb = await startBalancer({ targets: nodes.map((n) => ({ port: n.port })) });
    root = await setupRoot(first);
  }, 120_000);

  afterAll(async () => {
    await lb?.close();
    // the first node owns the database: stop it last
    for (const n of [...nodes].reverse()) await n.stop();
  });

  it("refuses a cookie copied before logout on all three nodes within a second", async () => {
    await makeUser(nodes[0], root, "n-logout");
    const c = await signIn("n-logout", "user-pass-1");
    const copy = new ApiClient(lb.url);
    copy.cookie = c.cookie;
    copy.userId = c.userId;
    await warm(copy);
    // logout on one node; the copy is tried on each node directly
    const since = Date.now();
    const out = await on(nodes[1], c).raw("GET", "/api/user/logout");
    expect(out.status).toBe(200);
    const delay = await slowestRefusal(since, copy);
    expect(delay).toBeLessThanOrEqual(WITHIN_MS);
    // and through the balancer, again and again
    for (let i = 0; i < 6; i++) expect((await copy.get("/api/user/self")).status).toBe(401);
  });

  it("'sign out everywhere else' ends the others on all three nodes and keeps the caller's", async () => {
    await makeUser(nodes[0], root, "n-all");
    const keep = await signIn("n-all", "user-pass-1");
    const others = [await signIn("n-all", "user-pass-1"), await signIn("n-all", "user-pass-1")];
    for (const c of [keep, ...others]) await warm(c);
    const since = Date.now();
    const r = await on(nodes[2], keep).post<{ ended: number }>("/api/user/sessions/revoke_all");
    expect(r.success, r.message).toBe(true);
    const delays = await Promise.all(others.map((c) => slowestRefusal(since, c)));
    expect(Math.max(...delays)).toBeLessThanOrEqual(WITHIN_MS);
    for (const n of nodes) expect(await accepted(n, keep)).toBe(true);
  });

  it("a password change ends the other sessions on all three nodes; a ban ends the rest", async () => {
    const { id } = await makeUser(nodes[0], root, "n-pass");
    const me = await signIn("n-pass", "user-pass-1");
    const other = await signIn("n-pass", "user-pass-1");
    await warm(me);
    await warm(other);
    const since = Date.now();
    const caller = on(nodes[0], me);
    const r = await caller.put("/api/user/self", { password: "new-pass-33", original_password: "user-pass-1" });
    expect(r.success, r.message).toBe(true);
    expect(await slowestRefusal(since, other)).toBeLessThanOrEqual(WITHIN_MS);
    // the caller's session stays, under the renewed cookie the answer carried
    expect(caller.cookie).not.toBe(me.cookie);
    for (const n of nodes) expect(await accepted(n, caller)).toBe(true);
    // a ban ends it: enabled again at once, the old session is still refused everywhere
    await warm(caller);
    const banAt = Date.now();
    expect((await root.post("/api/user/manage", { id, action: "disable" })).success).toBe(true);
    expect((await root.post("/api/user/manage", { id, action: "enable" })).success).toBe(true);
    expect(await slowestRefusal(banAt, caller)).toBeLessThanOrEqual(WITHIN_MS);
  });
});
