// lib/metrics: the relay's series are made once per label set and rendered by prom-client's
// registry as Prometheus text (histogram buckets cumulative, +Inf equal to the count).
import { describe, expect, it } from "vitest";
import { metrics, OUTCOME } from "@/lib/metrics";

describe("relay metrics", () => {
  it("returns the same series for the same labels, and a new one for new labels", () => {
    const r = metrics().route("unit-route");
    expect(metrics().route("unit-route")).toBe(r);
    const a = r.request("m", 7, OUTCOME.success);
    expect(r.request("m", 7, OUTCOME.success)).toBe(a);
    expect(r.request("m", 7, OUTCOME.rejected)).not.toBe(a);
    expect(r.request("m", 8, OUTCOME.success)).not.toBe(a);
    expect(r.request("n", 7, OUTCOME.success)).not.toBe(a);
    expect(a.labels).toEqual({ route: "unit-route", model: "m", channel: "7", outcome: "success" });
    expect(r.request("", 0, OUTCOME.error).labels).toEqual({ route: "unit-route", model: "", channel: "", outcome: "error" });
  });

  it("renders counters and histograms as Prometheus text", async () => {
    const m = metrics();
    const r = m.route("render-route");
    r.request("gpt", 3, OUTCOME.success).inc();
    r.request("gpt", 3, OUTCOME.success).inc();
    for (const v of [0.0004, 0.002, 0.002, 7]) r.added.observe(v);
    m.retries.inc(2);
    const text = await m.registry.metrics();
    expect(text).toContain('gateway_relay_requests_total{route="render-route",model="gpt",channel="3",outcome="success"} 2\n');
    expect(text).toMatch(/^# TYPE gateway_relay_added_latency_seconds histogram$/m);
    const bucket = (le: string) =>
      Number(new RegExp(`^gateway_relay_added_latency_seconds_bucket\\{route="render-route",le="${le.replace("+", "\\+")}"\\} (\\S+)$`, "m").exec(text)?.[1]);
    expect(bucket("0.0005")).toBe(1);
    expect(bucket("0.001")).toBe(1);
    expect(bucket("0.0025")).toBe(3);
    expect(bucket("2.5")).toBe(3);
    expect(bucket("+Inf")).toBe(4);
    expect(text).toMatch(/^gateway_relay_added_latency_seconds_count\{route="render-route"\} 4$/m);
    expect(text).toMatch(/^gateway_relay_added_latency_seconds_sum\{route="render-route"\} 7\.0044/m);
    expect(text).toMatch(/^gateway_relay_retries_total 2$/m);
  });
});
