// The cloud adapters' tricky parts (docs/providers.md, "AWS Bedrock" and "Vertex AI"): the
// access-token cache, AWS's event-stream framing cut anywhere, SigV4 signatures checked by an
// independent computation, and both adapters end to end over their wires through forward().
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportPKCS8, generateKeyPair } from "jose";
import { readEventStream } from "@/lib/relay/providers/aws-eventstream";
import { bedrock, bedrockAuthHeaders, bedrockKey, bedrockKeyRefusal, converseBody } from "@/lib/relay/providers/bedrock";
import { ExpiringCache, serviceAccountRefusal } from "@/lib/relay/providers/google-auth";
import { vertex, vertexHost, vertexPlace } from "@/lib/relay/providers/vertex";
import { anthropicStreamParser, parseAnthropicChat } from "@/lib/relay/providers/anthropic";
import type { StreamEvent } from "@/lib/relay/types";
import { bedrockEvent, bedrockException, CLOUD_WIRES, serviceAccountKey, sigv4Refusal } from "@/tests/support/provider-wires/cloud";
import { WIRE_TEXT, WIRE_USAGE, type ProviderWire, type WireRequest } from "@/tests/support/provider-wires/types";
import { post, sseEvents, startRelay, type Relay } from "./harness";

describe("ExpiringCache (access tokens)", () => {
  it("mints once for concurrent callers, reuses the value until shortly before its end, then mints again", async () => {
    let now = 1_000_000;
    const cache = new ExpiringCache<string>(() => now);
    let mints = 0;
    const mint = async () => {
      await new Promise((r) => setTimeout(r, 5));
      return { value: `token-${++mints}`, lifetimeMs: 3600_000 };
    };
    const first = await Promise.all([cache.get("k", mint), cache.get("k", mint), cache.get("k", mint)]);
    expect(first).toEqual(["token-1", "token-1", "token-1"]);
    expect(mints).toBe(1);
    now += 3600_000 - 5 * 60_000 - 1; // just before the five minutes' margin
    expect(await cache.get("k", mint)).toBe("token-1");
    expect(mints).toBe(1);
    now += 2; // within the margin: a new one
    expect(await cache.get("k", mint)).toBe("token-2");
    expect(mints).toBe(2);
    // another key has its own token
    expect(await cache.get("other", mint)).toBe("token-3");
    cache.drop("k");
    expect(await cache.get("k", mint)).toBe("token-4");
  });

  it("does not keep a failed mint: the next call mints again", async () => {
    const cache = new ExpiringCache<string>();
    let calls = 0;
    await expect(
      cache.get("k", async () => {
        calls++;
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(await cache.get("k", async () => ({ value: `t${++calls}`, lifetimeMs: 60_000 }))).toBe("t2");
  });
});

async function* chunks(bytes: Uint8Array, cut: (i: number) => number): AsyncIterable<Uint8Array> {
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = Math.max(1, cut(i));
    yield Buffer.from(bytes.subarray(at, at + n)); // each chunk its own buffer, as a socket's
    at += n;
  }
}

describe("AWS event stream reader", () => {
  const frames = [
    bedrockEvent("messageStart", { role: "assistant" }),
    bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "héllo" } }),
    bedrockException("throttlingException", "Too many requests"),
  ];
  const all = Buffer.concat(frames);

  it.each([
    ["byte by byte", () => 1],
    ["in 7-byte pieces", () => 7],
    ["in uneven pieces", (i: number) => [3, 50, 1, 120, 9][i % 5]],
    ["whole", () => all.length],
  ])("decodes frames cut %s", async (_name, cut) => {
    const got: { event?: string; data: string }[] = [];
    await readEventStream(chunks(all, cut), (m) => void got.push({ event: m.event, data: m.data }));
    expect(got.map((g) => g.event)).toEqual(["messageStart", "contentBlockDelta", "exception:throttlingException"]);
    expect(JSON.parse(got[1].data).delta.text).toBe("héllo");
    expect(JSON.parse(got[2].data).message).toBe("Too many requests");
  });

  it("stops when onEvent returns false", async () => {
    let n = 0;
    await readEventStream(
      chunks(all, () => 5),
      () => {
        n++;
        return false;
      },
    );
    expect(n).toBe(1);
  });

  it("fails on a body cut inside a frame and on a corrupted frame", async () => {
    await expect(
      readEventStream(
        chunks(all.subarray(0, all.length - 3), () => 10),
        () => {},
      ),
    ).rejects.toThrow(/inside a message/);
    const bad = Buffer.from(all);
    bad[frames[0].length + 20] ^= 0xff; // a byte of the second frame's headers: its CRC no longer holds
    await expect(
      readEventStream(
        chunks(bad, () => 64),
        () => {},
      ),
    ).rejects.toThrow();
  });
});

