// An upstream that goes silent after its headers (STREAMING_TIMEOUT, lib/relay/transport.ts):
// the gateway cuts the call after that many seconds without a byte, closes the upstream
// connection, ends the client's answer with an error, and settles or refunds the reservation
// (no hold left, the balance equal to its ledger). The server runs with STREAMING_TIMEOUT=1.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { queryDb } from "../support/db";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let upstream: http.Server;
let key: string;
let userId: number;
// the upstream's answers the gateway closed (their connection ended before the answer did)
let closedByGateway = 0;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      res.on("close", () => {
        if (!res.writableEnded) closedByGateway++;
      });
      if (JSON.parse(body).stream) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(
          `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m-idle","choices":[{"index":0,"delta":{"role":"assistant","content":"hi"},"finish_reason":null}]}\n\n`,
        );
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"id":"c1","object":"chat.completion","choices":[');
      }
      // and nothing more, never ending
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  server = await startServer({ env: { STREAMING_TIMEOUT: "1" } });
  const root = await setupRoot(server);
  await setOptions(root, { ModelRatio: JSON.stringify({ "m-idle": 1 }) });
  const port = (upstream.address() as AddressInfo).port;
  const ch = await root.post("/api/channel/", {
    name: "idle",
    type: 1,
    key: "sk-idle",
    base_url: `http://127.0.0.1:${port}`,
    models: "m-idle",
    group: "default",
  });
  expect(ch.success, ch.message).toBe(true);
  const user = await makeUser(server, root, "idler");
  userId = user.id;
  expect((await root.put("/api/user/", { id: user.id, quota: 5_000_000 })).success).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "idle", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  key = t.data[0].key;
});

afterAll(async () => {
  await server?.stop();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
});

const call = (stream: boolean) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "m-idle", stream, messages: [{ role: "user", content: "hello" }] }),
    signal: AbortSignal.timeout(15_000),
  });

async function moneyClosed(): Promise<void> {
  let holds = -1;
  for (let i = 0; i < 50 && holds !== 0; i++) {
    holds = Number((await queryDb<{ n: unknown }>(server, 'SELECT COUNT(*) AS n FROM "quota_holds"'))[0].n);
    if (holds) await new Promise((r) => setTimeout(r, 100));
  }
  expect(holds).toBe(0);
  const [u] = await queryDb<{ quota: unknown }>(server, 'SELECT "quota" FROM "users" WHERE "id" = $1', [userId]);
  const [l] = await queryDb<{ s: unknown }>(server, 'SELECT COALESCE(SUM("delta"), 0) AS s FROM "quota_ledger" WHERE "user_id" = $1', [userId]);
  expect(BigInt(String(u.quota))).toBe(BigInt(String(l.s)));
}

describe("an upstream silent for STREAMING_TIMEOUT seconds", () => {
  it("cuts a stream after what it sent, with an error event, and closes its reservation", async () => {
    const before = closedByGateway;
    const t0 = Date.now();
    const r = await call(true);
    expect(r.status).toBe(200);
    const text = await r.text();
    const took = Date.now() - t0;
    expect(text).toContain('"content":"hi"');
    expect(text).toContain("the upstream stream broke");
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(8000);
    // the upstream sees the close a moment after the client's answer ends (later on a loaded machine)
    await expect.poll(() => closedByGateway).toBe(before + 1);
    await moneyClosed();
  });

  it("cuts a body that stops half-way with a 502, and refunds it", async () => {
    const before = closedByGateway;
    const r = await call(false);
    expect(r.status).toBe(502);
    expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/upstream/);
    await expect.poll(() => closedByGateway).toBe(before + 1);
    await moneyClosed();
  });
});
