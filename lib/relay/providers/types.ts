// The contract of a provider adapter: one per upstream wire, behind one typed interface.
// Shared code (the pipeline) only calls these methods; it never branches on a provider.
import "server-only";
import type { EventSourceMessage } from "eventsource-parser";
import type { Locale } from "@/lib/i18n/locale";
import type { ChannelView, ChatRequest, ChatResponse, EmbeddingRequest, StreamEvent, UpstreamError, Usage } from "@/lib/relay/types";

/** A value, or a promise of it: building a request may fetch and cache an access token first. */
export type MaybePromise<T> = T | Promise<T>;

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

/**
 * Reads a streamed upstream body as messages, with readSse's contract (lib/relay/sse.ts):
 * onEvent per message as soon as it is whole (it may return a promise for backpressure, or
 * false to stop reading); onChunk first for each raw chunk. An adapter whose wire is not SSE
 * (AWS's binary event stream) brings its own and maps each frame to `{ event, data }`.
 */
export type StreamReader = (
  body: AsyncIterable<Uint8Array>,
  onEvent: (msg: EventSourceMessage) => void | false | Promise<void | false>,
  onChunk?: (chunk: Uint8Array) => void | Promise<void>,
) => Promise<void>;

/** How the console reaches a provider on a channel's behalf (the outbound policy applies; lib/channel-admin/upstream.ts). */
export interface ConsoleHttp {
  /** GET, JSON answer; throws an error whose message carries the HTTP status, never the key */
  getJson(url: string, headers: Record<string, string>): Promise<Record<string, unknown>>;
  /** POST a JSON body, JSON answer; same failures as getJson */
  postJson(url: string, headers: Record<string, string>, body: unknown): Promise<Record<string, unknown>>;
}

/** The stored fields of a channel the console's calls need (key decrypted). */
export interface ChannelAccess {
  type: number;
  base_url: string;
  key: string;
  other: string;
}

/** A text shown by the console, in each of its languages (lib/i18n/locale.ts). */
export type LocalizedText = Record<Locale, string>;

/**
 * What the console and the channel rules know of a provider: owned by its adapter, served to
 * the editor by GET /api/channel/types (docs/providers.md).
 */
export interface ProviderProfile {
  /** used when the channel's base URL is empty; "" when the channel must give one (Azure, custom hosts) */
  defaultBaseUrl: string;
  /** the key's shape when it is not one plain API key ("Ak|Sk|Region"); shown by the editor */
  keyFormat?: string;
  /**
   * checks one key (one line of the editor) at save time: undefined when fine, else why not,
   * in every language (the console renders it in the request's: docs/i18n.md)
   */
  checkKey?(key: string): LocalizedText | undefined;
  /** what the channel's `other` field means for this type; absent: unused */
  other?: { label: LocalizedText; placeholder?: string; hint?: LocalizedText };
  /** checks the `other` field at save time (Cloudflare's account id): undefined when fine, else why not, in every language */
  checkOther?(other: string): LocalizedText | undefined;
  /** a hint under the key field (where to find it, what it looks like) */
  keyHint?: LocalizedText;
  /**
   * The channel setting `responses_only` means something on this wire (the OpenAI wire and
   * Azure: docs/relay.md, "The Responses API"); absent: the editor hides it and the relay ignores it.
   */
  responsesOnlyOption?: boolean;
  /** the model a channel test uses when the channel names none */
  testModel: string;
  /**
   * The models the provider is known to serve, offered first by the channel editor's model
   * box; absent: none known beyond the test model (a custom host, a self-hosted server).
   */
  knownModels?: readonly string[];
  /** the upstream's model ids; absent: the editor cannot fetch them for this type */
  listModels?(ch: ChannelAccess, http: ConsoleHttp): Promise<string[]>;
  /** the account's balance (USD, or the provider's own currency); absent: the provider publishes none */
  balance?(ch: ChannelAccess, http: ConsoleHttp): Promise<number>;
}

/** Stateful per stream: turns each upstream stream message (an SSE event by default) into canonical events. */
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
  readonly profile: ProviderProfile;
  /**
   * The upstream's stream framing: `contentType` is what a streamed answer's Content-Type
   * contains; `read` decodes its body. Absent: SSE (text/event-stream, lib/relay/sse.ts).
   */
  readonly stream?: { contentType: string; read: StreamReader };
  readonly supports: {
    stream: boolean;
    tools: boolean;
    images: boolean;
    /** several choices per request (n > 1) */
    n: boolean;
    passthrough: readonly PassthroughEndpoint[];
    /** false: the wire has no structured output (ChatRequest.responseFormat), so such a request is refused */
    structuredOutput?: boolean;
    /** false: the wire has no chat (Jina: embeddings and rerank only); chat building refuses and the channel test embeds */
    chat?: boolean;
  };
  /**
   * The ingress format that speaks this wire. With global.pass_through_request_enabled, a client
   * of that format has its own body sent (rawChatPayload) instead of one rebuilt from the
   * canonical request (docs/relay-options.md, "Pass-through").
   */
  readonly ingress?: "openai-chat" | "anthropic-messages" | "gemini";
  /** The client's body, unchanged but for the model (the channel's upstream model). */
  rawChatPayload?(json: Record<string, unknown>, req: ChatRequest, ch: ChannelView): MaybePromise<UpstreamPayload>;
  chatRequest(req: ChatRequest, ch: ChannelView): MaybePromise<UpstreamRequest>;
  /** chatRequest with the body not yet serialised; kept apart so that the usual call builds no extra object */
  chatPayload(req: ChatRequest, ch: ChannelView): MaybePromise<UpstreamPayload>;
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
    request(req: EmbeddingRequest, ch: ChannelView): MaybePromise<UpstreamRequest>;
    /** the vectors in input order, and the input tokens when the upstream counts them */
    parse(body: unknown, req: EmbeddingRequest): { vectors: number[][]; promptTokens?: number };
  };
  /**
   * The output budget this wire is sent for a chat request whose client set one, when the
   * adapter raises it (Claude's thinking adapter adds its minimum budget); absent: the client's.
   * Asked only when the upstream reports more completion tokens than the client's budget, to
   * bound them (docs/channels-tokens-billing.md, "Bounds of one call").
   */
  outputBudget?(req: ChatRequest, ch: ChannelView): number;
  /** The wire's own count of a request's input tokens (POST /v1/messages/count_tokens). Absent: the relay estimates. */
  countTokens?: {
    request(req: ChatRequest, ch: ChannelView): MaybePromise<UpstreamRequest>;
    /** the count, or undefined when the answer has none */
    parse(body: unknown): number | undefined;
  };
  /**
   * Whether this channel serves OpenAI's /v1/responses itself: a Responses client's body is then
   * passed through (model mapped) instead of translated. Absent: never.
   */
  nativeResponses?(ch: ChannelView): boolean;
  /** URL and headers for a pass-through endpoint; the body is prepared by the caller */
  passthroughRequest?(endpoint: PassthroughEndpoint, ch: ChannelView, contentType: string): MaybePromise<{ url: string; headers: Record<string, string> }>;
  /**
   * Usage of a pass-through answer (a JSON body or one stream event) when the wire reports it
   * in its own shape (Cohere's billed units); absent or undefined: the OpenAI shape is read.
   */
  passthroughUsage?(endpoint: PassthroughEndpoint, json: Record<string, unknown>): Partial<Usage> | undefined;
}