describe("AWS Bedrock adapter", () => {
  it("checks keys: three parts with a region, or an API key and a region", () => {
    expect(bedrockKeyRefusal("AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG|us-east-1")).toBeUndefined();
    expect(bedrockKeyRefusal("ABSKQmVkcm9ja0FQSUtleS1example|eu-central-1")).toBeUndefined();
    expect(bedrockKeyRefusal("AKIAIOSFODNN7EXAMPLE|secret")?.en).toMatch(/not an AWS region/);
    expect(bedrockKeyRefusal("AKIAIOSFODNN7EXAMPLE||us-east-1")?.en).toMatch(/empty/);
    expect(bedrockKeyRefusal("a|b|c|d")?.en).toMatch(/AccessKeyId\|SecretAccessKey\|Region/);
    expect(bedrockKeyRefusal("plainkey")?.en).toMatch(/AccessKeyId/);
    // in every language, the region quoted and the key format kept as written
    expect(bedrockKeyRefusal("AKIAIOSFODNN7EXAMPLE|secret")?.ja).toContain("「secret」");
    expect(bedrockKeyRefusal("plainkey")?.zh).toContain("AccessKeyId|SecretAccessKey|Region");
    expect(bedrockKey("ABSKkey123456|us-west-2")).toEqual({ kind: "apikey", apiKey: "ABSKkey123456", region: "us-west-2" });
  });

  it("signs with SigV4 as AWS computes it (checked by hand), over the path, query, headers and body", async () => {
    const creds = { accessKeyId: "AKIAUNITTEST00000001", secretAccessKey: "unit/secret+key", region: "eu-west-3", service: "bedrock" };
    const key = bedrockKey(`${creds.accessKeyId}|${creds.secretAccessKey}|${creds.region}`);
    const url = "http://127.0.0.1:8123/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse?x=1&a=b%20c";
    const body = JSON.stringify({ messages: [{ role: "user", content: [{ text: "hé" }] }] });
    const headers = await bedrockAuthHeaders(key, "POST", url, { "content-type": "application/json" }, body);
    const req = (b: string): WireRequest => ({ method: "POST", url: url.slice("http://127.0.0.1:8123".length), headers, body: Buffer.from(b) });
    expect(headers.host).toBe("127.0.0.1:8123");
    expect(sigv4Refusal(req(body), creds)).toBeUndefined();
    expect(sigv4Refusal(req(body + " "), creds)).toMatch(/does not match/);
    expect(sigv4Refusal(req(body), { ...creds, secretAccessKey: "other" })).toMatch(/does not match/);
    // the API key form is a Bearer token, unsigned
    const bearer = await bedrockAuthHeaders(bedrockKey("ABSKkey123456|us-west-2"), "POST", url, {}, body);
    expect(bearer.authorization).toBe("Bearer ABSKkey123456");
  });

  it("builds Converse bodies: system, tools, tool results, inference config; refuses image links", () => {
    const body = converseBody({
      model: "m",
      stream: false,
      system: "be brief",
      maxTokens: 100,
      temperature: 1.5,
      stop: ["END"],
      tools: [{ name: "get", description: "get it", parameters: { type: "object", properties: { q: { type: "string" } } } }],
      toolChoice: "required",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "hi" },
            { type: "image", data: "aGk=", mimeType: "image/png" },
          ],
        },
        { role: "assistant", content: [], toolCalls: [{ id: "t1", name: "get", arguments: '{"q":"x"}' }] },
        { role: "tool", content: [{ type: "text", text: "42" }], toolCallId: "t1", toolName: "get" },
        { role: "user", content: [{ type: "text", text: "and?" }] },
      ],
    });
    expect(body).toEqual({
      messages: [
        { role: "user", content: [{ text: "hi" }, { image: { format: "png", source: { bytes: "aGk=" } } }] },
        { role: "assistant", content: [{ toolUse: { toolUseId: "t1", name: "get", input: { q: "x" } } }] },
        { role: "user", content: [{ toolResult: { toolUseId: "t1", content: [{ text: "42" }] } }, { text: "and?" }] },
      ],
      system: [{ text: "be brief" }],
      inferenceConfig: { maxTokens: 100, temperature: 1, stopSequences: ["END"] },
      toolConfig: {
        tools: [{ toolSpec: { name: "get", description: "get it", inputSchema: { json: { type: "object", properties: { q: { type: "string" } } } } } }],
        toolChoice: { any: {} },
      },
    });
    // a reasoning effort: extended thinking for a Claude model only
    const hi = { role: "user" as const, content: [{ type: "text" as const, text: "hi" }] };
    const think = converseBody(
      { model: "m", stream: false, reasoningEffort: "low", temperature: 0.5, messages: [hi] },
      "us.anthropic.claude-sonnet-4-20250514-v1:0",
    );
    expect(think.inferenceConfig).toEqual({ maxTokens: 8192 + 2048 });
    expect(think.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 2048 } });
    const capped = converseBody(
      { model: "m", stream: false, reasoningEffort: "high", maxTokens: 4000, messages: [hi] },
      "anthropic.claude-3-7-sonnet-20250219-v1:0",
    );
    expect(capped.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 3999 } });
    expect(
      converseBody({ model: "m", stream: false, reasoningEffort: "high", messages: [hi] }, "amazon.nova-pro-v1:0").additionalModelRequestFields,
    ).toBeUndefined();
    expect(() =>
      converseBody({ model: "m", stream: false, messages: [{ role: "user", content: [{ type: "image", url: "https://example.com/a.png" }] }] }),
    ).toThrow(/not as a link/);
  });

  it("reads a stream's tool use, reasoning, stop reason, usage and exceptions", () => {
    const p = bedrock.streamParser();
    const out: StreamEvent[] = [];
    const emit = (e: StreamEvent) => out.push(e);
    const feed = (event: string, data: object) => p.parse(JSON.stringify(data), event, emit);
    feed("messageStart", { role: "assistant" });
    feed("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { text: "hmm" } } });
    feed("contentBlockStart", { contentBlockIndex: 1, start: { toolUse: { toolUseId: "tu1", name: "get" } } });
    feed("contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: '{"q":' } } });
    feed("contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: '"x"}' } } });
    feed("messageStop", { stopReason: "tool_use" });
    feed("metadata", { usage: { inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 4, cacheWriteInputTokens: 2 } });
    feed("exception:validationException", { message: "bad input" });
    // the writes split by lifetime (cacheDetails, 1h before 5m), on a parser of its own
    const split: StreamEvent[] = [];
    bedrock.streamParser().parse(
      JSON.stringify({
        usage: {
          inputTokens: 1,
          outputTokens: 1,
          cacheWriteInputTokens: 7,
          cacheDetails: [
            { ttl: "1h", inputTokens: 5 },
            { ttl: "5m", inputTokens: 2 },
          ],
        },
      }),
      "metadata",
      (e) => split.push(e),
    );
    expect(split.filter((e) => e.type === "usage")).toEqual([
      {
        type: "usage",
        usage: { prompt_tokens: 8, completion_tokens: 1, cached_tokens: 0, cache_creation_tokens: 7, cache_creation_1h_tokens: 5, reasoning_tokens: 0 },
      },
    ]);
    expect(out).toEqual([
      { type: "start", id: "", model: "" },
      { type: "reasoning", index: 0, text: "hmm" },
      { type: "tool_call_start", index: 0, callIndex: 0, id: "tu1", name: "get" },
      { type: "tool_call_args", index: 0, callIndex: 0, args: '{"q":' },
      { type: "tool_call_args", index: 0, callIndex: 0, args: '"x"}' },
      { type: "finish", index: 0, reason: "tool_calls" },
      {
        type: "usage",
        usage: { prompt_tokens: 16, completion_tokens: 5, cached_tokens: 4, cache_creation_tokens: 2, cache_creation_1h_tokens: 0, reasoning_tokens: 0 },
      },
      { type: "error", error: { status: 400, message: "bad input", type: "invalid_request_error", code: "validationException" } },
    ]);
  });
});

// Anthropic's wire, which Vertex AI's Claude speaks too: the cache writes split by lifetime
// (docs/pricing.md, "Prompt-cache writes").
describe("Anthropic's prompt-cache usage", () => {
  const usage = {
    input_tokens: 10,
    cache_read_input_tokens: 40,
    cache_creation_input_tokens: 30,
    cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 20 },
    output_tokens: 5,
  };
  it("reads the reads, the writes and the 1-hour writes of an answer", () => {
    const r = parseAnthropicChat({ id: "m", model: "c", content: [{ type: "text", text: "x" }], stop_reason: "end_turn", usage });
    expect(r.usage).toEqual({
      prompt_tokens: 80,
      completion_tokens: 5,
      cached_tokens: 40,
      cache_creation_tokens: 30,
      cache_creation_1h_tokens: 20,
      reasoning_tokens: 0,
    });
    // without the split, every write is a 5-minute one
    const plain = parseAnthropicChat({ content: [], usage: { input_tokens: 1, cache_creation_input_tokens: 3, output_tokens: 1 } });
    expect(plain.usage).toMatchObject({ prompt_tokens: 4, cache_creation_tokens: 3, cache_creation_1h_tokens: 0 });
  });
  it("keeps a stream's split when message_delta repeats the totals without it", () => {
    const out: StreamEvent[] = [];
    const p = anthropicStreamParser();
    p.parse(
      JSON.stringify({ type: "message_start", message: { id: "m", model: "c", usage: Object.assign({}, usage, { output_tokens: 1 }) } }),
      "message_start",
      (e) => out.push(e),
    );
    const { cache_creation: _split, ...totals } = usage;
    p.parse(JSON.stringify({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: totals }), "message_delta", (e) => out.push(e));
    const usages = out.filter((e) => e.type === "usage").map((e) => (e as { usage: object }).usage);
    expect(usages[0]).toMatchObject({ cache_creation_tokens: 30, cache_creation_1h_tokens: 20 });
    expect(usages[usages.length - 1]).toEqual({ completion_tokens: 5, prompt_tokens: 80, cached_tokens: 40, cache_creation_tokens: 30 });
  });
});

