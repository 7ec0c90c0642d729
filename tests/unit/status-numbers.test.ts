// The stored status numbers have one home, lib/statuses.ts (docs/conventions.md, "Data"): no
// source file compares a row's `status` with a bare 1 to 4 or writes one. HTTP statuses are
// three digits and never match.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

const BARE = /\bstatus\s*(?:===|!==|==|!=)\s*[1-4]\b|\bstatus:\s*[1-4]\s*[,}]/;

describe("status numbers", () => {
  it("are never written bare in lib/, app/ or components/", () => {
    const found: string[] = [];
    for (const file of ["lib", "app", "components"].flatMap((d) => sources(d))) {
      if (file === path.join("lib", "statuses.ts")) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (BARE.test(line) && !line.trimStart().startsWith("//")) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
