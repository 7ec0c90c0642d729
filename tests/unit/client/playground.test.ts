import { describe, expect, it } from "vitest";
import {
  chatRequest,
  clampTemperature,
  DEFAULT_MODEL,
  failedAnswerText,
  FIRST_MESSAGE_ID,
  greeting,
  nameFromQuestion,
  nextMessageId,
  parseMaxTokens,
  readChatStream,
  readConversations,
  readStreamData,
  replyQuota,
  TEMPERATURE,
  type ChatMessage,
  type StreamStep,
} from "@/lib/client/playground";

const msg = (id: number, role: ChatMessage["role"], content: string, status: ChatMessage["status"] = "complete"): ChatMessage => ({
  id: String(id),
  role,
  content,
  createAt: 0,
  status,
});

function streamOf(parts: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
}

describe("playground helpers", () => {
  it("has the documented constants", () => {
    expect(TEMPERATURE).toEqual({ min: 0.1, max: 1, step: 0.1, initial: 0 });
    expect(DEFAULT_MODEL).toBe("gpt-4o-mini");
    expect(FIRST_MESSAGE_ID).toBe(4);
    expect(greeting("Hello", "Hi!", 5).map((m) => [m.id, m.role, m.content, m.status])).toEqual([
      ["2", "user", "Hello", "complete"],
      ["3", "assistant", "Hi!", "complete"],
    ]);
  });

  it("keeps temperature on the 0.1..1 grid and max tokens a positive integer or 0", () => {
    expect(clampTemperature(0)).toBe(0.1);
    expect(clampTemperature(1.7)).toBe(1);
    expect(clampTemperature(0.34)).toBe(0.3);
    expect(clampTemperature(0.30000000000000004)).toBe(0.3);
    expect(clampTemperature(Number.NaN)).toBe(0.1);
    expect(parseMaxTokens("0")).toBe(0);
    expect(parseMaxTokens("")).toBe(0);
    expect(parseMaxTokens("-5")).toBe(0);
    expect(parseMaxTokens("1.5")).toBe(0);
    expect(parseMaxTokens("abc")).toBe(0);
    expect(parseMaxTokens(" 256 ")).toBe(256);
  });

  it("builds the request: system prompt first only when not empty, failed replies left out, max_tokens only when set", () => {
    const history = [msg(2, "user", "Hello"), msg(3, "assistant", "Hi!"), msg(4, "user", "x"), msg(5, "assistant", "boom", "error"), msg(6, "user", "Again")];
    const body = chatRequest({ group: "vip", model: "m", temperature: 0.5, maxTokens: 0, systemPrompt: "Be brief." }, history);
    expect(body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hello" },
      { role: "assistant", content: "Hi!" },
      { role: "user", content: "x" },
      { role: "user", content: "Again" },
    ]);
    expect(body).toEqual({ messages: body.messages, stream: true, stream_options: { include_usage: true }, model: "m", group: "vip", temperature: 0.5 });
    const bare = chatRequest({ group: "", model: "m", temperature: 0, maxTokens: 64, systemPrompt: "   " }, [msg(2, "user", "Hello")]);
    expect(bare.max_tokens).toBe(64);
    expect(Number.isInteger(bare.max_tokens)).toBe(true);
    expect(bare.temperature).toBe(0);
    expect(bare.messages).toEqual([{ role: "user", content: "Hello" }]);
  });

  it("reads stream events", () => {
    expect(readStreamData('{"choices":[{"delta":{"content":"Hi"}}]}')).toEqual({ kind: "delta", text: "Hi" });
    expect(readStreamData('{"choices":[{"delta":{"role":"assistant","content":""}}]}')).toEqual({ kind: "skip" });
    expect(readStreamData('{"choices":[],"usage":{"prompt_tokens":2,"completion_tokens":1,"total_tokens":3}}')).toEqual({
      kind: "delta",
      text: "",
      usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
    });
    // usage on the last text chunk; figures that are not counts read 0; a missing total is the sum
    expect(readStreamData('{"choices":[{"delta":{"content":"!"}}],"usage":{"prompt_tokens":5,"completion_tokens":-1}}')).toEqual({
      kind: "delta",
      text: "!",
      usage: { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 },
    });
    expect(readStreamData('{"choices":[],"usage":null}')).toEqual({ kind: "skip" });
    expect(readStreamData("[DONE]")).toEqual({ kind: "done" });
    expect(readStreamData('{"error":{"message":"quota"}}')).toEqual({ kind: "error", text: "quota" });
    expect(readStreamData('{"error":{"code":7}}')).toEqual({ kind: "error", text: '{"code":7}' });
    expect(readStreamData("not json")).toEqual({ kind: "skip" });
    expect(readStreamData("null")).toEqual({ kind: "skip" });
  });

  it("reads a whole SSE body split anywhere, to [DONE]", async () => {
    const steps: StreamStep[] = [];
    const ended = await readChatStream(
      streamOf([
        'data: {"choices":[{"delta":{"content":"Hel"}}]}\n',
        '\ndata: {"choices":[{"del',
        'ta":{"content":"lo"}}]}\n\n: comment\n\n',
        "data: [DONE]\n\n",
        'data: {"choices":[{"delta":{"content":"late"}}]}\n\n',
      ]),
      (s) => steps.push(s),
    );
    expect(ended).toBe(true);
    expect(steps).toEqual([{ kind: "delta", text: "Hel" }, { kind: "delta", text: "lo" }, { kind: "done" }]);
  });

  it("reports a stream that closes without [DONE], and an error event", async () => {
    const steps: StreamStep[] = [];
    expect(await readChatStream(streamOf(['data: {"choices":[{"delta":{"content":"A"}}]}\n\n']), (s) => steps.push(s))).toBe(false);
    expect(await readChatStream(streamOf(['data: {"error":{"message":"upstream broke"}}\n\n']), (s) => steps.push(s))).toBe(true);
    expect(steps).toEqual([
      { kind: "delta", text: "A" },
      { kind: "error", text: "upstream broke" },
    ]);
  });

  it("reads the message of a failed answer", () => {
    expect(failedAnswerText(503, '{"error":{"message":"no channel","type":"x"}}')).toBe("no channel");
    expect(failedAnswerText(401, '{"success":false,"message":"not logged in"}')).toBe("not logged in");
    expect(failedAnswerText(502, "Bad Gateway")).toBe("HTTP 502: Bad Gateway");
    expect(failedAnswerText(500, "")).toBe("HTTP 500");
  });

  it("prices a reply by the table: ratio x (prompt + completion x completion ratio), or per call", () => {
    const usage = { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39 };
    expect(replyQuota(usage, { quota_type: 0, model_ratio: 1.5, completion_ratio: 1, model_price: 0 }, 1, 500000)).toBe(59);
    expect(replyQuota(usage, { quota_type: 0, model_ratio: 2, completion_ratio: 4, model_price: 0 }, 0.5, 500000)).toBe(66);
    expect(replyQuota(usage, { quota_type: 1, model_ratio: 0, completion_ratio: 1, model_price: 0.02 }, 2, 500000)).toBe(20000);
    expect(replyQuota(usage, undefined, 1, 500000)).toBeNull();
  });

  it("reads the stored conversations: bad data is refused, an interrupted reply keeps what arrived", () => {
    expect(readConversations("not json")).toBeNull();
    expect(readConversations("{}")).toBeNull();
    expect(readConversations(JSON.stringify({ active: "a", list: [] }))).toBeNull();
    expect(readConversations(JSON.stringify({ active: "a", list: [{ id: "a", name: 1, messages: [], updatedAt: 0 }] }))).toBeNull();
    const stored = {
      active: "gone",
      list: [
        {
          id: "a",
          name: "First",
          updatedAt: 1,
          messages: [msg(4, "user", "q"), msg(5, "assistant", "half", "incomplete"), msg(6, "assistant", "", "loading")],
        },
        { id: "b", name: "", updatedAt: 2, messages: [msg(2, "user", "Hello")] },
      ],
    };
    const read = readConversations(JSON.stringify(stored));
    expect(read?.active).toBe("a");
    expect(read?.list[0].messages.map((m) => [m.id, m.status])).toEqual([
      ["4", "complete"],
      ["5", "complete"],
    ]);
    expect(readConversations(JSON.stringify({ ...stored, active: "b" }))?.active).toBe("b");
  });

  it("names a conversation from its first question and numbers messages on", () => {
    expect(nameFromQuestion("  What is two plus two?\nmore")).toBe("What is two plus two?");
    expect(nameFromQuestion("x".repeat(60))).toBe(`${"x".repeat(39)}…`);
    expect(nextMessageId(greeting("a", "b"))).toBe(FIRST_MESSAGE_ID);
    expect(nextMessageId([msg(2, "user", "a"), msg(9, "assistant", "b")])).toBe(10);
  });
});
