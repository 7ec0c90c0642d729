// The model mapping dialog's rules (lib/client/model-mapping.ts).
import { describe, expect, it } from "vitest";
import { byPriority, checkMapping, deleteMapping, pickerModels, putMapping, type ModelMapping } from "@/lib/client/model-mapping";

const mapping = (): ModelMapping => ({
  smart: [{ model: "gpt-4o", priorities: 10 }],
  cheap: [{ model: "gpt-4o-mini", priorities: 0 }],
});
const rows = (...r: Array<[string, string]>) => r.map(([model, priorities]) => ({ model, priorities }));

describe("model mapping dialog", () => {
  it("the virtual name is required and unique", () => {
    expect(checkMapping({ name: " ", rows: rows(["a", "1"]) }, mapping(), null)).toMatchObject({ ok: false, error: "nameRequired" });
    expect(checkMapping({ name: "smart", rows: rows(["a", "1"]) }, mapping(), null)).toMatchObject({ ok: false, error: "nameExists" });
    // renaming onto another entry is refused, keeping its own name is not
    expect(checkMapping({ name: "cheap", rows: rows(["a", "1"]) }, mapping(), "smart")).toMatchObject({ ok: false, error: "nameExists" });
    expect(checkMapping({ name: "smart", rows: rows(["a", "1"]) }, mapping(), "smart")).toMatchObject({ ok: true });
  });

  it("needs one actual model, no repeat, priorities integers ≥ 0", () => {
    expect(checkMapping({ name: "x", rows: rows(["", "1"]) }, mapping(), null)).toMatchObject({ ok: false, error: "modelRequired" });
    expect(checkMapping({ name: "x", rows: [] }, mapping(), null)).toMatchObject({ ok: false, error: "modelRequired" });
    expect(checkMapping({ name: "x", rows: rows(["a", "1"], [" a", "2"]) }, mapping(), null)).toMatchObject({ ok: false, error: "modelRepeated", row: 1 });
    expect(checkMapping({ name: "x", rows: rows(["x", "1"]) }, mapping(), null)).toMatchObject({ ok: false, error: "mapsToItself" });
    expect(checkMapping({ name: "x", rows: rows(["a", "1.5"]) }, mapping(), null)).toMatchObject({ ok: false, error: "priorityInvalid" });
    expect(checkMapping({ name: "x", rows: rows(["a", "-1"]) }, mapping(), null)).toMatchObject({ ok: false, error: "priorityInvalid" });
    expect(checkMapping({ name: " x ", rows: rows(["a", "2"], ["b", ""]) }, mapping(), null)).toEqual({
      ok: true,
      name: "x",
      rows: [
        { model: "a", priorities: 2 },
        { model: "b", priorities: 0 },
      ],
    });
  });

  it("add, rename in place and delete", () => {
    const added = putMapping(mapping(), null, "new", [{ model: "a", priorities: 0 }]);
    expect(Object.keys(added)).toEqual(["smart", "cheap", "new"]);
    const renamed = putMapping(mapping(), "smart", "clever", [{ model: "b", priorities: 1 }]);
    expect(Object.keys(renamed)).toEqual(["clever", "cheap"]);
    expect(renamed.clever).toEqual([{ model: "b", priorities: 1 }]);
    expect(Object.keys(deleteMapping(mapping(), "smart"))).toEqual(["cheap"]);
  });

  it("orders by priority and lists picker models once", () => {
    expect(byPriority(rows(["a", "1"], ["b", "5"]).map((r) => ({ model: r.model, priorities: Number(r.priorities) }))).map((r) => r.model)).toEqual(["b", "a"]);
    expect(pickerModels({ 1: ["gpt-4o", "b"], 14: ["b", "claude"] })).toEqual(["b", "claude", "gpt-4o"]);
    expect(pickerModels(null)).toEqual([]);
  });
});
