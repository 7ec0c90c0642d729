// Objects built on every relay call or console request keep one hidden class.
//
// On Node 20 (V8 11.3) an object literal that starts with a spread and adds anything after
// it ({ ...a, b: 1 } or { ...a, ...b }) gets a new hidden class (a Map and its descriptors,
// allocated in the old generation) on every evaluation: 3 µs for a 14-field log entry
// instead of 0.2 µs, and old-generation garbage that brought a mark-compact every second or
// two at one connection, the relay's p99 (docs/relay.md). Object.assign, an explicit literal
// or a spread after a first property ({ a: 1, ...b }) keep the class.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { applyOption } from "@/lib/options/store";
import { resolvePrice } from "@/lib/billing/pricing";
import { logOther } from "@/lib/logs/other";

// What runs per call or per request on the server.
const PER_REQUEST = [
  "server.ts",
  "lib/relay",
  "lib/billing",
  "lib/logs",
  "lib/http",
  "lib/auth",
  "lib/options",
  "lib/cache",
  "lib/db",
  "lib/metrics",
  "lib/tracing",
  "lib/ops",
  "lib/channels/channel-cache.ts",
];

function sources(entry: string): string[] {
  if (statSync(entry).isFile()) return [entry];
  return readdirSync(entry).flatMap((name) => {
    const p = path.join(entry, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

function spreadsWithMore(file: string, text = readFileSync(file, "utf8")): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node) && node.properties.length > 1 && ts.isSpreadAssignment(node.properties[0])) {
      const { line } = src.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${file}:${line + 1}: ${node.getText().replace(/\s+/g, " ").slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return found;
}

describe("objects on the per-request path", () => {
  it("no object literal starts with a spread and adds more (use Object.assign or an explicit literal)", () => {
    const found = PER_REQUEST.flatMap((entry) => sources(entry)).flatMap((file) => spreadsWithMore(file));
    expect(found).toEqual([]);
  });

  it("the guard sees the pattern it forbids, and only that", () => {
    const found = spreadsWithMore("x.ts", "const a = { ...b, c: 1 };\nconst d = { e: 1, ...f };\nconst g = { ...h };\nconst i = { ...j, ...k };");
    expect(found).toEqual(["x.ts:1: { ...b, c: 1 }", "x.ts:4: { ...j, ...k }"]);
  });

  describe("hidden classes at run time", () => {
    let sameMap: (a: object, b: object) => boolean;
    beforeAll(() => {
      v8.setFlagsFromString("--allow-natives-syntax");
      sameMap = new Function("a", "b", "return %HaveSameMap(a, b)") as typeof sameMap;
      applyOption("ModelRatio", JSON.stringify({ "gpt-x": 2 }));
      applyOption("CompletionRatio", JSON.stringify({ "gpt-x": 3 }));
      applyOption("ModelPrice", JSON.stringify({ "img-x": 0.02 }));
    });

    it("a price keeps its class from call to call, per token and per call", () => {
      for (const model of ["gpt-x", "img-x"]) {
        const first = resolvePrice({ model, group: "default" });
        for (let i = 0; i < 50; i++) expect(sameMap(first, resolvePrice({ model, group: "default" }))).toBe(true);
      }
      expect(sameMap(resolvePrice({ model: "gpt-x", group: "default" }), resolvePrice({ model: "img-x", group: "default" }))).toBe(true);
    });

    it("the log's other object keeps its class from call to call", () => {
      const price = resolvePrice({ model: "gpt-x", group: "default" });
      const make = () => logOther({ price, requestModel: "gpt-x", upstreamModel: "gpt-x", channelIds: [1], statusCode: 200, frtMs: 12 });
      const first = make();
      for (let i = 0; i < 50; i++) expect(sameMap(first, make())).toBe(true);
    });

    it("on this Node, the forbidden form does change class on every call (why the guard exists)", () => {
      const base = { a: 1, b: 2 };
      const spread = new Function("base", "return { ...base, c: 3 }") as (b: object) => object;
      const assigned = (b: object) => Object.assign({}, b, { c: 3 });
      let spreadChanges = 0;
      let assignChanges = 0;
      for (let i = 0, ps = spread(base), pa = assigned(base); i < 200; i++) {
        const s = spread(base);
        const a = assigned(base);
        if (!sameMap(ps, s)) spreadChanges++;
        if (!sameMap(pa, a)) assignChanges++;
        ps = s;
        pa = a;
      }
      expect(assignChanges).toBe(0);
      // Node 20's V8; a later engine may have fixed it, and then the guard can go
      if (process.versions.node.startsWith("20.")) expect(spreadChanges).toBeGreaterThan(150);
    });
  });
});
