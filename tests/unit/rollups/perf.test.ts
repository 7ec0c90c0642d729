// The performance buckets' pure parts (docs/performance.md): the sketch's text form, its error
// and its merge; what a log row counts for; the fold into hour and day buckets; the hours and
// days that cover a range; the console's formatting.
import { describe, expect, it } from "vitest";
import { DDSketch } from "@datadog/sketches-js";
import { PerfSketch, RELATIVE_ACCURACY } from "@/lib/rollups/perf-sketch";
import { foldRows, outcomeOf } from "@/lib/rollups/perf";
import { perfSpans } from "@/lib/rollups/perf-read";
import { formatMs, formatRate, perfPoints, rateColor, topKeys, type PerfRow } from "@/lib/client/perf";

let seed = 3;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
const exact = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];

describe("the sketch", () => {
  it("answers every quantile within 1% of the exact value, through its text form", () => {
    const values = Array.from({ length: 2000 }, () => Math.round(20 + rnd() * rnd() * 20_000));
    const s = new PerfSketch();
    values.forEach((v) => s.add(v));
    const back = PerfSketch.fromText(s.toText());
    expect(back.count).toBe(2000);
    expect(back.toText()).toBe(s.toText());
    for (const q of [0, 0.1, 0.5, 0.9, 0.95, 0.99, 1]) {
      const want = exact(values, q);
      expect(Math.abs((back.quantile(q) as number) - want)).toBeLessThanOrEqual(want * RELATIVE_ACCURACY);
    }
  });

  it("holds the bins of the library's DDSketch and answers its quantiles", () => {
    const values = Array.from({ length: 700 }, () => Math.round(1 + rnd() * rnd() * 90_000));
    const lib = new DDSketch({ relativeAccuracy: RELATIVE_ACCURACY });
    const s = new PerfSketch();
    for (const v of values) {
      lib.accept(v);
      s.add(v);
    }
    const st = lib.store;
    const parts: string[] = [];
    for (let k = st.minKey; k <= st.maxKey; k++) parts.push(st.bins[k - st.offset] ? String(st.bins[k - st.offset]) : "");
    expect(s.toText()).toBe(`${st.minKey}:${parts.join(",")}`);
    for (const q of [0, 0.25, 0.5, 0.95, 0.99, 1]) expect(s.quantile(q)).toBe(lib.getValueAtQuantile(q));
  });

  it("merges: two halves' sketches are the sketch of the whole", () => {
    const a = new PerfSketch();
    const b = new PerfSketch();
    const all = new PerfSketch();
    for (let i = 0; i < 500; i++) {
      const v = Math.round(1 + rnd() * 5000);
      (i % 2 ? a : b).add(v);
      all.add(v);
    }
    const m = PerfSketch.fromText(a.toText());
    m.addText(b.toText());
    expect(m.toText()).toBe(all.toText());
    const n = new PerfSketch();
    n.merge(a);
    n.merge(b);
    expect(n.toText()).toBe(all.toText());
  });

  it("is empty text without values, and clamps times below 1 ms", () => {
    expect(new PerfSketch().toText()).toBe("");
    expect(new PerfSketch().quantile(0.5)).toBeNull();
    const s = new PerfSketch();
    s.add(0);
    expect(Math.abs((s.quantile(0.5) as number) - 1)).toBeLessThanOrEqual(0.01);
  });
});

const row = (o: Record<string, unknown>) =>
  Object.assign({ t: 7200 + 5, ty: 2, g: "default", m: "m1", c: 3, ct: 100, st: 1, l: 1000, f: 200, sc: 200, et: null }, o);