describe("Vertex AI adapter", () => {
  it("checks service-account keys and places calls by region and project", async () => {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    const key = serviceAccountKey("https://oauth2.example", await exportPKCS8(privateKey));
    expect(serviceAccountRefusal(key)).toBeUndefined();
    expect(serviceAccountRefusal("not json")?.en).toMatch(/JSON/);
    expect(serviceAccountRefusal(JSON.stringify({ client_email: "a@b", private_key: "x", project_id: "p" }))?.en).toMatch(/PEM/);
    expect(serviceAccountRefusal(JSON.stringify({ client_email: "a@b", project_id: "p" }))?.en).toMatch(/private_key/);
    expect(serviceAccountRefusal(JSON.stringify({ client_email: "a@b", project_id: "p" }))?.ru).toContain("private_key");
    expect(vertexPlace({ key, other: "" }, "m")).toEqual({ project: "wire-project", region: "us-central1" });
    expect(vertexPlace({ key, other: "europe-west4" }, "m")).toEqual({ project: "wire-project", region: "europe-west4" });
    const other = JSON.stringify({ region: "us-east5", project: "mine", "gemini-2.5-pro": "global" });
    expect(vertexPlace({ key, other }, "gemini-2.5-pro")).toEqual({ project: "mine", region: "global" });
    expect(vertexPlace({ key, other }, "claude-x")).toEqual({ project: "mine", region: "us-east5" });
    expect(vertexHost("global")).toBe("https://aiplatform.googleapis.com");
    expect(vertexHost("us-east5")).toBe("https://us-east5-aiplatform.googleapis.com");
    expect(vertex.profile.checkKey?.(key)).toBeUndefined();
  });
});

