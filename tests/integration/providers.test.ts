// Every channel type the relay serves, end to end: for each provider wire (tests/support/
// provider-wires) a real local server speaking that wire, a channel saved through the console
// API, and a non-streamed and a streamed chat through the official openai SDK, billed from the
// usage the upstream reported (the log row's token counts are the wire's, not an estimate).
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { PROVIDER_WIRES } from "../support/provider-wires";
import { WIRE_TEXT, WIRE_USAGE, type ProviderWire } from "../support/provider-wires/types";
import { serveWire, type WireServer } from "../support/provider-wires/serve";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let user: { id: number; client: ApiClient };
let key: string;

async function logsOf(model: string, n: number) {
  for (let i = 0; i < 60; i++) {
    const r = await user.client.get<{ items: Record<string, unknown>[] }>(`/api/log/self/?p=1&page_size=100&type=2&model_name=${encodeURIComponent(model)}`);
    if (r.data.items.length >= n) return r.data.items;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`the log rows of ${model} did not arrive`);
}

const groupOf = (wire: ProviderWire) => `g-${wire.label}`;

// by label: two wires may share a type (Vertex AI serves Gemini and Claude models)
const wires = new Map<string, WireServer>();

beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify(Object.fromEntries(PROVIDER_WIRES.map((w) => [w.model, 1]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(PROVIDER_WIRES.map((w) => [w.model, 2]))),
    RetryTimes: "0",
  });
  for (const wire of PROVIDER_WIRES) {
    const mock = await serveWire((r, res) => wire.handle(r, res));
    wires.set(wire.label, mock);
    // one group per wire, so that each call reaches its own channel whatever the model names
    const r = await root.post("/api/channel/", {
      name: `wire-${wire.label}`,
      type: wire.type,
      models: wire.model,
      group: groupOf(wire),
      ...wire.channel(mock.url),
    });
    expect(r.success, `${wire.label}: ${r.message}`).toBe(true);
  }
  user = await makeUser(server, root, "wanda");
  expect((await root.put("/api/user/", { id: user.id, quota: 50_000_000 })).success).toBe(true);
});

afterAll(async () => {
  await server?.stop();
  for (const w of wires.values()) await w.close();
});

async function tokenFor(wire: ProviderWire): Promise<string> {
  const r = await root.put("/api/user/", { id: user.id, group: groupOf(wire) });
  expect(r.success, r.message).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: `t-${wire.label}`, unlimited_quota: true, group: groupOf(wire) });
  expect(t.success, t.message).toBe(true);
  return t.data[0].key;
}

interface TypeInfo {
  id: number;
  name: string;
  kind: "chat" | "task";
  keyFormat: string | null;
  testModel: string;
  knownModels: string[];
}

describe("the channel types the editor offers", () => {
  it("each chat type has a wire in this test, and nothing else is offered", async () => {
    const r = await root.get<TypeInfo[]>("/api/channel/types");
    expect(r.success, r.message).toBe(true);
    const chat = r.data.filter((t) => t.kind === "chat").map((t) => t.id);
    expect(new Set(chat)).toEqual(new Set(PROVIDER_WIRES.map((w) => w.type)));
    // the task relay's types (tests/integration/tasks.test.ts)
    expect(r.data.filter((t) => t.kind === "task").map((t) => t.id)).toEqual([2, 36]);
  });
  it("each type offers its adapter's known models, its test model among them", async () => {
    const r = await root.get<TypeInfo[]>("/api/channel/types");
    for (const t of r.data) expect(t.knownModels, `type ${t.id}`).toContain(t.testModel);
    const known = (id: number) => r.data.find((t) => t.id === id)!.knownModels;
    expect(known(1)).toEqual(expect.arrayContaining(["gpt-4o", "gpt-4o-mini", "text-embedding-3-small"]));
    expect(known(14)).toEqual(expect.arrayContaining(["claude-3-5-haiku-latest", "claude-sonnet-4-20250514"]));
    expect(known(24)).toEqual(expect.arrayContaining(["gemini-2.0-flash", "gemini-2.5-pro"]));
    expect(known(43)).toEqual(["deepseek-chat", "deepseek-reasoner"]);
    // no list of a provider leaks into another's
    expect(known(14).some((m) => m.startsWith("gpt-"))).toBe(false);
  });
  it("a key that does not have its type's shape is refused with the format, and an unserved type is refused", async () => {
    const r = await root.get<TypeInfo[]>("/api/channel/types");
    for (const t of r.data.filter((x) => x.keyFormat)) {
      const saved = await root.post("/api/channel/", { name: `bad-${t.id}`, type: t.id, key: "justoneword", models: "m", base_url: "http://127.0.0.1:9" });
      expect(saved.success, `type ${t.id}`).toBe(false);
      expect(saved.message).toContain(t.keyFormat);
      expect(saved.message).not.toContain("justoneword");
    }
    const unserved = await root.post("/api/channel/", { name: "nope", type: 9999, key: "k", models: "m" });
    expect(unserved.success).toBe(false);
  });
});

