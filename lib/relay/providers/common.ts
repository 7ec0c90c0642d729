// Helpers shared by the adapters.
import "server-only";
import { RelayError, type ChannelView, type FinishReason, type UpstreamError, type Usage } from "@/lib/relay/types";

export const trimSlash = (s: string) => (s.endsWith("/") ? s.replace(/\/+$/, "") : s);

/** OpenAI-style error type for an HTTP status. */
export function typeForStatus(status: number): string {
  if (status === 400 || status === 413 || status === 422) return "invalid_request_error";
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  return "upstream_error";
}

// Key-like strings that some upstreams echo back in their messages (OpenAI's "Incorrect API
// key provided: sk-...", Google's "API key not valid ... AIza..."): masked whatever the key.
const KEYISH = /\b(sk-[A-Za-z0-9_*-]{6,}|AIza[0-9A-Za-z_-]{10,}|sk-ant-[A-Za-z0-9_-]{6,})/g;

/** Removes the channel's key (and every part of a composite key) and key-like strings. */
export function redact(message: string, ch: Pick<ChannelView, "key">): string {
  let m = message;
  if (ch.key) {
    for (const part of ch.key.split(/[|,\s]+/)) if (part.length >= 4 && m.includes(part)) m = m.split(part).join("***");
  }
  return m.replace(KEYISH, "***");
}

/** The upstream error with every string in it (message, type, code) through redact(). */
export function redactError(err: UpstreamError, ch: Pick<ChannelView, "key">): UpstreamError {
  return { status: err.status, message: redact(err.message, ch), type: redact(err.type, ch), code: err.code === null ? null : redact(err.code, ch) };
}

// ---- pass-through bytes ----
// A pass-through answer (docs/secrets.md) is forwarded as the upstream wrote it, so its bytes
// are scrubbed on the way: the channel's key (each part of a composite key) wherever it
// appears, found with Buffer.indexOf per chunk (no decoding unless it is there), and, in a
// line that carries an error (an SSE error event, a JSON error body), redact() as a whole,
// key-like strings included, as for the chat routes' errors. Content lines keep key-like
// strings a model may legitimately write (only the channel's own key is removed from them).

const STARS = Buffer.from("***");
const ERROR_MARK = Buffer.from('"error"');
const NULL_ERROR = /"error"\s*:\s*null/g;
/** Longest line held back waiting for its end; past it only a key part's length is held. */
const MAX_HELD_LINE = 64 * 1024;

interface KeyParts {
  text: string[];
  bytes: Buffer[];
  latin1: string[];
}
const partsCache = new Map<string, KeyParts>();
/** The key's parts of 4 characters or more (as redact() uses them), as text and bytes; cached per key. */
function keyParts(key: string): KeyParts {
  let parts = partsCache.get(key);
  if (!parts) {
    parts = { text: [], bytes: [], latin1: [] };
    for (const part of key.split(/[|,\s]+/))
      if (part.length >= 4) {
        const bytes = Buffer.from(part);
        parts.text.push(part);
        parts.bytes.push(bytes);
        parts.latin1.push(bytes.toString("latin1"));
      }
    if (partsCache.size >= 1000) partsCache.clear();
    partsCache.set(key, parts);
  }
  return parts;
}

function replaceBytes(buf: Buffer, needle: Buffer, at: number): Buffer {
  const pieces: Buffer[] = [];
  let from = 0;
  while (at !== -1) {
    pieces.push(buf.subarray(from, at), STARS);
    from = at + needle.length;
    at = buf.indexOf(needle, from);
  }
  pieces.push(buf.subarray(from));
  return Buffer.concat(pieces);
}

/** A line that carries an error: an error event or body (not merely `"error": null`). */
function carriesError(line: string): boolean {
  return line.includes('"type":"error"') || line.replace(NULL_ERROR, "").includes('"error"');
}

/** Text of a pass-through answer: the channel's key removed everywhere, error lines through redact(). */
export function redactPassthroughText(text: string, ch: Pick<ChannelView, "key">): string {
  let t = text;
  if (ch.key) for (const p of keyParts(ch.key).text) if (t.includes(p)) t = t.split(p).join("***");
  if (!t.includes('"error"')) return t;
  const lines = t.split("\n");
  for (let i = 0; i < lines.length; i++) if (lines[i].includes('"error"') && carriesError(lines[i])) lines[i] = redact(lines[i], ch);
  return lines.join("\n");
}

/**
 * Scrubs a pass-through body chunk by chunk. `lines` (SSE): only whole lines go out, the rest
 * of a chunk waits for its end, so a key or an error event cut between two chunks is still
 * found (an SSE upstream ends its chunks with an event's blank line: nothing waits).
 * Otherwise (binary, plain text) the last key-part-length bytes wait. `end()` gives what is left.
 */
export class PassthroughRedactor {
  private readonly ch: Pick<ChannelView, "key">;
  private readonly lines: boolean;
  private readonly parts: Buffer[];
  /** the parts' bytes as latin1 text (one character per byte), for the SSE path's string search */
  private readonly partsLatin1: string[];
  private readonly hold: number;
  private carry: Buffer | null = null;

  constructor(ch: Pick<ChannelView, "key">, lines: boolean) {
    this.ch = ch;
    this.lines = lines;
    const parts = ch.key ? keyParts(ch.key) : undefined;
    this.parts = parts ? parts.bytes : [];
    this.partsLatin1 = parts ? parts.latin1 : [];
    let longest = 0;
    for (const p of this.parts) if (p.length > longest) longest = p.length;
    this.hold = longest > 0 ? longest - 1 : 0;
  }

