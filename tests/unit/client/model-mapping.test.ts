// The model mapping dialog (lib/client/model-mapping.ts): its draft is checked by the
// server's rules (lib/model-mapping/schema.ts), with the server's message keys.
import { describe, expect, it } from "vitest";
import { checkDraft, deleteMapping, pickerModels, putMapping, type ModelMapping } from "@/lib/client/model-mapping";
import { MAPPING_LIMITS, orderEntries } from "@/lib/model-mapping/schema";

const mapping = (): ModelMapping => ({
  smart: [{ model: "gpt-4o", priorities: 10 }],
  cheap: [{ model: "gpt-4o-mini", priorities: 0 }],
});
const rows = (...r: Array<[string, string]>) => r.map(([model, priorities]) => ({ model, priorities }));

describe("model mapping dialog", () => {
  it("the virtual name is required and unique", () => {
    expect(checkDraft({ name: " ", rows: rows(["a", "1"]) }, mapping(), null)).toMatchObject({ ok: false, key: "mapping_virtual_name_required" });
    expect(checkDraft({ name: "smart", rows: rows(["a", "1"]) }, mapping(), null)).toMatchObject({ ok: false, key: "mapping_virtual_name_exists" });
    // renaming onto another entry is refused, keeping its own name is not
    expect(checkDraft({ name: "cheap", rows: rows(["a", "1"]) }, mapping(), "smart")).toMatchObject({ ok: false, key: "mapping_virtual_name_exists" });
    expect(checkDraft({ name: "smart", rows: rows(["a", "1"]) }, mapping(), "smart")).toMatchObject({ ok: true });
  });

  it("a name that is a property of Object.prototype is an entry; __proto__ is refused, never dropped (docs/conventions.md, Own keys)", () => {
    const added = checkDraft({ name: "constructor", rows: rows(["a", "1"]) }, mapping(), null);
    expect(added.ok && Object.keys(added.mapping)).toEqual(["smart", "cheap", "constructor"]);
    const next = added.ok ? added.mapping : {};
    // "toString" exists in no mapping until added; "constructor" does once it is
    expect(checkDraft({ name: "toString", rows: rows(["b", "1"]) }, next, null)).toMatchObject({ ok: true });
    expect(checkDraft({ name: "constructor", rows: rows(["b", "1"]) }, next, null)).toMatchObject({ ok: false, key: "mapping_virtual_name_exists" });
    expect(checkDraft({ name: "__proto__", rows: rows(["a", "1"]) }, mapping(), null)).toMatchObject({ ok: false, key: "mapping_virtual_name_reserved" });
    expect(Object.keys(putMapping(mapping(), "smart", "__proto__", [{ model: "a", priorities: 0 }]))).toEqual(["__proto__", "cheap"]);
    expect(Object.keys(deleteMapping(next, "constructor"))).toEqual(["smart", "cheap"]);
  });

  it("needs one actual model, no repeat, priorities integers ≥ 0", () => {
    expect(checkDraft({ name: "x", rows: rows(["", "1"]) }, mapping(), null)).toMatchObject({ ok: false, key: "mapping_actual_models_required" });
    expect(checkDraft({ name: "x", rows: [] }, mapping(), null)).toMatchObject({ ok: false, key: "mapping_actual_models_required" });
    // the row index is the draft's, empty rows counted
    expect(checkDraft({ name: "x", rows: rows(["a", "1"], ["", ""], [" a", "2"]) }, mapping(), null)).toMatchObject({
      ok: false,
      key: "mapping_actual_model_repeated",
      params: { name: "x", model: "a" },
      row: 2,
    });
    expect(checkDraft({ name: "x", rows: rows(["x", "1"]) }, mapping(), null)).toMatchObject({ ok: false, key: "mapping_maps_to_itself", row: 0 });
    expect(checkDraft({ name: "x", rows: rows(["a", "1.5"]) }, mapping(), null)).toMatchObject({ ok: false, key: "mapping_priorities_invalid", row: 0 });
    expect(checkDraft({ name: "x", rows: rows(["a", "-1"]) }, mapping(), null)).toMatchObject({ ok: false, key: "mapping_priorities_invalid" });
    expect(checkDraft({ name: "x", rows: rows(["a", "abc"]) }, mapping(), null)).toMatchObject({ ok: false, key: "mapping_priorities_invalid" });
    const ok = checkDraft({ name: " x ", rows: rows(["a", "2"], ["b", ""]) }, mapping(), null);
    expect(ok).toMatchObject({ ok: true });
    if (ok.ok)
      expect(ok.mapping.x).toEqual([
        { model: "a", priorities: 2 },
        { model: "b", priorities: 0 },
      ]);
  });

  it("applies the server's limits: priority, name length and number of mappings", () => {
    expect(checkDraft({ name: "x", rows: rows(["a", String(MAPPING_LIMITS.maxPriority + 1)]) }, mapping(), null)).toMatchObject({
      ok: false,
      key: "mapping_priorities_invalid",
    });
    expect(checkDraft({ name: "n".repeat(MAPPING_LIMITS.nameLength + 1), rows: rows(["a", "1"]) }, mapping(), null)).toMatchObject({
      ok: false,
      key: "invalid_parameter",
    });
    const full: ModelMapping = {};
    for (let i = 0; i < MAPPING_LIMITS.virtualModels; i++) full[`v${i}`] = [{ model: "a", priorities: 0 }];
    expect(checkDraft({ name: "one-more", rows: rows(["a", "1"]) }, full, null)).toMatchObject({ ok: false, key: "mapping_too_many" });
  });

  it("add, rename in place and delete", () => {
    const added = putMapping(mapping(), null, "new", [{ model: "a", priorities: 0 }]);
    expect(Object.keys(added)).toEqual(["smart", "cheap", "new"]);
    const renamed = putMapping(mapping(), "smart", "clever", [{ model: "b", priorities: 1 }]);
    expect(Object.keys(renamed)).toEqual(["clever", "cheap"]);
    expect(renamed.clever).toEqual([{ model: "b", priorities: 1 }]);
    expect(Object.keys(deleteMapping(mapping(), "smart"))).toEqual(["cheap"]);
    const edited = checkDraft({ name: "clever", rows: rows(["b", "1"]) }, mapping(), "smart");
    expect(edited.ok && Object.keys(edited.mapping)).toEqual(["clever", "cheap"]);
  });

  it("orders by priority and lists picker models once", () => {
    expect(
      orderEntries([
        { model: "a", priorities: 1 },
        { model: "b", priorities: 5 },
      ]).map((r) => r.model),
    ).toEqual(["b", "a"]);
    expect(pickerModels({ 1: ["gpt-4o", "b"], 14: ["b", "claude"] })).toEqual(["b", "claude", "gpt-4o"]);
    expect(pickerModels(null)).toEqual([]);
  });
});
