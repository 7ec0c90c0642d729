// The periodic channel jobs (CHANNEL_TEST_FREQUENCY, CHANNEL_UPDATE_FREQUENCY:
// lib/channel-admin/periodic-jobs.ts, docs/operations.md "Periodic jobs and their leases"), with
// a period of 1.2 s (0.02 minutes): with no console call, the periodic test tests every
// channel and disables the one whose upstream fails (AutomaticDisableChannelEnabled), and the
// periodic refresh stores a channel's balance; a bad frequency stops the start. PostgreSQL
// project: two nodes on one database and one Redis, whose upstream sees one test per period,
// not one per node.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client";
import { setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

const PERIOD_MS = 1_200;
const FREQUENCY = String(PERIOD_MS / 60_000); // "0.02" minutes

type Channel = { id: number; name: string; status: number; balance: number; balance_updated_time: number };

async function channels(root: ApiClient): Promise<Map<string, Channel>> {
  const list = await root.get<{ items: Channel[] }>("/api/channel/?p=1&page_size=100");
  return new Map(list.data.items.map((c) => [c.name, c]));
}

async function until(check: () => Promise<boolean>, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// the channel tests a mock received (chat calls), as opposed to its billing reads
const tests = (m: MockUpstream) => m.requests.filter((r) => r.url === "/v1/chat/completions");

describe("periodic channel test and balance refresh, one node", () => {
  let server: TestServer;
  let root: ApiClient;
  let good: MockUpstream;
  let broken: MockUpstream;

  beforeAll(async () => {
    server = await startServer({ env: { CHANNEL_TEST_FREQUENCY: FREQUENCY, CHANNEL_UPDATE_FREQUENCY: FREQUENCY } });
    good = await startMockUpstream("openai");
    good.behavior.billing = { hardLimitUsd: 50, usageCents: 1_250 }; // balance 37.5
    broken = await startMockUpstream("openai");
    broken.behavior.failStatus = 500;
    root = await setupRoot(server);
    await setOptions(root, { AutomaticDisableChannelEnabled: "true", ChannelDisableFailureCount: "1" });
    for (const [name, m] of [
      ["good", good],
      ["broken", broken],
    ] as const) {
      const r = await root.post("/api/channel/", { name, type: 1, key: m.key, base_url: m.url, models: `m-${name}`, group: "default" });
      expect(r.success, r.message).toBe(true);
    }
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await good?.close();
    await broken?.close();
  });

  it("tests every channel without a console call and disables the failing one", async () => {
    await until(async () => (await channels(root)).get("broken")?.status === 3, "the failing channel's automatic disabling");
    expect(tests(broken).length).toBeGreaterThan(0);
    expect(tests(good).length).toBeGreaterThan(0);
    expect((await channels(root)).get("good")?.status).toBe(1);
    const lines = server.logLines();
    expect(lines.some((l) => l.msg === "periodic channel job started" && l.job === "channel-test")).toBe(true);
    expect(lines.some((l) => l.area === "channels" && l.msg === "periodic channel test done" && Number(l.failed) >= 1)).toBe(true);
    expect(lines.some((l) => l.area === "channels" && l.msg === "channel auto-disabled")).toBe(true);
    expect(lines.filter((l) => l.level === "error" || l.level === "fatal")).toEqual([]);
    // the keys never reach the log
    expect(server.logs()).not.toContain(good.key);
    expect(server.logs()).not.toContain(broken.key);
  });

  it("refreshes the balance of the channels whose upstream publishes one", async () => {
    await until(async () => ((await channels(root)).get("good")?.balance_updated_time ?? 0) > 0, "the periodic balance refresh");
    const c = (await channels(root)).get("good")!;
    expect(c.balance).toBeCloseTo(37.5);
    const [row] = await query(server, 'SELECT "balance" FROM "channels" WHERE "id" = $1', [c.id]);
    expect(Number(row.balance)).toBeCloseTo(37.5);
    expect(good.requests.some((r) => r.url === "/v1/dashboard/billing/subscription")).toBe(true);
    expect(server.logLines().some((l) => l.area === "channels" && l.msg === "periodic balance refresh done" && Number(l.updated) >= 1)).toBe(true);
  });

  it("a bad frequency stops the start with a clear error", async () => {
    // on the same database, which it never reaches: no database of its own to drop afterwards
    await expect(startServer({ env: { CHANNEL_UPDATE_FREQUENCY: "every hour" }, databaseUrl: server.databaseUrl })).rejects.toThrow(
      /Invalid configuration: CHANNEL_UPDATE_FREQUENCY: must be a number of minutes/,
    );
  });
});

describe.skipIf(process.env.TEST_DB !== "postgresql")("periodic channel test on two nodes (PostgreSQL + Redis)", () => {
  const nodes: TestServer[] = [];
  let mock: MockUpstream;

  beforeAll(async () => {
    const shared = {
      CHANNEL_TEST_FREQUENCY: FREQUENCY,
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_PREFIX: `gwtest:${randomBytes(6).toString("hex")}:`,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    };
    const first = await startServer({ env: { ...shared, NODE_ID: "node-0" } });
    nodes.push(first);
    nodes.push(await startServer({ env: { ...shared, NODE_ID: "node-1" }, databaseUrl: first.databaseUrl }));
    mock = await startMockUpstream("openai");
    const root = await setupRoot(first);
    const r = await root.post("/api/channel/", { name: "shared", type: 1, key: mock.key, base_url: mock.url, models: "m-shared", group: "default" });
    expect(r.success, r.message).toBe(true);
  }, 60_000);

  afterAll(async () => {
    nodes[1]?.signal("SIGCONT");
    // the first node owns the database: stop it last
    for (const n of [...nodes].reverse()) await n.stop();
    await mock?.close();
  });

  it("the upstream sees one test per period, not one per node, even from a node whose timer fires late", async () => {
    await until(async () => tests(mock).length > 0, "the first periodic test");
    const from = tests(mock).length;
    const since = Date.now();
    // Every node's timer fires at the start of each period. For six periods, node-1 is frozen
    // (SIGSTOP) from just before that instant to 400 ms after it: its timer then fires after
    // node-0's round has ended and released the lease and the "test all" guard. The period's
    // claim in Redis still stops it.
    for (let i = 0; i < 6; i++) {
      const boundary = (Math.floor(Date.now() / PERIOD_MS) + 1) * PERIOD_MS;
      await new Promise((r) => setTimeout(r, boundary - 150 - Date.now()));
      nodes[1].signal("SIGSTOP");
      await new Promise((r) => setTimeout(r, boundary + 400 - Date.now()));
      nodes[1].signal("SIGCONT");
    }
    await new Promise((r) => setTimeout(r, 2 * PERIOD_MS));
    const elapsed = Date.now() - since;
    const count = tests(mock).length - from; // the tests after the first ones seen
    // at most one per period that began in the window (uncoordinated nodes make about twice as many)
    expect(count).toBeLessThanOrEqual(Math.ceil(elapsed / PERIOD_MS) + 1);
    expect(count).toBeGreaterThanOrEqual(4);
    // each node's log tells the rounds it ran (those that found the channel): together, the
    // upstream's count (the last round's line may still be on its way)
    const done = nodes.map((n) => n.logLines().filter((l) => l.msg === "periodic channel test done" && Number(l.total) >= 1).length);
    const sum = done.reduce((a, b) => a + b, 0);
    expect(sum).toBeGreaterThanOrEqual(tests(mock).length - 1);
    expect(sum).toBeLessThanOrEqual(tests(mock).length);
    for (const n of nodes) expect(n.logLines().some((l) => l.msg === "periodic channel job started")).toBe(true);
  });
});
