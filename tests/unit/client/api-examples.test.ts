// The API reference's examples (lib/client/api-examples.ts): every relay operation's example
// body, built from the served document, passes the zod schema the relay validates with; the
// curl and Python texts name the base URL, the credential and the body.
import { describe, expect, it } from "vitest";
import { curlExample, exampleOf, examplePath, pythonExample, pythonLiteral, type Schema } from "@/lib/client/api-examples";
import { RELAY_OPERATIONS, relayDocument } from "@/lib/openapi/relay";

type Doc = {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};
const doc = relayDocument("test") as unknown as Doc;
const resolve = (s: Schema): Schema => {
  const ref = s.$ref;
  return typeof ref === "string" ? (doc.components.schemas[ref.split("/").pop()!] ?? s) : s;
};
const BASE = "https://gw.example.test";

describe("API reference examples", () => {
  it("builds a body every relay schema accepts", () => {
    const checked: string[] = [];
    for (const op of RELAY_OPERATIONS) {
      if (!op.body || !("schema" in op.body)) continue;
      const schema = doc.paths[op.path][op.method].requestBody!.content["application/json"].schema;
      const body = exampleOf(schema, resolve);
      const parsed = op.body.schema.safeParse(body);
      expect(parsed.success, `${op.method} ${op.path}: ${JSON.stringify(body)} ${parsed.error?.message ?? ""}`).toBe(true);
      checked.push(op.path);
    }
    expect(checked).toContain("/v1/chat/completions");
    expect(checked).toContain("/v1/messages");
    expect(checked.length).toBeGreaterThan(5);
  });

  it("writes the chat call as curl and with the OpenAI SDK against the base URL", () => {
    const op = { method: "post", path: "/v1/chat/completions", auth: "token", query: [], body: { type: "application/json" } };
    const body = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Hello" }] };
    expect(curlExample(op, BASE, body)).toBe(
      [
        `curl -X POST '${BASE}/v1/chat/completions'`,
        `  -H 'Authorization: Bearer sk-...'`,
        `  -H 'Content-Type: application/json'`,
        `  -d '${JSON.stringify(body, null, 2)}'`,
      ].join(" \\\n"),
    );
    const py = pythonExample(op, BASE, body);
    expect(py).toContain(`client = OpenAI(api_key="sk-...", base_url="${BASE}/v1")`);
    expect(py).toContain(`result = client.chat.completions.create(\n    model="gpt-4o-mini",\n    messages=[`);
    expect(pythonLiteral({ a: [true, null, 1.5, "x'"] })).toBe('{\n    "a": [\n        True,\n        None,\n        1.5,\n        "x\'",\n    ],\n}');
  });

  it("calls other operations through the SDK's generic client, console ones with the access token", () => {
    const gemini = { method: "post", path: "/v1beta/models/{model}:generateContent", auth: "token", query: [], body: { type: "application/json" } };
    expect(examplePath(gemini)).toBe("/v1beta/models/gpt-4o-mini:generateContent");
    expect(pythonExample(gemini, BASE, { contents: [] })).toContain(
      `response = client.post("/v1beta/models/gpt-4o-mini:generateContent", body={\n    "contents": [],\n}, cast_to=httpx.Response)`,
    );
    const self = { method: "get", path: "/api/user/self", auth: "session", query: [] };
    expect(curlExample(self, BASE, undefined)).toBe(`curl '${BASE}/api/user/self' \\\n  -H 'Authorization: Bearer ACCESS_TOKEN' \\\n  -H 'New-Api-User: 1'`);
    expect(pythonExample(self, BASE, undefined)).toContain(`default_headers={"New-Api-User": "1"}`);
    const logs = { method: "get", path: "/api/log/{id}", auth: "admin", query: [{ name: "p", schema: { type: "integer", minimum: 1 } }] };
    expect(examplePath(logs)).toBe("/api/log/1?p=1");
    const open = { method: "get", path: "/api/status", auth: "public", query: [] };
    expect(curlExample(open, BASE, undefined)).toBe(`curl '${BASE}/api/status'`);
  });
});
