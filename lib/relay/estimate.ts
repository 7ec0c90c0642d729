// Token estimate, used only when the upstream reports no usage and for the reservation made
// before a call. A deterministic approximation, not a tokenizer: BPE tokenizers of current
// models average about 4 characters of English (or code) per token, while CJK ideographs,
// kana and hangul take about one token each. So: ASCII counts 1/4 token per character, CJK
// counts 1, other non-ASCII (accented Latin, Cyrillic, emoji halves) counts 1/2; the total is
// rounded up. Each message adds 4 tokens of framing and a prompt adds 3 for the reply's
// priming, as OpenAI documents for its chat format; an image counts 765 tokens (a 1024x1024
// image at high detail), since its size is not known here; an image in an answer (Gemini's
// image output) counts the same, never its base64 as text. It errs on the high side for
// CJK-heavy text, which is the safe side for a reservation.
import "server-only";
import type { ChatRequest, EmbeddingRequest } from "@/lib/relay/types";

const PER_MESSAGE = 4;
const PER_PROMPT = 3;
const PER_IMAGE = 765;
const DATA_URL = /^data:[^;,]*;base64,/;

/**
 * Quarter-tokens of a text (integer arithmetic keeps it exact and deterministic). It refers to
 * nothing outside itself: the JSON worker runs its source too (lib/relay/json-worker.ts).
 */
export function quarterTokens(text: string): number {
  let q = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) q += 1;
    else if (
      (c >= 0x2e80 && c <= 0x9fff) || // CJK radicals, kana, ideographs
      (c >= 0xac00 && c <= 0xd7af) || // hangul
      (c >= 0xf900 && c <= 0xfaff) || // compatibility ideographs
      (c >= 0xff00 && c <= 0xffef) // full-width forms
    )
      q += 4;
    else q += 2;
  }
  return q;
}

/**
 * The long strings of a large body, counted on the JSON worker (lib/relay/json-worker.ts):
 * counting 30 MB of text here held the event loop for 30-60 ms. Absent for other bodies.
 */
export interface CountedStrings {
  get(text: string): { quarters: number } | undefined;
}

// only strings this long were counted on the worker (LIFT_FROM there)
const COUNTED_FROM = 256 * 1024;

function quartersOf(text: string, counted: CountedStrings | undefined): number {
  if (counted !== undefined && text.length >= COUNTED_FROM) {
    const c = counted.get(text);
    if (c !== undefined && c.quarters >= 0) return c.quarters;
  }
  return quarterTokens(text);
}

export function estimateTextTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(quarterTokens(text) / 4);
}

/** Incremental counter for a streamed completion: add each delta, read the total at the end. */
export class CompletionCounter {
  private q = 0;
  add(text: string): void {
    this.q += quarterTokens(text);
  }
  /** images the model produced: a fixed cost each, their data never read */
  addImages(n: number): void {
    this.q += n * PER_IMAGE * 4;
  }
  get tokens(): number {
    return Math.ceil(this.q / 4);
  }
}

export function estimatePromptTokens(req: ChatRequest, counted?: CountedStrings): number {
  let q = 0;
  let fixed = PER_PROMPT;
  if (req.system) {
    q += quartersOf(req.system, counted);
    fixed += PER_MESSAGE;
  }
  for (const m of req.messages) {
    fixed += PER_MESSAGE;
    for (const p of m.content) {
      if (p.type === "text") q += quartersOf(p.text, counted);
      else fixed += PER_IMAGE;
    }
    if (m.toolCalls) for (const tc of m.toolCalls) q += quarterTokens(tc.name) + quartersOf(tc.arguments, counted);
  }
  if (req.tools)
    for (const t of req.tools) {
      q += quarterTokens(t.name) + (t.description ? quarterTokens(t.description) : 0);
      if (t.parameters) q += quarterTokens(JSON.stringify(t.parameters));
      fixed += PER_MESSAGE;
    }
  return fixed + Math.ceil(q / 4);
}

/** Estimate for an arbitrary JSON input (pass-through endpoints): strings found in it. */
export function estimateInputTokens(input: unknown, counted?: CountedStrings): number {
  // an image sent inline (a data: URL, e.g. a Responses input_image) counts as an image, not
  // as text: counting its base64 would walk megabytes and reserve millions of tokens
  if (typeof input === "string") return DATA_URL.test(input) ? PER_IMAGE : input.length === 0 ? 0 : Math.ceil(quartersOf(input, counted) / 4);
  if (Array.isArray(input)) {
    let n = 0;
    for (const x of input) n += typeof x === "number" ? 1 : estimateInputTokens(x, counted);
    return n;
  }
  if (input && typeof input === "object") {
    let n = 0;
    for (const v of Object.values(input)) n += estimateInputTokens(v, counted);
    return n;
  }
  return 0;
}

/** Input tokens of an embeddings call whose upstream counts none: its text parts, each rounded up. */
export function estimateEmbeddingTokens(req: EmbeddingRequest, counted?: CountedStrings): number {
  let n = 0;
  for (const input of req.inputs) for (const text of input.parts) n += text.length === 0 ? 0 : Math.ceil(quartersOf(text, counted) / 4);
  return n;
}
