// The channel's key never reaches the client (docs/secrets.md): an upstream that echoes it in
// an error body (HTTP error or 200), in a streamed error event (first or after content, cut
// between two chunks), or in plain content, on every route: chat, messages, Gemini, the
// pass-through endpoints (completions, responses, embeddings) and Gemini embeddings.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PassthroughRedactor, redactPassthroughText } from "@/lib/relay/providers/common";
import type { ChannelView } from "@/lib/relay/types";
import { post, startRelay, type Relay } from "./harness";

// A composite key whose parts look like no known key format: only the key itself can find them.
const PART_A = "tenantQ7h2Lm";
const PART_B = "Zx81QwSecretPart0Vq";
const KEY = `${PART_A}|${PART_B}`;
// what the upstream echoes: both parts, and the whole key
const ECHO = `key ${KEY} (${PART_B}) rejected`;

type Mode = "status-500" | "status-400" | "json-200-error" | "stream-error-first" | "stream-error-after-content" | "content-echo";
let mode: Mode = "status-500";

function errorJson(): string {
  // one body every wire's error parser reads: OpenAI and Anthropic (error.message, error.type), Gemini (error.status)
  return JSON.stringify({ type: "error", error: { message: ECHO, type: `t-${PART_B}`, code: `c-${PART_A}`, status: `s-${PART_B}` } });
}

let upstream: http.Server;
let upstreamUrl = "";
let relay: Relay;

beforeAll(async () => {
  upstream = http.createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const j = JSON.parse(body || "{}");
    const path = (req.url ?? "").split("?")[0];
    if (mode === "status-500" || mode === "status-400") {
      res.writeHead(mode === "status-500" ? 500 : 400, { "content-type": "application/json" });
      return res.end(errorJson());
    }
    if (mode === "json-200-error" || !j.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      if (mode === "json-200-error") return res.end(errorJson());
      // content-echo, whole answers
      if (path.endsWith("/embeddings"))
        return res.end(
          JSON.stringify({
            object: "list",
            data: [{ object: "embedding", index: 0, embedding: [1, 2] }],
            model: ECHO,
            usage: { prompt_tokens: 1, total_tokens: 1 },
          }),
        );
      if (path.endsWith("/responses"))
        return res.end(
          JSON.stringify({
            id: "r",
            object: "response",
            output: [{ type: "message", content: [{ type: "output_text", text: ECHO }] }],
            usage: { input_tokens: 1, output_tokens: 2 },
          }),
        );
      if (path.endsWith("/completions") && !path.endsWith("/chat/completions"))
        return res.end(
          JSON.stringify({
            id: "c",
            object: "text_completion",
            choices: [{ index: 0, text: ECHO, finish_reason: "stop" }],
            usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
          }),
        );
      return res.end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          model: "m",
          choices: [{ index: 0, message: { role: "assistant", content: ECHO }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
        }),
      );
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const content = path.endsWith("/responses")
      ? `event: response.output_text.delta\ndata: ${JSON.stringify({ type: "response.output_text.delta", delta: mode === "content-echo" ? ECHO : "hi" })}\n\n`
      : path.endsWith("/chat/completions")
        ? `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content: mode === "content-echo" ? ECHO : "hi" }, finish_reason: null }] })}\n\n`
        : `data: ${JSON.stringify({ id: "c", object: "text_completion", choices: [{ index: 0, text: mode === "content-echo" ? ECHO : "hi", finish_reason: null }] })}\n\n`;
    const events: string[] = [];
    if (mode !== "stream-error-first") events.push(content);
    if (mode !== "content-echo") {
      events.push(`data: ${JSON.stringify({ error: { message: ECHO, type: `t-${PART_B}`, code: `c-${PART_A}` } })}\n\n`);
      if (path.endsWith("/responses"))
        events.push(`event: error\ndata: ${JSON.stringify({ type: "error", code: `c-${PART_A}`, message: ECHO, param: null })}\n\n`);
    } else events.push("data: [DONE]\n\n");
    // cut the stream in the middle of the key, so that each half arrives in its own chunk
    const all = events.join("");
    const at = all.indexOf(PART_B) + 5;
    res.write(all.slice(0, at));
    await new Promise((r) => setTimeout(r, 20));
    res.end(all.slice(at));
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  relay = await startRelay((model) => ({ id: 9, type: 1, base_url: upstreamUrl, key: KEY, other: "", upstreamModel: model }));
});

afterAll(async () => {
  await relay?.close();
  await new Promise<void>((r) => upstream.close(() => r()));
});

