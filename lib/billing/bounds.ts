// Per-call bounds of billing (docs/channels-tokens-billing.md, "Bounds of one call"). The
// upstream's usage figures are the upstream's word, not ours: each one is bounded here before
// it is priced, and a call's quota never exceeds MAX_CALL_QUOTA, so that no single call can
// move a balance by more than that, whatever an upstream (or a misconfigured price) says.
import "server-only";

// Tokens in one usage field of one call (prompt, completion, cached, cache creation,
// reasoning), whatever the call: the same figure as the largest max_tokens a request may ask
// for (MAX_OUTPUT_TOKENS in lib/relay/formats/types.ts), far beyond any model's context window.
// Each call is bounded tighter by what it could have used (lib/relay/call-bounds.ts):
export const MAX_USAGE_TOKENS = 10_000_000;
// completion tokens of one choice when the request sets no output budget: twice the largest
// output maximum models document (128k tokens)
export const DEFAULT_OUTPUT_BOUND = 262_144;
// prompt tokens: PROMPT_TOKENS_PER_BYTE per byte of the request's body (text, tools, images
// and audio alike: a tokenizer's token covers at least one byte of text, and four tokens a
// byte cover even a small image billed by the tile), plus PROMPT_BOUND_BASE for
// what a prompt gains beyond the body (the chat template, a provider's tool-use prompt, a few
// images by URL), plus PROMPT_PER_REFERENCE per image or file the request names by URL or
// file URI (a long video Gemini reads from a file URI)
export const PROMPT_TOKENS_PER_BYTE = 4;
export const PROMPT_BOUND_BASE = 262_144;
export const PROMPT_PER_REFERENCE = 1_048_576;
// Images one call may be billed for (a per-call price is multiplied by it).
export const MAX_CALL_IMAGES = 10_000;
// Seconds of audio one call may report (a transcription's duration): 24 hours, and at most
// AUDIO_SECONDS_BASE + one second per AUDIO_BYTES_PER_SECOND bytes of the upload (100 bytes a
// second is 0.8 kbit/s, below any speech codec's lowest rate).
export const MAX_CALL_AUDIO_SECONDS = 86_400;
export const AUDIO_SECONDS_BASE = 60;
export const AUDIO_BYTES_PER_SECOND = 100;
// Quota units one call may cost, and so the most one call may reserve or charge: 100,000 USD
// at the default 500,000 units per USD. Far above any real call, far below the 64-bit range.
export const MAX_CALL_QUOTA = 50_000_000_000n;
const MAX_CALL_QUOTA_NUMBER = Number(MAX_CALL_QUOTA);

// The charge of a call could not be computed as a finite number (a price or ratio that is not
// one): the call cannot be settled, its reservation is refunded (lib/billing/settle.ts).
export class ChargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChargeError";
  }
}

// Set by bound() when a figure was cut down; read and reset by boundUsage. A module variable
// rather than a result object: this runs on every relay call (docs/conventions.md).
let cut = false;

// A usage figure within [0, max]: anything that is not a non-negative number counts 0, and a
// figure above max counts max.
function bound(v: number, max: number): number {
  if (!(v >= 0)) return 0; // negative, NaN, not a number
  if (v > max) {
    cut = true;
    return max;
  }
  return Math.floor(v);
}

// The token counts of a call, bounded in place by what the call could have used (promptMax,
// completionMax: lib/relay/call-bounds.ts) and by MAX_USAGE_TOKENS; true when one of them was
// above its bound. Cached and cache-creation tokens are part of the prompt, reasoning tokens
// part of the completion.
type Counts = {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_creation_tokens: number;
  cache_creation_1h_tokens: number;
  reasoning_tokens: number;
};
// The meters are bounded by the call too: images by what it asked for (`imagesMax`: its `n`),
// characters (text to speech) by the body's bytes (a character is at least one), seconds by
// the body's bytes (AUDIO_BYTES_PER_SECOND).
type Meters = { images?: number; characters?: number; seconds?: number };
export function boundUsage(
  u: Counts,
  meter: Meters | undefined,
  promptMax: number,
  completionMax: number,
  imagesMax = MAX_CALL_IMAGES,
  bodyBytes = Infinity,
): boolean {
  cut = false;
  const p = promptMax < MAX_USAGE_TOKENS ? promptMax : MAX_USAGE_TOKENS;
  const c = completionMax < MAX_USAGE_TOKENS ? completionMax : MAX_USAGE_TOKENS;
  u.prompt_tokens = bound(u.prompt_tokens, p);
  u.completion_tokens = bound(u.completion_tokens, c);
  u.cached_tokens = bound(u.cached_tokens, p);
  u.cache_creation_tokens = bound(u.cache_creation_tokens, p);
  // the 1-hour writes are part of the writes
  u.cache_creation_1h_tokens = bound(u.cache_creation_1h_tokens, u.cache_creation_tokens);
  u.reasoning_tokens = bound(u.reasoning_tokens, c);
  if (meter) {
    if (meter.images !== undefined) meter.images = bound(meter.images, imagesMax < MAX_CALL_IMAGES ? imagesMax : MAX_CALL_IMAGES);
    if (meter.characters !== undefined) meter.characters = bound(meter.characters, bodyBytes < MAX_USAGE_TOKENS ? bodyBytes : MAX_USAGE_TOKENS);
    if (meter.seconds !== undefined) {
      const s = meter.seconds;
      const byBytes = AUDIO_SECONDS_BASE + bodyBytes / AUDIO_BYTES_PER_SECOND;
      const max = byBytes < MAX_CALL_AUDIO_SECONDS ? Math.ceil(byBytes) : MAX_CALL_AUDIO_SECONDS;
      meter.seconds = s > max ? bound(s, max) : s >= 0 ? s : 0; // fractions kept
    }
  }
  return cut;
}

// A charge computed in floating point, as an exact integer of units capped at MAX_CALL_QUOTA.
// Throws ChargeError for a figure that is not a finite non-negative number (never NaN,
// Infinity or a rounded-off bigint reaches the store); every result is a safe integer.
export function checkedQuota(q: number): bigint {
  if (!Number.isFinite(q) || q < 0) throw new ChargeError(`the charge of the call is not a finite amount (${q})`);
  if (q >= MAX_CALL_QUOTA_NUMBER) return MAX_CALL_QUOTA;
  return BigInt(Math.round(q));
}

// A product of bigint quotas (a per-call price times images, times n) capped at the bound.
export function capQuota(q: bigint): bigint {
  return q > MAX_CALL_QUOTA ? MAX_CALL_QUOTA : q;
}
