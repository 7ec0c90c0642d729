import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The table kit stays generic (docs/console-ui.md, "DataTable"): it imports libraries, the UI
// primitives and the browser-state helpers, never a domain module or another component folder.
const DIR = path.join(process.cwd(), "components", "data-table");
const ALLOWED = [
  /^react$/,
  /^@tanstack\/react-table$/,
  /^lucide-react$/,
  /^next-intl$/,
  /^@radix-ui\//,
  /^\.\//,
  /^@\/components\/ui\//,
  /^@\/lib\/client\/(storage|table-columns|use-page-size)$/,
];

describe("components/data-table", () => {
  it("has no domain imports", () => {
    const files = readdirSync(DIR).filter((f) => /\.tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) {
      const src = readFileSync(path.join(DIR, f), "utf8");
      for (const m of src.matchAll(/from\s+"([^"]+)"/g))
        expect(
          ALLOWED.some((re) => re.test(m[1])),
          `${f} imports ${m[1]}`,
        ).toBe(true);
    }
  });
});
