// Canonical shapes of the relay. Every ingress format parses into these and renders from
// them; every provider adapter builds its upstream request from them and parses its answer
// (and each stream event) back into them. Nothing here knows a provider's wire format.

export type ContentPart =
  | { type: "text"; text: string }
  // An image either by URL (http(s) or data:) or as inline base64 data with its MIME type;
  // a data: URL arrives as both (the data and its MIME type, and the URL it came as).
  | { type: "image"; url?: string; data?: string; mimeType?: string };

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as a JSON text (OpenAI's form); adapters parse it when their wire needs an object. */
  arguments: string;
}

export interface Message {
  role: "user" | "assistant" | "tool";
  content: ContentPart[];
  /** assistant only: the tool calls it made */
  toolCalls?: ToolCall[];
  /** tool only: which call this result answers, and that call's function name */
  toolCallId?: string;
  toolName?: string;
  /** tool only: the tool reported a failure (Anthropic is_error) */
  isError?: boolean;
}

export interface ToolDef {
  name: string;
  description?: string;
  /** JSON Schema of the arguments */
  parameters?: Record<string, unknown>;
}

export type ToolChoice = "auto" | "none" | "required" | { name: string };

/** Fields of a request that have no canonical meaning but pass through when the upstream speaks the same wire. */
export interface WireExtra {
  wire: string;
  fields: Record<string, unknown>;
}

export interface ChatRequest {
  /** the model name the client asked for (rendered back in answers) */
  model: string;
  system?: string;
  messages: Message[];
  tools?: ToolDef[];
  toolChoice?: ToolChoice;
  temperature?: number;
  topP?: number;
  /** 1..10_000_000 when given */
  maxTokens?: number;
  stop?: string[];
  /** 1..128 */
  n?: number;
  stream: boolean;
  /** the client asked for usage in the stream (OpenAI stream_options.include_usage) */
  streamUsage?: boolean;
  extra?: WireExtra;
  /** how much the model should think (OpenAI's reasoning effort); each adapter maps it to its wire */
  reasoningEffort?: ReasoningEffort;
  /**
   * Responses ingress only: the client's own body, sent as is (model mapped) to a channel that
   * serves /v1/responses natively (lib/relay/formats/openai-responses.ts)
   */
  responsesBody?: Record<string, unknown>;
  /** why the request cannot be served on another wire (a Responses feature that needs the upstream's stored state) */
  untranslatable?: string;
  /**
   * the prompt holds what the upstream keeps or fetches itself (a previous response, a
   * conversation, a stored prompt or file, hosted tools' results), which no size of the body
   * bounds (lib/relay/call-bounds.ts)
   */
  promptKeptUpstream?: boolean;
  /** structured output (the Responses API's text.format): JSON mode, or JSON following a schema */
  responseFormat?: ResponseFormat;
}

export type ResponseFormat =
  { type: "json_object" } | { type: "json_schema"; name: string; schema?: Record<string, unknown>; strict?: boolean; description?: string };

export type ReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh";

export interface Usage {
  /** every input token, cached ones included (OpenAI's convention) */
  prompt_tokens: number;
  completion_tokens: number;
  /** input tokens read from the provider's prompt cache (part of prompt_tokens) */
  cached_tokens: number;
  /** input tokens written to the prompt cache (part of prompt_tokens), of every lifetime */
  cache_creation_tokens: number;
  /** of cache_creation_tokens, those written for one hour (Anthropic's and Bedrock's 1-hour
   *  cache, billed at CreateCache1hRatio; the rest at CreateCacheRatio: docs/pricing.md) */
  cache_creation_1h_tokens: number;
  /** reasoning tokens (part of completion_tokens) */
  reasoning_tokens: number;
}

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

/**
 * An image the model produced (Gemini's image output: docs/relay-options.md,
 * gemini.supported_imagine_models), as base64 data with its MIME type.
 */
export interface OutputImage {
  mimeType: string;
  data: string;
}

export interface Choice {
  index: number;
  text: string;
  reasoning?: string;
  toolCalls?: ToolCall[];
  /**
   * images the model produced, in order; each one's `offset` is the length of `text` when it
   * came, i.e. where it stands among the text. Absent when there is none.
   */
  images?: (OutputImage & { offset: number })[];
  finishReason: FinishReason;
}

