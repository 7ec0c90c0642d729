// Channel tests (GET /api/channel/test/{id}?model and GET /api/channel/test): one small
// non-streaming chat through the channel's own adapter (one embedding on a wire without chat), timed. The response time is written
// back to the channel; a pass re-enables a channel the system had disabled (when
// AutomaticEnableChannelEnabled); a failure counts toward automatic disabling like any
// relay failure. A test that passes but takes longer than ChannelDisableThreshold seconds is a
// failure too, and disables the channel when AutomaticDisableChannelEnabled and the channel
// did not opt out (new-api's meaning of the option; docs/relay-options.md). Messages never
// contain the channel's key (adapters redact upstream errors). The gateway's own words are
// catalogue messages in the language of the console request that runs the test, Chinese (the
// default) for a run without one (docs/i18n.md, "Where the words live"); an upstream's error
// is passed on as it said it.
import "server-only";
import { db } from "@/lib/db/client";
import { DEFAULT_LOCALE, LOCALE_TAGS } from "@/lib/i18n/locale";
import { renderMessage, type MessageKey } from "@/lib/i18n/server-messages";
import { outboundRefusal, refusalMessageKey } from "@/lib/net/outbound";
import { getBool, getNumber } from "@/lib/options/store";
import { autoDisableChannel } from "@/lib/channels/auto-disable-channel";
import type { UserCtx } from "@/lib/ctx";
import { autoEnableChannel } from "@/lib/channels/auto-enable-channel";
import { recordChannelFigures } from "@/lib/channels/record-channel-figures";
import { channelIndex, type CachedChannel } from "@/lib/channels/channel-cache";
import { isKeyFailure, noteChannelFailure, noteChannelSuccess, noteKeyFailure } from "@/lib/relay/health";
import { adapterFor } from "@/lib/relay/providers/registry";
import { mapModel } from "@/lib/relay/select";
import { undiciTransport } from "@/lib/relay/transport";
import { RelayError, type ChatRequest } from "@/lib/relay/types";
import { CHANNEL_STATUS } from "@/lib/statuses";

// isRetryable (docs/product-rules.md, "Relay console pages"): decided here, where the upstream status is
// known. A bad key (401, 403), an unknown model (404) or another refusal of the request
// itself (4xx) gives the same answer again; a timeout, a network error, 408, 429 and 5xx
// may pass on a later try.
export type ChannelTestResult = { success: boolean; message: string; time: number /* seconds */; isRetryable: boolean };

