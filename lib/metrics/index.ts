// The process's Prometheus metrics, served by GET /metrics (lib/ops/endpoints.ts,
// docs/operations.md). What the relay updates on every call is kept in plain numbers: each
// series is an object made once, the first time its labels are seen, found again through
// small maps keyed by the values the relay already holds (route name, model, channel id,
// outcome index), and updated by a field increment. prom-client's own children hash their
// label values into a string and return a new object on every inc() and observe() (about
// 0.8 µs each, measured here); these families are rendered by prom-client's registry only
// when scraped (their get() is what Registry.metrics() reads). Queue depths are read at
// scrape time; per-batch timings and the process metrics use prom-client directly.
// This folder imports nothing of lib/: the relay, billing and logs import it.
import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from "prom-client";

// How a relay call ended (the `outcome` label), by index so that the hot path passes a number.
export const OUTCOME = { success: 0, interrupted: 1, upstream_error: 2, client_closed: 3, rejected: 4, error: 5 } as const;
const OUTCOME_NAMES = ["success", "interrupted", "upstream_error", "client_closed", "rejected", "error"] as const;
export type OutcomeIndex = (typeof OUTCOME)[keyof typeof OUTCOME];

// Seconds. The added latency of a gateway is well under a millisecond to a few ms; upstream
// calls and first bytes take from milliseconds to minutes.
const ADDED_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const COMMIT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

type Labels = Record<string, string>;

// A channel's status changed by the gateway itself (the `change` label of
// gateway_channel_status_changes_total).
export type ChannelStatusChange = "auto_disabled" | "auto_enabled";

// One database connection pool as seen at scrape time (PostgreSQL: node-postgres' Pool counts).
export type DbPoolStats = { pool: string; total: number; idle: number; waiting: number; max: number };
type Sample = { metricName?: string; labels: Record<string, string | number>; value: number };

// One counter or gauge series: `value` is what the hot path changes.
export class Series {
  value = 0;
  constructor(readonly labels: Labels) {}
  inc(by = 1): void {
    this.value += by;
  }
  dec(by = 1): void {
    this.value -= by;
  }
}

// One histogram series: a count per bucket (not cumulative: made cumulative when rendered).
export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(v: number): void {
    this.sum += v;
    this.count++;
    const b = this.bounds;
    for (let i = 0; i < b.length; i++) {
      if (v <= b[i]) {
        this.counts[i]++;
        return;
      }
    }
  }
}

// A metric family in the shape prom-client's Registry renders (name, help, type, get()).
abstract class Family {
  readonly aggregator = "sum";
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: "counter" | "gauge" | "histogram",
  ) {}
  protected abstract samples(): Sample[];
  async get() {
    return { name: this.name, help: this.help, type: this.type, values: this.samples(), aggregator: this.aggregator };
  }
}

class ValueFamily extends Family {
  private readonly all: Series[] = [];
  series(labels: Labels = {}): Series {
    const s = new Series(labels);
    this.all.push(s);
    return s;
  }
  protected samples(): Sample[] {
    return this.all.map((s) => ({ labels: s.labels, value: s.value }));
  }
}

class HistogramFamily extends Family {
  private readonly all: HistogramSeries[] = [];
  constructor(
    name: string,
    help: string,
    private readonly bounds: readonly number[],
  ) {
    super(name, help, "histogram");
  }
  series(labels: Labels = {}): HistogramSeries {
    const s = new HistogramSeries(labels, this.bounds);
    this.all.push(s);
    return s;
  }
  protected samples(): Sample[] {
    const out: Sample[] = [];
    for (const s of this.all) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += s.counts[i];
        out.push({ metricName: `${this.name}_bucket`, labels: Object.assign({}, s.labels, { le: this.bounds[i] }), value: cumulative });
      }
      out.push({ metricName: `${this.name}_bucket`, labels: Object.assign({}, s.labels, { le: "+Inf" }), value: s.count });
      out.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      out.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return out;
  }
}

// The series of one relay route (`route` label), made on the route's first call.
class RouteMetrics {
  readonly added: HistogramSeries;
  readonly upstream: HistogramSeries;
  readonly ttfb: HistogramSeries;
  // model → channel id → one series per outcome (filled on first use)
  private readonly byModel = new Map<string, Map<number, (Series | undefined)[]>>();

  constructor(
    private readonly m: Metrics,
    private readonly route: string,
  ) {
    this.added = m.addedLatency.series({ route });
    this.upstream = m.upstreamLatency.series({ route });
    this.ttfb = m.ttfb.series({ route });
  }

  request(model: string, channelId: number, outcome: OutcomeIndex): Series {
    let channels = this.byModel.get(model);
    if (!channels) this.byModel.set(model, (channels = new Map()));
    let outcomes = channels.get(channelId);
    if (!outcomes) channels.set(channelId, (outcomes = []));
    return (outcomes[outcome] ??= this.m.requests.series({
      route: this.route,
      model,
      channel: channelId ? String(channelId) : "",
      outcome: OUTCOME_NAMES[outcome],
    }));
  }
}

