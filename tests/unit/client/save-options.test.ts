// Saving a settings section: changed keys only, the Enabled chain, secrets, trailing slashes, outcomes; several sections saved together.
import type { OptionKey } from "@/lib/options/registry";
import { describe, expect, it } from "vitest";
import { changedOptions, mergeSaveResults, saveOptions, unsavedValues, type OptionChange, type PutOutcome, type SaveResult } from "@/lib/client/save-options";

const loaded = { A: "1", FooEnabled: "false", BarEnabled: "false", ServerAddress: "https://x.io", SMTPToken: "" };

describe("changedOptions", () => {
  it("returns nothing when nothing changed", () => {
    expect(changedOptions(loaded, { ...loaded }, new Set(["SMTPToken"]))).toEqual([]);
  });
  it("returns only the changed keys, trailing slashes removed", () => {
    expect(changedOptions(loaded, { ...loaded, A: "2", ServerAddress: "https://y.io//" })).toEqual([
      { key: "A", value: "2" },
      { key: "ServerAddress", value: "https://y.io" },
    ]);
    // a trailing slash alone is no change
    expect(changedOptions(loaded, { ...loaded, ServerAddress: "https://x.io/" })).toEqual([]);
    expect(changedOptions({ WorkerUrl: "" }, { WorkerUrl: "https://w.io/" })).toEqual([{ key: "WorkerUrl", value: "https://w.io" }]);
    expect(changedOptions({ PayAddress: "" }, { PayAddress: "https://p.io/" })).toEqual([{ key: "PayAddress", value: "https://p.io" }]);
  });
  it("never resends an empty secret, sends a typed one", () => {
    const secrets = new Set(["SMTPToken"]);
    expect(changedOptions(loaded, { SMTPToken: "" }, secrets)).toEqual([]);
    expect(changedOptions(loaded, { SMTPToken: "s3cret" }, secrets)).toEqual([{ key: "SMTPToken", value: "s3cret" }]);
  });
});

function recorder(fail: Record<string, PutOutcome> = {}) {
  const calls: string[] = [];
  let inFlight = 0;
  let maxChainInFlight = 0;
  const put = async (c: OptionChange): Promise<PutOutcome> => {
    calls.push(c.key);
    const chained = c.key.endsWith("Enabled");
    if (chained) inFlight++;
    maxChainInFlight = Math.max(maxChainInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 5));
    if (chained) inFlight--;
    return fail[c.key] ?? { ok: true };
  };
  return { put, calls, maxChain: () => maxChainInFlight };
}

describe("saveOptions", () => {
  it("makes no request when nothing changed", async () => {
    const r = recorder();
    const res = await saveOptions([], r.put);
    expect(res.outcome).toBe("unchanged");
    expect(res.unchanged).toBe(true);
    expect(r.calls).toEqual([]);
  });

  it("saves Enabled keys one after another, the others in parallel", async () => {
    const r = recorder();
    const res = await saveOptions(
      [
        { key: "AEnabled", value: "true" },
        { key: "X", value: "1" },
        { key: "BEnabled", value: "true" },
        { key: "Y", value: "2" },
        { key: "DefaultCollapseSidebar", value: "true" },
      ],
      r.put,
    );
    expect(res.outcome).toBe("success");
    expect(res.succeeded.sort()).toEqual(["AEnabled", "BEnabled", "DefaultCollapseSidebar", "X", "Y"]);
    expect(r.maxChain()).toBe(1);
    // the chain keeps its order; the parallel keys all start before the chain's second step
    expect(r.calls.indexOf("AEnabled")).toBeLessThan(r.calls.indexOf("BEnabled"));
    expect(r.calls.indexOf("Y")).toBeLessThan(r.calls.indexOf("BEnabled"));
    expect(r.calls.indexOf("DefaultCollapseSidebar")).toBeLessThan(r.calls.indexOf("BEnabled"));
  });

  it("stops the Enabled chain at the first failure and reports a partial failure", async () => {
    const r = recorder({ BEnabled: { ok: false, kind: "refused", message: "no" } });
    const res = await saveOptions(
      [
        { key: "AEnabled", value: "true" },
        { key: "BEnabled", value: "true" },
        { key: "CEnabled", value: "true" },
        { key: "X", value: "1" },
      ],
      r.put,
    );
    expect(r.calls).not.toContain("CEnabled");
    expect(res.skipped).toEqual(["CEnabled"]);
    expect(res.failed).toEqual(["BEnabled"]);
    expect(res.succeeded.sort()).toEqual(["AEnabled", "X"]);
    expect(res.outcome).toBe("partial");
  });

  it("reports a request failure when every request failed", async () => {
    const res = await saveOptions([{ key: "X", value: "1" }], async () => {
      throw new Error("network");
    });
    expect(res.outcome).toBe("failed");
    expect(res.failed).toEqual(["X"]);
  });

  it("reports a refusal of the only key as a partial failure (the server's message is shown too)", async () => {
    const res = await saveOptions([{ key: "X", value: "1" }], async () => ({ ok: false, kind: "refused", message: "bad" }));
    expect(res.outcome).toBe("partial");
  });
});

