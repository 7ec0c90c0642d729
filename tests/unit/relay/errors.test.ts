// Failures: upstream HTTP errors (each provider's body, rendered in the client's format,
// never carrying a key), errors in the middle of a stream, a slow first byte, a missing
// usage, a client that goes away, and the retry contract (nothing written before success).
import { describe, expect, it } from "vitest";
import type { IngressName } from "@/lib/relay/formats";
import type { MockKind } from "@/tests/support/mock-upstreams";
import { channelFor, post, sseEvents, relayOverMocks } from "./harness";
import { extract, send } from "./clients";

const KINDS: MockKind[] = ["openai", "azure", "anthropic", "gemini"];
const INGRESSES: IngressName[] = ["openai-chat", "anthropic-messages", "gemini"];
const fixture = relayOverMocks(KINDS);
const { mocks, use, last } = fixture;

/** The error body in the ingress format's own shape; returns its message. */
function checkErrorShape(ingress: IngressName, status: number, j: any): string {
  if (ingress === "openai-chat") {
    expect(j.error).toMatchObject({ message: expect.any(String), type: expect.any(String) });
    expect(j.error).toHaveProperty("code");
    return j.error.message;
  }
  if (ingress === "anthropic-messages") {
    expect(j.type).toBe("error");
    expect(j.error.type).toEqual(
      status === 429
        ? "rate_limit_error"
        : status === 401
          ? "authentication_error"
          : status === 400
            ? "invalid_request_error"
            : status === 529
              ? "overloaded_error"
              : status >= 500
                ? "api_error"
                : expect.any(String),
    );
    return j.error.message;
  }
  expect(j.error.code).toBe(status);
  expect(j.error.status).toEqual(
    status === 429
      ? "RESOURCE_EXHAUSTED"
      : status === 400
        ? "INVALID_ARGUMENT"
        : status === 401
          ? "UNAUTHENTICATED"
          : status === 504
            ? "DEADLINE_EXCEEDED"
            : expect.any(String),
  );
  return j.error.message;
}

describe.each(INGRESSES)("ingress %s", (ingress) => {
  describe.each(KINDS)("→ provider %s", (kind) => {
    for (const stream of [false, true]) {
      it(`upstream 429 becomes a retryable failure, nothing sent, no key (${stream ? "stream" : "non-stream"})`, async () => {
        const m = use(kind);
        m.behavior = { failStatus: 429 };
        const res = await send(fixture.relay.url, ingress, { model: "m", stream });
        expect(res.status).toBe(429);
        const text = await res.text();
        expect(text).not.toContain(m.key);
        checkErrorShape(ingress, 429, JSON.parse(text));
        const o = last();
        expect(o).toMatchObject({ ok: false, status: 429, retryable: true, firstByteSentToClient: false });
        expect(o.upstreamError!.message).toContain("mock failure 429");
        expect(o.upstreamError!.message).not.toContain(m.key);
      });
    }

    it("upstream 400 is not retryable", async () => {
      const m = use(kind);
      m.behavior = { failStatus: 400, failMessage: "bad thing" };
      const res = await send(fixture.relay.url, ingress, { model: "m", stream: false });
      expect(res.status).toBe(400);
      expect(checkErrorShape(ingress, 400, await res.json())).toBe("bad thing");
      expect(last()).toMatchObject({ ok: false, status: 400, retryable: false });
    });

    it("a wrong key echoed by the upstream is masked", async () => {
      const m = use(kind);
      fixture.relay.setChannel(channelFor(m, { key: "sk-wrongkey-0123456789abcdefXYZ" }));
      const res = await send(fixture.relay.url, ingress, { model: "m", stream: false });
      expect(res.status).toBe(401);
      const text = await res.text();
      expect(text).not.toContain("wrongkey");
      expect(checkErrorShape(ingress, 401, JSON.parse(text))).toContain("***");
      expect(last()).toMatchObject({ ok: false, status: 401, retryable: true });
      expect(
        m.requests[0].headers[kind === "openai" ? "authorization" : kind === "azure" ? "api-key" : kind === "anthropic" ? "x-api-key" : "x-goog-api-key"],
      ).toContain("sk-wrongkey");
    });

    it("an error mid-stream reaches the client in its format and is not retryable", async () => {
      const m = use(kind);
      m.behavior = { failMidStream: true, text: "partial answer here" };
      const res = await send(fixture.relay.url, ingress, { model: "m", stream: true });
      expect(res.status).toBe(200);
      const events = await sseEvents(res);
      const text = events.map((e) => e.data).join("\n");
      expect(text).toContain("partial");
      const lastEvent = JSON.parse(events[events.length - 1].data);
      if (ingress === "anthropic-messages") {
        expect(events[events.length - 1].event).toBe("error");
        expect(lastEvent.type).toBe("error");
      } else expect(lastEvent.error.message).toMatch(/mid-stream/);
      expect(last()).toMatchObject({ ok: false, firstByteSentToClient: true, retryable: false });
      // usage is still accounted (estimated: the stream never sent it)
      expect(last().usage.completion_tokens).toBeGreaterThan(0);
    });

    it("an error before any content is retryable and nothing is written", async () => {
      const m = use(kind);
      m.behavior = { failMidStream: true, text: "" };
      const res = await send(fixture.relay.url, ingress, { model: "m", stream: true });
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.status).toBeGreaterThanOrEqual(500);
      checkErrorShape(ingress, res.status, await res.json());
      expect(last()).toMatchObject({ ok: false, firstByteSentToClient: false, retryable: true });
    });

    it("a slow first byte times out (504, retryable)", async () => {
      const m = use(kind);
      m.behavior = { delayMs: 400 };
      fixture.relay.timeoutMs = 80;
      const t = Date.now();
      const res = await send(fixture.relay.url, ingress, { model: "m", stream: true });
      expect(Date.now() - t).toBeLessThan(350);
      expect(res.status).toBe(504);
      checkErrorShape(ingress, 504, await res.json());
      expect(last()).toMatchObject({ ok: false, status: 504, retryable: true, firstByteSentToClient: false });
    });

    for (const stream of [false, true]) {
      it(`missing usage is estimated and flagged (${stream ? "stream" : "non-stream"})`, async () => {
        const m = use(kind);
        m.behavior = { noUsage: true, text: "one two three four five six seven eight" };
        const res = await send(fixture.relay.url, ingress, { model: "m", stream, system: "be brief", user: "hello world, how are you" });
        const x = await extract(ingress, res, stream);
        expect(x.text).toBe("one two three four five six seven eight");
        const o = last();
        expect(o).toMatchObject({ ok: true, usageEstimated: true });
        // 39 ASCII characters of answer: ceil(39 / 4) = 10
        expect(o.usage.completion_tokens).toBe(10);
        expect(o.usage.prompt_tokens).toBeGreaterThan(5);
        expect(x.prompt).toBe(o.usage.prompt_tokens);
        expect(x.completion).toBe(10);
      });
    }
  });
});

