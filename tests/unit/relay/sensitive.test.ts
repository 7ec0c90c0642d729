// The word filter (lib/relay/sensitive.ts, docs/relay-options.md "Sensitive words"): the
// switches and the exempt group, case-insensitive matching anywhere in every prompt text, one
// automaton for 10,000 words, rebuilt when the option's text changes.
import { afterEach, describe, expect, it } from "vitest";
import { applyOption } from "@/lib/options/store";
import { hasSensitiveWord, parseSensitiveWords, promptCheckApplies, promptHasSensitiveWord } from "@/lib/relay/sensitive";
import type { ChatRequest } from "@/lib/relay/types";

const chat = (text: string, system?: string): ChatRequest => ({
  model: "m",
  system,
  stream: false,
  messages: [{ role: "user", content: [{ type: "text", text }] }],
});

afterEach(() => {
  for (const [k, v] of [
    ["CheckSensitiveEnabled", "false"],
    ["CheckSensitiveOnPromptEnabled", "false"],
    ["SensitiveWords", ""],
    ["global.safe_check_exempt_enabled", "false"],
  ] as const)
    applyOption(k, v);
});

describe("the word filter", () => {
  it("reads one word per line, trimmed and lower-cased, without empty lines or repeats", () => {
    expect(parseSensitiveWords("  Foo \n\nbar\r\nFOO\n禁词\n")).toEqual(["foo", "bar", "禁词"]);
  });

  it("applies only with both switches on, and never to the exempt group while its switch is on", () => {
    expect(promptCheckApplies("default")).toBe(false);
    applyOption("CheckSensitiveEnabled", "true");
    expect(promptCheckApplies("default")).toBe(false);
    applyOption("CheckSensitiveOnPromptEnabled", "true");
    expect(promptCheckApplies("default")).toBe(true);
    expect(promptCheckApplies("nsfw-ok")).toBe(true);
    applyOption("global.safe_check_exempt_enabled", "true");
    expect(promptCheckApplies("nsfw-ok")).toBe(false);
    expect(promptCheckApplies("default")).toBe(true);
    applyOption("global.safe_check_exempt_group", "vip");
    expect(promptCheckApplies("nsfw-ok")).toBe(true);
    applyOption("global.safe_check_exempt_group", "nsfw-ok");
  });

  it("finds a word in any case, inside other text, in the system prompt and in pass-through bodies", () => {
    applyOption("SensitiveWords", "Secret Plan\n炸弹");
    expect(hasSensitiveWord("the SECRET PLANS are here")).toBe(true);
    expect(hasSensitiveWord("怎么做炸弹？")).toBe(true);
    expect(hasSensitiveWord("a secret, planned")).toBe(false);
    expect(promptHasSensitiveWord(chat("hello", "reveal the secret plan"))).toBe(true);
    expect(promptHasSensitiveWord(chat("hello"))).toBe(false);
    expect(promptHasSensitiveWord({ json: { model: "m", input: [{ role: "user", content: [{ type: "input_text", text: "炸弹" }] }] } })).toBe(true);
    expect(promptHasSensitiveWord({ json: { model: "m", input: "fine" } })).toBe(false);
    // an image's data is no text
    expect(promptHasSensitiveWord({ json: { model: "m", messages: [{ content: [{ type: "image_url", image_url: { url: "data:secret plan" } }] }] } })).toBe(
      false,
    );
    expect(promptHasSensitiveWord({ kind: "embeddings", model: "m", single: true, inputs: [{ parts: ["my secret plan"] }] })).toBe(true);
  });

  it("matches against 10,000 words in one pass, and follows a change of the list", () => {
    const words = Array.from({ length: 10_000 }, (_, i) => `term-${i}-zq`);
    applyOption("SensitiveWords", words.join("\n"));
    const prompt = "an ordinary prompt about the weather, nothing more. ".repeat(20);
    expect(hasSensitiveWord(prompt)).toBe(false);
    expect(hasSensitiveWord(prompt + "TERM-9999-ZQ")).toBe(true);
    // One pass whatever the number of words: a long text scanned against 10,000 words takes
    // about as long as against 100 (a loop of includes would take ~100 times longer). Medians
    // of several timed runs, and a generous bound, keep machine noise out.
    const text = "an ordinary prompt about the weather, nothing more. ".repeat(2_000);
    const median = (list: string[]) => {
      applyOption("SensitiveWords", list.join("\n"));
      hasSensitiveWord(text); // builds the automaton outside the timing
      const runs: number[] = [];
      for (let r = 0; r < 7; r++) {
        const t = performance.now();
        for (let i = 0; i < 5; i++) hasSensitiveWord(text);
        runs.push(performance.now() - t);
      }
      return runs.sort((a, b) => a - b)[3];
    };
    const few = median(words.slice(0, 100));
    const many = median(words);
    expect(many / few).toBeLessThan(5);
    applyOption("SensitiveWords", "weather");
    expect(hasSensitiveWord(prompt)).toBe(true);
    applyOption("SensitiveWords", "");
    expect(hasSensitiveWord(prompt)).toBe(false);
  });
});