describe("switching the fallback-pricing form while it stays enabled", () => {
  it("goes through a switch off first and back on last, which the server's rules accept", async () => {
    const { checkOptionValue, checkOptionCombination } = await import("@/lib/options/rules");
    const { isOptionKey } = await import("@/lib/options/registry");
    const stored: Record<string, string> = {
      fallback_pricing_enabled: "true",
      fallback_single_price: "0.5",
      fallback_input_ratio: "",
      fallback_completion_ratio: "",
    };
    const changes = changedOptions(stored, { ...stored, fallback_single_price: "", fallback_input_ratio: "2", fallback_completion_ratio: "3" });
    expect(changes[0]).toEqual({ key: "fallback_single_price", value: "" });
    expect(changes.filter((c) => c.key === "fallback_pricing_enabled").map((c) => c.value)).toEqual(["false", "true"]);
    const order: string[] = [];
    // a stand-in for the server: the same rules, applied against what is already stored
    const put = async (c: OptionChange): Promise<PutOutcome> => {
      order.push(`${c.key}=${c.value}`);
      if (!isOptionKey(c.key)) return { ok: false, kind: "refused" };
      const one = checkOptionValue(c.key, c.value);
      const state = (k: OptionKey) => (k === c.key ? c.value : (stored[k] ?? ""));
      const refusal = one.ok ? checkOptionCombination(c.key, c.value, state) : one;
      if (refusal && !refusal.ok) return { ok: false, kind: "refused" };
      stored[c.key] = c.value;
      return { ok: true };
    };
    const res = await saveOptions(changes, put);
    expect(res.outcome).toBe("success");
    expect(order[0]).toBe("fallback_pricing_enabled=false");
    expect(order[1]).toBe("fallback_single_price=");
    expect(order[order.length - 1]).toBe("fallback_pricing_enabled=true");
    expect(stored).toEqual({ fallback_pricing_enabled: "true", fallback_single_price: "", fallback_input_ratio: "2", fallback_completion_ratio: "3" });
  });
  it("adds no switch when only the switch or other keys change", () => {
    const stored = { fallback_pricing_enabled: "true", fallback_single_price: "0.5", A: "1" };
    expect(changedOptions(stored, { ...stored, A: "2" })).toEqual([{ key: "A", value: "2" }]);
    expect(changedOptions(stored, { ...stored, fallback_pricing_enabled: "false" })).toEqual([{ key: "fallback_pricing_enabled", value: "false" }]);
  });
});

describe("unsavedValues", () => {
  it("keeps the typed values of the failed and unsent keys only", async () => {
    const values = { AEnabled: "true", BEnabled: "true", X: "bad", Y: "good" };
    const res = await saveOptions(
      Object.entries(values).map(([key, value]) => ({ key, value })),
      async (c) => (c.key === "X" || c.key === "AEnabled" ? { ok: false, kind: "refused" } : { ok: true }),
    );
    expect(res.outcome).toBe("partial");
    expect(unsavedValues(res, values)).toEqual({ AEnabled: "true", BEnabled: "true", X: "bad" });
    expect(unsavedValues({ unchanged: false, succeeded: ["Y"], failed: [], skipped: [], outcome: "success" }, values)).toEqual({});
  });
});

describe("mergeSaveResults (the settings page's save bar)", () => {
  const result = (succeeded: string[], failed: string[], outcome: SaveResult["outcome"]): SaveResult => ({
    unchanged: false,
    succeeded,
    failed,
    skipped: [],
    outcome,
  });
  it("is one success when every section saved", () => {
    expect(mergeSaveResults([result(["A"], [], "success"), result(["B", "C"], [], "success")])).toEqual(result(["A", "B", "C"], [], "success"));
  });
  it("is a partial failure when a section was refused while another saved", () => {
    expect(mergeSaveResults([result(["A"], [], "success"), result([], ["B"], "partial")]).outcome).toBe("partial");
    expect(mergeSaveResults([result([], ["A"], "failed"), result(["B"], [], "success")]).outcome).toBe("partial");
  });
  it("is a failure only when nothing saved and a request went unanswered", () => {
    expect(mergeSaveResults([result([], ["A"], "failed"), result([], ["B"], "partial")]).outcome).toBe("failed");
    expect(mergeSaveResults([result([], ["A"], "partial")]).outcome).toBe("partial");
  });
  it("is unchanged when no section sent anything", () => {
    expect(mergeSaveResults([]).outcome).toBe("unchanged");
  });
});
