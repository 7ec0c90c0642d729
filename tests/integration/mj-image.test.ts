// GET /mj/image/{id} (docs/tasks.md, MjForwardUrlEnabled) when the stored image cannot be
// given: an upstream that refuses the connection, answers an error status or a page that is
// not an image is a 502 with a clear message (en, zh) and one log line without a stack; the
// route is limited per client address (MJ_IMAGE_RATE_LIMIT a minute). The stored images are
// on local servers (127.0.0.1, fetch_setting.allow_private_ip on); the task rows are written
// straight into the database.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client";
import { setOptions, setupRoot } from "../support/accounts";
import { execDb } from "../support/db";
import { PNG } from "../support/mock-task-upstream";
import { startServer, type TestServer } from "../support/server";

const LIMIT = 8;
let server: TestServer;
let root: ApiClient;
let images: http.Server;
let base = "";
let closedPort = 0;

const listen = async (s: http.Server) => {
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return (s.address() as AddressInfo).port;
};

async function task(mjId: string, imageUrl: string) {
  await execDb(server, 'INSERT INTO "image_tasks" ("user_id", "mj_id", "image_url", "status", "billing_state") VALUES ($1, $2, $3, $4, $5)', [
    1,
    mjId,
    imageUrl,
    "SUCCESS",
    "settled",
  ]);
}

const image = (id: string, from: string, lang = "en") =>
  fetch(`${server.url}/mj/image/${id}`, { headers: { "x-forwarded-for": from, "accept-language": lang } });

beforeAll(async () => {
  images = http.createServer((req, res) => {
    if (req.url === "/ok.png") {
      res.writeHead(200, { "content-type": "image/png" });
      return res.end(PNG);
    }
    if (req.url === "/page") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end("<html>login</html>");
    }
    res.writeHead(500);
    res.end("boom");
  });
  base = `http://127.0.0.1:${await listen(images)}`;
  const gone = http.createServer();
  closedPort = await listen(gone);
  await new Promise((r) => gone.close(r));
  server = await startServer({ env: { MJ_IMAGE_RATE_LIMIT: String(LIMIT) } });
  root = await setupRoot(server); // fetch_setting.allow_private_ip on: the images are on 127.0.0.1
  // the client address is X-Forwarded-For's last entry, so that the test can speak from several
  await setOptions(root, { DrawingEnabled: "true", MjForwardUrlEnabled: "true", ReverseProxyEnabled: "true", ReverseProxyProvider: "nginx" });
  await task("1000000000000001", `${base}/ok.png`);
  await task("1000000000000002", `http://127.0.0.1:${closedPort}/gone.png`);
  await task("1000000000000003", `${base}/page`);
  await task("1000000000000004", `${base}/broken`);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((r) => images?.close(r));
});

describe("GET /mj/image/{id}", () => {
  it("serves a stored image; an unknown id is 404", async () => {
    const ok = await image("1000000000000001", "198.51.100.1");
    expect(ok.status).toBe(200);
    expect(Buffer.from(await ok.arrayBuffer())).toEqual(PNG);
    expect((await image("1999999999999999", "198.51.100.1")).status).toBe(404);
  });

  it("answers 502 with a clear message when the image cannot be fetched, and logs one line without a stack", async () => {
    for (const [id, reason] of [
      ["1000000000000002", "ECONNREFUSED"],
      ["1000000000000003", "not an image"],
      ["1000000000000004", "not an image"],
    ] as const) {
      const res = await image(id, "198.51.100.2");
      expect(res.status, id).toBe(502);
      expect(await res.json(), id).toMatchObject({
        description: expect.stringContaining("The image could not be fetched from the upstream; try again later"),
        result: null,
      });
      const logged = () => server.logLines().filter((l) => l.msg === "the stored image of a task could not be fetched" && l.mj_id === id);
      // the server's output reaches the test a moment after the answer
      await expect.poll(() => logged().length, { timeout: 3000 }).toBeGreaterThan(0);
      const lines = logged();
      expect(lines, id).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: expect.anything(), reason });
    }
    const zh = await image("1000000000000002", "198.51.100.2", "zh-CN");
    expect(((await zh.json()) as { description: string }).description).toContain("无法从上游获取该图片，请稍后再试");
    expect(server.logs()).not.toMatch(/\n\s+at /);
    expect(server.logLines().some((l) => l.msg === "unexpected error")).toBe(false);
  });

  it(`is limited to ${LIMIT} a minute per client address, another address still served`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await image("1000000000000001", "198.51.100.3");
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
    const limited = await image("1999999999999999", "198.51.100.3");
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ description: expect.stringContaining("Too many requests") });
    expect((await image("1000000000000001", "198.51.100.4")).status).toBe(200);
  });
});
