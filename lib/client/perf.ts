// The performance tab, the channel list's columns, the status page and the pricing badges
// (docs/performance.md): the rows of /api/perf/* and /api/status/models and what the console
// makes of them. Pure; the browser loads it.
export type PerfRow = {
  created_at: number;
  model_name?: string;
  channel_id?: number;
  /** the channel's name, in /api/perf/channels (none once the channel is deleted) */
  channel_name?: string;
  calls: number;
  successes: number;
  success_rate: number | null;
  ttft_p50_ms: number | null;
  ttft_p95_ms: number | null;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  output_tps: number | null;
};

export type StatusWindow = { calls: number; success_rate: number | null; ttft_p50_ms: number | null; latency_p50_ms: number | null };
export type StatusModels = { group: string; updated_at: number; models: { model_name: string; day: StatusWindow; week: StatusWindow }[] };

export const STATUS_MODELS_PATH = "/api/status/models";

export type PerfMetric = "success_rate" | "ttft_p50_ms" | "ttft_p95_ms" | "latency_p50_ms" | "output_tps";
export const PERF_CHART_METRICS: PerfMetric[] = ["success_rate", "ttft_p50_ms", "latency_p50_ms", "output_tps"];

/** Hourly rows up to this many days, day rows past it (the API's own limit is 32). */
export const PERF_HOURLY_DAYS = 2;
export const PERF_PRESETS = [
  { key: "24h", seconds: 86_400 },
  { key: "7d", seconds: 7 * 86_400 },
  { key: "30d", seconds: 30 * 86_400 },
] as const;
export type PerfPresetKey = (typeof PERF_PRESETS)[number]["key"];

export const keyOf = (r: PerfRow): string => (r.model_name !== undefined ? r.model_name : `#${r.channel_id ?? 0}`);
/** What the tab shows for a row: the model, or the channel's name and id. */
export const labelOf = (r: PerfRow): string => (r.model_name !== undefined ? r.model_name : r.channel_name ? `${r.channel_name} #${r.channel_id}` : keyOf(r));

/** The keys with the most calls first (the charts show the first few). */
export function topKeys(totals: PerfRow[], n: number): string[] {
  return [...totals]
    .sort((a, b) => b.calls - a.calls || keyOf(a).localeCompare(keyOf(b)))
    .slice(0, n)
    .map(keyOf);
}

export type PerfPoint = { t: number; [slot: string]: number | null };

/** Rows per bucket into chart points: one slot ("s0".."sN") per key of `keys`, null where it had no calls. */
export function perfPoints(rows: PerfRow[], keys: string[], metric: PerfMetric): PerfPoint[] {
  const slot = new Map(keys.map((k, i) => [k, `s${i}`]));
  const byT = new Map<number, PerfPoint>();
  for (const r of rows) {
    const s = slot.get(keyOf(r));
    if (!s) continue;
    let p = byT.get(r.created_at);
    if (!p) {
      p = { t: r.created_at };
      for (const v of slot.values()) p[v] = null;
      byT.set(r.created_at, p);
    }
    const v = r[metric];
    p[s] = v === null ? null : metric === "success_rate" ? Math.round(v * 10_000) / 100 : v;
  }
  return [...byT.values()].sort((a, b) => a.t - b.t);
}

/** A success rate as a percentage with one decimal ("—" without calls). */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return "—";
  return `${(Math.floor(rate * 1000) / 10).toFixed(1)}%`;
}

/** A time in ms: "850 ms", "1.24 s" ("—" without a value). */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** The colour of an availability badge: green from 99%, yellow from 95%, red below, grey without calls. */
export function rateColor(rate: number | null | undefined): "green" | "yellow" | "red" | "gray" {
  if (rate === null || rate === undefined) return "gray";
  return rate >= 0.99 ? "green" : rate >= 0.95 ? "yellow" : "red";
}
