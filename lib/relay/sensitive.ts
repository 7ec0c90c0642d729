// The word filter (CheckSensitiveEnabled, CheckSensitiveOnPromptEnabled, SensitiveWords;
// docs/relay-options.md, "Sensitive words"). The words (one per line) are compiled once into
// one Aho-Corasick automaton (modern-ahocorasick), so
// a prompt is scanned in one pass whatever the number of words. The automaton is rebuilt
// when the option's text changes, on the first call that sees the new text; a call made while
// the filter is off costs two option reads. Case-insensitive by lower-casing words and text
// (String.prototype.toLowerCase): the library's own folding adapter (`/text`) measured about
// 50 times slower per prompt than the plain automaton over a lower-cased copy.
import "server-only";
import AhoCorasick from "modern-ahocorasick";
import { getBool, getOption } from "@/lib/options/store";
import type { ChatRequest, EmbeddingRequest } from "@/lib/relay/types";

let source: string | undefined;
let matcher: AhoCorasick | null = null;

/** The words of the option's text: one per line, trimmed, lower-cased, empty lines and repeats dropped. */
export function parseSensitiveWords(raw: string): string[] {
  const seen = new Set<string>();
  for (const line of raw.split(/\r?\n/)) {
    const w = line.trim().toLowerCase();
    if (w) seen.add(w);
  }
  return [...seen];
}

function automaton(): AhoCorasick | null {
  const raw = getOption("SensitiveWords");
  if (raw !== source) {
    source = raw;
    const words = parseSensitiveWords(raw);
    matcher = words.length ? new AhoCorasick(words) : null;
  }
  return matcher;
}

/** Whether prompts are checked for this group now (the switches, and the exempt group). */
export function promptCheckApplies(group: string): boolean {
  if (!getBool("CheckSensitiveEnabled") || !getBool("CheckSensitiveOnPromptEnabled")) return false;
  return !(getBool("global.safe_check_exempt_enabled") && group === getOption("global.safe_check_exempt_group"));
}

/** Whether one text holds a listed word (case-insensitively). */
export function hasSensitiveWord(text: string): boolean {
  const m = automaton();
  return m !== null && text.length > 0 && m.match(text.toLowerCase());
}

// Every string inside a pass-through body's prompt fields (input, prompt, messages, instructions...).
function anyString(v: unknown, depth: number): boolean {
  if (typeof v === "string") return hasSensitiveWord(v);
  if (depth > 8 || !v || typeof v !== "object") return false;
  if (Array.isArray(v)) {
    for (const x of v) if (anyString(x, depth + 1)) return true;
    return false;
  }
  for (const k in v as Record<string, unknown>) {
    // images and audio are data, not words
    if (k === "image_url" || k === "data" || k === "url" || k === "file_data") continue;
    if (anyString((v as Record<string, unknown>)[k], depth + 1)) return true;
  }
  return false;
}

const PROMPT_FIELDS = ["input", "prompt", "messages", "instructions", "query", "documents"] as const;

/** Whether the prompt of a request holds a listed word: every text the client wrote. */
export function promptHasSensitiveWord(request: ChatRequest | EmbeddingRequest | { json?: Record<string, unknown> }): boolean {
  if (automaton() === null) return false;
  if ("messages" in request) {
    if (request.system && hasSensitiveWord(request.system)) return true;
    for (const m of request.messages) for (const p of m.content) if (p.type === "text" && hasSensitiveWord(p.text)) return true;
    return false;
  }
  if ("inputs" in request) {
    for (const i of request.inputs) for (const t of i.parts) if (hasSensitiveWord(t)) return true;
    return false;
  }
  const j = request.json;
  if (!j) return false; // an upload (audio) has no words to check
  for (const f of PROMPT_FIELDS) if (j[f] !== undefined && anyString(j[f], 0)) return true;
  return false;
}