describe("every provider wire through the openai SDK", () => {
  it.each(PROVIDER_WIRES.filter((w) => (w.kind ?? "chat") === "chat").map((w) => [w.label, w] as const))(
    "%s: a chat and a streamed chat, billed from the upstream's usage",
    async (_label, wire) => {
      key = await tokenFor(wire);
      const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
      const mock = wires.get(wire.label)!;

      const before = mock.requests.length;
      const chat = await client.chat.completions.create({ model: wire.model, messages: [{ role: "user", content: "hi" }] });
      expect(chat.choices[0].message.content).toBe(WIRE_TEXT);
      expect(chat.usage).toMatchObject({ prompt_tokens: WIRE_USAGE.prompt, completion_tokens: WIRE_USAGE.completion });
      wire.check?.(mock.requests.slice(before), false);

      const mid = mock.requests.length;
      const stream = await client.chat.completions.create({
        model: wire.model,
        messages: [{ role: "user", content: "hi" }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = "";
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const c of stream) {
        text += c.choices[0]?.delta?.content ?? "";
        if (c.usage) usage = c.usage;
      }
      expect(text).toBe(WIRE_TEXT);
      expect(usage).toMatchObject({ prompt_tokens: WIRE_USAGE.prompt, completion_tokens: WIRE_USAGE.completion });
      wire.check?.(mock.requests.slice(mid), true);

      const rows = await logsOf(wire.model, 2);
      for (const row of rows.slice(0, 2)) {
        expect(row).toMatchObject({ prompt_tokens: WIRE_USAGE.prompt, completion_tokens: WIRE_USAGE.completion });
        // ModelRatio 1, CompletionRatio 2: 17 + 6 × 2 = 29 units
        expect(Number(row.quota)).toBe(WIRE_USAGE.prompt + WIRE_USAGE.completion * 2);
      }
    },
  );
});

// A wire without chat (Jina) is tested with what it serves: embeddings through the SDK.
describe("every embeddings-only provider wire through the openai SDK", () => {
  const embeddingWires = PROVIDER_WIRES.filter((w) => w.kind === "embeddings");
  it.each(embeddingWires.map((w) => [w.label, w] as const))("%s: embeddings, billed from the upstream's usage", async (_label, wire) => {
    key = await tokenFor(wire);
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const mock = wires.get(wire.label)!;
    const before = mock.requests.length;
    const r = await client.embeddings.create({ model: wire.model, input: ["one", "two"], encoding_format: "float" });
    expect(r.data).toHaveLength(2);
    expect(r.data.every((d) => d.embedding.length > 0)).toBe(true);
    expect(r.usage.prompt_tokens).toBe(WIRE_USAGE.prompt);
    wire.check?.(mock.requests.slice(before), false);
    const [row] = await logsOf(wire.model, 1);
    expect(row).toMatchObject({ prompt_tokens: WIRE_USAGE.prompt, completion_tokens: 0 });
    expect(Number(row.quota)).toBe(WIRE_USAGE.prompt);
  });
});
