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
// The values are added with the library's own mapping (below), so the text is the bins of
// the library's DDSketch for the same values (tests/unit/rollups/perf.test.ts compares them).
// Times are whole milliseconds of at least 1, so the sketch never holds zeros or negatives.
import "server-only";
import { DDSketch } from "@datadog/sketches-js";

/** The sketch's relative accuracy: a percentile read is within 1% of the true one. */
export const RELATIVE_ACCURACY = 0.01;

// The library's mapping between a value and its bin (key), and back: the part that makes the
// accuracy guarantee. The bins themselves are kept here as one dense array of counts, since
// readers add thousands of stored sketches per call: parsing the text straight into it costs a
// few microseconds a sketch, where the library's store (which grows by chunks and checks
// each key) cost ten times as much. The quantile is the library's (DenseStore.keyAtRank,
// BaseDDSketch.getValueAtQuantile): the bin where the running count passes q * (n - 1).
const MAPPING = new DDSketch({ relativeAccuracy: RELATIVE_ACCURACY }).mapping;

const COMMA = 44;
const COLON = 58;
const ZERO = 48;

export class PerfSketch {
  private bins: number[] = [];
  private lo = 0; // the key of bins[0]
  count = 0;

  private put(key: number, c: number): void {
    const bins = this.bins;
    if (bins.length === 0) {
      this.lo = key;
      bins.push(c);
    } else if (key < this.lo) {
      const pad: number[] = new Array<number>(this.lo - key).fill(0);
      pad[0] = c;
      this.bins = pad.concat(bins);
      this.lo = key;
    } else {
      const i = key - this.lo;
      while (bins.length <= i) bins.push(0);
      bins[i] += c;
    }
    this.count += c;
  }

  /** One time in ms (at least 1). */
  add(ms: number): void {
    this.put(MAPPING.key(Math.max(1, ms)), 1);
  }

  /** Adds the bins of a stored sketch (its text). */
  addText(text: string): void {
    const n = text.length;
    if (!n) return;
    let i = 0;
    let neg = false;
    if (text.charCodeAt(0) === 45) {
      neg = true;
      i = 1;
    }
    let key = 0;
    for (; i < n; i++) {
      const ch = text.charCodeAt(i);
      if (ch === COLON) break;
      key = key * 10 + (ch - ZERO);
    }
    if (neg) key = -key;
    let c = 0;
    for (i++; i <= n; i++) {
      const ch = i < n ? text.charCodeAt(i) : COMMA;
      if (ch === COMMA) {
        if (c) this.put(key, c);
        c = 0;
        key++;
      } else c = c * 10 + (ch - ZERO);
    }
  }

  merge(other: PerfSketch): void {
    const b = other.bins;
    for (let i = 0; i < b.length; i++) if (b[i]) this.put(other.lo + i, b[i]);
  }

  /** The value at quantile q (0..1) in ms, or null without values. */
  quantile(q: number): number | null {
    if (this.count === 0) return null;
    const rank = q * (this.count - 1);
    let running = 0;
    const b = this.bins;
    for (let i = 0; i < b.length; i++) {
      running += b[i];
      if (running > rank) return MAPPING.value(this.lo + i);
    }
    return MAPPING.value(this.lo + b.length - 1);
  }

  toText(): string {
    if (this.count === 0) return "";
    let first = 0;
    let last = this.bins.length - 1;
    while (!this.bins[first]) first++;
    while (!this.bins[last]) last--;
    const parts: string[] = [];
    for (let i = first; i <= last; i++) parts.push(this.bins[i] ? String(this.bins[i]) : "");
    return `${this.lo + first}:${parts.join(",")}`;
  }

  static fromText(text: string): PerfSketch {
    const p = new PerfSketch();
    p.addText(text);
    return p;
  }
}
