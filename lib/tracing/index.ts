// Optional OpenTelemetry traces of relay calls and console requests, over OTLP/HTTP
// (docs/tracing.md). Off unless OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set and OTEL_SDK_DISABLED is not true. Off, nothing
// of the SDK is imported (lib/tracing/sdk.ts loads every @opentelemetry package with a dynamic
// import, only when tracing starts) and `tracing` stays null: the relay and server.ts test it
// once per request (`const t = tracing; if (t) ...`) and do nothing else.
// This folder imports nothing of lib/ but lib/env and lib/logger, so that the relay, server.ts
// and the console's route() can all reach it.
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";

/** What a relay call tells its span (lib/relay/handler.ts); made only while tracing is on. */
export interface RelaySpan {
  /**
   * The call as the client asked for it, once its body is parsed: the GenAI operation name,
   * the model, and the request parameters recorded (undefined when not given).
   */
  request(operation: string, model: string, maxTokens: number | undefined, temperature: number | undefined, stream: boolean): void;
  /** the caller's user id (never a name, an e-mail, or a key) */
  user(userId: number): void;
  /** an upstream attempt on a channel: a CLIENT child span, ended with the attempt's outcome */
  attempt(channelId: number, provider: string | undefined, model: string): AttemptSpan;
  /**
   * The call's final outcome: the model served, the channel and its adapter, the token counts,
   * and (a chat call) the finish reasons and the model the upstream named in its answer.
   */
  outcome(
    model: string,
    channelId: number,
    provider: string | undefined,
    inputTokens: number,
    outputTokens: number,
    cachedTokens: number,
    finishReasons: readonly string[] | undefined,
    responseModel: string | undefined,
    errorType: string | undefined,
  ): void;
  /** a refusal or a failure thrown before the call reached an outcome: its code or class, never its message */
  error(errorType: string): void;
  /** ends the span with the answer's HTTP status */
  end(status: number): void;
}

export interface AttemptSpan {
  end(status: number, errorType: string | undefined): void;
}

export interface Tracing {
  /** the SERVER span of one relay request, parented by the client's `traceparent` if any */
  relay(req: IncomingMessage, requestId: string): RelaySpan;
  /** the SERVER span of one console /api request, ended when its answer is finished or cut */
  console(req: IncomingMessage, res: ServerResponse, requestId: string): void;
  /** exports what is still buffered and stops (the graceful shutdown, lib/lifecycle.ts) */
  shutdown(): Promise<void>;
}

/** null while tracing is off: the one check the hot path makes. */
export let tracing: Tracing | null = null;

// OTEL_SDK_DISABLED: the specification's boolean ("true", case-insensitive, disables; anything else does not)
const on = (v: string | undefined) => typeof v === "string" && v.trim().length > 0;

/** Whether the environment asks for traces (docs/tracing.md, "Turning it on"). */
export function tracingWanted(e: Readonly<Record<string, string | undefined>> = process.env): boolean {
  if ((e.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true") return false;
  return on(e.OTEL_EXPORTER_OTLP_ENDPOINT) || on(e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts tracing when the environment asks for it (server.ts, before the server listens):
 * loads the SDK and sets `tracing`. Returns whether it started.
 */
export async function startTracing(serviceVersion: string): Promise<boolean> {
  if (!tracingWanted()) return false;
  const { createTracing } = await import("./sdk");
  tracing = await createTracing(serviceVersion);
  return true;
}

/** the longest the shutdown waits for the last export (a receiver that hangs must not hold the exit) */
export const STOP_TIMEOUT_MS = 5_000;

/** Stops tracing (the graceful shutdown): the spans still buffered are exported first. */
export async function stopTracing(): Promise<void> {
  const t = tracing;
  if (!t) return;
  tracing = null;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([t.shutdown(), new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_TIMEOUT_MS)))]);
  clearTimeout(timer);
}
