// lib/tracing (docs/tracing.md): when the environment turns tracing on, the OTEL_* variables the
// gateway reads itself, the console route names, the attribute names against the semantic
// conventions package, and that with tracing off no SDK module is loaded at all.
import * as semconv from "@opentelemetry/semantic-conventions";
import * as incubating from "@opentelemetry/semantic-conventions/incubating";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tracingConfig } from "@/lib/tracing/config";
import { routeOf } from "@/lib/tracing/console-bridge";

// every SDK module lib/tracing/sdk.ts imports, recorded when loaded
const loaded = vi.hoisted(() => [] as string[]);
vi.mock("@opentelemetry/sdk-trace", async (actual) => (loaded.push("sdk-trace"), await actual()));
vi.mock("@opentelemetry/core", async (actual) => (loaded.push("core"), await actual()));
vi.mock("@opentelemetry/resources", async (actual) => (loaded.push("resources"), await actual()));
vi.mock("@opentelemetry/exporter-trace-otlp-proto", async (actual) => (loaded.push("exporter-proto"), await actual()));
vi.mock("@opentelemetry/exporter-trace-otlp-http", async (actual) => (loaded.push("exporter-json"), await actual()));

const OTEL_KEYS = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SDK_DISABLED", "OTEL_EXPORTER_OTLP_PROTOCOL"];
const saved = Object.fromEntries(OTEL_KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of OTEL_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

describe("turning tracing on", () => {
  it("is wanted only with an OTLP endpoint and without OTEL_SDK_DISABLED=true", async () => {
    const { tracingWanted } = await import("@/lib/tracing");
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "TRUE" })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "false" })).toBe(true);
  });

  it("loads no SDK module while off, and the SDK once an endpoint is set", async () => {
    const t = await import("@/lib/tracing");
    for (const k of OTEL_KEYS) delete process.env[k];
    expect(await t.startTracing("v0")).toBe(false);
    expect(t.tracing).toBeNull();
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = "http://127.0.0.1:9";
    process.env.OTEL_SDK_DISABLED = "true";
    expect(await t.startTracing("v0")).toBe(false);
    expect(loaded).toEqual([]);
    delete process.env.OTEL_SDK_DISABLED;
    expect(await t.startTracing("v0")).toBe(true);
    expect(t.tracing).not.toBeNull();
    expect(loaded.sort()).toEqual(["core", "exporter-proto", "resources", "sdk-trace"]);
    await t.stopTracing();
    expect(t.tracing).toBeNull();
  });
});

