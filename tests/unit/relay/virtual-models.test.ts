// The relay's reading of the stored mapping (lib/relay/virtual-models.ts): tolerant of text
// written outside the console, ordered by priority, and recompiled when the option changes.
import { afterEach, describe, expect, it } from "vitest";
import { applyOption } from "@/lib/options/store";
import { actualModelsOf, compileMapping, virtualModels, withVirtualModels } from "@/lib/relay/virtual-models";

afterEach(() => applyOption("model_mapping", "{}"));

describe("compileMapping", () => {
  it("orders each virtual model's actual models by priority, ties in list order", () => {
    const m = compileMapping(
      JSON.stringify({
        smart: [
          { model: "b", priorities: 1 },
          { model: "a", priorities: 5 },
          { model: "c", priorities: 5 },
        ],
      }),
    );
    expect(m.get("smart")).toEqual(["a", "c", "b"]);
  });

  it("reads a hand-written mapping tolerantly", () => {
    const m = compileMapping(
      JSON.stringify({
        " spaced ": [{ model: " x ", priorities: 2 }],
        self: [{ model: "self", priorities: 9 }, { model: "y" }],
        dup: [
          { model: "z", priorities: 1 },
          { model: "z", priorities: 7 },
        ],
        empty: [],
        broken: "x",
        nameless: [{ priorities: 1 }],
      }),
    );
    expect([...m.keys()].sort()).toEqual(["dup", "self", "spaced"]);
    expect(m.get("spaced")).toEqual(["x"]);
    expect(m.get("self")).toEqual(["y"]);
    expect(m.get("dup")).toEqual(["z"]);
    expect(compileMapping("not json").size).toBe(0);
    expect(compileMapping("[1]").size).toBe(0);
  });

  it("has no inherited names: constructor is no virtual model unless mapped", () => {
    expect(compileMapping("{}").get("constructor")).toBeUndefined();
    expect(compileMapping('{"constructor": [{"model": "a", "priorities": 0}]}').get("constructor")).toEqual(["a"]);
  });
});

describe("actualModelsOf", () => {
  it("follows the option as it changes, and answers undefined for other models", () => {
    expect(actualModelsOf("smart")).toBeUndefined();
    applyOption("model_mapping", JSON.stringify({ smart: [{ model: "gpt-4o", priorities: 1 }] }));
    expect(actualModelsOf("smart")).toEqual(["gpt-4o"]);
    expect(actualModelsOf("gpt-4o")).toBeUndefined();
    applyOption("model_mapping", JSON.stringify({ fast: [{ model: "gpt-4o-mini", priorities: 0 }] }));
    expect(actualModelsOf("smart")).toBeUndefined();
    expect([...virtualModels().keys()]).toEqual(["fast"]);
  });
});

describe("withVirtualModels", () => {
  it("adds the virtual models that a served model reaches, sorted, once", () => {
    applyOption(
      "model_mapping",
      JSON.stringify({
        smart: [
          { model: "gpt-4o", priorities: 1 },
          { model: "ghost-1", priorities: 0 },
        ],
        ghost: [{ model: "ghost-1", priorities: 0 }],
        "gpt-4o": [{ model: "b", priorities: 0 }],
      }),
    );
    expect(withVirtualModels(["gpt-4o", "b"])).toEqual(["b", "gpt-4o", "smart"]);
    expect(withVirtualModels([])).toEqual([]);
  });
});