describe("pipeline contract", () => {
  it("a client that goes away mid-stream ends the call (499, not retryable)", async () => {
    const m = use("openai");
    m.behavior = { text: Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ") };
    const ac = new AbortController();
    const before = fixture.relay.outcomes.length;
    const res = await fetch(`${fixture.relay.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] }),
      signal: ac.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    ac.abort();
    for (let i = 0; i < 100 && fixture.relay.outcomes.length === before; i++) await new Promise((r) => setTimeout(r, 10));
    expect(fixture.relay.outcomes.length).toBe(before + 1);
    expect(last()).toMatchObject({ ok: false, status: 499, firstByteSentToClient: true, retryable: false });
  });

  it("a channel type the relay cannot call is a retryable refusal", async () => {
    use("openai");
    fixture.relay.setChannel(channelFor(mocks.openai, { type: 999 }));
    const res = await send(fixture.relay.url, "openai-chat", { model: "m", stream: false });
    expect(res.status).toBe(502);
    expect(last()).toMatchObject({ ok: false, retryable: true, firstByteSentToClient: false });
  });

  it("n > 1 on a channel that has no n is refused before the call; OpenAI renders n choices", async () => {
    const a = use("anthropic");
    const body = { model: "m", n: 2, messages: [{ role: "user", content: "hi" }] };
    const r1 = await post(`${fixture.relay.url}/v1/chat/completions`, body);
    expect(r1.status).toBe(400);
    expect(a.requests).toHaveLength(0);
    expect(last()).toMatchObject({ retryable: true });
    use("openai");
    const r2 = await post(`${fixture.relay.url}/v1/chat/completions`, body);
    const j = (await r2.json()) as any;
    expect(j.choices.map((c: any) => c.message.content)).toEqual(["echo: hi #0", "echo: hi #1"]);
    use("gemini");
    const r3 = await post(`${fixture.relay.url}/v1/chat/completions`, body);
    const g = (await r3.json()) as any;
    expect(g.choices).toHaveLength(2);
    expect(mocks.gemini.requests[0].json.generationConfig.candidateCount).toBe(2);
  });

  it("reasoning passes from an OpenAI-wire upstream to an OpenAI client, and thinking from Anthropic", async () => {
    const m = use("openai");
    m.behavior = { reasoning: "let me think" };
    const j = (await (await post(`${fixture.relay.url}/v1/chat/completions`, { model: "m", messages: [{ role: "user", content: "hi" }] })).json()) as any;
    expect(j.choices[0].message.reasoning_content).toBe("let me think");
    const a = use("anthropic");
    a.behavior = { reasoning: "pondering" };
    const res = await post(`${fixture.relay.url}/v1/chat/completions`, { model: "m", stream: true, messages: [{ role: "user", content: "hi" }] });
    const events = await sseEvents(res);
    const reasoning = events
      .filter((e) => e.data !== "[DONE]")
      .map((e) => JSON.parse(e.data).choices[0]?.delta?.reasoning_content ?? "")
      .join("");
    expect(reasoning).toBe("pondering");
  });
});
