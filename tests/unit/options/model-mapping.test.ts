// The model mapping's rules (lib/model-mapping/schema.ts): the shape route() parses
// with, the rules across entries the verb and the option check apply, the stored form, and
// the order the relay tries actual models in (docs/relay.md, "Virtual models").
import type { OptionKey } from "@/lib/options/registry";
import { describe, expect, it } from "vitest";
import { renderMessage, serverCatalogues } from "@/lib/i18n/server-messages";
import {
  checkMapping,
  mappingProblem,
  modelMappingSchema,
  modelMappingShape,
  normalizeMapping,
  orderActualModels,
  type ModelMapping,
} from "@/lib/model-mapping/schema";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";
import { validateOption } from "@/lib/options/validate";

const e = (model: string, priorities = 0) => ({ model, priorities });
const refusal = (v: unknown) => {
  const r = checkMapping(v);
  return r.ok ? null : { key: r.key, params: r.params };
};

describe("model mapping validation", () => {
  it("accepts a valid mapping and stores it normalized (names trimmed, order kept)", () => {
    const r = checkMapping({ " smart ": [e(" gpt-4o ", 10), e("claude-sonnet-4", 10), e("deepseek-chat", 0)] });
    expect(r).toEqual({ ok: true, mapping: { smart: [e("gpt-4o", 10), e("claude-sonnet-4", 10), e("deepseek-chat", 0)] } });
    expect(checkMapping({})).toEqual({ ok: true, mapping: {} });
  });

  it("requires a virtual name", () => {
    expect(refusal({ "": [e("gpt-4o")] })).toEqual({ key: "mapping_virtual_name_required", params: {} });
    expect(refusal({ "   ": [e("gpt-4o")] })?.key).toBe("mapping_virtual_name_required");
  });

  it("refuses a virtual name that already exists once trimmed (a rename onto an existing name)", () => {
    expect(refusal({ smart: [e("a")], " smart": [e("b")] })).toEqual({ key: "mapping_virtual_name_exists", params: { name: "smart" } });
  });

  it("requires at least one actual model, with a name", () => {
    expect(refusal({ smart: [] })?.key).toBe("mapping_actual_models_required");
    expect(refusal({ smart: "gpt-4o" })?.key).toBe("mapping_actual_models_required");
    expect(refusal({ smart: [e("  ")] })?.key).toBe("mapping_actual_model_required");
    expect(refusal({ smart: [{ priorities: 1 }] })?.key).toBe("mapping_actual_model_required");
  });

  it("refuses an actual model repeated within one mapping, but not across mappings", () => {
    expect(refusal({ smart: [e("a", 1), e(" a", 2)] })).toEqual({ key: "mapping_actual_model_repeated", params: { name: "smart", model: "a" } });
    expect(refusal({ smart: [e("a")], fast: [e("a")] })).toBeNull();
  });

  it("accepts only integer priorities of at least 0", () => {
    for (const p of [-1, 1.5, "1", null, Number.NaN, 2 ** 31])
      expect(refusal({ smart: [{ model: "a", priorities: p }] })?.key).toBe("mapping_priorities_invalid");
    expect(refusal({ smart: [e("a", 0), e("b", 2 ** 31 - 1)] })).toBeNull();
  });

  it("refuses a virtual name that maps to itself", () => {
    expect(refusal({ smart: [e("gpt-4o"), e("smart")] })).toEqual({ key: "mapping_maps_to_itself", params: { name: "smart" } });
  });

  it("refuses names a record cannot hold, and mappings past the bounds", () => {
    expect(refusal(JSON.parse('{"__proto__": [{"model": "a", "priorities": 0}]}'))?.key).toBe("mapping_virtual_name_reserved");
    // zod's record leaves it out (why route() refuses such a body first, lib/http/route.ts)
    const body = JSON.parse('{"__proto__": [{"model": "a", "priorities": 0}], "smart": [{"model": "b", "priorities": 0}]}');
    expect(Object.keys(modelMappingShape.parse(body))).toEqual(["smart"]);
    // names that are properties of Object.prototype are names like any other
    const named = checkMapping({ constructor: [e("a")], toString: [e("b")], hasOwnProperty: [e("c")] });
    expect(named).toMatchObject({ ok: true });
    expect(named.ok && Object.keys(named.mapping)).toEqual(["constructor", "toString", "hasOwnProperty"]);
    expect(modelMappingShape.parse({ constructor: [e("a")] })).toEqual({ constructor: [e("a")] });
    expect(refusal({ ["x".repeat(201)]: [e("a")] })).not.toBeNull();
    expect(refusal({ smart: Array.from({ length: 51 }, (_, i) => e(`m${i}`)) })).not.toBeNull();
    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`v${i}`, [e("a")]]));
    expect(refusal(many)?.key).toBe("mapping_too_many");
  });

  it("every message key it answers has a Chinese and an English text", () => {
    for (const key of [
      "mapping_virtual_name_required",
      "mapping_virtual_name_reserved",
      "mapping_virtual_name_exists",
      "mapping_actual_models_required",
      "mapping_actual_model_required",
      "mapping_actual_model_repeated",
      "mapping_priorities_invalid",
      "mapping_maps_to_itself",
      "mapping_too_many",
    ] as const) {
      for (const catalogue of Object.values(serverCatalogues)) expect(catalogue[key]).toBeTruthy();
    }
    expect(renderMessage("en", "mapping_virtual_name_exists", { name: "smart" })).toBe("Virtual model name already exists: smart");
    expect(renderMessage("zh", "mapping_actual_models_required")).toBe("至少需要一个实际模型");
  });

  it("the client schema gives the same keys as the server's check", () => {
    const cases: unknown[] = [{ smart: [] }, { smart: [e("a"), e("a")] }, { smart: [e("smart")] }, { "": [e("a")] }, { smart: [e("a", -1)] }];
    for (const c of cases) {
      const r = modelMappingSchema.safeParse(c);
      expect(r.success).toBe(false);
      expect(r.error!.issues[0].message).toBe(`msg:${refusal(c)!.key}`);
    }
    // the shape alone lets the rules across entries through: the verb checks them
    expect(modelMappingShape.safeParse({ smart: [e("a"), e("a")] }).success).toBe(true);
    expect(mappingProblem({ smart: [e("a"), e("a")] } as ModelMapping)?.key).toBe("mapping_actual_model_repeated");
  });

  it("the option model_mapping is checked by the same rules through PUT /api/option/", () => {
    const cur = (k: OptionKey) => OPTION_DEFAULTS[k];
    expect(validateOption("model_mapping", "{}", cur)).toEqual({ ok: true, value: "{}" });
    expect(validateOption("model_mapping", "not json", cur)).toEqual({ ok: false, key: "option_invalid_json", params: { key: "model_mapping" } });
    expect(validateOption("model_mapping", '{"smart": []}', cur)).toMatchObject({ ok: false, key: "mapping_actual_models_required" });
    expect(validateOption("model_mapping", '{"smart": [{"model": "a", "priorities": 1}, {"model": "a", "priorities": 2}]}', cur)).toMatchObject({
      ok: false,
      key: "mapping_actual_model_repeated",
    });
    const pretty = JSON.stringify({ " smart": [e("a", 1)] }, null, 2);
    expect(validateOption("model_mapping", pretty, cur)).toEqual({ ok: true, value: '{"smart":[{"model":"a","priorities":1}]}' });
  });
});

describe("actual model order", () => {
  it("tries the highest priority first; equal priorities keep the list's order", () => {
    expect(orderActualModels([e("low", 1), e("high", 9), e("mid-a", 5), e("mid-b", 5), e("zero", 0)])).toEqual(["high", "mid-a", "mid-b", "low", "zero"]);
    expect(orderActualModels([e("b", 3), e("a", 3), e("c", 3)])).toEqual(["b", "a", "c"]);
  });

  it("normalizeMapping keeps a name such as __proto__ as an entry", () => {
    const m = normalizeMapping(JSON.parse('{"constructor": [{"model": "a", "priorities": 0}]}'));
    expect(Object.keys(m)).toEqual(["constructor"]);
  });
});
