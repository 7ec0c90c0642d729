// The channel's key never reaches an API client nor the logs, through the real server
// (docs/secrets.md): an upstream that echoes it in a streamed error event on /v1/completions
// and /v1/responses, in an HTTP error body on /v1/chat/completions, in a 200 error body on
// /v1/embeddings, and in streamed content.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { queryDb } from "../support/db";
import { startServer, type TestServer } from "../support/server";

const KEY = "gwTestKey-Zx81QwSecretPart0Vq7"; // no known key format: only the channel's key finds it
const ECHO = `invalid api key ${KEY}`;

let server: TestServer;
let root: ApiClient;
let token: string;
let upstream: http.Server;

beforeAll(async () => {
  upstream = http.createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const j = JSON.parse(body || "{}");
    const path = req.url ?? "";
    if (path.endsWith("/chat/completions")) {
      res.writeHead(500, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: ECHO, type: KEY, code: KEY } }));
    }
    if (path.endsWith("/embeddings")) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: ECHO } }));
    }
    if (!j.stream) {
      res.writeHead(400, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: "stream expected" } }));
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const content = path.endsWith("/responses")
      ? `event: response.output_text.delta\ndata: ${JSON.stringify({ type: "response.output_text.delta", delta: `echo ${KEY}` })}\n\n`
      : `data: ${JSON.stringify({ id: "c", object: "text_completion", choices: [{ index: 0, text: `echo ${KEY}`, finish_reason: null }] })}\n\n`;
    const error = path.endsWith("/responses")
      ? `event: error\ndata: ${JSON.stringify({ type: "error", code: "invalid_api_key", message: ECHO, param: null })}\n\n`
      : `data: ${JSON.stringify({ error: { message: ECHO, type: "invalid_request_error" } })}\n\n`;
    const all = content + error;
    const cut = all.lastIndexOf(KEY) + 7; // the last key cut between two chunks
    res.write(all.slice(0, cut));
    await new Promise((r) => setTimeout(r, 30));
    res.end(all.slice(cut));
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

  server = await startServer();
  root = await setupRoot(server);
  await setOptions(root, { ModelRatio: JSON.stringify({ "echo-model": 1 }), LogErrorEnabled: "true", RetryTimes: "0" });
  const c = await root.post("/api/channel/", { name: "echo", type: 1, key: KEY, base_url: upstreamUrl, models: "echo-model", group: "default" });
  expect(c.success, c.message).toBe(true);
  const user = await makeUser(server, root, "alice");
  expect((await root.put("/api/user/", { id: user.id, quota: 5_000_000 })).success).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "t", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  token = t.data[0].key;
});

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((r) => upstream?.close(() => r()));
});

const call = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("the channel key echoed by the upstream", () => {
  it.each([
    ["/v1/completions (stream, error event after content)", "/v1/completions", { model: "echo-model", prompt: "hi", stream: true }],
    ["/v1/responses (stream, error event after content)", "/v1/responses", { model: "echo-model", input: "hi", stream: true }],
    ["/v1/chat/completions (HTTP 500 body)", "/v1/chat/completions", { model: "echo-model", messages: [{ role: "user", content: "hi" }] }],
    ["/v1/embeddings (200 error body)", "/v1/embeddings", { model: "echo-model", input: "hi" }],
  ])("%s: not in the answer", async (_name, path, body) => {
    const res = await call(path, body);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(KEY);
    expect(text).toContain("***");
  });

  it("not in any log row", async () => {
    await new Promise((r) => setTimeout(r, 500)); // log rows are written in batches
    const rows = await queryDb(server, 'SELECT * FROM "logs"');
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(KEY);
  });
});