// ---------- end to end over the wires (the same ones the integration test uses) ----------

interface Served {
  url: string;
  requests: WireRequest[];
  close(): Promise<void>;
}
async function serve(wire: ProviderWire): Promise<Served> {
  const requests: WireRequest[] = [];
  const srv = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const body = Buffer.concat(parts);
      let json: unknown;
      try {
        json = body.length ? JSON.parse(body.toString()) : undefined;
      } catch {
        json = undefined;
      }
      const r: WireRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, json };
      requests.push(r);
      void Promise.resolve(wire.handle(r, res)).catch((e) => res.writeHead(500).end(String(e)));
    });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((r) => {
        srv.closeAllConnections();
        srv.close(() => r());
      }),
  };
}

let relay: Relay;
const served = new Map<string, Served>();
beforeAll(async () => {
  for (const w of CLOUD_WIRES) served.set(w.label, await serve(w));
  relay = await startRelay(() => {
    throw new Error("no channel");
  });
});
afterAll(async () => {
  await relay.close();
  for (const s of served.values()) await s.close();
});

describe.each(CLOUD_WIRES.map((w) => [w.label, w] as const))("%s over its wire", (label, wire) => {
  it("answers a chat and a streamed chat with the upstream's text and usage", async () => {
    const mock = served.get(label)!;
    const fields = wire.channel(mock.url);
    relay.setChannel((model) => ({ id: 1, type: wire.type, base_url: fields.base_url, key: fields.key, other: fields.other ?? "", upstreamModel: model }));
    const before = mock.requests.length;
    const r = await post(`${relay.url}/v1/chat/completions`, { model: wire.model, messages: [{ role: "user", content: "hi" }] });
    const j = (await r.json()) as { choices: { message: { content: string } }[]; usage: { prompt_tokens: number; completion_tokens: number } };
    expect(r.status, JSON.stringify(j)).toBe(200);
    expect(j.choices[0].message.content).toBe(WIRE_TEXT);
    expect(j.usage).toMatchObject({ prompt_tokens: WIRE_USAGE.prompt, completion_tokens: WIRE_USAGE.completion });
    wire.check?.(mock.requests.slice(before), false);

    const mid = mock.requests.length;
    const s = await post(`${relay.url}/v1/chat/completions`, {
      model: wire.model,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(s.status).toBe(200);
    let text = "";
    let usage: unknown;
    for (const e of await sseEvents(s)) {
      if (e.data === "[DONE]") continue;
      const c = JSON.parse(e.data);
      text += c.choices?.[0]?.delta?.content ?? "";
      if (c.usage) usage = c.usage;
    }
    expect(text).toBe(WIRE_TEXT);
    expect(usage).toMatchObject({ prompt_tokens: WIRE_USAGE.prompt, completion_tokens: WIRE_USAGE.completion });
    wire.check?.(mock.requests.slice(mid), true);
  });
});

// the console's calls (lib/channel-admin/upstream.ts gives the outbound policy's fetch; a plain one here)
const consoleHttp = {
  async getJson(url: string, headers: Record<string, string>) {
    const r = await fetch(url, { headers });
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    return (await r.json()) as Record<string, unknown>;
  },
  postJson: () => Promise.reject(new Error("unused")),
};

describe("model lists", () => {
  it("Bedrock: the signed foundation-models list, text models only", async () => {
    const mock = served.get("bedrock")!;
    const ch = { type: 33, other: "", ...CLOUD_WIRES[0].channel(mock.url) };
    const before = mock.requests.length;
    expect(await bedrock.profile.listModels!(ch, consoleHttp)).toEqual(["anthropic.claude-3-5-haiku-20241022-v1:0", "amazon.nova-micro-v1:0"]);
    const req = mock.requests[before];
    expect(req.url).toBe("/foundation-models");
    expect(
      sigv4Refusal(req, {
        accessKeyId: "AKIAWIRETEST0EXAMPLE",
        secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYWIRETESTKEY",
        region: "us-west-2",
        service: "bedrock",
      }),
    ).toBeUndefined();
  });

  it("Vertex: Google's and Anthropic's publisher models, with a minted token", async () => {
    const mock = served.get("vertex-gemini")!;
    const fields = CLOUD_WIRES[1].channel(mock.url);
    const ids = await vertex.profile.listModels!({ type: 41, base_url: fields.base_url, key: fields.key, other: fields.other ?? "" }, consoleHttp);
    expect(ids).toEqual(["gemini-2.5-flash", "gemini-2.5-pro", "claude-sonnet-4@20250514"]);
  });
});

describe("failures on the cloud wires", () => {
  it("Bedrock: a wrong secret is refused by the upstream's signature check, as a 403 with its message", async () => {
    const mock = served.get("bedrock")!;
    relay.setChannel((model) => ({ id: 1, type: 33, base_url: mock.url, key: "AKIAWIRETEST0EXAMPLE|wrong-secret|us-west-2", other: "", upstreamModel: model }));
    const r = await post(`${relay.url}/v1/chat/completions`, {
      model: "anthropic.claude-3-5-haiku-20241022-v1:0",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(r.status).toBe(403);
    const j = (await r.json()) as { error: { message: string } };
    expect(j.error.message).toMatch(/signature/);
    expect(j.error.message).not.toContain("wrong-secret");
  });

  it("Vertex: a key the token endpoint does not accept fails the call as the channel's authentication error", async () => {
    const mock = served.get("vertex-gemini")!;
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    const key = serviceAccountKey(mock.url, await exportPKCS8(privateKey));
    relay.setChannel((model) => ({ id: 1, type: 41, base_url: mock.url, key, other: "us-east5", upstreamModel: model }));
    const r = await post(`${relay.url}/v1/chat/completions`, { model: "gemini-2.5-flash", messages: [{ role: "user", content: "hi" }] });
    expect(r.status).toBe(401);
    const j = (await r.json()) as { error: { message: string } };
    expect(j.error.message).toMatch(/invalid_grant/);
    expect(j.error.message).not.toContain("PRIVATE KEY");
  });
});
