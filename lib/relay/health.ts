// Channel health as the relay sees it. A failing channel is disabled automatically (status 3
// with the reason and time) when the admin turned AutomaticDisableChannelEnabled on and the
// channel did not opt out (auto_ban = 0): at once when the upstream's message contains one of
// AutomaticDisableKeywords (case-insensitive, one per line), or after ChannelDisableFailureCount
// consecutive failures. (ChannelDisableThreshold is the channel test's response-time limit in
// seconds, as in new-api: lib/relay/test-channel.ts.) Any success resets the count. Counts are per node, in memory.
// On a multi-key channel an authentication or quota failure is the key's, not the channel's:
// under the same two switches that key alone is disabled, and the channel only once no key
// is left (noteKeyFailure; docs/channels-tokens-billing.md, "Multi-key channels").
import "server-only";
import { logger } from "@/lib/logger";
import { autoDisableChannel } from "@/lib/channels/auto-disable-channel";
import { autoDisableKey } from "@/lib/channels/multi-key";
import { getBool, getNumber, getOption } from "@/lib/options/store";
import type { UpstreamError } from "@/lib/relay/types";
import { describeError } from "@/lib/errors";

const log = logger("relay");

const failures = new Map<number, number>();
let keywordSource = "";
let keywords: string[] = [];

function disableKeywords(): string[] {
  const raw = getOption("AutomaticDisableKeywords");
  if (raw !== keywordSource) {
    keywordSource = raw;
    keywords = raw
      .split("\n")
      .map((k) => k.trim().toLowerCase())
      .filter(Boolean);
  }
  return keywords;
}

// Failures that say something about the channel (not about the client's request).
const countsAgainstChannel = (status: number) => status !== 400 && status !== 413 && status !== 422 && status !== 499;

export function noteChannelSuccess(channelId: number): void {
  if (failures.size && failures.has(channelId)) failures.delete(channelId);
}

export function noteChannelFailure(channel: { id: number; auto_ban: number }, err: UpstreamError): void {
  if (err.status === 499) return; // the client left: nothing is known about the channel
  const keyword = disableKeywords().find((k) => err.message.toLowerCase().includes(k));
  const counts = countsAgainstChannel(err.status);
  const n = counts ? (failures.get(channel.id) ?? 0) + 1 : 0;
  if (counts) failures.set(channel.id, n);
  if (!getBool("AutomaticDisableChannelEnabled") || channel.auto_ban === 0) return;
  const threshold = Math.max(1, Math.floor(getNumber("ChannelDisableFailureCount", 5)));
  // A keyword (e.g. "credit balance is too low", which some providers send with 400)
  // disables at once; otherwise only repeated failures that are the channel's own.
  if (!keyword && (!counts || n < threshold)) return;
  failures.delete(channel.id);
  const reason = keyword
    ? `upstream said "${keyword}" (status ${err.status})`
    : `${n} consecutive failures, last: status ${err.status} ${err.message}`.slice(0, 500);
  void autoDisableChannel(channel.id, reason).catch((e) => log.error({ channelId: channel.id, error: describeError(e) }, "auto-disable failed"));
}

// A quota or billing refusal: 402, or a 429 that is not a rate limit but an exhausted account.
const QUOTA_WORDS = /insufficient_quota|exceeded your current quota|billing|credit balance/i;

/** Whether a failure condemns the key that made it: an authentication or quota failure, or a disabling keyword. */
export function isKeyFailure(err: UpstreamError): boolean {
  if (err.status === 401 || err.status === 403 || err.status === 402) return true;
  if (err.status === 429 && (QUOTA_WORDS.test(err.code ?? "") || QUOTA_WORDS.test(err.type) || QUOTA_WORDS.test(err.message))) return true;
  const message = err.message.toLowerCase();
  return disableKeywords().some((k) => message.includes(k));
}

// keys being disabled right now (channel:index): concurrent calls failing on the same key write once
const disabling = new Set<string>();

// The key's text never enters the reason: redacted whole and by parts (as the adapters redact messages).
function redactKey(text: string, key: string): string {
  let t = text;
  for (const part of [key, ...key.split(/[|,\s]+/)]) if (part.length >= 4 && t.includes(part)) t = t.split(part).join("***");
  return t;
}

/** A key failure (isKeyFailure) on a multi-key channel: that key is disabled, when the admin and the channel allow it. */
export function noteKeyFailure(channel: { id: number; auto_ban: number; key: string; keyIndex?: number }, err: UpstreamError): void {
  if (channel.keyIndex === undefined || !getBool("AutomaticDisableChannelEnabled") || channel.auto_ban === 0) return;
  const id = `${channel.id}:${channel.keyIndex}`;
  if (disabling.has(id)) return;
  disabling.add(id);
  const keyword = disableKeywords().find((k) => err.message.toLowerCase().includes(k));
  const reason = redactKey(keyword ? `upstream said "${keyword}" (status ${err.status})` : `status ${err.status}: ${err.message}`, channel.key).slice(0, 500);
  void autoDisableKey(channel.id, channel.key, channel.keyIndex, reason)
    .catch((e) => log.error({ error: describeError(e) }, "disabling a key failed"))
    .finally(() => disabling.delete(id));
}
