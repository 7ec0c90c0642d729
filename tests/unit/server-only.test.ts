// Server modules say so with `import "server-only"` (docs/conventions.md, "Console API"), and
// nothing the browser loads reaches one: components/ and lib/client/ import only modules
// that, followed through their own imports (type-only imports aside), never import it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Folders and files whose modules are server-only, and the exceptions: pure types or
// constants with no runtime code to guard.
const SERVER = [
  "lib/db",
  "lib/net",
  "lib/auth",
  "lib/options",
  "lib/cache",
  "lib/logs",
  "lib/billing",
  "lib/relay",
  "lib/http",
  "lib/setup",
  "lib/checkin",
  "lib/status",
  "lib/pricing",
  "lib/metrics",
  "lib/tracing",
  "lib/ops",
  "lib/env.ts",
  "lib/boot.ts",
  "lib/lifecycle.ts",
  "lib/http/shell-user.ts",
  "lib/channels/channel-cache.ts",
];
const EXEMPT = new Set([
  "lib/auth/roles.ts",
  // the admin permission names and default set, shared with the console's navigation and the
  // user editor's checklist (docs/permissions.md)
  "lib/auth/permissions.ts",
  "lib/channels/split-list.ts",
  "lib/channels/channel-types.ts",
  "lib/relay/types.ts",
  "lib/billing/store/types.ts",
  "lib/http/params.ts",
  // the option rules and access table, shared with the settings forms (docs/settings.md)
  "lib/options/rules.ts",
  "lib/options/access.ts",
  // the GroupLimits rule and the limits' bounds, shared with the limit forms (docs/usage-limits.md)
  "lib/options/group-limits.ts",
  "lib/options/registry.ts",
  // the groups' shipped descriptions, shown translated by the console (docs/i18n.md)
  "lib/options/shipped-groups.ts",
  // the root account's setup rules, shared with the setup form (docs/console-ui.md, "Forms")
  "lib/setup/field-rules.ts",
  // the channel input rules, shared with the channel editor (docs/console-ui.md, "Forms")
  "lib/channels/field-rules.ts",
  // the price conversions, shared with the visual editor (docs/pricing.md, "Conversions")
  "lib/options/pricing-math.ts",
  // the ledger's kinds and the USD conversion, shared with the statement (docs/statement.md)
  "lib/billing/ledger-kinds.ts",
  // the usage-log search window, shared with the logs page (docs/operations.md, "Logs at scale")
  "lib/logs/scan-window.ts",
  // the log rows' message keys, shared with the usage log (docs/channels-tokens-billing.md)
  "lib/logs/messages.ts",
]);

function sources(entry: string): string[] {
  if (statSync(entry).isFile()) return [entry];
  return readdirSync(entry).flatMap((name) => {
    const p = path.join(entry, name).split(path.sep).join("/");
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

const text = (f: string) => readFileSync(f, "utf8");
const guarded = (f: string) => /^import "server-only";$/m.test(text(f));

// Run-time imports of a file, resolved to files of the repository.
function runtimeImports(f: string): string[] {
  const out: string[] = [];
  for (const m of text(f).matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']@\/([^"']+)["']|^import\s+["']@\/([^"']+)["']/gm)) {
    if (m[2]) continue;
    const target = m[4] ?? m[5];
    const file = [".ts", ".tsx", "/index.ts"].map((ext) => target + ext).find((p) => existsSync(p));
    if (file) out.push(file);
  }
  return out;
}

function reachesServerOnly(f: string, seen = new Set<string>()): string | null {
  if (seen.has(f)) return null;
  seen.add(f);
  if (guarded(f)) return f;
  for (const next of runtimeImports(f)) {
    const hit = reachesServerOnly(next, seen);
    if (hit) return `${f} -> ${hit}`;
  }
  return null;
}

describe("server-only", () => {
  it("every server module imports server-only", () => {
    const missing = SERVER.flatMap(sources).filter((f) => !EXEMPT.has(f) && !guarded(f));
    expect(missing).toEqual([]);
  });

  it("nothing the browser loads reaches a server-only module", () => {
    const client = [...sources("components"), ...sources("lib/client")].filter((f) => f.startsWith("lib/client") || /^["']use client["']/m.test(text(f)));
    const found = client.flatMap((f) =>
      runtimeImports(f)
        .map((i) => reachesServerOnly(i))
        .filter((x): x is string => x !== null)
        .map((x) => `${f}: ${x}`),
    );
    expect(found).toEqual([]);
  });
});
