// Console bodies are refused past their limit while they arrive: a chunked body bigger than
// the limit is answered 413 long before the client has sent it, and never read whole.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedUser, type SeededUser } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: SeededUser;
beforeAll(async () => {
  server = await startServer();
  root = await seedUser(server, { username: "root", role: 100 });
});
afterAll(async () => {
  await server?.stop();
});

type Sent = { status: number; body: string; sentBeforeAnswer: number; sentTotal: number };

// Sends `total` bytes as a chunked body in 64 KiB chunks (or `content` in one chunk), as
// fast as the socket takes them, and notes how much had been sent when the answer's first
// byte came back.
function sendChunked(path: string, total: number, headers: Record<string, string> = {}, content?: Buffer): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, "127.0.0.1");
    let sent = 0;
    let sentBeforeAnswer = -1;
    const received: Buffer[] = [];
    let finished = false;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const head =
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("") +
      "\r\n";
    const pump = () => {
      while (!finished && sentBeforeAnswer < 0) {
        if (content) {
          socket.write(`${content.length.toString(16)}\r\n`);
          socket.write(content);
          socket.write("\r\n0\r\n\r\n");
          sent = content.length;
          return;
        }
        if (sent >= total) {
          socket.write("0\r\n\r\n");
          return;
        }
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        const more = socket.write(`${piece.length.toString(16)}\r\n`) && socket.write(piece) && socket.write("\r\n");
        if (!more) return socket.once("drain", pump);
      }
    };
    socket.on("connect", () => {
      socket.write(head);
      pump();
    });
    const parts = () => {
      const all = Buffer.concat(received);
      const end = all.indexOf("\r\n\r\n");
      return { all, end, head: end === -1 ? "" : all.subarray(0, end).toString("latin1") };
    };
    socket.on("data", (d: Buffer) => {
      if (sentBeforeAnswer < 0) sentBeforeAnswer = sent;
      received.push(d);
      const { all, end, head } = parts();
      const len = /content-length: (\d+)/i.exec(head)?.[1];
      if (end !== -1 && len && all.length >= end + 4 + Number(len)) done();
    });
    const done = () => {
      if (finished) return;
      finished = true;
      socket.destroy();
      const { all, end, head } = parts();
      let body: Buffer = all.subarray(end + 4);
      if (/transfer-encoding: chunked/i.test(head)) body = dechunk(body);
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0);
      resolve({ status, body: body.toString("utf8"), sentBeforeAnswer, sentTotal: sent });
    };
    const closed = () => (received.length ? done() : reject(new Error("closed without an answer")));
    socket.on("error", closed);
    socket.on("end", closed);
    socket.on("close", closed);
  });
}

function dechunk(raw: Buffer): Buffer {
  const out: Buffer[] = [];
  for (let at = 0; ;) {
    const eol = raw.indexOf("\r\n", at);
    const size = parseInt(raw.subarray(at, eol).toString("latin1"), 16);
    if (!size) return Buffer.concat(out);
    out.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

const MiB = 1024 * 1024;

describe("console body limit while the body arrives", () => {
  it("answers a 50 MB chunked login body with 413 before it is sent, four at once", async () => {
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => sendChunked("/api/user/login", 50 * MiB, i % 2 ? { cookie: "NEXT_LOCALE=en" } : {})));
    for (const [i, r] of results.entries()) {
      expect(r.status).toBe(413);
      expect(JSON.parse(r.body)).toEqual({ success: false, message: i % 2 ? "Request body too large" : "请求体过大" });
      // answered after about the 1 MiB limit plus what the loopback sockets buffer (up to about
      // 14 MiB seen on a loaded machine), long before the 50 MB are sent
      expect(r.sentBeforeAnswer).toBeGreaterThan(0);
      expect(r.sentBeforeAnswer).toBeLessThan(25 * MiB);
      expect(r.sentTotal).toBeLessThan(50 * MiB);
    }
    // the server is fine afterwards
    expect((await fetch(server.url + "/api/status")).status).toBe(200);
  });

  it("answers a declared length past the limit at once, without reading the body", async () => {
    const r = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(server.port, "127.0.0.1", () => {
        socket.write(`POST /api/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${50 * MiB}\r\n\r\n{"username":`);
      });
      let got = "";
      socket.on("data", (d) => {
        got += d.toString("latin1");
        if (got.includes("}")) {
          socket.destroy();
          resolve(got);
        }
      });
      socket.on("error", reject);
    });
    expect(r).toMatch(/^HTTP\/1\.1 413/);
    expect(r).toMatch(/connection: close/i);
    expect(r).toContain('"success":false');
  });

  it("hands chunked bodies within the limit to the route whole", async () => {
    const login = await sendChunked(
      "/api/user/login",
      0,
      { cookie: "NEXT_LOCALE=en" },
      Buffer.from(JSON.stringify({ username: "root", password: "wrong-password" })),
    );
    expect(login.status).toBe(200);
    expect(JSON.parse(login.body).success).toBe(false);
    const big = await sendChunked("/api/user/login", Math.floor(1.5 * MiB), { cookie: "NEXT_LOCALE=en" });
    expect(big.status).toBe(413);
    // JSON with 1.5 MB of white space: past the default limit, within the channel route's 4 MB
    const fields = JSON.stringify({ type: 1, name: "big", key: "sk-upstream-key", models: "gpt-4o", group: "default", base_url: "http://127.0.0.1:9" });
    const body = Buffer.from(fields.slice(0, -1) + " ".repeat(1.5 * MiB) + "}");
    const channel = await sendChunked("/api/channel/", 0, { cookie: root.client.cookie, "New-Api-User": String(root.id) }, body);
    expect(channel.status).toBe(200);
    expect(JSON.parse(channel.body).success).toBe(true);
  });
});