const ROUTES: { name: string; path: string; body: (stream: boolean) => unknown; streams: boolean }[] = [
  {
    name: "/v1/chat/completions",
    path: "/v1/chat/completions",
    body: (stream) => ({ model: "m", messages: [{ role: "user", content: "hi" }], stream }),
    streams: true,
  },
  {
    name: "/v1/messages",
    path: "/v1/messages",
    body: (stream) => ({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }], stream }),
    streams: true,
  },
  {
    name: "Gemini generateContent",
    path: "/v1beta/models/m:generateContent",
    body: () => ({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
    streams: false,
  },
  {
    name: "Gemini streamGenerateContent",
    path: "/v1beta/models/m:streamGenerateContent?alt=sse",
    body: () => ({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
    streams: true,
  },
  { name: "Gemini embedContent", path: "/v1beta/models/m:embedContent", body: () => ({ content: { parts: [{ text: "hi" }] } }), streams: false },
  { name: "/v1/completions", path: "/v1/completions", body: (stream) => ({ model: "m", prompt: "hi", stream }), streams: true },
  { name: "/v1/responses", path: "/v1/responses", body: (stream) => ({ model: "m", input: "hi", stream }), streams: true },
  { name: "/v1/embeddings", path: "/v1/embeddings", body: () => ({ model: "m", input: "hi" }), streams: false },
];

function expectKeyless(text: string) {
  expect(text).not.toContain(PART_A);
  expect(text).not.toContain(PART_B);
}

describe.each(ROUTES)("$name", (route) => {
  const streamed = route.path.includes("stream") || route.streams;
  const modes: Mode[] = ["status-500", "status-400", "json-200-error"];
  if (streamed) modes.push("stream-error-first", "stream-error-after-content");
  for (const m of modes) {
    it(`an upstream that echoes the key (${m}) does not pass it to the client`, async () => {
      mode = m;
      const stream = m.startsWith("stream");
      if (stream && !route.path.includes("stream") && !route.streams) return;
      const res = await post(relay.url + route.path, route.body(stream));
      const text = await res.text();
      expect(text.length).toBeGreaterThan(0);
      expectKeyless(text);
      const o = relay.outcomes[relay.outcomes.length - 1];
      expectKeyless(JSON.stringify(o.upstreamError ?? {}));
    });
  }
});

describe("content that echoes the key", () => {
  for (const route of ROUTES.filter((r) => r.path.startsWith("/v1/") && r.path !== "/v1/messages" && r.path !== "/v1/chat/completions")) {
    for (const stream of route.streams ? [false, true] : [false]) {
      it(`${route.name} (${stream ? "stream" : "whole"}): the key is replaced, the rest kept`, async () => {
        mode = "content-echo";
        const res = await post(relay.url + route.path, route.body(stream));
        expect(res.status).toBe(200);
        const text = await res.text();
        expectKeyless(text);
        expect(text).toContain("key ***|*** (***) rejected");
      });
    }
  }
});

describe("PassthroughRedactor", () => {
  const ch = { key: KEY } as Pick<ChannelView, "key">;

  it("finds a key cut anywhere between chunks, in lines and in bytes", () => {
    const source = `data: {"text":"a ${KEY} b"}\n\ndata: {"x":1}\n\n`;
    for (const lines of [true, false])
      for (let cut = 1; cut < source.length; cut++) {
        const r = new PassthroughRedactor(ch, lines);
        const out = Buffer.concat([r.push(Buffer.from(source.slice(0, cut))), r.push(Buffer.from(source.slice(cut))), r.end() ?? Buffer.alloc(0)]).toString();
        expect(out).toBe(`data: {"text":"a ***|*** b"}\n\ndata: {"x":1}\n\n`);
      }
  });

  it("masks key-like strings only in error lines", () => {
    const other = "sk-someotherkey0123456789";
    expect(redactPassthroughText(`{"text":"${other}","error":null}`, ch)).toContain(other);
    expect(redactPassthroughText(`{"error":{"message":"${other}"}}`, ch)).not.toContain(other);
    expect(redactPassthroughText(`{"type":"error","message":"${other}"}`, ch)).not.toContain(other);
  });

  it("whole lines go out at once: a chunk ending an event is not held", () => {
    const r = new PassthroughRedactor(ch, true);
    expect(r.push(Buffer.from('data: {"a":1}\n\n')).toString()).toBe('data: {"a":1}\n\n');
    expect(r.push(Buffer.from('data: {"a"')).length).toBe(0);
    expect(r.push(Buffer.from(":2}\n\n")).toString()).toBe('data: {"a":2}\n\n');
    expect(r.end()).toBeUndefined();
  });
});
