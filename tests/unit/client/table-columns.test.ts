import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { STORAGE_KEYS, tableColumnsKey } from "@/lib/client/storage";
import { hiddenOf, parseHiddenColumns, readHiddenColumns, visibilityOf, writeHiddenColumns } from "@/lib/client/table-columns";

const HIDEABLE = ["time", "model", "quota", "detail"];

describe("column visibility of the DataTable", () => {
  it("keeps only known hideable ids, in the table's order", () => {
    expect(parseHiddenColumns('["quota","time"]', HIDEABLE)).toEqual(["time", "quota"]);
    expect(parseHiddenColumns('["quota","gone","quota"]', HIDEABLE)).toEqual(["quota"]);
  });
  it("hides nothing for a missing or broken value", () => {
    for (const raw of [null, "", "not json", '{"time":false}', "42", "null"]) expect(parseHiddenColumns(raw, HIDEABLE)).toEqual([]);
  });
  it("turns hidden ids into a visibility state and back", () => {
    const v = visibilityOf(["model"], HIDEABLE);
    expect(v).toEqual({ time: true, model: false, quota: true, detail: true });
    expect(hiddenOf(v, HIDEABLE)).toEqual(["model"]);
    // a column the state does not mention (added in a later release) is shown
    expect(hiddenOf({ model: false }, HIDEABLE)).toEqual(["model"]);
  });

  describe("in localStorage", () => {
    let store: Map<string, string>;
    beforeEach(() => {
      store = new Map();
      vi.stubGlobal("window", {
        localStorage: {
          getItem: (k: string) => store.get(k) ?? null,
          setItem: (k: string, v: string) => store.set(k, v),
          removeItem: (k: string) => store.delete(k),
        },
      });
    });
    afterEach(() => vi.unstubAllGlobals());

    it("remembers each table under table-columns:<id>", () => {
      expect(tableColumnsKey("channels")).toBe("table-columns:channels");
      expect(STORAGE_KEYS.tableColumns).toBe("table-columns:");
      writeHiddenColumns("usage-logs", ["quota"]);
      writeHiddenColumns("channels", ["time", "detail"]);
      expect(store.get("table-columns:usage-logs")).toBe('["quota"]');
      expect(readHiddenColumns("usage-logs", HIDEABLE)).toEqual(["quota"]);
      expect(readHiddenColumns("channels", HIDEABLE)).toEqual(["time", "detail"]);
      expect(readHiddenColumns("tokens", HIDEABLE)).toEqual([]);
    });
  });
});
