// OpenTelemetry traces (docs/tracing.md): the gateway started with OTEL_EXPORTER_OTLP_ENDPOINT
// pointing at a local OTLP/HTTP receiver (JSON protocol, decoded here) sends one SERVER span per
// relay call with the GenAI attributes and the call's request id, a CLIENT child span per
// upstream attempt, and one SERVER span per console API request with its route and user; a
// client's traceparent parents the span. A second node samples with
// parentbased_traceidratio at ratio 0: a call without a sampled parent yields no span, one
// with a sampled parent yields its span, exported at the graceful shutdown.
import http from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";

const MODEL = "trace-model";
const PROMPT = "the secret prompt text";
const SERVER_KIND = 2; // SPAN_KIND_SERVER in OTLP
const CLIENT_KIND = 3;

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: AnyValue }[];
  status?: { code?: number };
};
type Span = {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attrs: Record<string, unknown>;
  resource: Record<string, unknown>;
  service: string;
  status: number;
};

function valueOf(v: AnyValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

// a local OTLP/HTTP receiver: POST /v1/traces, JSON encoding
const spans: Span[] = [];
const exportHeaders: http.IncomingHttpHeaders[] = [];
let receiver: http.Server;
let receiverUrl = "";

async function startReceiver(): Promise<void> {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      exportHeaders.push(req.headers);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: { resource?: { attributes?: { key: string; value: AnyValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const rs of body.resourceSpans) {
        const resource: Record<string, unknown> = {};
        for (const a of rs.resource?.attributes ?? []) resource[a.key] = valueOf(a.value);
        const service = String(resource["service.name"] ?? "");
        for (const ss of rs.scopeSpans)
          for (const s of ss.spans) {
            const attrs: Record<string, unknown> = {};
            for (const a of s.attributes ?? []) attrs[a.key] = valueOf(a.value);
            spans.push({
              name: s.name,
              kind: s.kind,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? "",
              attrs,
              resource,
              service,
              status: s.status?.code ?? 0,
            });
          }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
}

async function spanOf(requestId: string, kind = SERVER_KIND, service = "gw-trace-test"): Promise<Span> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = spans.filter((s) => s.kind === kind && s.attrs["gateway.request_id"] === requestId && s.service === service);
    if (found.length > 0) {
      expect(found).toHaveLength(1);
      return found[0];
    }
    if (Date.now() > deadline) throw new Error(`no span for ${requestId}; received: ${spans.map((s) => s.name).join(", ")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let server: TestServer;
let mock: MockUpstream;
let root: ApiClient;
let key: string;
let userId: number;
let channelId: number;
let user: ApiClient;

async function prepare(s: TestServer, upstream: MockUpstream): Promise<{ root: ApiClient; key: string; userId: number; channelId: number; user: ApiClient }> {
  const r = await setupRoot(s);
  await setOptions(r, { ModelRatio: JSON.stringify({ [MODEL]: 1 }), CompletionRatio: JSON.stringify({ [MODEL]: 1 }), CacheRatio: "{}" });
  const c = await r.post("/api/channel/", { name: "traced", type: 1, key: upstream.key, base_url: upstream.url, models: MODEL, group: "default" });
  expect(c.success, c.message).toBe(true);
  const list = await r.get<{ items: { id: number }[] }>("/api/channel/?p=1&page_size=10");
  const u = await makeUser(s, r, "traceuser");
  expect((await r.put("/api/user/", { id: u.id, quota: 5_000_000 })).success).toBe(true);
  const t = await u.client.post<{ key: string }[]>("/api/token/", { name: "traced", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  return { root: r, key: t.data[0].key, userId: u.id, channelId: list.data.items[0].id, user: u.client };
}

beforeAll(async () => {
  await startReceiver();
  mock = await startMockUpstream("openai");
  server = await startServer({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_HEADERS: "x-receiver-token=trace-secret",
      OTEL_SERVICE_NAME: "gw-trace-test",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=test",
      OTEL_BSP_SCHEDULE_DELAY: "100",
    },
  });
  ({ root, key, userId, channelId, user } = await prepare(server, mock));
});

afterAll(async () => {
  await server?.stop();
  await mock?.close();
  await new Promise((r) => receiver?.close(r));
});

// nothing of the prompt, the answer, the key or the session may be in an attribute
function expectNoContent(s: Span): void {
  const text = JSON.stringify(s.attrs);
  expect(text).not.toContain(PROMPT);
  expect(text).not.toContain("echo:");
  expect(text).not.toContain(key.replace(/^sk-/, ""));
}

describe("relay spans", () => {
  it("a chat call yields one SERVER span with the GenAI attributes and the request id, and a CLIENT span for its upstream attempt", async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const { data, response } = await openai.chat.completions
      .create({ model: MODEL, messages: [{ role: "user", content: PROMPT }], max_tokens: 50, temperature: 0.5, n: 2 })
      .withResponse();
    expect(data.choices).toHaveLength(2);
    const requestId = response.headers.get("x-request-id")!;
    expect(requestId).toBeTruthy();
    const s = await spanOf(requestId);
    expect(s.name).toBe(`chat ${MODEL}`);
    expect(s.status).toBe(0); // unset: not an error
    expect(s.attrs).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.system": "openai",
      "gen_ai.request.model": MODEL,
      "gen_ai.response.model": MODEL,
      "gen_ai.request.max_tokens": 50,
      "gen_ai.request.temperature": 0.5,
      "gen_ai.request.stream": false,
      "gen_ai.usage.input_tokens": USAGE.prompt,
      "gen_ai.usage.output_tokens": USAGE.completion,
      "gen_ai.usage.cache_read.input_tokens": USAGE.cached,
      "gen_ai.response.finish_reasons": ["stop", "stop"],
      "http.request.method": "POST",
      "http.response.status_code": 200,
      "url.path": "/v1/chat/completions",
      "gateway.request_id": requestId,
      "gateway.channel.id": channelId,
      "user.id": String(userId),
    });
    expect(s.attrs["error.type"]).toBeUndefined();
    expectNoContent(s);
    // the upstream attempt: a CLIENT child of the call's span
    const attempts = spans.filter((a) => a.kind === CLIENT_KIND && a.parentSpanId === s.spanId);
    expect(attempts).toHaveLength(1);
    expect(attempts[0].traceId).toBe(s.traceId);
    expect(attempts[0].attrs).toMatchObject({ "gateway.channel.id": channelId, "http.response.status_code": 200, "gen_ai.provider.name": "openai" });
    // the resource: OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, the gateway's version
    expect(s.resource).toMatchObject({ "service.name": "gw-trace-test", "deployment.environment.name": "test" });
    expect(s.resource["service.version"]).toMatch(/^v\d/);
    // the exporter sent OTEL_EXPORTER_OTLP_HEADERS
    expect(exportHeaders.some((h) => h["x-receiver-token"] === "trace-secret")).toBe(true);
  });

  it("a streamed call has its finish reason and usage; a client's traceparent parents the span", async () => {
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const parent = "b7ad6b7169203331";
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const { data: stream, response } = await openai.chat.completions
      .create(
        { model: MODEL, messages: [{ role: "user", content: PROMPT }], stream: true, stream_options: { include_usage: true } },
        { headers: { traceparent: `00-${traceId}-${parent}-01` } },
      )
      .withResponse();
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toContain("echo:");
    const s = await spanOf(response.headers.get("x-request-id")!);
    expect(s.traceId).toBe(traceId);
    expect(s.parentSpanId).toBe(parent);
    expect(s.attrs).toMatchObject({
      "gen_ai.request.stream": true,
      "gen_ai.response.finish_reasons": ["stop"],
      "gen_ai.response.model": MODEL,
      "gen_ai.usage.input_tokens": USAGE.prompt,
      "gen_ai.usage.output_tokens": USAGE.completion,
      "http.response.status_code": 200,
    });
    expectNoContent(s);
  });

  it("a refused call's span carries the error type and the answer's status", async () => {
    const r = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-not-a-real-key", "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: PROMPT }] }),
    });
    expect(r.status).toBe(401);
    const s = await spanOf(r.headers.get("x-request-id")!);
    expect(s.attrs["http.response.status_code"]).toBe(401);
    expect(typeof s.attrs["error.type"]).toBe("string");
    expect(s.status).toBe(2); // ERROR
    expect(JSON.stringify(s.attrs)).not.toContain("not-a-real-key");
  });
});

describe("console spans", () => {
  it("one SERVER span per /api request, with its route, status, user and request id", async () => {
    const r = await user.raw("GET", "/api/user/self");
    expect(r.status).toBe(200);
    const s = await spanOf(r.headers.get("x-request-id")!);
    expect(s.name).toBe("GET /api/user/self");
    expect(s.attrs).toMatchObject({
      "http.request.method": "GET",
      "http.route": "/api/user/self",
      "http.response.status_code": 200,
      "user.id": String(userId),
    });

    // a path parameter becomes its [name] in the route
    // (and a client's traceparent parents a console span too)
    const traceId = "5b8efff798038103d269b633813fc60c";
    const c = await root.raw("GET", `/api/channel/${channelId}`, undefined, { traceparent: `00-${traceId}-eee19b7ec3c1b174-01` });
    expect(c.status).toBe(200);
    const cs = await spanOf(c.headers.get("x-request-id")!);
    expect(cs.name).toBe("GET /api/channel/[id]");
    expect(cs.attrs["url.path"]).toBe(`/api/channel/${channelId}`);
    expect(cs.traceId).toBe(traceId);
    expect(cs.parentSpanId).toBe("eee19b7ec3c1b174");
  });
});

describe("with tracing off", () => {
  it("the built server imports no @opentelemetry package up front (only dynamic imports, made when tracing starts)", () => {
    const bundle = readFileSync(path.join(process.env.TEST_SERVER_DIR ?? process.cwd(), "dist/server.mjs"), "utf8");
    expect(bundle).toContain('import("@opentelemetry/sdk-trace")');
    expect(bundle).not.toMatch(/^import[^;]*["']@opentelemetry\//m);
  });
});

describe("sampling", () => {
  it("parentbased_traceidratio at 0: no span without a sampled parent; a sampled parent's span is exported at the graceful shutdown", async () => {
    const node = await startServer({
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiverUrl}/v1/traces`,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "gw-trace-ratio0",
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "0",
        // nothing is exported before the shutdown
        OTEL_BSP_SCHEDULE_DELAY: "600000",
      },
    });
    let stopped = false;
    try {
      const n = await prepare(node, mock);
      const openai = new OpenAI({ apiKey: n.key, baseURL: `${node.url}/v1`, maxRetries: 0 });
      const plain = await openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] }).withResponse();
      const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
      const sampled = await openai.chat.completions
        .create({ model: MODEL, messages: [{ role: "user", content: "hi" }] }, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } })
        .withResponse();
      const notSampled = await openai.chat.completions
        .create({ model: MODEL, messages: [{ role: "user", content: "hi" }] }, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b8-00` } })
        .withResponse();
      node.signal("SIGTERM");
      expect(await node.exited()).toBe(0);
      stopped = true;
      const s = await spanOf(sampled.response.headers.get("x-request-id")!, SERVER_KIND, "gw-trace-ratio0");
      expect(s.traceId).toBe(traceId);
      const mine = spans.filter((x) => x.service === "gw-trace-ratio0");
      const ids = mine.map((x) => x.attrs["gateway.request_id"]);
      expect(ids).not.toContain(plain.response.headers.get("x-request-id"));
      expect(ids).not.toContain(notSampled.response.headers.get("x-request-id"));
      // the setup's console requests had no parent either: the sampled call's two spans are all
      expect(mine.map((x) => x.kind).sort()).toEqual([SERVER_KIND, CLIENT_KIND]);
    } finally {
      if (!stopped) node.signal("SIGKILL");
      await node.stop();
    }
  });
});
