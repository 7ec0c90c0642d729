// Channel tests (GET /api/channel/test/{id}?model and GET /api/channel/test): one small
// non-streaming chat through the channel's own adapter, timed. The response time is written
// back to the channel; a pass re-enables a channel the system had disabled (when
// AutomaticEnableChannelEnabled); a failure counts toward automatic disabling like any
// relay failure. Messages never contain the channel's key (adapters redact upstream errors).
import { db } from "@/lib/db/client";
import { outboundRefusal } from "@/lib/net/outbound";
import { getBool } from "@/lib/options/store";
import { autoEnableChannel } from "@/lib/channels/auto-enable-channel";
import { recordChannelFigures } from "@/lib/channels/record-channel-figures";
import { channelIndex, type CachedChannel } from "@/lib/relay/channel-cache";
import { noteChannelFailure, noteChannelSuccess } from "@/lib/relay/health";
import { adapterFor } from "@/lib/relay/providers/registry";
import { mapModel } from "@/lib/relay/select";
import { undiciTransport } from "@/lib/relay/transport";
import type { ChatRequest } from "@/lib/relay/types";

export type ChannelTestResult = { success: boolean; message: string; time: number /* seconds */ };

const TEST_TIMEOUT_MS = 30_000;
const FALLBACK_MODEL = "gpt-4o-mini";

function testModel(c: CachedChannel, requested: string | undefined, configured: string): string {
  return requested?.trim() || configured.trim() || c.models[0] || FALLBACK_MODEL;
}

export async function testChannel(id: number, model?: string): Promise<ChannelTestResult | null> {
  const c = (await channelIndex()).channels.get(id);
  if (!c) return null;
  const adapter = adapterFor(c.type);
  if (!adapter) return { success: false, message: `channel type ${c.type} cannot be tested by the relay`, time: 0 };
  const row = await db().channel.findUnique({ where: { id }, select: { test_model: true } });
  const name = testModel(c, model, row?.test_model ?? "");
  const view = { id: c.id, type: c.type, base_url: c.base_url, key: c.key, other: c.other, upstreamModel: mapModel(c, name) };
  const request: ChatRequest = {
    model: name,
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    maxTokens: 16,
    stream: false,
  };
  const up = adapter.chatRequest(request, view);
  const started = performance.now();
  let result: ChannelTestResult;
  try {
    const res = await undiciTransport(up.url, { headers: up.headers, body: up.body, signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
    const text = await res.text();
    const time = (performance.now() - started) / 1000;
    if (!res.ok) {
      const err = adapter.parseError(res.status, text, view);
      noteChannelFailure(c, err);
      result = { success: false, message: `${err.status}: ${err.message}`, time };
    } else {
      adapter.parseChat(JSON.parse(text));
      result = { success: true, message: "", time };
    }
  } catch (e) {
    const time = (performance.now() - started) / 1000;
    const timeout = (e as Error).name === "TimeoutError" || (e as Error).name === "AbortError";
    const refusal = outboundRefusal(e); // the outbound policy refused the address: say why
    const message = refusal ? refusal.message : timeout ? "the upstream did not answer in time" : "the upstream could not be reached or answered invalid JSON";
    noteChannelFailure(c, { status: timeout ? 504 : 502, message, type: "upstream_error", code: null });
    result = { success: false, message, time };
  }
  await recordChannelFigures(id, { response_time: Math.round(result.time * 1000) });
  if (result.success) {
    noteChannelSuccess(id);
    if (c.status === 3 && getBool("AutomaticEnableChannelEnabled")) await autoEnableChannel(id);
  }
  return result;
}

// Tests every channel that routes traffic or was disabled by the system (so that it can
// come back), three at a time.
export async function testAllChannels(): Promise<{ tested: number; passed: number; failed: number }> {
  const ids = [...(await channelIndex()).channels.values()].filter((c) => c.status === 1 || c.status === 3).map((c) => c.id);
  let passed = 0;
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const r = await testChannel(ids[next++]);
      if (r?.success) passed++;
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  return { tested: ids.length, passed, failed: ids.length - passed };
}
