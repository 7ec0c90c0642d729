// The contract of an ingress format: parse a client's body into the canonical request, and
// render canonical answers, streams and errors back in the client's own wire format.
import "server-only";
import { z, type ZodError } from "zod";
import { RelayError, type ChatRequest, type ChatResponse, type OutputImage, type StreamEvent, type UpstreamError, type Usage } from "@/lib/relay/types";

export type IngressName = "openai-chat" | "openai-responses" | "anthropic-messages" | "gemini";

/** Facts an ingress takes from the URL rather than the body (Gemini's model and action). */
export interface ParseContext {
  model?: string;
  stream?: boolean;
}

/** Renders one stream, statefully. Each call returns the text to write ("" for nothing). */
export interface StreamRenderer {
  event(e: StreamEvent): string;
  /** the closing text: usage (exact or estimated) and the format's terminator */
  end(usage: Usage): string;
  /** an error after the stream has started, in the format's in-stream error shape */
  error(err: UpstreamError): string;
}

export interface IngressFormat {
  readonly name: IngressName;
  /** Validates (zod) and converts; throws RelayError(400) with a clear message. */
  parse(body: unknown, ctx?: ParseContext): ChatRequest;
  renderResponse(res: ChatResponse, req: ChatRequest, usage: Usage): string;
  streamRenderer(req: ChatRequest): StreamRenderer;
  /** The error in this format's shape, with the HTTP status to answer. */
  renderError(err: UpstreamError): { status: number; body: string };
}

/** Bounds shared by every format: a charge can never turn negative or overflow with these. */
export const MAX_N = 128;
export const MAX_OUTPUT_TOKENS = 10_000_000;
/** An output budget (max_tokens and its kin), as every format and pass-through route checks it. */
export const outputBudget = z.number().int().min(1).max(MAX_OUTPUT_TOKENS);
/**
 * A budget of 0 means "not set", as in new-api (docs/channels-tokens-billing.md, "Bounds of one
 * call"): each parser drops it from the client's body before checking it, so it is neither
 * forwarded (a pass-through or raw body goes upstream as it is) nor a bound of the usage.
 */
export function dropUnsetBudgets(body: unknown, fields: readonly string[]): void {
  if (!body || typeof body !== "object") return;
  const o = body as Record<string, unknown>;
  for (const f of fields) if (o[f] === 0) delete o[f];
}
/** Inputs of one embeddings call (OpenAI's own limit); each input is also bounded by the body size. */
export const MAX_EMBED_INPUTS = 2048;

export function zodToRelayError(err: ZodError, what: string): RelayError {
  const issue = err.issues[0];
  const path = issue?.path.length ? issue.path.join(".") : "body";
  return new RelayError(400, `Invalid ${what}: ${path}: ${issue?.message ?? "invalid"}`, "invalid_request_error", "invalid_request");
}

/** JSON.stringify that never throws on odd input (circular structures cannot come from JSON.parse). */
export const json = JSON.stringify;

/** Parses a tool call's arguments text into an object, tolerating empty or broken text. */
export function parseArgs(text: string): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return {};
  }
}

// An image the model produced (docs/relay-options.md, gemini.supported_imagine_models).
/** As a data: URL. */
export const imageDataUrl = (img: OutputImage) => `data:${img.mimeType};base64,${img.data}`;
/** As Markdown, for formats whose assistant content has no image (and beside the image where clients expect it). */
export const imageMarkdown = (img: OutputImage) => `![image](${imageDataUrl(img)})`;
