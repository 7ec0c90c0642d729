// The fetch transport (node's fetch) behaves as the default node:http one: streams, tools,
// mid-stream errors, timeouts, client aborts and binary pass-through.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchTransport, httpTransport } from "@/lib/relay/transport";
import { startMockUpstream, USAGE, type MockKind, type MockUpstream } from "@/tests/support/mock-upstreams";
import { channelFor, post, sseEvents, startRelay, type Relay } from "./harness";
import { extract, send } from "./clients";

const mocks = {} as Record<MockKind, MockUpstream>;
let relay: Relay;
beforeAll(async () => {
  for (const k of ["openai", "anthropic", "gemini"] as const) mocks[k] = await startMockUpstream(k);
  relay = await startRelay(channelFor(mocks.openai));
  relay.transport = fetchTransport;
});
afterAll(async () => {
  await relay.close();
  for (const m of Object.values(mocks)) await m.close();
});
function use(kind: MockKind) {
  const m = mocks[kind];
  m.requests.length = 0;
  m.behavior = {};
  relay.setChannel(channelFor(m));
  relay.timeoutMs = undefined;
  return m;
}
const last = () => relay.outcomes[relay.outcomes.length - 1];

describe.each(["openai", "anthropic", "gemini"] as const)("fetch transport, upstream %s", (kind) => {
  it("stream with usage, from an Anthropic client", async () => {
    use(kind);
    const x = await extract("anthropic-messages", await send(relay.url, "anthropic-messages", { model: "m", stream: true, user: "via fetch" }), true);
    expect(x.text).toBe("echo: via fetch");
    expect(x.prompt).toBe(USAGE.prompt);
    expect(last()).toMatchObject({ ok: true, usageEstimated: false });
  });
  it("tool call stream, from an OpenAI client", async () => {
    const m = use(kind);
    m.behavior = { toolCall: { name: "f", args: { a: 1 } } };
    const x = await extract("openai-chat", await send(relay.url, "openai-chat", { model: "m", stream: true, tools: true }), true);
    expect(x.calls[0]).toMatchObject({ name: "f", args: { a: 1 } });
  });
  it("mid-stream error and timeout", async () => {
    const m = use(kind);
    m.behavior = { failMidStream: true, text: "some words" };
    const events = await sseEvents(await send(relay.url, "gemini", { model: "m", stream: true }));
    expect(JSON.parse(events[events.length - 1].data).error).toBeDefined();
    expect(last()).toMatchObject({ ok: false, firstByteSentToClient: true, retryable: false });
    m.behavior = { delayMs: 300 };
    relay.timeoutMs = 60;
    const res = await send(relay.url, "openai-chat", { model: "m", stream: false });
    expect(res.status).toBe(504);
    expect(last()).toMatchObject({ status: 504, retryable: true });
  });
});

it("fetch transport: binary pass-through and client abort", async () => {
  use("openai");
  const res = await post(`${relay.url}/v1/audio/speech`, { model: "tts-1", input: "abc", voice: "x" });
  expect((await res.arrayBuffer()).byteLength).toBe(64 * 1024);
  const m = use("openai");
  m.behavior = { text: Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ") };
  const ac = new AbortController();
  const before = relay.outcomes.length;
  const r = await post(`${relay.url}/v1/chat/completions`, { model: "m", stream: true, messages: [{ role: "user", content: "x" }] }, {});
  void ac;
  const reader = r.body!.getReader();
  await reader.read();
  await reader.cancel();
  for (let i = 0; i < 100 && relay.outcomes.length === before; i++) await new Promise((res) => setTimeout(res, 10));
  expect(last()).toMatchObject({ ok: false, status: 499, firstByteSentToClient: true });
});

it("the transports refuse an unreachable host as a network failure", async () => {
  // a port that was free a moment ago: nothing listens there
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  for (const t of [httpTransport, fetchTransport]) {
    relay.transport = t;
    relay.setChannel(channelFor(mocks.openai, { base_url: `http://127.0.0.1:${port}` }));
    const res = await send(relay.url, "openai-chat", { model: "m", stream: false });
    expect(res.status).toBe(502);
    expect(last()).toMatchObject({ ok: false, retryable: true });
    expect(last().upstreamError!.message).toContain("ECONNREFUSED");
  }
  relay.transport = fetchTransport;
});
