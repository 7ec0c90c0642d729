// BatchSizer (lib/rollups/store.ts): the SQLite steps of the rollup job and of the retention
// are sized from the time per item to hold the event loop about the budget (docs/dashboard.md).
import { describe, expect, it } from "vitest";
import { BatchSizer } from "@/lib/rollups/store";

describe("BatchSizer", () => {
  it("starts at the first size and moves toward the budget from the measured time per item", () => {
    const s = new BatchSizer({ budgetMs: 20, min: 200, max: 20_000, first: 1_000 });
    expect(s.size).toBe(1_000);
    // 1,000 items in 100 ms: 0.1 ms each, so 200 fit in 20 ms
    s.record(100, 1_000);
    expect(s.size).toBe(200);
    // cheap items: the size grows, but never past max
    for (let i = 0; i < 30; i++) s.record(1, s.size);
    expect(s.size).toBe(20_000);
  });

  it("smooths one slow step instead of jumping to it, and never goes under min", () => {
    const s = new BatchSizer({ budgetMs: 20, min: 100, max: 5_000, first: 500 });
    s.record(10, 500); // 0.02 ms an item: 1,000
    expect(s.size).toBe(1_000);
    s.record(200, 1_000); // one step ten times slower (0.2 ms an item)
    expect(s.size).toBeGreaterThan(100);
    expect(s.size).toBeLessThan(1_000);
    for (let i = 0; i < 30; i++) s.record(10_000, s.size);
    expect(s.size).toBe(100);
  });

  it("ignores a step that did nothing", () => {
    const s = new BatchSizer({ budgetMs: 20, min: 200, max: 20_000, first: 1_000 });
    s.record(5, 0);
    expect(s.size).toBe(1_000);
  });
});
