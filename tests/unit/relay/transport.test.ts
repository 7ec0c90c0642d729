// The node:http transport behaves as the default undici one: streams, tools, mid-stream
// errors, timeouts, client aborts and binary pass-through.
import net from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { httpTransport, undiciTransport } from "@/lib/relay/transport";
import { USAGE } from "@/tests/support/mock-upstreams";
import { channelFor, post, sseEvents, relayOverMocks } from "./harness";
import { extract, send } from "./clients";

const fixture = relayOverMocks(["openai", "anthropic", "gemini"]);
const { mocks, use, last } = fixture;
beforeAll(() => {
  fixture.relay.transport = httpTransport;
});

describe.each(["openai", "anthropic", "gemini"] as const)("node:http transport, upstream %s", (kind) => {
  it("stream with usage, from an Anthropic client", async () => {
    use(kind);
    const x = await extract(
      "anthropic-messages",
      await send(fixture.relay.url, "anthropic-messages", { model: "m", stream: true, user: "via node:http" }),
      true,
    );
    expect(x.text).toBe("echo: via node:http");
    expect(x.prompt).toBe(USAGE.prompt);
    expect(last()).toMatchObject({ ok: true, usageEstimated: false });
  });
  it("tool call stream, from an OpenAI client", async () => {
    const m = use(kind);
    m.behavior = { toolCall: { name: "f", args: { a: 1 } } };
    const x = await extract("openai-chat", await send(fixture.relay.url, "openai-chat", { model: "m", stream: true, tools: true }), true);
    expect(x.calls[0]).toMatchObject({ name: "f", args: { a: 1 } });
  });
  it("mid-stream error and timeout", async () => {
    const m = use(kind);
    m.behavior = { failMidStream: true, text: "some words" };
    const events = await sseEvents(await send(fixture.relay.url, "gemini", { model: "m", stream: true }));
    expect(JSON.parse(events[events.length - 1].data).error).toBeDefined();
    expect(last()).toMatchObject({ ok: false, firstByteSentToClient: true, retryable: false });
    m.behavior = { delayMs: 300 };
    fixture.relay.timeoutMs = 60;
    const res = await send(fixture.relay.url, "openai-chat", { model: "m", stream: false });
    expect(res.status).toBe(504);
    expect(last()).toMatchObject({ status: 504, retryable: true });
  });
});

it("node:http transport: binary pass-through and client abort", async () => {
  use("openai");
  const res = await post(`${fixture.relay.url}/v1/audio/speech`, { model: "tts-1", input: "abc", voice: "x" });
  expect((await res.arrayBuffer()).byteLength).toBe(64 * 1024);
  const m = use("openai");
  m.behavior = { text: Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ") };
  const ac = new AbortController();
  const before = fixture.relay.outcomes.length;
  const r = await post(`${fixture.relay.url}/v1/chat/completions`, { model: "m", stream: true, messages: [{ role: "user", content: "x" }] }, {});
  void ac;
  const reader = r.body!.getReader();
  await reader.read();
  await reader.cancel();
  for (let i = 0; i < 100 && fixture.relay.outcomes.length === before; i++) await new Promise((res) => setTimeout(res, 10));
  expect(last()).toMatchObject({ ok: false, status: 499, firstByteSentToClient: true });
});

it("the transports refuse an unreachable host as a network failure", async () => {
  // a port that was free a moment ago: nothing listens there
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  for (const t of [undiciTransport, httpTransport]) {
    fixture.relay.transport = t;
    fixture.relay.setChannel(channelFor(mocks.openai, { base_url: `http://127.0.0.1:${port}` }));
    const res = await send(fixture.relay.url, "openai-chat", { model: "m", stream: false });
    expect(res.status).toBe(502);
    expect(last()).toMatchObject({ ok: false, retryable: true });
    expect(last().upstreamError!.message).toContain("ECONNREFUSED");
  }
  fixture.relay.transport = httpTransport;
});
