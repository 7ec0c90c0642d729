// Crash-safe money (docs/channels-tokens-billing.md, "Holds"): 200 relay calls, half of them
// streams, are under way against a slow upstream when the server is killed with SIGKILL.
// Started again on the same database, data directory and port (the same derived node id),
// it refunds every reservation the dead process left open before it serves anything. Then
// every balance and token equals its ledger, no hold is left, and every call's reservation
// was closed exactly once: by its settlement or by a refund, never both. A second test
// has another node's sweeper refund the hold of a node that stopped beating, two sweeps racing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { query, useServerEnvironment } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let upstream: MockUpstream;
type Caller = { id: number; key: string; tokenId: number };
const callers: Caller[] = [];
const TOKEN_QUOTA = 40_000_000;
const CALLS = 200;

// answers other than 200 before the kill (none expected)
const failures: string[] = [];
const big = (v: unknown) => BigInt(String(v ?? 0));

beforeAll(async () => {
  server = await startServer();
  upstream = await startMockUpstream("openai");
  // every answer waits before its first byte; a stream then pauses after its second event,
  // so that at the kill some calls are settled, some wait for the upstream and some streams
  // are half sent
  upstream.behavior.delayMs = 300;
  upstream.behavior.pauseMs = 20_000;
  root = await setupRoot(server);
  await setOptions(root, { ModelRatio: JSON.stringify({ "gpt-4o-mini": 1.5 }), CompletionRatio: JSON.stringify({ "gpt-4o-mini": 4 }) });
  const ch = await root.post("/api/channel/", { name: "slow", type: 1, key: upstream.key, base_url: upstream.url, models: "gpt-4o-mini", group: "default" });
  expect(ch.success, ch.message).toBe(true);
  for (const name of ["carol", "dave"]) {
    const u = await makeUser(server, root, name);
    const q = await root.put("/api/user/", { id: u.id, quota: 100_000_000 });
    expect(q.success, q.message).toBe(true);
    const t = await u.client.post<{ key: string }[]>("/api/token/", { name: "limited", unlimited_quota: false, remain_quota: TOKEN_QUOTA });
    expect(t.success, t.message).toBe(true);
    const [row] = await query(server, 'SELECT "id" FROM "tokens" WHERE "user_id" = $1', [u.id]);
    callers.push({ id: u.id, key: t.data[0].key, tokenId: Number(row.id) });
  }
});

afterAll(async () => {
  await server?.stop();
  await upstream?.close();
});

// One call; resolves whatever happens to it (the kill cuts most of them off).
// clientId: the call's own X-Request-Id (the hold keeps it for the sweep's log row)
async function call(c: Caller, stream: boolean, answered: { n: number }, clientId?: string): Promise<void> {
  try {
    const headers: Record<string, string> = { authorization: `Bearer ${c.key}`, "content-type": "application/json" };
    if (clientId) headers["x-request-id"] = clientId;
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers,
      // max_tokens sizes the reservation well above the cost, so that every settlement
      // writes a relay_settle row (it gives the difference back)
      body: JSON.stringify({ model: "gpt-4o-mini", max_tokens: 1000, stream, messages: [{ role: "user", content: "hello there" }] }),
    });
    const text = await res.text();
    if (res.ok && !stream) answered.n++;
    if (!res.ok) failures.push(`${res.status} ${text.slice(0, 200)}`);
  } catch {
    // the server was killed under this call
  }
}

