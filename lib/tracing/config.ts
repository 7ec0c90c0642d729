// The standard OTEL_* variables that the gateway reads itself when tracing is on
// (docs/tracing.md, "Variables"); the exporter reads its own (endpoint, headers, timeout,
// compression, certificates). Pure: the unit tests call it with an environment of their own.
// A value it does not know stops the start with a message naming the variable, as lib/env.ts
// does for the gateway's own variables (the specification lets an SDK fall back to a default
// instead; a typo in a sampler then went unnoticed, tracing everything or nothing).
import "server-only";

export type SamplerKind = "always_on" | "always_off" | "traceidratio" | "parentbased_always_on" | "parentbased_always_off" | "parentbased_traceidratio";
const SAMPLERS: readonly SamplerKind[] = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
];

/** an environment: process.env, or a test's own */
type Env = Readonly<Record<string, string | undefined>>;

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface TracingConfig {
  protocol: OtlpProtocol;
  sampler: SamplerKind;
  /** the ratio of the traceidratio samplers, 0 to 1 (OTEL_TRACES_SAMPLER_ARG, default 1) */
  ratio: number;
  /** the batch span processor (OTEL_BSP_*) */
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
  maxQueueSize: number;
  maxExportBatchSize: number;
  /** the longest attribute value kept (OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT, default 1024 characters) */
  attributeValueLengthLimit: number;
}

function invalid(name: string, value: string, expected: string): Error {
  return new Error(`Invalid configuration: ${name}: "${value}" ${expected}`);
}

function integer(e: Env, name: string, fallback: number, min: number): number {
  const raw = e[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw invalid(name, raw, `must be an integer of at least ${min}`);
  return n;
}

export function tracingConfig(e: Env): TracingConfig {
  const rawProtocol = (e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || e.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || "http/protobuf").toLowerCase();
  if (rawProtocol !== "http/protobuf" && rawProtocol !== "http/json") {
    const name = e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" : "OTEL_EXPORTER_OTLP_PROTOCOL";
    throw invalid(name, rawProtocol, "is not supported: use http/protobuf (the default) or http/json (grpc is not offered)");
  }
  const rawSampler = (e.OTEL_TRACES_SAMPLER?.trim() || "parentbased_always_on").toLowerCase();
  if (!(SAMPLERS as readonly string[]).includes(rawSampler)) throw invalid("OTEL_TRACES_SAMPLER", rawSampler, `must be one of ${SAMPLERS.join(", ")}`);
  const sampler = rawSampler as SamplerKind;
  let ratio = 1;
  const rawArg = e.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (rawArg && sampler.endsWith("traceidratio")) {
    ratio = Number(rawArg);
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) throw invalid("OTEL_TRACES_SAMPLER_ARG", rawArg, "must be a number from 0 to 1");
  }
  const maxQueueSize = integer(e, "OTEL_BSP_MAX_QUEUE_SIZE", 2048, 1);
  const maxExportBatchSize = integer(e, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512, 1);
  if (maxExportBatchSize > maxQueueSize) throw invalid("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", String(maxExportBatchSize), "must not exceed OTEL_BSP_MAX_QUEUE_SIZE");
  return {
    protocol: rawProtocol,
    sampler,
    ratio,
    scheduledDelayMillis: integer(e, "OTEL_BSP_SCHEDULE_DELAY", 5000, 0),
    exportTimeoutMillis: integer(e, "OTEL_BSP_EXPORT_TIMEOUT", 30_000, 1),
    maxQueueSize,
    maxExportBatchSize,
    attributeValueLengthLimit: integer(e, "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT", 1024, 1),
  };
}
