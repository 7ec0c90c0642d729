// What one call could have used (lib/relay/call-bounds.ts): the bounds of the usage an upstream
// may report for it, and the pass-through routes' parameter checks that feed them.
import { describe, expect, it } from "vitest";
import {
  boundUsage,
  DEFAULT_OUTPUT_BOUND,
  MAX_CALL_IMAGES,
  MAX_USAGE_TOKENS,
  PROMPT_BOUND_BASE,
  PROMPT_PER_REFERENCE,
  PROMPT_TOKENS_PER_BYTE,
} from "@/lib/billing/bounds";
import { completionBound, imagesBound, promptBound } from "@/lib/relay/call-bounds";
import { openaiResponses } from "@/lib/relay/formats/openai-responses";
import { checkPassthroughParams } from "@/lib/relay/formats";
import { RelayError, type ChannelView, type ChatRequest } from "@/lib/relay/types";
import { adapterFor } from "@/lib/relay/providers/registry";
import { applyOption } from "@/lib/options/store";

const chat = (extra: Partial<ChatRequest>): ChatRequest =>
  Object.assign({ model: "m", stream: false, messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }] }, extra);
const pass = (json: Record<string, unknown>) => ({ endpoint: "completions" as const, json, contentType: "application/json" });
const ch = (type: number, upstreamModel: string): ChannelView => ({ id: 1, type, base_url: "", key: "k", other: "", upstreamModel });
// the bound with no adapter asked (a figure within the client's budget)
const completion = (r: Parameters<typeof completionBound>[0]) => completionBound(r, 0, undefined, ch(1, "m"));

describe("completion bound", () => {
  it("is the request's budget times its choices", () => {
    expect(completion(chat({ maxTokens: 50 }))).toBe(50);
    expect(completion(chat({ maxTokens: 50, n: 3 }))).toBe(150);
    expect(completion(pass({ max_tokens: 40, n: 2 }))).toBe(80);
    expect(completion(pass({ max_tokens: 40, n: 2, best_of: 5 }))).toBe(200);
    expect(completion({ endpoint: "responses", json: { max_output_tokens: 30 }, contentType: "application/json" })).toBe(30);
  });
  it("is the default per choice without a budget, and never past MAX_USAGE_TOKENS", () => {
    expect(completion(chat({}))).toBe(DEFAULT_OUTPUT_BOUND);
    expect(completion(pass({ n: 2 }))).toBe(2 * DEFAULT_OUTPUT_BOUND);
    expect(completion(chat({ n: 128 }))).toBe(MAX_USAGE_TOKENS);
  });
  it("is the budget the wire was sent when the adapter raised the client's (Claude's thinking adapter)", () => {
    applyOption("claude.thinking_adapter_enabled", "true");
    const req = chat({ model: "claude-x-thinking", maxTokens: 50 });
    // 0.8 × 50 is under Anthropic's minimum budget of 1024: max_tokens becomes 1024 + 50
    expect(completionBound(req, 1e7, adapterFor(14), ch(14, "claude-x-thinking"))).toBe(1074);
    // a figure within the client's budget asks nothing; a plain model keeps the client's budget
    expect(completionBound(req, 40, adapterFor(14), ch(14, "claude-x-thinking"))).toBe(50);
    expect(completionBound(chat({ maxTokens: 50 }), 1e7, adapterFor(14), ch(14, "claude-x"))).toBe(50);
    expect(completionBound(chat({ maxTokens: 5 }), 1e7, adapterFor(1), Object.assign(ch(1, "gpt"), { responsesOnly: true }))).toBe(16);
    applyOption("claude.thinking_adapter_enabled", "false");
  });
});

describe("calls that write no text", () => {
  it("have no completion tokens: embeddings, moderations, rerank, speech", () => {
    for (const endpoint of ["embeddings", "moderations", "rerank", "audio/speech"] as const)
      expect(completion({ endpoint, json: { max_tokens: 50 }, contentType: "application/json" }), endpoint).toBe(0);
    expect(completion({ endpoint: "audio/transcriptions", json: {}, contentType: "application/json" })).toBe(DEFAULT_OUTPUT_BOUND);
  });
  it("bound the images by the request's n, and speech and transcription meters by the body's bytes", () => {
    const images = (json: Record<string, unknown>) => imagesBound({ endpoint: "images/generations", json, contentType: "application/json" });
    expect(images({})).toBe(1);
    expect(images({ n: 3 })).toBe(3);
    expect(imagesBound(chat({}))).toBe(MAX_CALL_IMAGES);
    const u = { prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, cache_creation_tokens: 0, cache_creation_1h_tokens: 0, reasoning_tokens: 0 };
    const meter = { images: 10_000, characters: 5_000, seconds: 10_000 };
    expect(boundUsage(u, meter, 1, 1, 1, 1_000)).toBe(true);
    expect(meter).toEqual({ images: 1, characters: 1_000, seconds: 70 });
    const fine = { images: 1, characters: 900, seconds: 65.5 };
    expect(boundUsage(u, fine, 1, 1, 1, 1_000)).toBe(false);
    expect(fine.seconds).toBe(65.5);
  });
});