async function until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a node killed in the middle of relay calls", () => {
  // About 20 s on a quiet machine (two server starts, most of it); the bound leaves room for a loaded one.
  it("refunds at its restart every reservation it left open, once, and the ledger still holds", { timeout: 120_000 }, async () => {
    const answered = { n: 0 };
    const calls: Promise<void>[] = [];
    const fire = (from: number, to: number) => {
      for (let i = from; i < to; i++) calls.push(call(callers[i % 2], i % 4 < 2, answered, i % 3 === 0 ? `client-${i}` : undefined));
    };
    // a first half, of which some whole answers arrive (and are settled) before the kill
    fire(0, CALLS / 2);
    await until(() => answered.n >= 10, "the first answers");
    // the second half is reserved and waiting for the upstream when the server dies
    fire(CALLS / 2, CALLS);
    await until(() => upstream.requests.length >= CALLS || failures.length > 0, "the upstream calls");
    expect(failures, server.logs().slice(-3000)).toEqual([]);
    const holdsBefore = Number((await query(server, 'SELECT COUNT(*) AS n FROM "quota_holds"'))[0].n);
    await server.kill("SIGKILL");
    await Promise.all(calls);
    expect(holdsBefore).toBeGreaterThan(0);

    await server.restart();

    // the restarted node swept its own holds before it listened
    expect(await query(server, 'SELECT "ref" FROM "quota_holds"')).toEqual([]);
    expect(server.logs()).toMatch(/"area":"holds","refunded":[1-9]\d*,"node":"[^"]+","msg":"refunded the reservations left open by this node's previous run"/);

    // every balance and token equals the sum of its ledger rows
    for (const c of callers) {
      const [u] = await query(server, 'SELECT "quota" FROM "users" WHERE "id" = $1', [c.id]);
      const [l] = await query(server, 'SELECT COALESCE(SUM("delta"), 0) AS s FROM "quota_ledger" WHERE "user_id" = $1', [c.id]);
      expect(big(u.quota)).toBe(big(l.s));
      const [t] = await query(server, 'SELECT "remain_quota" FROM "tokens" WHERE "id" = $1', [c.tokenId]);
      const [tl] = await query(server, 'SELECT COALESCE(SUM("delta"), 0) AS s FROM "quota_ledger" WHERE "token_id" = $1', [c.tokenId]);
      expect(big(t.remain_quota)).toBe(BigInt(TOKEN_QUOTA) + big(tl.s));
    }
    const check = await root.get<{ ok: boolean; users: unknown[]; tokens: unknown[] }>("/api/ledger/check");
    expect(check.success, check.message).toBe(true);
    expect(check.data).toMatchObject({ ok: true, users: [], tokens: [] });

    // each reservation closed exactly once: a settlement or a refund, never both, never neither
    const rows = await query(
      server,
      `SELECT "ref", "kind", COUNT(*) AS n FROM "quota_ledger" WHERE "kind" IN ('relay_reserve', 'relay_settle', 'relay_refund') GROUP BY "ref", "kind"`,
    );
    const byRef = new Map<string, Record<string, number>>();
    for (const r of rows) {
      const kinds = byRef.get(String(r.ref)) ?? {};
      kinds[String(r.kind)] = Number(r.n);
      byRef.set(String(r.ref), kinds);
    }
    expect(byRef.size).toBe(CALLS);
    let settled = 0;
    let refunded = 0;
    for (const [ref, kinds] of byRef) {
      expect(kinds.relay_reserve, ref).toBe(1);
      expect((kinds.relay_settle ?? 0) + (kinds.relay_refund ?? 0), `${ref}: ${JSON.stringify(kinds)}`).toBe(1);
      if (kinds.relay_settle) settled++;
      else refunded++;
    }
    expect(settled).toBeGreaterThan(0);
    expect(refunded).toBeGreaterThan(0);

    // every refund here is the sweeper's, each with its usage log row saying why
    const swept = await query(
      server,
      `SELECT "request_id", "type", "user_id", "other" FROM "logs" WHERE "content" = 'refunded: the node handling this call stopped'`,
    );
    expect(swept).toHaveLength(refunded);
    // each names its call: the client's X-Request-Id when it sent one, else the gateway's id (the ref)
    const refundedRefs = new Set([...byRef].filter(([, k]) => k.relay_refund).map(([ref]) => ref));
    const sweptIds = swept.map((r) => String(r.request_id));
    expect(new Set(sweptIds).size).toBe(refunded);
    const byClient = sweptIds.filter((id) => /^client-\d+$/.test(id));
    expect(byClient.length).toBeGreaterThan(0);
    for (const id of sweptIds.filter((x) => !byClient.includes(x))) expect(refundedRefs.has(id), id).toBe(true);
    expect(swept.every((r) => Number(r.type) === 6)).toBe(true);
    // and is rendered in the reader's language from its message key
    expect(swept.every((r) => JSON.parse(String(r.other)).message?.key === "sweep_node_stopped")).toBe(true);

    // the restarted node serves calls as before, and closes their holds
    upstream.behavior.delayMs = 0;
    upstream.behavior.pauseMs = 0;
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${callers[0].key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", max_tokens: 1000, messages: [{ role: "user", content: "again" }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    expect((await root.get<{ ok: boolean }>("/api/ledger/check")).data.ok).toBe(true);
    expect(await query(server, 'SELECT "ref" FROM "quota_holds"')).toEqual([]);
  });

  it("refunds, once, the holds of a node that stopped beating, even when two sweeps race", async () => {
    // a reservation made here (in-process), then handed to a node id that never beat: a node
    // that died; the sweeps below are this process's, another node's sweeper
    useServerEnvironment(server);
    const { reserve } = await import("@/lib/billing/reserve");
    const { sweepDeadNodes, nodeDeadSeconds } = await import("@/lib/billing/holds");
    const { db } = await import("@/lib/db/client");
    const c = callers[1];
    const r = await reserve({ userId: c.id, tokenId: c.tokenId, unlimitedToken: false, amount: 5000n });
    const [hold] = await query(server, 'SELECT "node_id", "amount" FROM "quota_holds" WHERE "ref" = $1', [r.ref]);
    expect(big(hold.amount)).toBe(5000n);
    // not yet: the hold is younger than nodeDeadSeconds()
    await db().$executeRawUnsafe(`UPDATE "quota_holds" SET "node_id" = 'ghost-node'`);
    expect(await sweepDeadNodes()).toBe(0);
    await db().$executeRawUnsafe(`UPDATE "quota_holds" SET "started_at" = "started_at" - ${nodeDeadSeconds() + 5}`);
    const swept = await Promise.all([sweepDeadNodes(), sweepDeadNodes()]);
    expect(swept[0] + swept[1]).toBe(1);
    expect(await query(server, 'SELECT "ref" FROM "quota_holds"')).toEqual([]);
    const kinds = await query(server, 'SELECT "kind", "delta" FROM "quota_ledger" WHERE "ref" = $1 ORDER BY "id"', [r.ref]);
    expect(kinds.map((k) => `${String(k.kind)}:${big(k.delta)}`)).toEqual(["relay_reserve:-5000", "relay_refund:5000"]);
    expect(await query(server, `SELECT "type" FROM "logs" WHERE "request_id" = $1`, [r.ref])).toHaveLength(1);
    expect((await root.get<{ ok: boolean }>("/api/ledger/check")).data.ok).toBe(true);
    await db().$disconnect();
  });
});
