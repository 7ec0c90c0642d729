// The SQLite billing store on a real database file with the program's schema: settlements
// and refunds wait for the next reservation's commit (or a short timer), never change what
// a movement does, and flushSoon commits whatever still waits.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteBillingStore } from "@/lib/billing/store/sqlite";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function openStore() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "billing-store-"));
  dirs.push(dir);
  const file = path.join(dir, "t.db");
  const conn = new Database(file);
  conn.pragma("journal_mode = WAL");
  const migrations = path.join(process.cwd(), "prisma/migrations/sqlite");
  for (const f of readdirSync(migrations)
    .filter((n) => n.endsWith(".sql"))
    .sort())
    conn.exec(readFileSync(path.join(migrations, f), "utf8"));
  conn.exec(`INSERT INTO "users" ("id", "username", "password", "aff_code", "quota") VALUES (1, 'alice', 'x', 'a1', 10000)`);
  conn.exec(`INSERT INTO "tokens" ("id", "user_id", "key_hash", "key_cipher", "name", "remain_quota") VALUES (1, 1, 'h', 'c', 't', 50000)`);
  // a second connection sees only what was committed
  const reader = new Database(file, { readonly: true });
  reader.defaultSafeIntegers(true);
  const ledger = () =>
    (reader.prepare(`SELECT "kind", "delta" FROM "quota_ledger" ORDER BY "id"`).all() as { kind: string; delta: bigint }[]).map((r) => `${r.kind}:${r.delta}`);
  const quota = () => (reader.prepare(`SELECT "quota" FROM "users" WHERE "id" = 1`).get() as { quota: bigint }).quota;
  const holds = () => (reader.prepare(`SELECT "ref", "node_id", "amount" FROM "quota_holds" ORDER BY "ref"`).all() as { ref: string }[]).map((r) => ({ ...r }));
  const logs = () => reader.prepare(`SELECT "type", "content", "request_id", "username", "token_name" FROM "logs" ORDER BY "id"`).all();
  const remain = () => (reader.prepare(`SELECT "remain_quota" FROM "tokens" WHERE "id" = 1`).get() as { remain_quota: bigint }).remain_quota;
  return { store: sqliteBillingStore(conn, "node-a"), ledger, quota, holds, logs, remain };
}

const call = (ref: string, amount: bigint) => ({ userId: 1, tokenId: 1, unlimitedToken: false, amount, ref });

