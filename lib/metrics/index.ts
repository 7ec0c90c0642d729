// The process's Prometheus metrics (prom-client), served by GET /metrics (lib/ops/endpoints.ts,
// docs/operations.md). Every metric is created once, when this module loads; the relay's hot
// path only increments children fetched from small caches keyed by the label values it
// already holds (Map lookups: no label string is built per call, no object is made per call
// once a route, model and channel have been seen). Queue depths are read at scrape time.
// This folder imports nothing of lib/: the relay, billing and logs import it.
import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

// How a relay call ended (the `outcome` label), by index so that the hot path passes a number.
export const OUTCOME = { success: 0, interrupted: 1, upstream_error: 2, client_closed: 3, rejected: 4, error: 5 } as const;
const OUTCOME_NAMES = ["success", "interrupted", "upstream_error", "client_closed", "rejected", "error"] as const;
export type OutcomeIndex = (typeof OUTCOME)[keyof typeof OUTCOME];

type CounterChild = ReturnType<Counter<string>["labels"]>;
type HistogramChild = ReturnType<Histogram<string>["labels"]>;

// Seconds. The added latency of a gateway is well under a millisecond to a few ms; upstream
// calls and first bytes take from milliseconds to minutes.
const ADDED_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const COMMIT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

// The children of one relay route (`route` label), made on the route's first call.
class RouteMetrics {
  readonly added: HistogramChild;
  readonly upstream: HistogramChild;
  readonly ttfb: HistogramChild;
  // model → channel id → one counter child per outcome (filled on first use)
  private readonly byModel = new Map<string, Map<number, (CounterChild | undefined)[]>>();

  constructor(
    private readonly m: Metrics,
    private readonly route: string,
  ) {
    this.added = m.addedLatency.labels(route);
    this.upstream = m.upstreamLatency.labels(route);
    this.ttfb = m.ttfb.labels(route);
  }

  request(model: string, channelId: number, outcome: OutcomeIndex): CounterChild {
    let channels = this.byModel.get(model);
    if (!channels) this.byModel.set(model, (channels = new Map()));
    let outcomes = channels.get(channelId);
    if (!outcomes) channels.set(channelId, (outcomes = []));
    return (outcomes[outcome] ??= this.m.requests.labels(this.route, model, channelId ? String(channelId) : "", OUTCOME_NAMES[outcome]));
  }
}

class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: "gateway_relay_requests_total",
    help: "Relay calls (chat, pass-through and embeddings endpoints) by route, served model, last channel tried and outcome.",
    labelNames: ["route", "model", "channel", "outcome"] as const,
    registers: [this.registry],
  });
  readonly addedLatency = new Histogram({
    name: "gateway_relay_added_latency_seconds",
    help: "Time a relay call spent in the gateway itself (authentication, parsing, channel choice, reservation wait, retries' gaps): the call's time up to its final outcome minus the time of its upstream attempts.",
    labelNames: ["route"] as const,
    buckets: ADDED_BUCKETS,
    registers: [this.registry],
  });
  readonly upstreamLatency = new Histogram({
    name: "gateway_relay_upstream_latency_seconds",
    help: "Duration of each upstream attempt, from the request sent to the answer fully relayed (a stream's whole length).",
    labelNames: ["route"] as const,
    buckets: UPSTREAM_BUCKETS,
    registers: [this.registry],
  });
  readonly ttfb = new Histogram({
    name: "gateway_relay_time_to_first_byte_seconds",
    help: "From a relay call's arrival to the first byte of its answer written to the client (calls that answered).",
    labelNames: ["route"] as const,
    buckets: UPSTREAM_BUCKETS,
    registers: [this.registry],
  });
  readonly streamsOpen = new Gauge({
    name: "gateway_relay_streams_open",
    help: "Streaming relay calls in progress.",
    registers: [this.registry],
  });
  readonly tokens = new Counter({
    name: "gateway_relay_tokens_total",
    help: "Tokens of settled relay calls, by type (prompt, completion), as reported by the upstream or estimated.",
    labelNames: ["type"] as const,
    registers: [this.registry],
  });
  readonly promptTokens = this.tokens.labels("prompt");
  readonly completionTokens = this.tokens.labels("completion");
  readonly quotaCharged = new Counter({
    name: "gateway_relay_quota_charged_total",
    help: "Quota units charged by settled relay calls (500000 units = 1 USD).",
    registers: [this.registry],
  });
  readonly retries = new Counter({
    name: "gateway_relay_retries_total",
    help: "Upstream attempts beyond the first of each relay call.",
    registers: [this.registry],
  });
  readonly billingCommit = new Histogram({
    name: "gateway_billing_commit_seconds",
    help: "Duration of one commit of a batch of quota movements on SQLite, waiting for the connection included (the PostgreSQL store commits each movement in its own transaction and is not timed).",
    buckets: COMMIT_BUCKETS,
    registers: [this.registry],
  });
  readonly logBatchCommit = new Histogram({
    name: "gateway_log_batch_commit_seconds",
    help: "Duration of one batch insert of usage-log rows.",
    buckets: COMMIT_BUCKETS,
    registers: [this.registry],
  });
  private readonly routes = new Map<string, RouteMetrics>();
  // read at scrape time (setQueueDepthSources)
  billingQueueDepth: () => number = () => 0;
  logQueueDepth: () => number = () => 0;

  constructor() {
    const billing: Gauge = new Gauge({
      name: "gateway_billing_queue_depth",
      help: "Quota movements (reservations, settlements, refunds) waiting for their commit: queued for the next batch on SQLite, in their own transaction on PostgreSQL.",
      registers: [this.registry],
      collect: (): void => billing.set(this.billingQueueDepth()),
    });
    const logs: Gauge = new Gauge({
      name: "gateway_log_queue_depth",
      help: "Usage-log rows waiting to be written in a batch.",
      registers: [this.registry],
      collect: (): void => logs.set(this.logQueueDepth()),
    });
  }

  // process_* and nodejs_* (event-loop lag, heap, GC, handles), unprefixed as usual. Only
  // when /metrics is on: the event-loop monitor and the GC observer cost a little on every
  // turn and every collection, for nobody when nothing scrapes.
  private processMetrics = false;
  collectProcessMetrics(): void {
    if (this.processMetrics) return;
    this.processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }

  route(name: string): RouteMetrics {
    let r = this.routes.get(name);
    if (!r) this.routes.set(name, (r = new RouteMetrics(this, name)));
    return r;
  }
}

// One set per process, shared by server.ts's bundle and Next's module graph.
const holder = globalThis as unknown as { __gatewayMetrics?: Metrics };
export function metrics(): Metrics {
  holder.__gatewayMetrics ??= new Metrics();
  return holder.__gatewayMetrics;
}

export function setQueueDepthSources(sources: { billing?: () => number; logs?: () => number }): void {
  const m = metrics();
  if (sources.billing) m.billingQueueDepth = sources.billing;
  if (sources.logs) m.logQueueDepth = sources.logs;
}
