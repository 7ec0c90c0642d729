// Per-call bounds of billing (docs/channels-tokens-billing.md, "Bounds of one call"). The
// upstream's usage figures are the upstream's word, not ours: each one is bounded here before
// it is priced, and a call's quota never exceeds MAX_CALL_QUOTA, so that no single call can
// move a balance by more than that, whatever an upstream (or a misconfigured price) says.
import "server-only";

// Tokens in one usage field of one call (prompt, completion, cached, cache creation,
// reasoning). The same figure as the largest max_tokens a request may ask for
// (MAX_OUTPUT_TOKENS in lib/relay/formats/types.ts), far beyond any model's context window.
export const MAX_USAGE_TOKENS = 10_000_000;
// Images one call may be billed for (a per-call price is multiplied by it).
export const MAX_CALL_IMAGES = 10_000;
// Seconds of audio one call may report (a transcription's duration): 24 hours.
export const MAX_CALL_AUDIO_SECONDS = 86_400;
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

// The token counts of a call, bounded in place; true when one of them was above the bound.
type Counts = { prompt_tokens: number; completion_tokens: number; cached_tokens: number; cache_creation_tokens: number; reasoning_tokens: number };
type Meters = { images?: number; characters?: number; seconds?: number };
export function boundUsage(u: Counts, meter: Meters | undefined): boolean {
  cut = false;
  u.prompt_tokens = bound(u.prompt_tokens, MAX_USAGE_TOKENS);
  u.completion_tokens = bound(u.completion_tokens, MAX_USAGE_TOKENS);
  u.cached_tokens = bound(u.cached_tokens, MAX_USAGE_TOKENS);
  u.cache_creation_tokens = bound(u.cache_creation_tokens, MAX_USAGE_TOKENS);
  u.reasoning_tokens = bound(u.reasoning_tokens, MAX_USAGE_TOKENS);
  if (meter) {
    if (meter.images !== undefined) meter.images = bound(meter.images, MAX_CALL_IMAGES);
    if (meter.characters !== undefined) meter.characters = bound(meter.characters, MAX_USAGE_TOKENS);
    if (meter.seconds !== undefined) {
      const s = meter.seconds;
      meter.seconds = s > MAX_CALL_AUDIO_SECONDS ? bound(s, MAX_CALL_AUDIO_SECONDS) : s >= 0 ? s : 0; // fractions kept
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
