// Channel health as the relay sees it. A failing channel is disabled automatically (status 3
// with the reason and time) when the admin turned AutomaticDisableChannelEnabled on and the
// channel did not opt out (auto_ban = 0): at once when the upstream's message contains one of
// AutomaticDisableKeywords (case-insensitive, one per line), or after ChannelDisableFailureCount
// consecutive failures. (ChannelDisableThreshold is the channel test's response-time limit in
// seconds, as in new-api: lib/relay/test-channel.ts.) Any success resets the count. Counts are per node, in memory.
import "server-only";
import { logger } from "@/lib/log";
import { autoDisableChannel } from "@/lib/channels/auto-disable-channel";
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
