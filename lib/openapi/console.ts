// The console API's OpenAPI 3.1 document (docs/api-reference.md), built from the route
// registry app/api/openapi.json/routes.ts: each route handler's own zod schemas (the objects
// route() validates with, kept on the handler as `meta`) and its `// METHOD /path: purpose`
// comment line. Every answer is the {success, message, data} envelope.
import type { Access, RouteMeta } from "@/lib/http/route";
import { ROUTE_PERMISSIONS } from "@/lib/http/route-permissions";
import { objectProperties, SchemaBag, type JsonSchema } from "@/lib/openapi/schema";
import { dict } from "@/lib/own-keys";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

export type ConsoleRouteFile = {
  file: string;
  path: string;
  methods: Partial<Record<HttpMethod, { summary: string; description?: string; meta: RouteMeta }>>;
};

export const OPENAPI_VERSION = "3.1.1";

// Who may call: the x-auth extension says it in one word, security in OpenAPI's terms.
const AUTH: Record<Access, string> = { public: "public", user: "session", admin: "admin", root: "root" };
export const authOf = (access: Access) => AUTH[access];

// a route's tag: its first folder under /api (token, channel, user, ...), but for the
// document's own route (/api/openapi.json), which is "Meta" as in the relay's document
const TAG_NAMES: Record<string, string> = { "openapi.json": "Meta" };
export const tagOf = (path: string) => {
  const folder = path.split("/")[2] ?? "api";
  return TAG_NAMES[folder] ?? folder;
};

// GET /api/user/{id}/ledger -> getUserIdLedger
export function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

function envelope(data: JsonSchema): JsonSchema {
  return {
    type: "object",
    required: ["success", "message"],
    properties: { success: { type: "boolean" }, message: { type: "string" }, data },
  };
}

export function consoleDocument(files: ConsoleRouteFile[], version: string): JsonSchema {
  const bag = new SchemaBag();
  const paths = dict<Record<string, unknown>>();
  const tags = new Set<string>();
  for (const f of files) {
    const item = dict<unknown>();
    for (const [method, op] of Object.entries(f.methods) as [HttpMethod, NonNullable<ConsoleRouteFile["methods"][HttpMethod]>][]) {
      const id = operationId(method, f.path);
      const meta = op.meta;
      const parameters: Record<string, unknown>[] = [];
      const declared = meta.params ? objectProperties(bag.convert(meta.params, `${id}_params`)) : [];
      for (const name of pathParamNames(f.path)) {
        const p = declared.find((d) => d.name === name);
        parameters.push({ name, in: "path", required: true, schema: p?.schema ?? { type: "string" } });
      }
      if (meta.query) {
        const q = bag.convert(meta.query, `${id}_query`);
        const props = objectProperties(q);
        if (props.length > 0 || q.type === "object") {
          for (const p of props)
            parameters.push({ name: p.name, in: "query", required: p.required, schema: p.schema, ...(p.description ? { description: p.description } : {}) });
        } else parameters.push({ name: "query", in: "query", schema: q, style: "form", explode: true });
      }
      if (meta.humanCheck && !parameters.some((p) => p.in === "query" && p.name === "turnstile")) {
        parameters.push({
          name: "turnstile",
          in: "query",
          required: false,
          schema: { type: "string" },
          description: "Turnstile token, when the human check is on",
        });
      }
      const tag = tagOf(f.path);
      tags.add(tag);
      const operation: Record<string, unknown> = {
        operationId: id,
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        tags: [tag],
        "x-auth": authOf(meta.access),
        // an admin route's permissions, one of which the admin's set must hold (docs/permissions.md)
        ...(meta.gate ? { "x-permissions": [...ROUTE_PERMISSIONS[meta.gate].anyOf] } : {}),
        ...(meta.rateLimit ? { "x-rate-limit": meta.rateLimit } : {}),
        ...(meta.demoBlocked ? { "x-demo-blocked": true } : {}),
        security:
          meta.access === "public"
            ? []
            : [
                { session: [], user: [] },
                { accessToken: [], user: [] },
              ],
        ...(parameters.length ? { parameters } : {}),
        responses: {
          "200": {
            description: "The envelope; data is the route's answer (some routes answer a file, a redirect or plain text instead, as their summary says)",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Envelope" } } },
          },
          "400": { $ref: "#/components/responses/Invalid" },
          ...(meta.access === "public" ? {} : { "401": { $ref: "#/components/responses/Unauthorized" }, "403": { $ref: "#/components/responses/Forbidden" } }),
        },
      };
      if (meta.body) {
        operation.requestBody = { required: true, content: { "application/json": { schema: bag.convert(meta.body, `${id}_body`) } } };
      }
      item[method.toLowerCase()] = operation;
    }
    paths[f.path] = item;
  }
  const refusal = (description: string) => ({
    description,
    content: { "application/json": { schema: { $ref: "#/components/schemas/Refusal" } } },
  });
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "AI Gateway console API",
      version,
      description:
        "The console's JSON API under /api. Every answer is {success, message, data}; a refusal is {success: false, message} in the caller's language. " +
        "x-auth names who may call: public, session (any signed-in user), admin or root.",
    },
    servers: [{ url: "/" }],
    tags: [...tags].sort((a, b) => a.localeCompare(b)).map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "session", description: "The console's session cookie, set by POST /api/user/login" },
        accessToken: { type: "http", scheme: "bearer", description: "A system access token from GET /api/user/token" },
        user: { type: "apiKey", in: "header", name: "New-Api-User", description: "The caller's user id; must match the session or the access token" },
      },
      schemas: {
        Envelope: envelope({}),
        Refusal: {
          type: "object",
          required: ["success", "message"],
          properties: { success: { const: false }, message: { type: "string" } },
        },
        ...bag.components,
      },
      responses: {
        Invalid: refusal("A parameter failed its schema, or the request was refused"),
        Unauthorized: refusal("Not signed in"),
        Forbidden: refusal("Signed in without the role this route needs"),
      },
    },
  };
}
