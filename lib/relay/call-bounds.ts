// What one call could have used, the bound of the usage its upstream may report for it
// (docs/channels-tokens-billing.md, "Bounds of one call"; applied by boundUsage,
// lib/billing/bounds.ts). Plain arithmetic on what the handler already has: the canonical
// request and the body's size in bytes; nothing is serialised again.
import "server-only";
import { DEFAULT_OUTPUT_BOUND, MAX_CALL_IMAGES, MAX_USAGE_TOKENS, PROMPT_BOUND_BASE, PROMPT_PER_REFERENCE, PROMPT_TOKENS_PER_BYTE } from "@/lib/billing/bounds";
import type { PassthroughEndpoint } from "@/lib/relay/providers/types";
import type { PassthroughRequest } from "@/lib/relay/pipeline";
import type { ProviderAdapter } from "@/lib/relay/providers/types";
import { isEmbeddingRequest, type ChannelView, type ChatRequest, type EmbeddingRequest } from "@/lib/relay/types";

type CallRequest = ChatRequest | PassthroughRequest | EmbeddingRequest;

const positive = (v: unknown): number => (typeof v === "number" && v > 0 ? v : 0);

// Endpoints whose answer is no text the model wrote: vectors, scores, flags, audio from the
// given text. Their calls produce no completion tokens.
const NO_COMPLETION = new Set<PassthroughEndpoint>(["embeddings", "moderations", "rerank", "audio/speech"]);

/**
 * Completion tokens the call could have produced: its output budget (max_tokens,
 * max_completion_tokens, max_output_tokens, maxOutputTokens: whatever its format names it),
 * or DEFAULT_OUTPUT_BOUND when it sets none, for each choice it asked for (n, and a
 * completion's best_of, which the upstream also bills). A chat request's budget is the one
 * its wire was sent when the adapter raised it (`outputBudget`: Claude's thinking adapter),
 * asked only when the upstream's figure (`reported`) is past the client's.
 */
export function completionBound(request: CallRequest, reported: number, adapter: ProviderAdapter | undefined, ch: ChannelView): number {
  let budget = 0;
  let choices = 1;
  if (isEmbeddingRequest(request)) return 0;
  if ("endpoint" in request) {
    if (NO_COMPLETION.has(request.endpoint)) return 0;
    const j = request.json;
    if (j) {
      budget = positive(j.max_tokens) || positive(j.max_completion_tokens) || positive(j.max_output_tokens);
      choices = Math.max(1, positive(j.n), positive(j.best_of));
    }
  } else {
    budget = request.maxTokens ?? 0;
    choices = request.n ?? 1;
    if (budget && reported > budget * choices && adapter?.outputBudget) budget = Math.max(budget, adapter.outputBudget(request, ch));
  }
  const b = (budget || DEFAULT_OUTPUT_BOUND) * choices;
  return b < MAX_USAGE_TOKENS ? b : MAX_USAGE_TOKENS;
}

/**
 * Prompt tokens the call could have sent: PROMPT_BOUND_BASE + PROMPT_TOKENS_PER_BYTE per
 * byte of its body, and PROMPT_PER_REFERENCE more for each image or file a chat request names
 * by URL (counted only when the upstream's figure is past the rest, so a normal call walks
 * nothing). `storedPrompt`: the request may name a prompt kept upstream (the Responses API's
 * previous_response_id, conversation, stored prompt, files, hosted tools), which no size of
 * the body bounds: only MAX_USAGE_TOKENS applies.
 */
export function promptBound(request: CallRequest, bodyBytes: number, reported: number, storedPrompt: boolean): number {
  if (storedPrompt) return MAX_USAGE_TOKENS;
  let b = PROMPT_BOUND_BASE + PROMPT_TOKENS_PER_BYTE * bodyBytes;
  if (reported > b && "messages" in request) {
    for (const m of request.messages) for (const p of m.content) if (p.type === "image" && p.data === undefined) b += PROMPT_PER_REFERENCE;
  }
  return b < MAX_USAGE_TOKENS ? b : MAX_USAGE_TOKENS;
}

/** Images the call could have been answered with: the `n` of an image request (1 when unset). */
export function imagesBound(request: CallRequest): number {
  if (!("endpoint" in request) || request.endpoint !== "images/generations") return MAX_CALL_IMAGES;
  const n = positive(request.json?.n);
  return n ? Math.ceil(n) : 1;
}
