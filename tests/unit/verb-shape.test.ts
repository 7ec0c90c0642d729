// Every verb takes ({ ctx, input }) (docs/conventions.md, "Console API"): in each route handler
// (app/api/**/route.ts), a call of a function imported from a domain folder of lib/ passes
// one object literal with `ctx`. Helpers that are no verbs are listed below.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const DOMAIN = /^@\/lib\/(users|tokens|channels|logs|options|setup|checkin|pricing|billing|relay|status|price-presets)\//;
// Not verbs: read models shared with the relay and pages, and query helpers, which a route
// may call as they are.
const NOT_VERBS = new Set(["filterOf", "pageSize", "siteStatus", "enabledModels", "withVirtualModels", "modelsByType", "usableGroups"]);

function routes(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? routes(p) : name === "route.ts" ? [p] : [];
  });
}

export function badVerbCalls(file: string, text: string): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const verbs = new Set<string>();
  for (const st of src.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !DOMAIN.test(st.moduleSpecifier.text)) continue;
    const named = st.importClause?.namedBindings;
    if (st.importClause?.isTypeOnly || !named || !ts.isNamedImports(named)) continue;
    for (const el of named.elements) if (!el.isTypeOnly && !NOT_VERBS.has(el.name.text)) verbs.add(el.name.text);
  }
  const bad: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && verbs.has(node.expression.text)) {
      const [arg, ...more] = node.arguments;
      const ok =
        more.length === 0 &&
        arg !== undefined &&
        ts.isObjectLiteralExpression(arg) &&
        arg.properties.some((p) => (ts.isShorthandPropertyAssignment(p) || ts.isPropertyAssignment(p)) && p.name.getText() === "ctx");
      if (!ok) bad.push(`${file}: ${node.getText().replace(/\s+/g, " ").slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return bad;
}

describe("verb shape", () => {
  it("route handlers call every verb as verb({ ctx, input })", () => {
    const bad = routes("app/api").flatMap((file) => badVerbCalls(file, readFileSync(file, "utf8")));
    expect(bad).toEqual([]);
  });

  it("the check sees calls of another shape", () => {
    const text = [
      'import { getToken } from "@/lib/tokens/get-token";',
      'import { listChannels } from "@/lib/channels/list";',
      'import { filterOf } from "@/lib/channels/query";',
      "getToken(ctx.user, 1);",
      "getToken({ ctx, input: 1 });",
      "listChannels({ input: {} });",
      "filterOf(query);",
    ].join("\n");
    expect(badVerbCalls("x.ts", text)).toEqual(["x.ts: getToken(ctx.user, 1)", "x.ts: listChannels({ input: {} })"]);
  });
});
