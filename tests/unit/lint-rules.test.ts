// The project's own ESLint rule (eslint-rules/hot-path-spread.mjs) reports what
// tests/unit/hot-path-objects.test.ts forbids on the per-request path, and only that; and
// eslint.config.mjs applies it to the per-request folders and not elsewhere.
import { ESLint, Linter } from "eslint";
import { describe, expect, it } from "vitest";
import local from "../../eslint-rules/hot-path-spread.mjs";

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