export function retestMayPass(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

const TEST_TIMEOUT_MS = 30_000;
// the model asked for, else the channel's test model, else its first model, else its type's (the adapter's profile)
function testModel(c: CachedChannel, requested: string | undefined, configured: string, typeDefault: string): string {
  return requested?.trim() || configured.trim() || c.models[0] || typeDefault;
}

// ctx is optional: "test all" and the periodic test (lib/relay/test-all-job.ts) have no caller's context to give.
export async function testChannel({ ctx, input: { id, model } }: { ctx?: UserCtx; input: { id: number; model?: string } }): Promise<ChannelTestResult | null> {
  const locale = ctx?.locale ?? DEFAULT_LOCALE;
  const c = (await channelIndex()).channels.get(id);
  if (!c) return null;
  const adapter = adapterFor(c.type);
  if (!adapter) return { success: false, message: renderMessage(locale, "channel_test_type_unsupported", { type: c.type }), time: 0, isRetryable: false };
  const row = await db().channel.findUnique({ where: { id }, select: { test_model: true } });
  const name = testModel(c, model, row?.test_model ?? "", adapter.profile.testModel);
  const view = {
    id: c.id,
    type: c.type,
    base_url: c.base_url,
    key: c.key,
    other: c.other,
    upstreamModel: mapModel(c, name),
    responsesOnly: c.responses_only && adapter.profile.responsesOnlyOption === true,
  };
  const request: ChatRequest = {
    model: name,
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    maxTokens: 16,
    stream: false,
  };
  const started = performance.now();
  let result: ChannelTestResult;
  try {
    // a wire without chat (Jina) is tested with one small embedding instead
    const embed = adapter.supports.chat === false ? adapter.embeddings : undefined;
    const up = embed
      ? await embed.request({ kind: "embeddings", model: name, inputs: [{ parts: ["hi"] }], single: false }, view)
      : await adapter.chatRequest(request, view);
    const res = await undiciTransport(up.url, { headers: up.headers, body: up.body, signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
    const text = await res.text();
    const time = (performance.now() - started) / 1000;
    if (!res.ok) {
      const err = adapter.parseError(res.status, text, view);
      // a multi-key channel is tested with its first enabled key, which alone answers for a key failure
      const tested = c.keys?.[0];
      if (tested && isKeyFailure(err)) noteKeyFailure({ id: c.id, auto_ban: c.auto_ban, key: tested.key, keyIndex: tested.index }, err);
      else noteChannelFailure(c, err);
      result = { success: false, message: `${err.status}: ${err.message}`, time, isRetryable: retestMayPass(err.status) };
    } else {
      if (embed) embed.parse(JSON.parse(text), { kind: "embeddings", model: name, inputs: [{ parts: ["hi"] }], single: false });
      else adapter.parseChat(JSON.parse(text));
      const limit = getNumber("ChannelDisableThreshold", 5);
      if (limit > 0 && time > limit) {
        // also the reason an automatic disabling stores (other_info.status_reason), in the same language
        // the seconds in the language's number format (docs/i18n.md, "Formats")
        const seconds = (n: number, digits: number) => n.toLocaleString(LOCALE_TAGS[locale], { minimumFractionDigits: digits, maximumFractionDigits: 2 });
        const message = renderMessage(locale, "channel_test_too_slow", { time: seconds(time, 2), limit: seconds(limit, 0) });
        result = { success: false, message, time, isRetryable: true };
        if (getBool("AutomaticDisableChannelEnabled") && c.auto_ban !== 0 && c.status === CHANNEL_STATUS.enabled) await autoDisableChannel(id, message);
      } else result = { success: true, message: "", time, isRetryable: false };
    }
  } catch (e) {
    const time = (performance.now() - started) / 1000;
    if (e instanceof RelayError) {
      // the adapter could not build the request: a key it cannot use, an access token refused
      const err = e.toUpstreamError();
      noteChannelFailure(c, err);
      await recordChannelFigures(id, { response_time: Math.round(time * 1000) });
      return { success: false, message: `${err.status}: ${err.message}`, time, isRetryable: retestMayPass(err.status) };
    }
    const timeout = (e as Error).name === "TimeoutError" || (e as Error).name === "AbortError";
    const refusal = outboundRefusal(e); // the outbound policy refused the address: say why
    const key: MessageKey = refusal
      ? refusalMessageKey(refusal.reason, refusal.scope)
      : timeout
        ? "upstream_timeout"
        : e instanceof SyntaxError // JSON.parse of the answer
          ? "upstream_invalid_json"
          : "channel_test_unreachable";
    const message = renderMessage(locale, key);
    // the relay's health notes stay English, as its own failures are (lib/relay/health.ts)
    noteChannelFailure(c, { status: timeout ? 504 : 502, message: renderMessage("en", key), type: "upstream_error", code: null });
    // A timeout, an unreachable upstream or a garbled answer may pass on a later try; an
    // address the outbound policy refuses will be refused again.
    result = { success: false, message, time, isRetryable: !refusal };
  }
  await recordChannelFigures(id, { response_time: Math.round(result.time * 1000) });
  if (result.success) {
    noteChannelSuccess(id);
    if (c.status === CHANNEL_STATUS.autoDisabled && getBool("AutomaticEnableChannelEnabled")) await autoEnableChannel(id);
  }
  return result;
}

// The channels "test all" covers: those that route traffic, and those the system disabled
// (so that a pass can bring them back).
export async function channelsToTest(): Promise<number[]> {
  return [...(await channelIndex()).channels.values()]
    .filter((c) => c.status === CHANNEL_STATUS.enabled || c.status === CHANNEL_STATUS.autoDisabled)
    .map((c) => c.id);
}
