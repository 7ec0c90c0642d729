// The stream client (lib/client/stream-client.ts) against a real local SSE server: states,
// events, POST body and headers, no reconnect by default, auto-reconnect after 3000 ms with
// Last-Event-ID, close() for good, and a refused request reported and not retried.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECONNECT_DELAY_MS, StreamClient, type StreamFailure, type StreamState } from "@/lib/client/stream-client";

type Seen = { at: number; lastEventId: string | undefined; body: string; auth: string | undefined };
let server: Server;
let base = "";
const seen: Seen[] = [];

const readBody = (req: IncomingMessage) =>
  new Promise<string>((r) => {
    let s = "";
    req.on("data", (c) => (s += c));
    req.on("end", () => r(s));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    seen.push({ at: Date.now(), lastEventId: req.headers["last-event-id"] as string | undefined, body, auth: req.headers.authorization });
    if (req.url === "/refused") {
      res.writeHead(403, { "content-type": "application/json" });
      res.end('{"error":{"message":"no"}}');
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const n = seen.length;
    res.write(`id: ${n}-a\ndata: first ${n}\n\n`);
    res.write(`event: note\nid: ${n}-b\ndata: second ${n}\n\n`);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("StreamClient", () => {
  it("goes initializing → connecting → open → closed, POSTs the payload and reads the events", async () => {
    seen.length = 0;
    const c = new StreamClient(`${base}/s`, { payload: '{"q":1}', headers: { authorization: "Bearer t" } });
    expect(c.state).toBe<StreamState>("initializing");
    const states: StreamState[] = [];
    const events: string[] = [];
    c.on("state", (s) => states.push(s)).on("message", (e) => events.push(`${e.type}:${e.id}:${e.data}`));
    await c.stream();
    expect(states).toEqual(["connecting", "open", "closed"]);
    expect(events).toEqual(["message:1-a:first 1", "note:1-b:second 1"]);
    expect(c.lastEventId).toBe("1-b");
    expect(seen).toMatchObject([{ body: '{"q":1}', auth: "Bearer t", lastEventId: undefined }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen.length).toBe(1); // no reconnect by default
  });

  it("reconnects after 3000 ms with the last event id, until closed", async () => {
    seen.length = 0;
    const c = new StreamClient(`${base}/s`, { payload: "{}", autoReconnect: true });
    let ends = 0;
    const second = new Promise<void>((resolve) =>
      c.on("end", () => {
        ends++;
        if (ends === 2) resolve();
      }),
    );
    await c.stream();
    await second;
    c.close();
    expect(RECONNECT_DELAY_MS).toBe(3000);
    expect(seen.length).toBe(2);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(2900);
    expect(seen[1].lastEventId).toBe("1-b");
    expect(c.state).toBe("closed");
    await new Promise((r) => setTimeout(r, 3300));
    expect(seen.length).toBe(2); // closed for good
  }, 15_000);

  it("reports a refused request with its status and body and does not retry it", async () => {
    seen.length = 0;
    const c = new StreamClient(`${base}/refused`, { payload: "{}", autoReconnect: true, reconnectDelay: 50 });
    const failures: StreamFailure[] = [];
    c.on("error", (f) => failures.push(f));
    await c.stream();
    await new Promise((r) => setTimeout(r, 300));
    expect(failures).toEqual([{ status: 403, body: '{"error":{"message":"no"}}' }]);
    expect(seen.length).toBe(1);
    expect(c.state).toBe("closed");
  });

  it("reports a network failure", async () => {
    const c = new StreamClient("http://127.0.0.1:1/none", { payload: "{}" });
    const failures: StreamFailure[] = [];
    c.on("error", (f) => failures.push(f));
    await c.stream();
    expect(failures).toHaveLength(1);
    expect(failures[0].status).toBe(0);
  });
});
