// The OpenAI endpoints other than chat, on OpenAI-wire and Azure channels: model mapping,
// URLs, usage and meters read from the answer, streams and binary answers passed through.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockUpstream, USAGE, type MockUpstream } from "@/tests/support/mock-upstreams";
import { channelFor, post, sseEvents, startRelay, type Relay } from "./harness";

let openai: MockUpstream;
let azure: MockUpstream;
let anthropic: MockUpstream;
let gemini: MockUpstream;
let relay: Relay;
beforeAll(async () => {
  gemini = await startMockUpstream("gemini");
  openai = await startMockUpstream("openai");
  azure = await startMockUpstream("azure");
  anthropic = await startMockUpstream("anthropic");
  relay = await startRelay(channelFor(openai));
});
afterAll(async () => {
  await relay.close();
  await openai.close();
  await azure.close();
  await anthropic.close();
  await gemini.close();
});
function use(m: MockUpstream) {
  m.requests.length = 0;
  m.behavior = {};
  relay.setChannel(channelFor(m));
  return m;
}
const last = () => relay.outcomes[relay.outcomes.length - 1];

describe.each(["openai", "azure"] as const)("%s channel", (which) => {
  const mock = () => (which === "openai" ? openai : azure);
  const path = (model: string, endpoint: string) =>
    which === "openai" ? `/v1/${endpoint}` : `/openai/deployments/${model.replace(/\./g, "")}/${endpoint}?api-version=2024-10-21`;

  it("embeddings: model mapped, usage read", async () => {
    const m = use(mock());
    const res = await post(`${relay.url}/v1/embeddings`, { model: "text-embedding-3-small", input: ["a", "b"] });
    expect(res.status).toBe(200);
    const j = (await res.json()) as any;
    expect(j.data).toHaveLength(2);
    expect(m.requests[0].url).toBe(path("up-text-embedding-3-small", "embeddings"));
    expect(m.requests[0].json.model).toBe("up-text-embedding-3-small");
    expect(m.requests[0].headers[which === "openai" ? "authorization" : "api-key"]).toContain(m.key);
    expect(last()).toMatchObject({ ok: true, usageEstimated: false });
    expect(last().usage.prompt_tokens).toBe(USAGE.prompt);
  });

  it("completions stream: passed through chunk by chunk, usage asked for and read", async () => {
    const m = use(mock());
    const res = await post(`${relay.url}/v1/completions`, { model: "gpt-3.5-turbo-instruct", prompt: "once", stream: true });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = await sseEvents(res);
    expect(events[events.length - 1].data).toBe("[DONE]");
    expect(events.map((e) => (e.data === "[DONE]" ? "" : (JSON.parse(e.data).choices[0]?.text ?? ""))).join("")).toBe("once upon");
    expect(m.requests[0].json.stream_options).toEqual({ include_usage: true });
    expect(last().usage).toMatchObject({ prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion });
  });

  for (const stream of [false, true])
    it(`responses API (${stream ? "stream" : "non-stream"}): usage input/output tokens`, async () => {
      const m = use(mock());
      const res = await post(`${relay.url}/v1/responses`, { model: "gpt-4o", input: "hi", stream });
      expect(res.status).toBe(200);
      if (stream) {
        const events = await sseEvents(res);
        // passed through: the mock's own sequence, event for event
        expect(events.map((e) => e.event)).toEqual([
          "response.created",
          "response.in_progress",
          "response.output_item.added",
          "response.content_part.added",
          "response.output_text.delta",
          "response.output_text.delta",
          "response.output_text.done",
          "response.output_item.done",
          "response.completed",
        ]);
      } else expect(((await res.json()) as any).output[0].content[0].text).toBe("hi there");
      expect(m.requests[0].url).toBe(which === "openai" ? "/v1/responses" : "/openai/responses?api-version=2024-10-21");
      expect(last().usage).toEqual({
        prompt_tokens: USAGE.prompt,
        completion_tokens: USAGE.completion,
        cached_tokens: USAGE.cached,
        cache_creation_tokens: 0,
        cache_creation_1h_tokens: 0,
        reasoning_tokens: USAGE.reasoning,
      });
      expect(last().usageEstimated).toBe(false);
    });

  it("images: counted per image", async () => {
    use(mock());
    const res = await post(`${relay.url}/v1/images/generations`, { model: "dall-e-3", prompt: "a cat", n: 3 });
    expect(((await res.json()) as any).data).toHaveLength(3);
    expect(last().meter).toEqual({ images: 3 });
  });

  it("audio speech: the binary answer streams through, metered by characters", async () => {
    use(mock());
    const res = await post(`${relay.url}/v1/audio/speech`, { model: "tts-1", input: "Hello, world!", voice: "alloy" });
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    const buf = Buffer.from(await res.arrayBuffer());
    expect(buf.length).toBe(64 * 1024);
    expect(buf.every((b) => b === 7)).toBe(true);
    expect(last().meter).toEqual({ characters: 13 });
  });

  it("audio transcription: the multipart model part mapped, the rest byte for byte, duration read", async () => {
    const m = use(mock());
    const form = new FormData();
    form.append("model", "whisper-1");
    form.append("file", new Blob([new Uint8Array([1, 2, 3, 4])], { type: "audio/wav" }), "a.wav");
    const sent = new Request("http://client/", { method: "POST", body: form });
    const ct = sent.headers.get("content-type")!;
    const body = Buffer.from(await sent.arrayBuffer());
    const res = await fetch(`${relay.url}/v1/audio/transcriptions`, { method: "POST", body, headers: { "content-type": ct } });
    expect(((await res.json()) as any).text).toBe("hello world");
    expect(m.requests[0].headers["content-type"]).toBe(ct);
    expect(m.requests[0].url).toBe(path("up-whisper-1", "audio/transcriptions"));
    const expected = body.toString("latin1").replace("\r\n\r\nwhisper-1\r\n", "\r\n\r\nup-whisper-1\r\n");
    expect(m.requests[0].raw.toString("latin1")).toBe(expected);
    expect(m.requests[0].headers["content-length"]).toBe(String(Buffer.byteLength(expected, "latin1")));
    expect(last().meter).toEqual({ seconds: 4 });
  });
});

