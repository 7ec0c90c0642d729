// Examples of the API reference page (docs/api-reference.md, "The console page"): for one
// operation of an OpenAPI document, a request body built from its schema, and the call as
// curl and with the official OpenAI Python SDK, against the caller's base URL. Pure.

import { dict, own } from "@/lib/own-keys";
export type Schema = Record<string, unknown>;
export type ExampleOperation = {
  method: string;
  path: string;
  auth: string;
  query: { name: string; schema?: Schema }[];
  body?: { type: string; schema?: Schema };
};

// Values for fields every relay format knows, so that the example is a call that works.
const MODEL = "gpt-4o-mini";
const KNOWN: Record<string, unknown> = {
  model: MODEL,
  messages: [{ role: "user", content: "Hello" }],
  input: "Hello",
  prompt: "Hello",
  contents: [{ role: "user", parts: [{ text: "Hello" }] }],
  max_tokens: 256,
};

const MAX_DEPTH = 6;

// A value that fits the schema: its default, example or first enum value, else the required
// properties of an object filled in, one item of an array, a placeholder of the type.
export function exampleOf(schema: Schema | undefined, resolve: (s: Schema) => Schema, name = "", depth = 0): unknown {
  if (Object.hasOwn(KNOWN, name)) return KNOWN[name];
  if (!schema || depth > MAX_DEPTH) return null;
  const s = resolve(schema);
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const k of ["anyOf", "oneOf", "allOf"]) {
    const options = s[k];
    if (Array.isArray(options) && options.length) {
      const first = (options as Schema[]).find((o) => resolve(o).type !== "null") ?? options[0];
      return exampleOf(first as Schema, resolve, name, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      const out = dict<unknown>();
      for (const key of required) out[key] = exampleOf(own(props, key), resolve, key, depth + 1);
      return out;
    }
    case "array":
      return [exampleOf(s.items as Schema | undefined, resolve, "", depth + 1)];
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 1;
    case "boolean":
      return false;
    case "string":
      return name || "text";
    default:
      return null;
  }
}

// A path with its parameters filled in and its required query parameters appended.
export function examplePath(op: Pick<ExampleOperation, "path" | "query">): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, p: string) => (p === "model" ? MODEL : p === "id" || p.endsWith("_id") ? "1" : p));
  const query = op.query.map((q) => `${encodeURIComponent(q.name)}=${encodeURIComponent(String(exampleOf(q.schema, (x) => x, q.name) ?? ""))}`);
  return query.length ? `${path}?${query.join("&")}` : path;
}

// The credential a call carries: an API token on the relay, an access token (with the
// user's id in New-Api-User) on the console API, nothing on a public operation.
function credential(op: ExampleOperation): { key: string; user: boolean } | null {
  if (op.auth === "public" || op.auth === "mj-callback") return null;
  if (op.auth === "token") return { key: "sk-...", user: false };
  return { key: "ACCESS_TOKEN", user: true };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlExample(op: ExampleOperation, base: string, body: unknown): string {
  const lines = [`curl${op.method === "get" ? "" : ` -X ${op.method.toUpperCase()}`} ${shellQuote(base + examplePath(op))}`];
  const cred = credential(op);
  if (cred) lines.push(`-H ${shellQuote(`Authorization: Bearer ${cred.key}`)}`);
  if (cred?.user) lines.push(`-H ${shellQuote("New-Api-User: 1")}`);
  if (op.body?.type === "application/json") {
    lines.push(`-H ${shellQuote("Content-Type: application/json")}`);
    lines.push(`-d ${shellQuote(JSON.stringify(body, null, 2))}`);
  } else if (op.body?.type === "multipart/form-data") {
    for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>))
      lines.push(`-F ${shellQuote(k === "file" ? "file=@audio.mp3" : `${k}=${String(v)}`)}`);
  }
  return lines.join(" \\\n  ");
}

// A JSON value as a Python literal.
export function pythonLiteral(v: unknown, indent = 0): string {
  const pad = "    ".repeat(indent + 1);
  const end = "    ".repeat(indent);
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => pad + pythonLiteral(x, indent + 1)).join(",\n")},\n${end}]` : "[]";
  const entries = Object.entries(v as Record<string, unknown>);
  return entries.length ? `{\n${entries.map(([k, x]) => `${pad}${JSON.stringify(k)}: ${pythonLiteral(x, indent + 1)}`).join(",\n")},\n${end}}` : "{}";
}

// The OpenAI SDK's own methods for the OpenAI-shaped relay operations; every other operation
// goes through the SDK's generic client.get / client.post, which send the same key.
const SDK_METHODS: Record<string, string> = {
  "post /v1/chat/completions": "client.chat.completions.create",
  "post /v1/completions": "client.completions.create",
  "post /v1/embeddings": "client.embeddings.create",
  "post /v1/responses": "client.responses.create",
  "post /v1/images/generations": "client.images.generate",
  "post /v1/moderations": "client.moderations.create",
  "get /v1/models": "client.models.list",
  "get /v1/models/{model}": "client.models.retrieve",
};

export function pythonExample(op: ExampleOperation, base: string, body: unknown): string {
  const cred = credential(op);
  const method = SDK_METHODS[`${op.method} ${op.path}`];
  if (method) {
    const args =
      op.path === "/v1/models/{model}"
        ? JSON.stringify(MODEL)
        : Object.entries((body ?? {}) as Record<string, unknown>)
            .map(([k, v]) => `\n    ${k}=${pythonLiteral(v, 1)},`)
            .join("") + (body && Object.keys(body).length ? "\n" : "");
    return [
      "from openai import OpenAI",
      "",
      `client = OpenAI(api_key=${JSON.stringify(cred?.key ?? "sk-...")}, base_url=${JSON.stringify(base + "/v1")})`,
      "",
      `result = ${method}(${args})`,
      "print(result)",
    ].join("\n");
  }
  const headers = cred?.user ? `, default_headers={"New-Api-User": "1"}` : "";
  const options = [`cast_to=httpx.Response`];
  if (op.method !== "get" && op.body?.type === "application/json") options.unshift(`body=${pythonLiteral(body)}`);
  return [
    "import httpx",
    "from openai import OpenAI",
    "",
    `client = OpenAI(api_key=${JSON.stringify(cred?.key ?? "unused")}, base_url=${JSON.stringify(base)}${headers})`,
    "",
    `response = client.${op.method}(${JSON.stringify(examplePath(op))}, ${options.join(", ")})`,
    "print(response.json())",
  ].join("\n");
}