describe("prompt bound", () => {
  const plain = PROMPT_BOUND_BASE + PROMPT_TOKENS_PER_BYTE * 100;
  it("grows with the body's bytes", () => {
    expect(promptBound(chat({}), 100, 10, false)).toBe(plain);
    expect(promptBound(pass({}), 100, 1e9, false)).toBe(plain);
  });
  it("counts images by URL only when the figure is past the plain bound", () => {
    const byUrl = chat({
      messages: [
        {
          role: "user",
          content: [
            { type: "image", url: "https://example.com/a.png" },
            { type: "image", data: "AAAA", mimeType: "image/png" },
          ],
        },
      ],
    });
    expect(promptBound(byUrl, 100, 10, false)).toBe(plain);
    expect(promptBound(byUrl, 100, plain + 1, false)).toBe(plain + PROMPT_PER_REFERENCE);
  });
  it("is MAX_USAGE_TOKENS for a prompt stored upstream (the Responses API)", () => {
    expect(promptBound(chat({}), 100, 1e9, true)).toBe(MAX_USAGE_TOKENS);
  });
  it("knows a Responses request's prompt is kept upstream only when it names stored state or hosted tools", () => {
    const parse = (body: Record<string, unknown>) => openaiResponses.parse(Object.assign({ model: "m", input: "hi" }, body)) as ChatRequest;
    expect(parse({}).promptKeptUpstream).toBeUndefined();
    expect(parse({ tools: [{ type: "function", name: "f" }] }).promptKeptUpstream).toBeUndefined();
    expect(parse({ previous_response_id: "resp_1" }).promptKeptUpstream).toBe(true);
    expect(parse({ conversation: "conv_1" }).promptKeptUpstream).toBe(true);
    expect(parse({ prompt: { id: "pmpt_1" } }).promptKeptUpstream).toBe(true);
    expect(parse({ tools: [{ type: "web_search" }] }).promptKeptUpstream).toBe(true);
    expect(parse({ input: [{ role: "user", content: [{ type: "input_file", file_id: "file_1" }] }] }).promptKeptUpstream).toBe(true);
    expect(parse({ input: [{ type: "item_reference", id: "msg_1" }] }).promptKeptUpstream).toBe(true);
  });
});

describe("pass-through parameters", () => {
  it.each([
    [{ n: 1e20 }, "n"],
    [{ n: "x" }, "n"],
    [{ n: 0 }, "n"],
    [{ max_tokens: -1 }, "max_tokens"],
    [{ max_tokens: "x" }, "max_tokens"],
    [{ max_output_tokens: 1e20 }, "max_output_tokens"],
    [{ best_of: 1.5 }, "best_of"],
    [{ temperature: 3 }, "temperature"],
    [{ top_p: -0.1 }, "top_p"],
  ])("%j is refused naming the field", (body, field) => {
    let err: unknown;
    try {
      checkPassthroughParams(Object.assign({ model: "m", prompt: "hi" }, body));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RelayError);
    expect((err as RelayError).status).toBe(400);
    expect((err as RelayError).message).toMatch(new RegExp(`: ${field}: `));
  });
  it("leaves a valid body as it is, and drops a budget of 0", () => {
    const body = { model: "m", prompt: "hi", n: 2, max_tokens: 16, temperature: 0.5, logit_bias: { "1": 2 } };
    const copy = structuredClone(body);
    checkPassthroughParams(body);
    expect(body).toEqual(copy);
    const zero: Record<string, unknown> = { model: "m", prompt: "hi", max_tokens: 0 };
    checkPassthroughParams(zero);
    expect(zero).toEqual({ model: "m", prompt: "hi" });
    expect(completion(pass(zero))).toBe(DEFAULT_OUTPUT_BOUND);
  });
});
