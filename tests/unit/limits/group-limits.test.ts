// The option GroupLimits' rule (lib/options/group-limits.ts, docs/usage-limits.md).
import { describe, expect, it } from "vitest";
import { checkGroupLimits } from "@/lib/options/group-limits";
import { checkOptionValue } from "@/lib/options/rules";

describe("GroupLimits", () => {
  it("takes groups of limit fields and stores them without zeros", () => {
    expect(checkGroupLimits('{"vip":{"rpm_limit":60,"tpm_limit":0,"quota_day":5000000},"default":{}}')).toEqual({
      ok: true,
      value: '{"vip":{"rpm_limit":60,"quota_day":5000000},"default":{}}',
    });
    expect(checkGroupLimits('{"__proto__":{"rpm_limit":1}}')).toEqual({ ok: true, value: '{"__proto__":{"rpm_limit":1}}' });
    expect(checkOptionValue("GroupLimits", "{}")).toEqual({ ok: true, value: "{}" });
  });

  it("refuses anything else, naming the group and field at fault", () => {
    const bad = (text: string) => checkGroupLimits(text);
    expect(bad("not json")).toMatchObject({ ok: false, params: { group: "-", field: "-" } });
    expect(bad("[]")).toMatchObject({ ok: false });
    expect(bad('{"vip":3}')).toMatchObject({ ok: false, params: { group: "vip", field: "-" } });
    expect(bad('{"vip":{"rpm":3}}')).toMatchObject({ ok: false, params: { group: "vip", field: "rpm" } });
    expect(bad('{"vip":{"rpm_limit":-1}}')).toMatchObject({ ok: false, params: { group: "vip", field: "rpm_limit" } });
    expect(bad('{"vip":{"quota_week":1.5}}')).toMatchObject({ ok: false, params: { group: "vip", field: "quota_week" } });
    expect(bad('{"vip":{"concurrency_limit":3000000000}}')).toMatchObject({ ok: false, params: { field: "concurrency_limit" } });
    expect(bad('{"vip":{"tpm_limit":"5"}}')).toMatchObject({ ok: false });
    expect(checkOptionValue("GroupLimits", '{"vip":{"rpm":3}}')).toMatchObject({ ok: false, key: "option_group_limits_invalid" });
  });
});
