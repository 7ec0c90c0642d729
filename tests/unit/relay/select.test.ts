import { describe, expect, it } from "vitest";
import { mapModel, pickCandidate } from "@/lib/relay/select";
import { parseModelMapping, type Candidate } from "@/lib/channels/channel-cache";

const c = (channelId: number, priority: number, weight: number): Candidate => ({ channelId, priority, weight });
const fixed = (v: number) => () => v;

describe("pickCandidate", () => {
  const list = [c(1, 10, 1), c(2, 10, 3), c(3, 5, 1), c(4, 0, 0)];

  it("picks inside the highest tier by weight", () => {
    expect(pickCandidate(list, new Set(), fixed(0))?.channelId).toBe(1); // r = 0 < 1
    expect(pickCandidate(list, new Set(), fixed(0.24))?.channelId).toBe(1); // r = 0.96 < 1
    expect(pickCandidate(list, new Set(), fixed(0.26))?.channelId).toBe(2); // r = 1.04
    expect(pickCandidate(list, new Set(), fixed(0.9999))?.channelId).toBe(2);
  });

  it("walks down the tiers as channels are excluded, then gives up", () => {
    expect(pickCandidate(list, new Set([1]), fixed(0))?.channelId).toBe(2);
    expect(pickCandidate(list, new Set([1, 2]), fixed(0.5))?.channelId).toBe(3);
    expect(pickCandidate(list, new Set([1, 2, 3]), fixed(0.5))?.channelId).toBe(4);
    expect(pickCandidate(list, new Set([1, 2, 3, 4]), fixed(0.5))).toBeNull();
    expect(pickCandidate([], new Set(), fixed(0.5))).toBeNull();
  });

  it("never picks a weight-0 channel while its tier has positive weights", () => {
    const tier = [c(1, 0, 0), c(2, 0, 5), c(3, 0, 0)];
    for (const r of [0, 0.1, 0.5, 0.9, 0.99999]) expect(pickCandidate(tier, new Set(), fixed(r))?.channelId).toBe(2);
    // once the weighted one is excluded, the weight-0 ones share the tier evenly
    expect(pickCandidate(tier, new Set([2]), fixed(0.2))?.channelId).toBe(1);
    expect(pickCandidate(tier, new Set([2]), fixed(0.7))?.channelId).toBe(3);
  });

  it("spreads all-zero tiers uniformly and positive weights proportionally", () => {
    const zeros = [c(1, 3, 0), c(2, 3, 0)];
    const weighted = [c(1, 3, 1), c(2, 3, 3)];
    const counts = { zeros: new Map<number, number>(), weighted: new Map<number, number>() };
    for (let i = 0; i < 20000; i++) {
      const a = pickCandidate(zeros, new Set())!.channelId;
      counts.zeros.set(a, (counts.zeros.get(a) ?? 0) + 1);
      const b = pickCandidate(weighted, new Set())!.channelId;
      counts.weighted.set(b, (counts.weighted.get(b) ?? 0) + 1);
    }
    expect(counts.zeros.get(1)! / 20000).toBeGreaterThan(0.46);
    expect(counts.zeros.get(1)! / 20000).toBeLessThan(0.54);
    expect(counts.weighted.get(1)! / 20000).toBeGreaterThan(0.22);
    expect(counts.weighted.get(1)! / 20000).toBeLessThan(0.28);
  });

  it("never returns a lower tier while a higher one has a candidate", () => {
    const tiers = [c(7, 100, 0), c(8, 1, 1000)];
    for (let i = 0; i < 200; i++) expect(pickCandidate(tiers, new Set())!.channelId).toBe(7);
  });
});

describe("mapModel", () => {
  it("applies the channel's model mapping, keeping unmapped names", () => {
    const ch = { model_mapping: { "gpt-4": "gpt-4-turbo" } };
    expect(mapModel(ch, "gpt-4")).toBe("gpt-4-turbo");
    expect(mapModel(ch, "gpt-3.5")).toBe("gpt-3.5");
  });

  it("reads own keys only: inherited names pass through unmapped, a mapped __proto__ is kept", () => {
    const plain = { model_mapping: { "gpt-4": "gpt-4-turbo" } };
    const parsed = { model_mapping: parseModelMapping('{"gpt-4":"gpt-4-turbo","__proto__":"proto-upstream"}') };
    for (const ch of [plain, parsed]) {
      expect(mapModel(ch, "constructor")).toBe("constructor");
      expect(mapModel(ch, "toString")).toBe("toString");
      expect(mapModel(ch, "hasOwnProperty")).toBe("hasOwnProperty");
      expect(mapModel(ch, "gpt-4")).toBe("gpt-4-turbo");
    }
    expect(mapModel(plain, "__proto__")).toBe("__proto__");
    expect(mapModel(parsed, "__proto__")).toBe("proto-upstream");
    expect(mapModel({ model_mapping: parseModelMapping("not json") }, "constructor")).toBe("constructor");
  });
});
