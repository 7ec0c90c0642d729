// The project's own ESLint rules (eslint-rules/): hot-path-spread reports what
// tests/unit/hot-path-objects.test.ts forbids on the per-request path, and only that, and
// eslint.config.mjs applies it to the per-request folders and not elsewhere; own-keys reports
// a computed name written into a plain {} (docs/conventions.md, "Own keys").
import { ESLint, Linter } from "eslint";
import { describe, expect, it } from "vitest";
import local from "../../eslint-rules/index.mjs";

describe("local/hot-path-spread", () => {
  const lint = (code: string) =>
    new Linter({ configType: "flat" })
      .verify(code, [{ files: ["**/*.js"], plugins: { local }, rules: { "local/hot-path-spread": "error" } }], "x.js")
      .map((m) => `${m.line}: ${m.ruleId}`);

  it("reports a literal that starts with a spread and adds more, and nothing else", () => {
    const code = "const a = { ...b, c: 1 };\nconst d = { e: 1, ...f };\nconst g = { ...h };\nconst i = { ...j, ...k };\nconst { l, ...m } = n;";
    expect(lint(code)).toEqual(["1: local/hot-path-spread", "4: local/hot-path-spread"]);
  });

  it("the project's config applies it on the per-request path only", async () => {
    const eslint = new ESLint();
    const code = "export const f = (a: object) => ({ ...a, more: 1 });\n";
    const ids = async (filePath: string) => (await eslint.lintText(code, { filePath }))[0].messages.map((m) => m.ruleId);
    expect(await ids("lib/relay/x.ts")).toContain("local/hot-path-spread");
    expect(await ids("lib/channels/channel-cache.ts")).toContain("local/hot-path-spread");
    expect(await ids("server.ts")).toContain("local/hot-path-spread");
    expect(await ids("lib/users/x.ts")).not.toContain("local/hot-path-spread");
  }, 60_000);
});

describe("local/own-keys", () => {
  const lint = (code: string) =>
    new Linter({ configType: "flat" })
      .verify(code, [{ files: ["**/*.js"], plugins: { local }, rules: { "local/own-keys": "error" } }], "x.js")
      .map((m) => `${m.line}: ${m.ruleId}`);

  it("reports a computed name written into a plain {}, and nothing else", () => {
    const code = [
      "const a = {}; a[name] = 1;",
      "const b = dict(); b[name] = 1;",
      "const c = {}; c.x = 1; c['y'] = 2; c[`z`] = 3;",
      "const d = []; d[i] = 1;",
      "const e = { k: 1 }; e[name] = 2;",
      "function f(g) { const h = {}; for (const k of g) h[k] = true; return h; }",
      "let m = {}; if (x) { m[key] = 1; }",
    ].join("\n");
    expect(lint(code)).toEqual(["1: local/own-keys", "6: local/own-keys", "7: local/own-keys"]);
  });

  it("the project's config applies it to every source file, not to the tests", async () => {
    const eslint = new ESLint();
    const code = "export function f(names: string[]) {\n  const out: Record<string, number> = {};\n  for (const n of names) out[n] = 1;\n  return out;\n}\n";
    const ids = async (filePath: string) => (await eslint.lintText(code, { filePath }))[0].messages.map((m) => m.ruleId);
    expect(await ids("lib/client/model-pricing.ts")).toContain("local/own-keys");
    expect(await ids("lib/model-mapping/schema.ts")).toContain("local/own-keys");
    expect(await ids("lib/relay/formats/openai-chat.ts")).toContain("local/own-keys");
    expect(await ids("lib/openapi/x.ts")).toContain("local/own-keys");
    expect(await ids("components/settings/x.tsx")).toContain("local/own-keys");
    expect(await ids("app/api/x/route.ts")).toContain("local/own-keys");
    expect(await ids("tests/unit/x.test.ts")).not.toContain("local/own-keys");
  }, 60_000);
});
