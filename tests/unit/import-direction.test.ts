// Folders import in one direction (docs/conventions.md, "Import direction"): lib/ never
// imports components/ or app/, and no two folders of lib/ import each other both ways (a
// file directly in lib/ counts as its own folder). Built from the import statements with a
// regexp: fast, and type-only imports count too.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^;]*?from\s*["']@\/([^"']+)["']|import\(\s*["']@\/([^"']+)["']\s*\)|^import\s+["']@\/([^"']+)["']/gm;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name).split(path.sep).join("/");
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

// lib/relay/providers/openai.ts -> lib/relay; lib/env.ts -> lib/env; components/ui/badge -> components
function folderOf(p: string): string {
  const parts = p.replace(/\.tsx?$/, "").split("/");
  return parts[0] === "lib" ? parts.slice(0, 2).join("/") : parts[0];
}

export function importEdges(files: { path: string; text: string }[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const { path: file, text } of files) {
    for (const m of text.matchAll(IMPORT)) {
      const from = folderOf(file);
      const to = folderOf(m[1] ?? m[2] ?? m[3]);
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, (edges.get(key) ?? []).concat(file));
    }
  }
  return edges;
}

function violations(edges: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [key, files] of edges) {
    const [from, to] = key.split(" -> ");
    if (from.startsWith("lib") && (to === "components" || to === "app")) found.push(`${key}: ${[...new Set(files)].join(", ")}`);
    if (from < to && edges.has(`${to} -> ${from}`)) {
      found.push(`${key} and back: ${[...new Set(files)].join(", ")} / ${[...new Set(edges.get(`${to} -> ${from}`))].join(", ")}`);
    }
  }
  return found;
}

describe("import direction", () => {
  it("lib/ never imports components/ or app/, and no two folders of lib/ import each other", () => {
    const files = sources("lib").map((p) => ({ path: p, text: readFileSync(p, "utf8") }));
    expect(violations(importEdges(files))).toEqual([]);
  });

  it("the check sees both kinds of fault", () => {
    const edges = importEdges([
      { path: "lib/client/x.ts", text: 'import type { BadgeColor } from "@/components/ui/badge";' },
      { path: "lib/billing/a.ts", text: 'import { noteTokenQuota } from "@/lib/relay/token-cache";\nimport { db } from "@/lib/db/client";' },
      { path: "lib/relay/b.ts", text: 'export { reserve } from "@/lib/billing/reserve";' },
      { path: "lib/relay/c.ts", text: 'const m = await import("@/lib/channels/shared");\nimport "@/lib/env";' },
      { path: "lib/channels/d.ts", text: 'import {\n  x,\n} from "@/lib/relay/e";' },
    ]);
    expect(violations(edges)).toEqual([
      "lib/client -> components: lib/client/x.ts",
      "lib/billing -> lib/relay and back: lib/billing/a.ts / lib/relay/b.ts",
      "lib/channels -> lib/relay and back: lib/channels/d.ts / lib/relay/c.ts",
    ]);
    expect(edges.has("lib/relay -> lib/env")).toBe(true);
  });
});
