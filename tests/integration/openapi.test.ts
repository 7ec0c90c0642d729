// The OpenAPI documents as the server serves them (docs/api-reference.md): both valid
// OpenAPI 3.1, public, every app/api route and every relay route in them, and each
// operation's stated auth what the server really enforces.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { checkOpenApi, consoleRoutesOnDisk, OPERATION_METHODS, validateOpenApi31 } from "../support/openapi";
import { startServer, type TestServer } from "../support/server";

type Op = { "x-auth": string; operationId: string };
type Doc = { openapi: string; paths: Record<string, Record<string, Op>> };

let server: TestServer;
let consoleDoc: Doc;
let relayDoc: Doc;
let consoleText: string;
let relayText: string;
let root: ApiClient;
let admin: ApiClient;
let user: ApiClient;

beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
  admin = (await makeUser(server, root, "docadmin", 10)).client;
  user = (await makeUser(server, root, "docuser", 1)).client;
  // the task relay answers 403 while its family is off: on, so that a missing key is what refuses
  await setOptions(root, { DrawingEnabled: "true", TaskEnabled: "true" });
  const c = await fetch(`${server.url}/api/openapi.json`);
  expect(c.status).toBe(200);
  expect(c.headers.get("content-type")).toMatch(/application\/json/);
  consoleText = await c.text();
  consoleDoc = JSON.parse(consoleText) as Doc;
  const r = await fetch(`${server.url}/v1/openapi.json`);
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toMatch(/application\/json/);
  relayText = await r.text();
  relayDoc = JSON.parse(relayText) as Doc;
});
afterAll(async () => {
  await server?.stop();
});

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) => OPERATION_METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })));

// a concrete URL for a templated path: ids as 1, anything else as x
const concrete = (path: string) =>
  path
    .replace(/\{(id|task)\}/g, "1")
    .replace("/mj/submit/{action}", "/mj/submit/imagine")
    .replace("/suno/submit/{action}", "/suno/submit/music")
    .replace(/\{[^}]+\}/g, "x");

describe("the served documents", () => {
  it("are valid OpenAPI 3.1 documents, served without a session or a key", () => {
    expect(validateOpenApi31(consoleDoc)).toEqual([]);
    expect(validateOpenApi31(relayDoc)).toEqual([]);
    expect(checkOpenApi(consoleDoc)).toEqual([]);
    expect(checkOpenApi(relayDoc)).toEqual([]);
    expect(consoleDoc.openapi).toMatch(/^3\.1\./);
  });

  it("hold no secret of this server", () => {
    for (const text of [consoleText, relayText]) {
      expect(text).not.toContain(server.databaseUrl);
      expect(text).not.toContain(server.dataDir);
      expect(text).not.toMatch(/sk-[A-Za-z0-9]{16,}/);
    }
  });

  it("name every app/api route file's every HTTP method", () => {
    const onDisk = consoleRoutesOnDisk(".");
    expect(onDisk.length).toBeGreaterThan(100);
    const missing = onDisk.filter((r) => !consoleDoc.paths[r.path]?.[r.method]).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    // and nothing that is not on disk
    const documented = operations(consoleDoc).map((o) => `${o.method} ${o.path}`);
    expect(documented.sort()).toEqual(onDisk.map((r) => `${r.method} ${r.path}`).sort());
  });

  it("name every relay route that lib/relay/routes.ts and lib/tasks/handler.ts spell out", () => {
    const literals = (file: string) => [...readFileSync(file, "utf8").matchAll(/"(\/(?:v1|v1beta|pg|mj|suno)\/[^"?]*[^"/?])"/g)].map((m) => m[1]);
    const spelled = [...literals("lib/relay/routes.ts"), ...literals("lib/tasks/handler.ts")];
    expect(spelled.length).toBeGreaterThan(15);
    expect(spelled.filter((p) => !relayDoc.paths[p])).toEqual([]);
    // the patterns that are not literals: one model, Gemini's actions, the task relay's ids
    for (const p of ["/v1/models/{model}", "/v1beta/models/{model}", "/v1beta/models/{model}:generateContent", "/v1beta/models/{model}:streamGenerateContent"])
      expect(relayDoc.paths[p], p).toBeDefined();
    for (const p of ["/v1beta/models/{model}:embedContent", "/v1beta/models/{model}:batchEmbedContents", "/mj/submit/{action}", "/mj/task/{id}/fetch"])
      expect(relayDoc.paths[p], p).toBeDefined();
    for (const p of [
      "/mj/image/{id}",
      "/mj/notify/{task}/{signature}",
      "/suno/submit/{action}",
      "/suno/fetch/{id}",
      "/v1/videos/{id}",
      "/v1/videos/{id}/content",
    ])
      expect(relayDoc.paths[p], p).toBeDefined();
  });
});

describe("each operation's auth is what the server enforces", () => {
  it("console: session routes refuse no session (401), admin routes a common user, root routes an admin (403)", async () => {
    const anon = new ApiClient(server.url);
    const wrong: string[] = [];
    let checked = 0;
    for (const { method, path, op } of operations(consoleDoc)) {
      const auth = op["x-auth"];
      expect(["public", "session", "admin", "root"], `${method} ${path}`).toContain(auth);
      if (auth === "public") continue;
      const who = auth === "session" ? anon : auth === "admin" ? user : admin;
      const want = auth === "session" ? 401 : 403;
      const res = await who.raw(method.toUpperCase(), concrete(path), method === "get" || method === "delete" ? undefined : {});
      await res.arrayBuffer();
      checked++;
      if (res.status !== want) wrong.push(`${method} ${path}: ${res.status}, not ${want}`);
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it("console: a public route answers without a session", async () => {
    for (const path of ["/api/status", "/api/pricing", "/api/openapi.json"]) {
      expect(consoleDoc.paths[path].get["x-auth"]).toBe("public");
      expect((await fetch(server.url + path)).status).toBe(200);
    }
  });

  it("relay: every token route refuses a request without a key (401) and is a route the relay knows", async () => {
    const wrong: string[] = [];
    for (const { method, path, op } of operations(relayDoc)) {
      if (op["x-auth"] !== "token") continue;
      const res = await fetch(server.url + concrete(path), {
        method: method.toUpperCase(),
        headers: method === "post" ? { "content-type": "application/json" } : {},
        body: method === "post" ? "{}" : undefined,
      });
      await res.arrayBuffer();
      if (res.status !== 401) wrong.push(`${method} ${path}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
    // a path the relay does not serve is not refused for its key but unknown
    const unknown = await fetch(`${server.url}/v1/not-a-route`, { method: "POST", body: "{}" });
    expect(unknown.status).toBe(404);
  });
});

describe("/docs/api", () => {
  it("is a public console page", async () => {
    const res = await fetch(`${server.url}/docs/api`, { headers: { cookie: "NEXT_LOCALE=en" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("API reference");
  });
});
