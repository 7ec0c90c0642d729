// The OpenTelemetry SDK behind lib/tracing (docs/tracing.md), loaded only when tracing starts.
// Every @opentelemetry package is imported here with a dynamic import(): the server's bundle
// keeps packages external, and a static import, even in a module loaded lazily, would be
// hoisted to the top of dist/server.mjs and load the SDK in every process.
// The provider is the gateway's own: it is not registered as the global tracer provider, so
// Next's built-in instrumentation (which asks the global one) stays silent, and no global
// context manager is needed: each span is given its parent explicitly.
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import type { Sampler } from "@opentelemetry/sdk-trace";
import { logger } from "@/lib/logger";
import { tracingConfig, type SamplerKind } from "./config";
import { routeOf, setConsoleNote, TRACE_SLOT_HEADER } from "./console-bridge";
import type { AttemptSpan, RelaySpan, Tracing } from "./index";

const log = logger("tracing");

// The attribute names (OpenTelemetry semantic conventions 1.45: HTTP, URL, error, user, and
// GenAI for the relay span). Written out rather than read from @opentelemetry/semantic-conventions
// at run time; tests/unit/tracing.test.ts checks each against the package's constant.
export const ATTR = {
  httpMethod: "http.request.method",
  httpStatus: "http.response.status_code",
  httpRoute: "http.route",
  urlPath: "url.path",
  errorType: "error.type",
  userId: "user.id",
  serviceName: "service.name",
  serviceVersion: "service.version",
  operation: "gen_ai.operation.name",
  provider: "gen_ai.provider.name",
  system: "gen_ai.system", // deprecated for gen_ai.provider.name; still what many back ends read
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  maxTokens: "gen_ai.request.max_tokens",
  temperature: "gen_ai.request.temperature",
  stream: "gen_ai.request.stream",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cacheReadTokens: "gen_ai.usage.cache_read.input_tokens",
  finishReasons: "gen_ai.response.finish_reasons",
  // the gateway's own
  requestId: "gateway.request_id",
  channelId: "gateway.channel.id",
} as const;

// The adapter names of lib/relay/providers whose provider has a well-known gen_ai.provider.name;
// the others (ollama, siliconflow, zhipu, ...) are given as their adapter's name.
const PROVIDER_NAMES: Record<string, string> = {
  openai: "openai",
  azure: "azure.ai.openai",
  anthropic: "anthropic",
  gemini: "gcp.gemini",
  vertex: "gcp.vertex_ai",
  bedrock: "aws.bedrock",
  cohere: "cohere",
  deepseek: "deepseek",
  mistral: "mistral_ai",
  perplexity: "perplexity",
  xai: "x_ai",
};

export function providerName(adapter: string): string {
  return Object.hasOwn(PROVIDER_NAMES, adapter) ? PROVIDER_NAMES[adapter] : adapter;
}

export const DEFAULT_SERVICE_NAME = "ai-gateway";

type Api = typeof import("@opentelemetry/api");
type SdkTrace = typeof import("@opentelemetry/sdk-trace");

function samplerOf(sdk: SdkTrace, kind: SamplerKind, ratio: number): Sampler {
  switch (kind) {
    case "always_on":
      return new sdk.AlwaysOnSampler();
    case "always_off":
      return new sdk.AlwaysOffSampler();
    case "traceidratio":
      return new sdk.TraceIdRatioBasedSampler(ratio);
    case "parentbased_always_on":
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() });
    case "parentbased_always_off":
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(ratio) });
  }
}

// Headers of a node request as a propagation carrier: node lower-cases their names.
const getter = {
  keys: (carrier: IncomingMessage["headers"]) => Object.keys(carrier),
  get: (carrier: IncomingMessage["headers"], key: string) => carrier[key],
};

const NO_ATTEMPT: AttemptSpan = { end() {} };
// a span the sampler left out: nothing to record
const NOT_SAMPLED: RelaySpan = {
  request() {},
  user() {},
  attempt: () => NO_ATTEMPT,
  outcome() {},
  error() {},
  end() {},
};

class RelayCallSpan implements RelaySpan {
  private failed = false;
  constructor(
    private readonly api: Api,
    private readonly tracer: Tracer,
    private readonly span: Span,
    private readonly parent: Context,
  ) {}

  request(operation: string, model: string, maxTokens: number | undefined, temperature: number | undefined, stream: boolean): void {
    const s = this.span;
    s.updateName(`${operation} ${model}`);
    s.setAttribute(ATTR.operation, operation);
    s.setAttribute(ATTR.requestModel, model);
    s.setAttribute(ATTR.stream, stream);
    if (maxTokens !== undefined) s.setAttribute(ATTR.maxTokens, maxTokens);
    if (temperature !== undefined) s.setAttribute(ATTR.temperature, temperature);
  }

  user(userId: number): void {
    this.span.setAttribute(ATTR.userId, String(userId));
  }