/**
 * Walks a choice's answer in order: `text` for each piece of text, `image` for each image
 * between them. A choice without images is one call of `text` (none when its text is empty).
 */
export function eachSegment(c: Choice, text: (t: string) => void, image: (img: OutputImage) => void): void {
  const images = c.images;
  if (!images) {
    if (c.text) text(c.text);
    return;
  }
  let at = 0;
  for (const img of images) {
    const to = Math.min(Math.max(img.offset, at), c.text.length);
    if (to > at) text(c.text.slice(at, to));
    image(img);
    at = to;
  }
  if (at < c.text.length) text(c.text.slice(at));
}

/** A choice's text with each image in its place written as `image(img)` (the text itself when it has none). */
export function textWithImages(c: Choice, image: (img: OutputImage) => string): string {
  if (!c.images) return c.text;
  let out = "";
  eachSegment(
    c,
    (t) => (out += t),
    (img) => (out += image(img)),
  );
  return out;
}

/** One input of an embeddings call. Its text parts make one vector together (Gemini's Content). */
export interface EmbedInput {
  parts: string[];
  /** Gemini's hints (RETRIEVAL_QUERY, a document title): passed to a Gemini upstream, dropped by others */
  taskType?: string;
  title?: string;
  /** the vector's length, when the client asks for a shorter one */
  dimensions?: number;
}

/** An embeddings call in canonical form: one vector per input, in order. */
export interface EmbeddingRequest {
  kind: "embeddings";
  /** the model name the client asked for */
  model: string;
  inputs: EmbedInput[];
  /** Gemini's embedContent: one input, answered as `embedding` instead of `embeddings` */
  single: boolean;
}

export const isEmbeddingRequest = (r: object): r is EmbeddingRequest => (r as { kind?: unknown }).kind === "embeddings";

export interface ChatResponse {
  id: string;
  /** the model the upstream reports */
  model: string;
  created: number;
  choices: Choice[];
  /** absent when the upstream sent none */
  usage?: Usage;
}

/** One canonical stream event. `index` is the choice (n > 1). */
export type StreamEvent =
  | { type: "start"; id: string; model: string; usage?: Partial<Usage> }
  | { type: "text"; index: number; text: string }
  | { type: "reasoning"; index: number; text: string }
  /** one whole image the model produced, at this point of the answer */
  | { type: "image"; index: number; mimeType: string; data: string }
  | { type: "tool_call_start"; index: number; callIndex: number; id: string; name: string }
  | { type: "tool_call_args"; index: number; callIndex: number; args: string }
  | { type: "finish"; index: number; reason: FinishReason }
  /** cumulative usage so far; later events override the fields they carry */
  | { type: "usage"; usage: Partial<Usage> }
  | { type: "error"; error: UpstreamError };

/** An upstream failure or a refusal, in canonical form. Never carries the upstream key. */
export interface UpstreamError {
  status: number;
  message: string;
  /** OpenAI-style type: invalid_request_error, authentication_error, rate_limit_error, upstream_error... */
  type: string;
  code: string | null;
}

/** What an adapter needs to know about the channel it calls. */
export interface ChannelView {
  id: number;
  /** channel type id (1 OpenAI, 3 Azure, 14 Anthropic, 24 Gemini, ...) */
  type: number;
  /** empty: the type's default */
  base_url: string;
  key: string;
  /** type-specific setting: Azure's api-version, for instance */
  other: string;
  /** the model name to send upstream (after the channel's model mapping) */
  upstreamModel: string;
  /** extra headers configured on the channel */
  headers?: Record<string, string>;
  /** an OpenAI-wire channel whose models exist only on /v1/responses (the channel setting `responses_only`) */
  responsesOnly?: boolean;
}

export const emptyUsage = (): Usage => ({
  prompt_tokens: 0,
  completion_tokens: 0,
  cached_tokens: 0,
  cache_creation_tokens: 0,
  cache_creation_1h_tokens: 0,
  reasoning_tokens: 0,
});

/** Thrown by ingress parsing (bad client input) and by adapters that cannot serve a request. */
export class RelayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string = "invalid_request_error",
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = "RelayError";
  }
  toUpstreamError(): UpstreamError {
    return { status: this.status, message: this.message, type: this.type, code: this.code };
  }
}
