// The bound on the work a relay request body may cost to parse (docs/limits.md). JSON.parse
// runs on the event loop, and its time grows with the number of values in the body: a body
// of 900,000 small messages (27 MB) holds every other call for seconds. Bodies past
// COUNT_FROM bytes have their structural characters ({ [ , :) outside strings counted
// while they arrive, chunk by chunk, and are refused once the count passes the limit,
// before anything parses them. Small bodies (nearly every call) are never scanned; long
// strings (base64 images) are skipped with native searches, so a big image costs little.
import "server-only";

// Deepest nesting of arrays and objects a relay body may have. JSON.parse takes any depth,
// but JSON.stringify and structured cloning recurse and overflow the stack at a few thousand
// levels (a 6,000-level body of 12 KB made a 500); no call needs more than a few dozen.
export const MAX_JSON_DEPTH = 512;

// Scanning starts once a body is larger than this; below it, parsing costs well under 1 ms.
export const COUNT_FROM = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

// The state carries across chunks: a string or an escape may straddle two of them.
export class JsonTokenCount {
  tokens = 0;
  // the colons among them: object keys, which cost JSON.parse the most (docs/limits.md)
  keys = 0;
  // set once the nesting passes MAX_JSON_DEPTH (scan then returns false)
  tooDeep = false;
  private depth = 0;
  private inString = false;
  private escaped = false;

  // Adds the chunk's structural characters; false once either count passes its limit or
  // the nesting passes MAX_JSON_DEPTH (tooDeep).
  scan(chunk: Uint8Array, limit: number, keyLimit: number): boolean {
    const n = chunk.length;
    let tokens = this.tokens;
    let depth = this.depth;
    let keys = this.keys;
    let inString = this.inString;
    let escaped = this.escaped;
    // next quote and backslash at or after i in this chunk: -2 not looked for yet, -1 none
    let quote = -2;
    let slash = -2;
    let i = 0;
    while (i < n) {
      if (inString) {
        if (escaped) {
          escaped = false;
          i++;
          continue;
        }
        if (quote !== -1 && quote < i) quote = chunk.indexOf(QUOTE, i);
        if (slash !== -1 && slash < i) slash = chunk.indexOf(BACKSLASH, i);
        const q = quote === -1 ? n : quote;
        const s = slash === -1 ? n : slash;
        if (s < q) {
          escaped = true;
          i = s + 1;
        } else if (q < n) {
          inString = false;
          i = q + 1;
        } else {
          i = n;
        }
        continue;
      }
      const c = chunk[i++];
      if (c === QUOTE) inString = true;
      else if (c === COMMA || c === COLON || c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (++tokens > limit || (c === COLON && ++keys > keyLimit) || ((c === OPEN_ARRAY || c === OPEN_OBJECT) && ++depth > MAX_JSON_DEPTH)) {
          this.tokens = tokens;
          this.keys = keys;
          this.tooDeep = depth > MAX_JSON_DEPTH;
          return false;
        }
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
    }
    this.tokens = tokens;
    this.keys = keys;
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return true;
  }
}

// Whether a whole body (one not scanned while it arrived: up to COUNT_FROM bytes) nests no
// deeper than MAX_JSON_DEPTH. A body that deep has more than MAX_JSON_DEPTH opening and as
// many closing brackets, so shorter bodies (nearly every call) are not looked at; the rest
// cost a loop over the bytes outside strings, strings skipped with a native search. No
// allocation.
export function depthWithin(body: Uint8Array): boolean {
  const n = body.length;
  if (n <= 2 * MAX_JSON_DEPTH) return true;
  let depth = 0;
  let i = 0;
  while (i < n) {
    const c = body[i++];
    if (c === QUOTE) {
      // to the closing quote: the first one not escaped by a backslash
      for (;;) {
        const q = body.indexOf(QUOTE, i);
        if (q === -1) return true; // not JSON: JSON.parse will say so
        let b = q - 1;
        while (body[b] === BACKSLASH) b--;
        i = q + 1;
        if ((q - 1 - b) % 2 === 0) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > MAX_JSON_DEPTH) return false;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return true;
}