describe("SQLite billing store", () => {
  it("commits a settlement with the next reservation, in the order they were asked for", async () => {
    const { store, ledger, quota } = openStore();
    await store.reserve(call("a", 1000n));
    const settled = store.settle({ ...call("a", 1000n), actual: 400n, channelId: 0 });
    // nothing committed yet: the settlement waits for a batch
    await new Promise((resolve) => setImmediate(resolve));
    expect(ledger()).toEqual(["relay_reserve:-1000"]);
    // the next reservation carries it; the settlement's refund of 600 comes first
    await store.reserve(call("b", 9600n));
    await settled;
    expect(ledger()).toEqual(["relay_reserve:-1000", "relay_settle:600", "relay_reserve:-9600"]);
    expect(quota()).toBe(0n);
  });

  it("commits a settlement alone after a few milliseconds, and at once on flushSoon", async () => {
    const { store, ledger } = openStore();
    await store.reserve(call("a", 1000n));
    const started = performance.now();
    await store.settle({ ...call("a", 1000n), actual: 1500n, channelId: 0 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(ledger()).toEqual(["relay_reserve:-1000", "relay_settle:-500"]);

    await store.reserve(call("b", 200n));
    void store.refund(call("b", 200n));
    await store.flushSoon();
    expect(ledger()).toEqual(["relay_reserve:-1000", "relay_settle:-500", "relay_reserve:-200", "relay_refund:200"]);
  });

  it("refuses a reservation the balance does not cover without touching the settlement before it", async () => {
    const { store, ledger, quota } = openStore();
    await store.reserve(call("a", 4000n));
    const settled = store.settle({ ...call("a", 4000n), actual: 4000n, channelId: 0 });
    await expect(store.reserve(call("b", 7000n))).rejects.toMatchObject({ code: "QUOTA_EXCEEDED", key: "quota_insufficient_user" });
    await settled;
    expect(ledger()).toEqual(["relay_reserve:-4000"]);
    expect(quota()).toBe(6000n);
  });
});

describe("SQLite billing store: a reservation's commit overlapping the upstream call", () => {
  it("calls beforeCommit once the debits are decided, commits in the next turn, and only then resolves", async () => {
    const { store, ledger } = openStore();
    const seen: string[][] = [];
    const reserved = store.reserve({ ...call("a", 1000n), beforeCommit: () => seen.push(ledger()) });
    await new Promise((resolve) => setImmediate(resolve)); // the flush's turn: decided, not committed
    expect(seen).toEqual([[]]);
    expect(ledger()).toEqual([]);
    await reserved;
    expect(ledger()).toEqual(["relay_reserve:-1000"]);
  });

  it("never calls beforeCommit for a refused reservation", async () => {
    const { store, ledger } = openStore();
    let called = 0;
    await expect(store.reserve({ ...call("a", 20_000n), beforeCommit: () => called++ })).rejects.toMatchObject({ key: "quota_insufficient_user" });
    expect(called).toBe(0);
    expect(ledger()).toEqual([]);
  });
});

describe("SQLite billing store: holds", () => {
  it("writes a hold with the reservation and deletes it with the settlement or the refund", async () => {
    const { store, holds } = openStore();
    await store.reserve(call("a", 1000n));
    await store.reserve(call("b", 300n));
    expect(holds()).toEqual([
      { ref: "a", node_id: "node-a", amount: 1000n },
      { ref: "b", node_id: "node-a", amount: 300n },
    ]);
    await store.settle({ ...call("a", 1000n), actual: 1000n, channelId: 0 });
    await store.refund(call("b", 300n));
    expect(holds()).toEqual([]);
  });

  it("keeps no hold for a refused reservation", async () => {
    const { store, holds } = openStore();
    await expect(store.reserve(call("a", 20_000n))).rejects.toMatchObject({ key: "quota_insufficient_user" });
    expect(holds()).toEqual([]);
  });

  it("sweeps a hold once, with its refund, ledger row and log row; the call's own settlement then moves nothing", async () => {
    const { store, holds, ledger, quota, logs, remain } = openStore();
    await store.reserve(call("a", 1000n));
    const results = await Promise.allSettled([store.sweep({ ref: "a", reason: "node_stopped" }), store.sweep({ ref: "a", reason: "node_stopped" })]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ name: "HoldGone" });
    expect(holds()).toEqual([]);
    expect(ledger()).toEqual(["relay_reserve:-1000", "relay_refund:1000"]);
    expect(quota()).toBe(10000n);
    expect(remain()).toBe(50000n);
    expect(logs()).toEqual([{ type: 6n, content: "refunded: the node handling this call stopped", request_id: "a", username: "alice", token_name: "t" }]);
    await expect(store.settle({ ...call("a", 1000n), actual: 700n, channelId: 0 })).rejects.toMatchObject({ name: "HoldGone" });
    await expect(store.refund(call("a", 1000n))).rejects.toMatchObject({ name: "HoldGone" });
    expect(ledger()).toEqual(["relay_reserve:-1000", "relay_refund:1000"]);
    expect(quota()).toBe(10000n);
  });

  it("does not sweep a hold its call settled", async () => {
    const { store, ledger } = openStore();
    await store.reserve(call("a", 1000n));
    await store.settle({ ...call("a", 1000n), actual: 600n, channelId: 0 });
    await expect(store.sweep({ ref: "a", reason: "node_stopped" })).rejects.toMatchObject({ name: "HoldGone" });
    expect(ledger()).toEqual(["relay_reserve:-1000", "relay_settle:400"]);
  });
});