  /** The bytes of this chunk (and of what waited) that may go to the client now; may be empty. */
  push(chunk: Uint8Array): Buffer {
    let buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.carry) {
      buf = Buffer.concat([this.carry, buf]);
      this.carry = null;
    }
    if (buf.length === 0) return buf;
    if (!this.lines) {
      // the key first, in all that is here: a part that straddles the cut below is whole in it
      for (const p of this.parts) {
        const at = buf.indexOf(p);
        if (at !== -1) buf = replaceBytes(buf, p, at);
      }
      return this.keep(buf, buf.length - this.hold);
    }
    // SSE: one latin1 view of the bytes, searched with V8's string search (Buffer.indexOf
    // of a short needle such as '"error"' cost several times more per chunk, docs/secrets.md)
    let view = buf.toString("latin1");
    for (let i = 0; i < this.parts.length; i++) {
      const at = view.indexOf(this.partsLatin1[i]);
      if (at !== -1) {
        buf = replaceBytes(buf, this.parts[i], at);
        view = buf.toString("latin1");
      }
    }
    const n = buf.length;
    let cut = n;
    const last = buf[n - 1];
    if (last !== 10 && last !== 13) {
      cut = Math.max(view.lastIndexOf("\n"), view.lastIndexOf("\r")) + 1;
      if (n - cut > MAX_HELD_LINE) cut = n - this.hold;
    }
    const error = view.indexOf('"error"');
    const out = this.keep(buf, cut);
    return error !== -1 && error < cut ? this.scrubErrors(out) : out;
  }

  end(): Buffer | undefined {
    const rest = this.carry;
    this.carry = null;
    return rest ? this.scrubErrors(rest) : undefined;
  }

  /** Keeps what follows `cut` for the next chunk; returns what precedes it. */
  private keep(buf: Buffer, cut: number): Buffer {
    if (cut >= buf.length) return buf;
    if (cut < 0) cut = 0;
    this.carry = Buffer.from(buf.subarray(cut)); // a copy: the transport may reuse its buffer
    return buf.subarray(0, cut);
  }

  /** Error lines (in whole lines only) through redact(). */
  private scrubErrors(buf: Buffer): Buffer {
    if (!this.lines || buf.indexOf(ERROR_MARK) === -1) return buf;
    const text = buf.toString("utf8");
    const scrubbed = redactPassthroughText(text, this.ch);
    return scrubbed === text ? buf : Buffer.from(scrubbed);
  }
}

/** An upstream body that is not the provider's error JSON: its status and a short, redacted text. */
export function fallbackError(status: number, body: string, ch: ChannelView): UpstreamError {
  const text = body.length > 300 ? body.slice(0, 300) + "..." : body;
  return { status, message: redact(text || `upstream answered HTTP ${status}`, ch), type: typeForStatus(status), code: null };
}

export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function openaiFinish(r: unknown): FinishReason {
  switch (r) {
    case "length":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "content_filter":
      return "content_filter";
    default:
      return "stop";
  }
}

/** Joins a base URL and a path; a base that already ends in a version (/v1, /api/v3) gets no prefix. */
export function joinVersioned(base: string, prefix: string, path: string): string {
  const b = trimSlash(base);
  return /\/v\d+[a-z0-9]*$/.test(b) ? b + path : b + prefix + path;
}

/**
 * Usage from an answer that counts only input and output tokens, each read from its own field
 * of the object `u` (absent, negative or not a number: 0); undefined when `u` is no object.
 */
export function plainUsage(u: unknown, promptField: string, completionField: string): Usage | undefined {
  if (!u || typeof u !== "object") return undefined;
  const x = u as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
  return {
    prompt_tokens: n(x[promptField]),
    completion_tokens: n(x[completionField]),
    cached_tokens: 0,
    cache_creation_tokens: 0,
    cache_creation_1h_tokens: 0,
    reasoning_tokens: 0,
  };
}

/** An embedding vector from an upstream answer, refused (502) unless it is all numbers. */
export function numberVector(v: unknown): number[] {
  if (Array.isArray(v) && v.every((x) => typeof x === "number")) return v as number[];
  throw new RelayError(502, "upstream answer has an embedding that is not a list of numbers", "upstream_error", "bad_response");
}

/**
 * Usage of a Cohere-shaped rerank answer (Cohere, and the hosts that copied its `meta`:
 * SiliconFlow, Xinference): meta.tokens, else meta.billed_units' tokens. A Cohere answer that
 * gives only search units gives no tokens: undefined, so the relay counts the query and the
 * documents itself (docs/providers.md, "Rerank").
 */
export function rerankMetaUsage(json: Record<string, unknown>): Partial<Usage> | undefined {
  const meta = json.meta as Record<string, unknown> | undefined;
  if (!meta || typeof meta !== "object") return undefined;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
  for (const src of [meta.tokens, meta.billed_units] as (Record<string, unknown> | undefined | null)[]) {
    if (!src || typeof src !== "object") continue;
    const input = n(src.input_tokens);
    const output = n(src.output_tokens);
    if (input || output) return { prompt_tokens: input, completion_tokens: output };
  }
  return undefined;
}
