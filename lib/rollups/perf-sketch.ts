// The mergeable quantile sketch of the performance buckets (docs/performance.md, "Percentiles"):
// a DDSketch of @datadog/sketches-js with a relative accuracy of 1%. A value is counted in
// the bin of index ceil(log_γ(v)), γ = (1 + α) / (1 - α); the value read back for a quantile
// is within α = 1% of the value of that rank among the values added, whatever they are, and
// merging two sketches (adding their bins) gives exactly the sketch of all their values. So an
// hour's bins added to another hour's are the sketch of both hours, and a day's row is its
// hours merged, without reading the calls again.
//
// Stored as text: "<first bin index>:<count>,<count>,..." (empty between commas for a zero
// bin; "" for no value). The library's own protobuf form needs protobufjs, which it does not
// ship, and the text is shorter for the few hundred bins that times in milliseconds fill.
// Times are whole milliseconds of at least 1, so the sketch never holds zeros or negatives.
import "server-only";
import { DDSketch } from "@datadog/sketches-js";

/** The sketch's relative accuracy: a percentile read is within 1% of the true one. */
export const RELATIVE_ACCURACY = 0.01;

export class PerfSketch {
  readonly s = new DDSketch({ relativeAccuracy: RELATIVE_ACCURACY });

  get count(): number {
    return this.s.count;
  }

  /** One time in ms (at least 1). */
  add(ms: number): void {
    this.s.accept(Math.max(1, ms));
  }

  /** Adds the bins of a stored sketch (its text). */
  addText(text: string): void {
    if (!text) return;
    const colon = text.indexOf(":");
    let key = Number(text.slice(0, colon));
    const store = this.s.store;
    let start = colon + 1;
    let added = 0;
    for (;;) {
      const comma = text.indexOf(",", start);
      const end = comma < 0 ? text.length : comma;
      if (end > start) {
        const c = Number(text.slice(start, end));
        store.add(key, c);
        added += c;
      }
      if (comma < 0) break;
      start = comma + 1;
      key++;
    }
    this.s.count += added;
  }

  merge(other: PerfSketch): void {
    if (other.count === 0) return;
    const st = other.s.store;
    for (let k = st.minKey; k <= st.maxKey; k++) {
      const c = st.bins[k - st.offset];
      if (c) this.s.store.add(k, c);
    }
    this.s.count += other.count;
  }

  /** The value at quantile q (0..1) in ms, or null without values. */
  quantile(q: number): number | null {
    if (this.s.count === 0) return null;
    return this.s.getValueAtQuantile(q);
  }

  toText(): string {
    if (this.s.count === 0) return "";
    const st = this.s.store;
    const parts: string[] = [];
    for (let k = st.minKey; k <= st.maxKey; k++) {
      const c = st.bins[k - st.offset];
      parts.push(c ? String(c) : "");
    }
    return `${st.minKey}:${parts.join(",")}`;
  }

  static fromText(text: string): PerfSketch {
    const p = new PerfSketch();
    p.addText(text);
    return p;
  }
}