describe("tracingConfig", () => {
  it("defaults to http/protobuf and parentbased_always_on", () => {
    expect(tracingConfig({})).toEqual({
      protocol: "http/protobuf",
      sampler: "parentbased_always_on",
      ratio: 1,
      scheduledDelayMillis: 5000,
      exportTimeoutMillis: 30000,
      maxQueueSize: 2048,
      maxExportBatchSize: 512,
      attributeValueLengthLimit: 1024,
    });
  });

  it("reads the protocol (the traces' own variable first), the sampler and its ratio, the batch settings", () => {
    const c = tracingConfig({
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "HTTP/JSON",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_BSP_SCHEDULE_DELAY: "200",
      OTEL_BSP_MAX_QUEUE_SIZE: "100",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "50",
    });
    expect(c).toMatchObject({
      protocol: "http/json",
      sampler: "parentbased_traceidratio",
      ratio: 0.25,
      scheduledDelayMillis: 200,
      maxQueueSize: 100,
      maxExportBatchSize: 50,
    });
    // the argument of a sampler without a ratio is ignored
    expect(tracingConfig({ OTEL_TRACES_SAMPLER: "always_on", OTEL_TRACES_SAMPLER_ARG: "nonsense" }).ratio).toBe(1);
  });

  it("refuses what it does not know, naming the variable", () => {
    expect(() => tracingConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported/);
    expect(() => tracingConfig({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" })).toThrow(/OTEL_EXPORTER_OTLP_TRACES_PROTOCOL/);
    expect(() => tracingConfig({ OTEL_TRACES_SAMPLER: "jaeger_remote" })).toThrow(/OTEL_TRACES_SAMPLER: "jaeger_remote" must be one of/);
    expect(() => tracingConfig({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "1.5" })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => tracingConfig({ OTEL_BSP_SCHEDULE_DELAY: "soon" })).toThrow(/OTEL_BSP_SCHEDULE_DELAY/);
    expect(() => tracingConfig({ OTEL_BSP_MAX_QUEUE_SIZE: "10", OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "20" })).toThrow(/OTEL_BSP_MAX_EXPORT_BATCH_SIZE/);
  });
});

describe("routeOf", () => {
  it("names a path's parameters", () => {
    expect(routeOf("/api/user/self", {})).toBe("/api/user/self");
    expect(routeOf("/api/channel/5", { id: "5" })).toBe("/api/channel/[id]");
    expect(routeOf("/api/log/a%20b/x", { name: "a b" })).toBe("/api/log/[name]/x");
    expect(routeOf("/api/files/a/b/c", { path: ["a", "b", "c"] })).toBe("/api/files/[...path]");
    expect(routeOf("/api/channel/5", undefined)).toBe("/api/channel/5");
  });
});

describe("attribute names", () => {
  it("are the semantic conventions' names", async () => {
    const { ATTR, providerName } = await import("@/lib/tracing/sdk");
    expect(ATTR).toMatchObject({
      httpMethod: semconv.ATTR_HTTP_REQUEST_METHOD,
      httpStatus: semconv.ATTR_HTTP_RESPONSE_STATUS_CODE,
      httpRoute: semconv.ATTR_HTTP_ROUTE,
      urlPath: semconv.ATTR_URL_PATH,
      errorType: semconv.ATTR_ERROR_TYPE,
      serviceName: semconv.ATTR_SERVICE_NAME,
      serviceVersion: semconv.ATTR_SERVICE_VERSION,
      userId: incubating.ATTR_USER_ID,
      operation: incubating.ATTR_GEN_AI_OPERATION_NAME,
      provider: incubating.ATTR_GEN_AI_PROVIDER_NAME,
      system: incubating.ATTR_GEN_AI_SYSTEM,
      requestModel: incubating.ATTR_GEN_AI_REQUEST_MODEL,
      responseModel: incubating.ATTR_GEN_AI_RESPONSE_MODEL,
      maxTokens: incubating.ATTR_GEN_AI_REQUEST_MAX_TOKENS,
      temperature: incubating.ATTR_GEN_AI_REQUEST_TEMPERATURE,
      stream: incubating.ATTR_GEN_AI_REQUEST_STREAM,
      inputTokens: incubating.ATTR_GEN_AI_USAGE_INPUT_TOKENS,
      outputTokens: incubating.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
      cacheReadTokens: incubating.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
      finishReasons: incubating.ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
    });
    expect(providerName("openai")).toBe(incubating.GEN_AI_PROVIDER_NAME_VALUE_OPENAI);
    expect(providerName("azure")).toBe(incubating.GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_OPENAI);
    expect(providerName("gemini")).toBe(incubating.GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI);
    expect(providerName("vertex")).toBe(incubating.GEN_AI_PROVIDER_NAME_VALUE_GCP_VERTEX_AI);
    expect(providerName("bedrock")).toBe(incubating.GEN_AI_PROVIDER_NAME_VALUE_AWS_BEDROCK);
    expect(providerName("mistral")).toBe(incubating.GEN_AI_PROVIDER_NAME_VALUE_MISTRAL_AI);
    expect(providerName("xai")).toBe(incubating.GEN_AI_PROVIDER_NAME_VALUE_X_AI);
    expect(providerName("ollama")).toBe("ollama");
    expect(providerName("constructor")).toBe("constructor");
  });
});
