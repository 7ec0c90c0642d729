// The contract of a provider adapter: one per upstream wire, behind one typed interface.
// Shared code (the pipeline) only calls these methods; it never branches on a provider.
import "server-only";
import type { ChannelView, ChatRequest, ChatResponse, EmbeddingRequest, StreamEvent, UpstreamError } from "@/lib/relay/types";

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/** An upstream JSON request before serialisation (a large body is serialised on a worker: lib/relay/json-worker.ts). */
export interface UpstreamPayload {
  url: string;
  headers: Record<string, string>;
  json: unknown;
}

/** Stateful per stream: turns each upstream SSE event into canonical events. */
export interface StreamParser {
  /** `event` is the SSE event name when the upstream sends one. */
  parse(data: string, event: string | undefined, emit: (e: StreamEvent) => void): void;
}

/** The OpenAI endpoints other than chat that the relay passes through (mapping the model, reading usage). */
export type PassthroughEndpoint =
  "completions" | "embeddings" | "responses" | "images/generations" | "audio/speech" | "audio/transcriptions" | "audio/translations" | "moderations" | "rerank";

export interface ProviderAdapter {
  /** for diagnostics only; never used to branch */
  readonly name: string;
  readonly supports: {
    stream: boolean;
    tools: boolean;
    images: boolean;
    /** several choices per request (n > 1) */
    n: boolean;
    passthrough: readonly PassthroughEndpoint[];
    /** false: the wire has no structured output (ChatRequest.responseFormat), so such a request is refused */
    structuredOutput?: boolean;
  };
  /**
   * The ingress format that speaks this wire. With global.pass_through_request_enabled, a client
   * of that format has its own body sent (rawChatPayload) instead of one rebuilt from the
   * canonical request (docs/relay-options.md, "Pass-through").
   */
  readonly ingress?: "openai-chat" | "anthropic-messages" | "gemini";
  /** The client's body, unchanged but for the model (the channel's upstream model). */
  rawChatPayload?(json: Record<string, unknown>, req: ChatRequest, ch: ChannelView): UpstreamPayload;
  chatRequest(req: ChatRequest, ch: ChannelView): UpstreamRequest;
  /** chatRequest with the body not yet serialised; kept apart so that the usual call builds no extra object */
  chatPayload(req: ChatRequest, ch: ChannelView): UpstreamPayload;
  /** the parsed JSON of a successful non-stream answer */
  parseChat(body: unknown): ChatResponse;
  streamParser(): StreamParser;
  /** an upstream failure (HTTP status and body text); the message is already free of the channel's key */
  parseError(status: number, body: string, ch: ChannelView): UpstreamError;
  /**
   * Embeddings on this wire, for callers whose format differs from it (a Gemini client on an
   * OpenAI channel, an OpenAI client on a Gemini channel). Absent: the wire has none.
   */
  embeddings?: {
    request(req: EmbeddingRequest, ch: ChannelView): UpstreamRequest;
    /** the vectors in input order, and the input tokens when the upstream counts them */
    parse(body: unknown, req: EmbeddingRequest): { vectors: number[][]; promptTokens?: number };
  };
  /** The wire's own count of a request's input tokens (POST /v1/messages/count_tokens). Absent: the relay estimates. */
  countTokens?: {
    request(req: ChatRequest, ch: ChannelView): UpstreamRequest;
    /** the count, or undefined when the answer has none */
    parse(body: unknown): number | undefined;
  };
  /**
   * Whether this channel serves OpenAI's /v1/responses itself: a Responses client's body is then
   * passed through (model mapped) instead of translated. Absent: never.
   */
  nativeResponses?(ch: ChannelView): boolean;
  /** URL and headers for a pass-through endpoint; the body is prepared by the caller */
  passthroughRequest?(endpoint: PassthroughEndpoint, ch: ChannelView, contentType: string): { url: string; headers: Record<string, string> };
}