  attempt(channelId: number, provider: string | undefined, model: string): AttemptSpan {
    const attributes: Attributes = { [ATTR.channelId]: channelId, [ATTR.requestModel]: model };
    if (provider) attributes[ATTR.provider] = providerName(provider);
    const child = this.tracer.startSpan(`upstream ${model}`, { kind: this.api.SpanKind.CLIENT, attributes }, this.api.trace.setSpan(this.parent, this.span));
    const api = this.api;
    return {
      end(status: number, errorType: string | undefined) {
        if (status > 0) child.setAttribute(ATTR.httpStatus, status);
        if (errorType) {
          child.setAttribute(ATTR.errorType, errorType);
          child.setStatus({ code: api.SpanStatusCode.ERROR });
        }
        child.end();
      },
    };
  }

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
  ): void {
    const s = this.span;
    s.setAttribute(ATTR.channelId, channelId);
    if (provider) {
      const name = providerName(provider);
      s.setAttribute(ATTR.provider, name);
      s.setAttribute(ATTR.system, name);
    }
    s.setAttribute(ATTR.responseModel, responseModel || model);
    s.setAttribute(ATTR.inputTokens, inputTokens);
    s.setAttribute(ATTR.outputTokens, outputTokens);
    if (cachedTokens > 0) s.setAttribute(ATTR.cacheReadTokens, cachedTokens);
    if (finishReasons && finishReasons.length > 0) s.setAttribute(ATTR.finishReasons, finishReasons.slice());
    if (errorType) this.error(errorType);
  }

  error(errorType: string): void {
    this.failed = true;
    this.span.setAttribute(ATTR.errorType, errorType);
  }

  end(status: number): void {
    const s = this.span;
    s.setAttribute(ATTR.httpStatus, status);
    if (status >= 500 && !this.failed) s.setAttribute(ATTR.errorType, String(status));
    if (status >= 500 || this.failed) s.setStatus({ code: this.api.SpanStatusCode.ERROR });
    s.end();
  }
}

// The query string is left out of url.path: a Gemini client may send its key as ?key=.
const pathOf = (url: string | undefined) => {
  const u = url ?? "/";
  const q = u.indexOf("?");
  return q === -1 ? u : u.slice(0, q);
};

export async function createTracing(serviceVersion: string): Promise<Tracing> {
  const config = tracingConfig(process.env);
  const [api, core, sdk, resources, exporters] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/core"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/resources"),
    config.protocol === "http/json" ? import("@opentelemetry/exporter-trace-otlp-http") : import("@opentelemetry/exporter-trace-otlp-proto"),
  ]);
  // the SDK's own complaints (an export that failed, a bad URL) go to the server log
  api.diag.setLogger(
    {
      error: (message: string) => log.error({ detail: message }, "OpenTelemetry"),
      warn: (message: string) => log.warn({ detail: message }, "OpenTelemetry"),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    api.DiagLogLevel.WARN,
  );
  // ours first, then OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME over it
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ [ATTR.serviceName]: DEFAULT_SERVICE_NAME, [ATTR.serviceVersion]: serviceVersion }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  // the exporter reads its endpoint, headers, timeout, compression and certificates from OTEL_EXPORTER_OTLP_*
  const exporter = new exporters.OTLPTraceExporter();
  const provider = new sdk.TracerProvider({
    resource,
    sampler: samplerOf(sdk, config.sampler, config.ratio),
    spanLimits: { attributeValueLengthLimit: config.attributeValueLengthLimit },
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: config.scheduledDelayMillis,
        exportTimeoutMillis: config.exportTimeoutMillis,
        maxQueueSize: config.maxQueueSize,
        maxExportBatchSize: config.maxExportBatchSize,
      }),
    ],
  });
  const tracer = provider.getTracer(DEFAULT_SERVICE_NAME, serviceVersion);
  const propagator = new core.W3CTraceContextPropagator();
  const SERVER = api.SpanKind.SERVER;
  const ROOT = api.ROOT_CONTEXT;

  // console spans waiting for route()'s note, by the slot written into their request
  const open = new Map<string, { span: Span; method: string }>();
  let slots = 0;
  setConsoleNote((slot, pathname, params, userId) => {
    const o = slot === null ? undefined : open.get(slot);
    if (!o) return;
    const route = routeOf(pathname, params);
    o.span.setAttribute(ATTR.httpRoute, route);
    o.span.updateName(`${o.method} ${route}`);
    if (userId !== undefined) o.span.setAttribute(ATTR.userId, String(userId));
  });

  log.info(
    { protocol: config.protocol, sampler: config.sampler, ratio: config.ratio, service: String(resource.attributes[ATTR.serviceName] ?? "") },
    "tracing on: spans are exported over OTLP/HTTP",
  );

  return {
    relay(req: IncomingMessage, requestId: string): RelaySpan {
      const parent = propagator.extract(ROOT, req.headers, getter);
      const method = req.method ?? "GET";
      const span = tracer.startSpan(
        `${method} relay`,
        { kind: SERVER, attributes: { [ATTR.httpMethod]: method, [ATTR.urlPath]: pathOf(req.url), [ATTR.requestId]: requestId } },
        parent,
      );
      if (!span.isRecording()) return NOT_SAMPLED;
      return new RelayCallSpan(api, tracer, span, parent);
    },

    console(req: IncomingMessage, res: ServerResponse, requestId: string): void {
      const parent = propagator.extract(ROOT, req.headers, getter);
      const method = req.method ?? "GET";
      const span = tracer.startSpan(
        method,
        { kind: SERVER, attributes: { [ATTR.httpMethod]: method, [ATTR.urlPath]: pathOf(req.url), [ATTR.requestId]: requestId } },
        parent,
      );
      if (!span.isRecording()) {
        delete req.headers[TRACE_SLOT_HEADER];
        return;
      }
      const slot = String(++slots);
      req.headers[TRACE_SLOT_HEADER] = slot;
      open.set(slot, { span, method });
      res.once("close", () => {
        open.delete(slot);
        const status = res.statusCode;
        span.setAttribute(ATTR.httpStatus, status);
        if (!res.writableFinished) span.setAttribute(ATTR.errorType, "client_closed");
        else if (status >= 500) span.setAttribute(ATTR.errorType, String(status));
        if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.end();
      });
    },

    async shutdown(): Promise<void> {
      setConsoleNote(undefined);
      await provider.shutdown();
      api.diag.disable();
    },
  };
}