class Metrics {
  readonly registry = new Registry();
  readonly requests = this.register(
    new ValueFamily(
      "gateway_relay_requests_total",
      "Relay calls (chat, pass-through and embeddings endpoints, and task submits as route task-mj, task-suno, task-video) by route, served model, last channel tried and outcome.",
      "counter",
    ),
  );
  readonly addedLatency = this.register(
    new HistogramFamily(
      "gateway_relay_added_latency_seconds",
      "Time a relay call spent in the gateway itself (authentication, parsing, channel choice, reservation wait, retries' gaps): the call's time up to its final outcome minus the time of its upstream attempts.",
      ADDED_BUCKETS,
    ),
  );
  readonly upstreamLatency = this.register(
    new HistogramFamily(
      "gateway_relay_upstream_latency_seconds",
      "Duration of each upstream attempt, from the request sent to the answer fully relayed (a stream's whole length).",
      UPSTREAM_BUCKETS,
    ),
  );
  readonly ttfb = this.register(
    new HistogramFamily(
      "gateway_relay_time_to_first_byte_seconds",
      "From a relay call's arrival to the first byte of its answer written to the client (calls that answered).",
      UPSTREAM_BUCKETS,
    ),
  );
  readonly streamsOpen = this.register(new ValueFamily("gateway_relay_streams_open", "Streaming relay calls in progress.", "gauge")).series();
  private readonly tokens = this.register(
    new ValueFamily(
      "gateway_relay_tokens_total",
      "Tokens of settled relay calls, by type (prompt, completion), as reported by the upstream or estimated.",
      "counter",
    ),
  );
  readonly promptTokens = this.tokens.series({ type: "prompt" });
  readonly completionTokens = this.tokens.series({ type: "completion" });
  readonly quotaCharged = this.register(
    new ValueFamily("gateway_relay_quota_charged_total", "Quota units charged by settled relay calls (500000 units = 1 USD).", "counter"),
  ).series();
  readonly retries = this.register(
    new ValueFamily("gateway_relay_retries_total", "Upstream attempts beyond the first of each relay call.", "counter"),
  ).series();
  readonly billingCommit = new Histogram({
    name: "gateway_billing_commit_seconds",
    help: "Duration of one commit of quota movements, waiting for the connection included: a batch on SQLite, one movement's transaction on PostgreSQL.",
    buckets: COMMIT_BUCKETS,
    registers: [this.registry],
  });
  readonly logBatchCommit = new Histogram({
    name: "gateway_log_batch_commit_seconds",
    help: "Duration of one batch insert of usage-log rows.",
    buckets: COMMIT_BUCKETS,
    registers: [this.registry],
  });
  // Rare events (a channel's status changed by the gateway): prom-client's own labelled counter.
  readonly channelStatusChanges = new Counter({
    name: "gateway_channel_status_changes_total",
    help: "Channel status changes made by the gateway itself, by channel id and change (auto_disabled: the relay's failure count or an error keyword, or a failed channel test; auto_enabled: a passed channel test).",
    labelNames: ["channel", "change"] as const,
    registers: [this.registry],
  });
  private readonly routes = new Map<string, RouteMetrics>();
  // read at scrape time (setQueueDepthSources, setDbPoolSource)
  billingQueueDepth: () => number = () => 0;
  logQueueDepth: () => number = () => 0;
  dbPools: () => DbPoolStats[] = () => [];

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
    // Database pools, read at scrape time: one series per pool (none on SQLite, which has one
    // shared connection and no pool; docs/operations.md).
    const poolGauge = (name: string, help: string, read: (p: DbPoolStats) => number) => {
      const g: Gauge<"pool"> = new Gauge({
        name,
        help,
        labelNames: ["pool"] as const,
        registers: [this.registry],
        collect: (): void => {
          g.reset();
          for (const p of this.dbPools()) g.set({ pool: p.pool }, read(p));
        },
      });
    };
    poolGauge("gateway_db_pool_connections", "Open connections of a PostgreSQL pool (busy and idle).", (p) => p.total);
    poolGauge("gateway_db_pool_idle_connections", "Idle connections of a PostgreSQL pool.", (p) => p.idle);
    poolGauge(
      "gateway_db_pool_waiting_requests",
      "Queries waiting for a connection of a PostgreSQL pool (all its connections busy and at its maximum).",
      (p) => p.waiting,
    );
    poolGauge("gateway_db_pool_max_connections", "The most connections a PostgreSQL pool opens.", (p) => p.max);
  }

  channelStatusChanged(channelId: number, change: ChannelStatusChange): void {
    this.channelStatusChanges.inc({ channel: String(channelId), change });
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

  private register<F extends Family>(family: F): F {
    // a Family has what the registry reads of a metric: name, help, type, get()
    this.registry.registerMetric(family as unknown as Metric);
    return family;
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

export function setDbPoolSource(read: () => DbPoolStats[]): void {
  metrics().dbPools = read;
}