describe("openai-only endpoints", () => {
  it("moderations: no usage upstream, estimated from the input", async () => {
    use(openai);
    const res = await post(`${relay.url}/v1/moderations`, { model: "omni-moderation-latest", input: "some text to check" });
    expect(res.status).toBe(200);
    expect(last()).toMatchObject({ ok: true, usageEstimated: true });
    expect(last().usage.prompt_tokens).toBe(5); // 18 ASCII characters
  });

  it("rerank on a custom OpenAI-compatible host: total tokens read", async () => {
    use(openai);
    relay.setChannel(channelFor(openai, { type: 8 }));
    const res = await post(`${relay.url}/v1/rerank`, { model: "rerank-1", query: "q", documents: ["a", "b"] });
    expect(((await res.json()) as any).results).toHaveLength(2);
    expect(last().usage.prompt_tokens).toBe(12);
  });

  it("rerank on OpenAI itself: refused (OpenAI has none), the upstream not called", async () => {
    const m = use(openai);
    const res = await post(`${relay.url}/v1/rerank`, { model: "rerank-1", query: "q", documents: ["a", "b"] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toContain("rerank");
    expect(m.requests).toHaveLength(0);
    expect(last()).toMatchObject({ ok: false, retryable: true });
  });

  it("Azure refuses moderations, Anthropic refuses embeddings: retryable, upstream not called", async () => {
    use(azure);
    const r1 = await post(`${relay.url}/v1/moderations`, { model: "x", input: "y" });
    expect(r1.status).toBe(400);
    expect(azure.requests).toHaveLength(0);
    use(anthropic);
    const r2 = await post(`${relay.url}/v1/embeddings`, { model: "x", input: "y" });
    expect(r2.status).toBe(400);
    expect(((await r2.json()) as any).error.message).toContain("embeddings");
    expect(last()).toMatchObject({ ok: false, retryable: true });
  });

  it("upstream errors on pass-through endpoints are OpenAI-shaped and keyless", async () => {
    const m = use(openai);
    m.behavior = { failStatus: 503 };
    const res = await post(`${relay.url}/v1/embeddings`, { model: "e", input: "y" });
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(text).not.toContain(m.key);
    expect(JSON.parse(text).error.message).toContain("mock failure 503");
    expect(last()).toMatchObject({ ok: false, retryable: true, firstByteSentToClient: false });
  });
});

describe("Gemini embeddings from OpenAI's /v1/embeddings", () => {
  it("converts to batchEmbedContents and back, usage estimated", async () => {
    const m = use(gemini);
    const res = await post(`${relay.url}/v1/embeddings`, { model: "text-embedding-004", input: ["hello", "hi there"], dimensions: 8 });
    expect(res.status).toBe(200);
    const j = (await res.json()) as any;
    expect(j.data).toEqual([
      { object: "embedding", index: 0, embedding: [0, 5, 8] },
      { object: "embedding", index: 1, embedding: [1, 8, 8] },
    ]);
    expect(m.requests[0].url).toBe("/v1beta/models/up-text-embedding-004:batchEmbedContents");
    expect(m.requests[0].headers["x-goog-api-key"]).toBe(m.key);
    expect(m.requests[0].json.requests[0]).toEqual({ model: "models/up-text-embedding-004", content: { parts: [{ text: "hello" }] }, outputDimensionality: 8 });
    expect(last()).toMatchObject({ ok: true, usageEstimated: true });
    expect(last().usage.prompt_tokens).toBe(j.usage.prompt_tokens);
    expect(j.usage.prompt_tokens).toBe(4); // ceil(5/4) + ceil(8/4)
  });
  it("refuses token-array input clearly", async () => {
    use(gemini);
    const res = await post(`${relay.url}/v1/embeddings`, { model: "e", input: [[1, 2, 3]] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toMatch(/input/);
  });
});
