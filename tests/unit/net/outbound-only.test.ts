// Every request the server makes goes out under the outbound policy (docs/outbound.md):
// outside lib/net/outbound.ts and the relay's transports, no server code calls fetch(),
// imports undici, or opens HTTP requests or sockets of its own. Browser code (lib/client)
// only calls the gateway's own API and is not scanned.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SCANNED = ["server.ts", "proxy.ts", "lib", "app/api"];
const SKIPPED = new Set(["lib/client"]);
const ALLOWED = new Set(["lib/net/outbound.ts", "lib/relay/transport.ts"]);
const OUTBOUND = [/(?<![\w.$])fetch\s*\(/, /from\s+["']undici["']/, /\bhttps?\.(request|get)\s*\(/, /\b(net|tls)\.(connect|createConnection)\s*\(/];

function sources(entry: string): string[] {
  if (SKIPPED.has(entry)) return [];
  if (statSync(entry).isFile()) return [entry];
  return readdirSync(entry).flatMap((name) => {
    const p = path.join(entry, name);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

describe("outbound requests", () => {
  it("go through lib/net/outbound.ts only", () => {
    const found: string[] = [];
    for (const file of SCANNED.flatMap(sources)) {
      if (ALLOWED.has(file)) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          const code = line.replace(/\/\/.*$/, "");
          if (OUTBOUND.some((re) => re.test(code))) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
