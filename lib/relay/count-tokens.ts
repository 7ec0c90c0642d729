// POST /v1/messages/count_tokens: Anthropic's token count of a Messages request, answered
// `{"input_tokens": N}` for any model the token may use. Counting is free, as at Anthropic: no
// reservation, no charge, no log row; the token's model limits and rate limits apply, and the
// model must be served in the token's group (else the relay's usual "no channel" answer), or
// on the channel an admin key is pinned to (sk-<key>-<channelId>, as for calls). The
// count is exact when the chosen channel's wire counts tokens (Anthropic's own count_tokens,
// Gemini's :countTokens: the adapter's `countTokens`), and the relay's estimate otherwise
// (lib/relay/estimate.ts), or when that upstream fails. docs/relay.md, "Token counts".
import "server-only";
import { AppError } from "@/lib/errors";
import { Canceller, type Cancellation } from "@/lib/relay/cancel";
import { estimatePromptTokens } from "@/lib/relay/estimate";
import { formats } from "@/lib/relay/formats";
import { adapterFor } from "@/lib/relay/providers/registry";
import { checkRateLimit } from "@/lib/relay/rate-limit";
import { pinnedChannel, selectChannel } from "@/lib/relay/select";
import { checkTokenModel, type TokenContext } from "@/lib/relay/token-cache";
import { undiciTransport } from "@/lib/relay/transport";

const COUNT_TIMEOUT_MS = 30_000;

export async function countTokens(body: Record<string, unknown>, ctx: TokenContext, signal: Cancellation): Promise<string> {
  // a count needs no output budget: max_tokens is optional here, unlike in /v1/messages
  const request = formats["anthropic-messages"].parse(body.max_tokens === undefined ? Object.assign({ max_tokens: 1 }, body) : body);
  request.stream = false;
  checkTokenModel(ctx.token, request.model);
  await checkRateLimit({ userId: ctx.user.id, group: ctx.group, token: ctx.token });
  // an admin key pinned to a channel (sk-<key>-<channelId>) counts on that channel, as its calls run there
  const channel =
    ctx.pinnedChannelId !== null
      ? await pinnedChannel(ctx.pinnedChannelId, request.model, ctx.group)
      : await selectChannel({ group: ctx.group, model: request.model });
  if (!channel) throw new AppError("NO_CHANNEL", "no_channel_available", { group: ctx.group, model: request.model });
  const counter = adapterFor(channel.type)?.countTokens;
  let tokens: number | undefined;
  if (counter) {
    const cancel = new Canceller();
    const timer = setTimeout(() => cancel.abort(), COUNT_TIMEOUT_MS);
    const stop = () => cancel.abort();
    signal.addEventListener("abort", stop, { once: true });
    try {
      const up = await counter.request(request, channel);
      const res = await undiciTransport(up.url, { headers: up.headers, body: up.body, signal: cancel });
      const text = await res.text();
      if (res.ok) tokens = counter.parse(JSON.parse(text));
    } catch {
      // the estimate below answers instead
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
    }
  }
  return JSON.stringify({ input_tokens: tokens ?? estimatePromptTokens(request) });
}
