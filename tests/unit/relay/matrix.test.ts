// Every ingress format against every provider kind, non-stream and stream: text, system
// prompt, tools (a call and a round trip with its result), images and usage, checked on
// both sides (what the client got, what the upstream received).
import { describe, expect, it } from "vitest";
import type { IngressName } from "@/lib/relay/formats";
import { USAGE, type MockKind, type MockUpstream } from "@/tests/support/mock-upstreams";
import { relayOverMocks } from "./harness";
import { extract, send } from "./clients";

const KINDS: MockKind[] = ["openai", "azure", "anthropic", "gemini"];
const INGRESSES: IngressName[] = ["openai-chat", "anthropic-messages", "gemini"];
const MODEL = "gpt-4.1";
const fixture = relayOverMocks(KINDS);
const { use } = fixture;

/** Checks URL, auth header (the channel's key), model mapping, system prompt placement. */
function checkUpstream(kind: MockKind, m: MockUpstream, stream: boolean) {
  expect(m.requests).toHaveLength(1);
  const r = m.requests[0];
  const j = r.json;
  if (kind === "openai") {
    expect(r.url).toBe("/v1/chat/completions");
    expect(r.headers.authorization).toBe(`Bearer ${m.key}`);
    expect(j.model).toBe("up-" + MODEL);
    expect(j.messages[0]).toEqual({ role: "system", content: "be brief" });
    expect(j.max_tokens).toBe(100);
    if (stream) expect(j.stream_options).toEqual({ include_usage: true });
  } else if (kind === "azure") {
    expect(r.url).toBe("/openai/deployments/up-gpt-41/chat/completions?api-version=2024-10-21");
    expect(r.headers["api-key"]).toBe(m.key);
    expect(r.headers.authorization).toBeUndefined();
    expect(j.messages[0]).toEqual({ role: "system", content: "be brief" });
  } else if (kind === "anthropic") {
    expect(r.url).toBe("/v1/messages");
    expect(r.headers["x-api-key"]).toBe(m.key);
    expect(r.headers["anthropic-version"]).toBe("2023-06-01");
    expect(j.model).toBe("up-" + MODEL);
    expect(j.system).toBe("be brief");
    expect(j.max_tokens).toBe(100);
    expect(j.stream === true).toBe(stream);
  } else {
    expect(r.url).toBe(`/v1beta/models/up-${MODEL}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`);
    expect(r.headers["x-goog-api-key"]).toBe(m.key);
    expect(j.systemInstruction).toEqual({ parts: [{ text: "be brief" }] });
    expect(j.generationConfig.maxOutputTokens).toBe(100);
  }
}

const finishOf = (ingress: IngressName, tool: boolean) =>
  ingress === "openai-chat" ? (tool ? "tool_calls" : "stop") : ingress === "anthropic-messages" ? (tool ? "tool_use" : "end_turn") : "STOP";

describe.each(INGRESSES)("ingress %s", (ingress) => {
  describe.each(KINDS)("→ provider %s", (kind) => {
    for (const stream of [false, true]) {
      const mode = stream ? "stream" : "non-stream";

      it(`text with system prompt, usage (${mode})`, async () => {
        const m = use(kind);
        const res = await send(fixture.relay.url, ingress, { model: MODEL, stream, system: "be brief", user: "hello there" });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toContain(stream ? "text/event-stream" : "application/json");
        const x = await extract(ingress, res, stream);
        expect(x.text).toBe("echo: hello there");
        expect(x.prompt).toBe(USAGE.prompt);
        expect(x.completion).toBe(USAGE.completion);
        expect(x.cached).toBe(USAGE.cached);
        expect(x.finish).toBe(finishOf(ingress, false));
        checkUpstream(kind, m, stream);
        const o = fixture.relay.outcomes[fixture.relay.outcomes.length - 1];
        expect(o).toMatchObject({ ok: true, status: 200, usageEstimated: false, firstByteSentToClient: true, retryable: false });
        expect(o.usage.prompt_tokens).toBe(USAGE.prompt);
        expect(o.usage.completion_tokens).toBe(USAGE.completion);
        expect(o.usage.cached_tokens).toBe(USAGE.cached);
        expect(o.usage.cache_creation_tokens).toBe(kind === "anthropic" ? USAGE.cacheCreation : 0);
        expect(o.usage.reasoning_tokens).toBe(kind === "anthropic" ? 0 : USAGE.reasoning);
        expect(o.frtMs).toBeGreaterThan(0);
      });

      it(`tool call (${mode})`, async () => {
        const m = use(kind);
        m.behavior = { toolCall: { name: "get_weather", args: { city: "Paris", days: 3 } } };
        const res = await send(fixture.relay.url, ingress, { model: MODEL, stream, tools: true });
        expect(res.status).toBe(200);
        const x = await extract(ingress, res, stream);
        expect(x.calls).toHaveLength(1);
        expect(x.calls[0].name).toBe("get_weather");
        expect(x.calls[0].args).toEqual({ city: "Paris", days: 3 });
        expect(x.finish).toBe(finishOf(ingress, true));
        // the tool's schema reached the upstream in its own shape, lower-case JSON Schema types
        const j = m.requests[0].json;
        const schema =
          kind === "anthropic"
            ? j.tools[0].input_schema
            : kind === "gemini"
              ? j.tools[0].functionDeclarations[0].parametersJsonSchema
              : j.tools[0].function.parameters;
        expect(schema.type).toBe("object");
        expect(schema.properties.city.type).toBe("string");
      });

      it(`tool result round trip (${mode})`, async () => {
        const m = use(kind);
        const res = await send(fixture.relay.url, ingress, { model: MODEL, stream, toolRound: true, user: "weather?" });
        expect(res.status).toBe(200);
        const x = await extract(ingress, res, stream);
        expect(x.text).toBe('echo: {"temp":20}');
        const j = m.requests[0].json;
        if (kind === "anthropic") {
          expect(j.messages[1]).toEqual({
            role: "assistant",
            content: [{ type: "tool_use", id: expect.any(String), name: "get_weather", input: { city: "Paris" } }],
          });
          expect(j.messages[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: j.messages[1].content[0].id });
        } else if (kind === "gemini") {
          expect(j.contents[1]).toEqual({ role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] });
          expect(j.contents[2]).toEqual({ role: "user", parts: [{ functionResponse: { name: "get_weather", response: { temp: 20 } } }] });
        } else {
          const msgs = j.messages as any[];
          const a = msgs.find((x) => x.role === "assistant");
          const t = msgs.find((x) => x.role === "tool");
          expect(a.tool_calls[0].function).toEqual({ name: "get_weather", arguments: '{"city":"Paris"}' });
          expect(t.tool_call_id).toBe(a.tool_calls[0].id);
        }
      });
    }

    it("image part reaches the upstream in its shape", async () => {
      const m = use(kind);
      const res = await send(fixture.relay.url, ingress, {
        model: MODEL,
        stream: false,
        user: "what is it",
        image: { mime: "image/png", data: "iVBORw0KGgo=" },
      });
      expect(res.status).toBe(200);
      const j = m.requests[0].json;
      if (kind === "anthropic")
        expect(j.messages[0].content[1]).toEqual({ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } });
      else if (kind === "gemini") expect(j.contents[0].parts[1]).toEqual({ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } });
      else expect(j.messages[0].content[1]).toEqual({ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } });
    });
  });
});
