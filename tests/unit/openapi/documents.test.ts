// The OpenAPI documents (docs/api-reference.md): the route registry is what the generator
// writes from app/api, the structural check finds the faults it is there for, and the relay's
// document names every relay route and only routes the relay serves.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { relayDocument, RELAY_OPERATIONS } from "@/lib/openapi/relay";
import { matchRoute } from "@/lib/relay/routes";
import { isTaskPath } from "@/lib/tasks/handler";
import { checkOpenApi, consoleRoutesOnDisk, validateOpenApi31 } from "../../support/openapi";

const minimal = () => ({
  openapi: "3.1.1",
  info: { title: "t", version: "1" },
  paths: {
    "/a/{id}": {
      get: {
        operationId: "a",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "ok" } },
      },
    },
  },
  components: { schemas: {} },
});

describe("the structural check", () => {
  it("passes a valid document and names each fault", () => {
    expect(checkOpenApi(minimal())).toEqual([]);
    const version = { ...minimal(), openapi: "3.0.3" };
    expect(checkOpenApi(version).join()).toMatch(/3\.1\.x/);
    const ref = minimal();
    (ref.paths["/a/{id}"].get as Record<string, unknown>).requestBody = { content: { "application/json": { schema: { $ref: "#/components/schemas/Nope" } } } };
    expect(checkOpenApi(ref).join()).toMatch(/Nope does not resolve/);
    const param = minimal();
    param.paths["/a/{id}"].get.parameters = [];
    expect(checkOpenApi(param).join()).toMatch(/\{id\} is not declared/);
    const twice = { ...minimal(), paths: { ...minimal().paths, "/b": { post: { operationId: "a", responses: { "200": { description: "ok" } } } } } };
    expect(checkOpenApi(twice).join()).toMatch(/operationId a also used/);
    const noResponses = minimal();
    (noResponses.paths["/a/{id}"].get as Record<string, unknown>).responses = {};
    expect(checkOpenApi(noResponses).join()).toMatch(/responses are required/);
    const nullable = minimal();
    nullable.components.schemas = { X: { type: "string", nullable: true } };
    expect(checkOpenApi(nullable).join()).toMatch(/nullable/);
  });
});

describe("the OpenAPI 3.1 schema", () => {
  it("passes a valid document, the relay's own, and names the faults of broken ones", () => {
    expect(validateOpenApi31(minimal())).toEqual([]);
    expect(validateOpenApi31(relayDocument("1.0.0"))).toEqual([]);
    const noVersion = { ...minimal(), info: { title: "t" } };
    expect(validateOpenApi31(noVersion).join()).toMatch(/\/info: must have required property 'version'/);
    const badParam = minimal();
    (badParam.paths["/a/{id}"].get.parameters[0] as Record<string, unknown>).in = "body"; // OpenAPI 2's, gone in 3
    expect(validateOpenApi31(badParam).join()).toMatch(/parameters\/0/);
    const badSchema = minimal();
    badSchema.components.schemas = { X: { type: "string", minLength: "two" } };
    expect(validateOpenApi31(badSchema).join()).toMatch(/components\/schemas\/X/);
  });
});

describe("the console route registry", () => {
  it("is what scripts/openapi-routes.mjs writes from app/api (run npm run openapi:routes after adding a route)", () => {
    expect(() => execFileSync("node", ["scripts/openapi-routes.mjs", "--check"], { stdio: "pipe" })).not.toThrow();
  });
});

describe("the relay document", () => {
  const doc = relayDocument("test");
  const paths = doc.paths as Record<string, Record<string, unknown>>;

  it("is a valid OpenAPI 3.1 document", () => {
    expect(checkOpenApi(doc)).toEqual([]);
  });

  it("names only routes the relay serves", () => {
    for (const op of RELAY_OPERATIONS) {
      const concrete = op.path.replace(/\{action\}/, op.path.startsWith("/mj") ? "imagine" : "music").replace(/\{[^}]+\}/g, "x");
      if (op.path === "/v1/openapi.json") continue;
      expect(isTaskPath(concrete) || matchRoute(op.method.toUpperCase(), concrete) !== null, `${op.method} ${op.path}`).toBe(true);
    }
  });

  it("names every path the chat relay's route table and the task relay spell out", () => {
    const documented = new Set(Object.keys(paths));
    const literals = (file: string) => [...readFileSync(file, "utf8").matchAll(/"(\/(?:v1|v1beta|pg|mj|suno)\/[^"?]*[^"/?])"/g)].map((m) => m[1]);
    const spelled = [...literals("lib/relay/routes.ts"), ...literals("lib/tasks/handler.ts")];
    expect(spelled.length).toBeGreaterThan(15);
    for (const p of spelled) expect(documented.has(p), p).toBe(true);
  });
});

describe("the console document", () => {
  it("is a valid OpenAPI 3.1 document with every registered route, its auth and its schemas", async () => {
    const { consoleDocument } = await import("@/lib/openapi/console");
    const { CONSOLE_ROUTE_FILES } = await import("@/app/api/openapi.json/routes");
    const doc = consoleDocument(CONSOLE_ROUTE_FILES, "test");
    expect(checkOpenApi(doc)).toEqual([]);
    const paths = doc.paths as Record<string, Record<string, { "x-auth": string; requestBody?: unknown; parameters?: { name: string; in: string }[] }>>;
    for (const r of consoleRoutesOnDisk(".")) expect(paths[r.path]?.[r.method], `${r.method} ${r.path}`).toBeDefined();
    // the handler's own schemas: the token list's query, the token creation's body, a root-only route
    expect(paths["/api/token"].get.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(["p", "size"]));
    expect(paths["/api/token"].post.requestBody).toBeDefined();
    expect(paths["/api/ledger/check"].get["x-auth"]).toBe("root");
    // an admin route's permissions (docs/permissions.md)
    const gated = paths as unknown as Record<string, Record<string, { "x-permissions"?: string[] }>>;
    expect(gated["/api/channel/{id}/key"].post["x-permissions"]).toEqual(["channels:reveal"]);
    expect(gated["/api/group"].get["x-permissions"]).toEqual(["channels:read", "users:read", "billing:read"]);
    expect(gated["/api/ledger/check"].get["x-permissions"]).toBeUndefined();
    expect(paths["/api/user/{id}"].get.parameters).toEqual([expect.objectContaining({ name: "id", in: "path" })]);
    // tags: the first folder under /api; the document itself is "Meta", as in the relay's
    const tagged = paths as unknown as Record<string, Record<string, { tags: string[] }>>;
    expect(tagged["/api/token"].get.tags).toEqual(["token"]);
    expect(tagged["/api/openapi.json"].get.tags).toEqual(["Meta"]);
    expect((doc.tags as { name: string }[]).map((t) => t.name)).not.toContain("openapi.json");
  });
});