describe("what a log row counts for", () => {
  it("a success, a failure, or nothing", () => {
    expect(outcomeOf(row({}))).toEqual({ success: true, ttft: 200, latency: 1000, tokens: 100 });
    // a whole answer has no TTFT
    expect(outcomeOf(row({ st: 0 }))?.ttft).toBe(0);
    expect(outcomeOf(row({ st: false }))?.ttft).toBe(0);
    // a stream that broke after its first byte
    expect(outcomeOf(row({ sc: 502 }))?.success).toBe(false);
    expect(outcomeOf(row({ ty: 6, sc: 500 }))?.success).toBe(false);
    expect(outcomeOf(row({ ty: 6, sc: 429 }))?.success).toBe(false);
    // the request's fault, a billing failure: not counted
    expect(outcomeOf(row({ ty: 6, sc: 400 }))).toBeNull();
    expect(outcomeOf(row({ ty: 6, sc: "422" }))).toBeNull();
    expect(outcomeOf(row({ ty: 6, sc: 200, et: "billing_error" }))).toBeNull();
  });

  it("folds into hour and day buckets per model and per channel", () => {
    const f = foldRows(
      [row({}), row({ t: 7200 + 3599, l: 3000, f: 1000 }), row({ ty: 6, sc: 500 }), row({ t: 86_400 + 10, m: "m2", c: 4 }), row({ ty: 6, sc: 400 })],
      [3600, 86_400],
    );
    const h = f.model.get("3600|7200")!.get("default\u0000m1")!;
    expect([h.calls, h.successes, h.gen_tokens, h.gen_ms]).toEqual([3, 2, 200, 800 + 2000]);
    expect(h.ttft.count).toBe(2);
    expect(h.latency.count).toBe(2);
    const d = f.model.get("86400|0")!.get("default\u0000m1")!;
    expect(d.calls).toBe(3);
    expect(f.model.get("86400|86400")!.get("default\u0000m2")!.calls).toBe(1);
    expect(f.channel.get("86400|0")!.get("3")!.calls).toBe(3);
    expect(f.channel.get("3600|86400")!.get("4")!.successes).toBe(1);
  });
});

describe("the hours and days of a range", () => {
  const H = 3600;
  const D = 86_400;
  it("reads whole days from the day rows and the hours at either end", () => {
    expect(perfSpans(D + 5 * H + 7, 4 * D + 2 * H + 59)).toEqual({
      hours: [
        [D + 5 * H, 2 * D - H],
        [4 * D, 4 * D + 2 * H],
      ],
      days: [2 * D, 3 * D],
    });
    expect(perfSpans(D, 3 * D - 1)).toEqual({ hours: [], days: [D, 2 * D] });
    expect(perfSpans(D + H, D + 5 * H)).toEqual({ hours: [[D + H, D + 5 * H]], days: null });
  });
});

describe("the console's figures", () => {
  it("formats and charts", () => {
    expect(formatRate(220 / 260)).toBe("84.6%");
    expect(formatRate(1)).toBe("100.0%");
    expect(formatRate(0.9999)).toBe("99.9%");
    expect(formatRate(null)).toBe("—");
    expect(formatMs(850)).toBe("850 ms");
    expect(formatMs(1240)).toBe("1.24 s");
    expect(rateColor(0.995)).toBe("green");
    expect(rateColor(0.96)).toBe("yellow");
    expect(rateColor(0.5)).toBe("red");
    expect(rateColor(null)).toBe("gray");
    const r = (t: number, m: string, calls: number, rate: number): PerfRow => ({
      created_at: t,
      model_name: m,
      calls,
      successes: Math.round(calls * rate),
      success_rate: rate,
      ttft_p50_ms: 100,
      ttft_p95_ms: 200,
      latency_p50_ms: 300,
      latency_p95_ms: 400,
      output_tps: 50,
    });
    expect(topKeys([r(0, "a", 5, 1), r(0, "b", 9, 1), r(0, "c", 9, 1)], 2)).toEqual(["b", "c"]);
    expect(perfPoints([r(0, "a", 5, 0.5), r(3600, "b", 9, 1)], ["a", "b"], "success_rate")).toEqual([
      { t: 0, s0: 50, s1: null },
      { t: 3600, s0: null, s1: 100 },
    ]);
  });
});
