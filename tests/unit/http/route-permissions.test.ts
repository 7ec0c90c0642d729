// Every admin console route names its row of the permission table, and every row names a
// route (docs/permissions.md): a new admin route cannot forget its permission.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_ADMIN_PERMISSIONS, PERMISSIONS, effectivePermissions, hasPermission, storedPermissions } from "@/lib/auth/permissions";
import { ROUTE_PERMISSIONS } from "@/lib/http/route-permissions";

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return routeFiles(p);
    return name === "route.ts" ? [p] : [];
  });
}

// "METHOD /api/a/{id}" of each exported handler, with its access and its gate
function handlers(file: string) {
  const text = readFileSync(file, "utf8");
  const at =
    "/" +
    path
      .dirname(file)
      .replace(/\\/g, "/")
      .replace(/^app\//, "")
      .replace(/\[([^\]]+)\]/g, "{$1}");
  const out: { key: string; access: string | undefined; gate: string | undefined }[] = [];
  const starts = [...text.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = route\(/g)];
  starts.forEach((m, i) => {
    const body = text.slice(m.index! + m[0].length, starts[i + 1]?.index ?? text.length);
    out.push({
      key: `${m[1]} ${at}`,
      access: /access: "(\w+)"/.exec(body)?.[1],
      gate: /gate: "([^"]+)"/.exec(body)?.[1],
    });
  });
  return out;
}

const all = routeFiles("app/api").flatMap(handlers);

describe("route permissions", () => {
  it("every admin route declares its own row", () => {
    const admin = all.filter((h) => h.access === "admin");
    expect(admin.length).toBeGreaterThan(80);
    for (const h of admin) expect(h.gate, h.key).toBe(h.key);
  });
  it("only admin routes declare a row, and every row is a route", () => {
    for (const h of all.filter((x) => x.gate)) expect(h.access, h.key).toBe("admin");
    const declared = new Set(all.filter((h) => h.access === "admin").map((h) => h.key));
    for (const key of Object.keys(ROUTE_PERMISSIONS)) expect(declared.has(key), key).toBe(true);
  });
  it("every row names known permissions", () => {
    for (const [key, rule] of Object.entries(ROUTE_PERMISSIONS)) {
      expect(rule.anyOf.length, key).toBeGreaterThan(0);
      for (const p of rule.anyOf) expect(PERMISSIONS, key).toContain(p);
    }
  });
  it("every permission guards at least one route", () => {
    const used = new Set(Object.values(ROUTE_PERMISSIONS).flatMap((r) => r.anyOf));
    // users:quota and logs:content are checked inside their verbs (a quota change, a log's chat content)
    for (const p of PERMISSIONS.filter((x) => x !== "users:quota" && x !== "logs:content")) expect(used.has(p), p).toBe(true);
  });
  it("narrows by input: an option's tab, an enable that is only an operation", () => {
    const option = ROUTE_PERMISSIONS["PUT /api/option"];
    expect(option.byInput({ body: { key: "Footer", value: "" } })).toBe("settings:system");
    expect(option.byInput({ body: { key: "SystemName", value: "" } })).toBe("settings:other");
    expect(option.byInput({ body: { key: "QuotaPerUnit", value: "" } })).toBe("settings:operation");
    expect(option.byInput({ body: { key: "constructor", value: "" } })).toBeNull();
    const channel = ROUTE_PERMISSIONS["PUT /api/channel"];
    expect(channel.byInput({ body: { id: 1, status: 2 } })).toBe("channels:operate");
    expect(channel.byInput({ body: { id: 1, status: 2, name: "x" } })).toBe("channels:write");
    expect(channel.byInput({ body: { id: 1, priority: 3 } })).toBe("channels:write");
    const keys = ROUTE_PERMISSIONS["POST /api/channel/multi_key/manage"];
    expect(keys.byInput({ body: { channel_id: 1, action: "disable_key", key_index: 0 } })).toBe("channels:operate");
    expect(keys.byInput({ body: { channel_id: 1, action: "delete_key", key_index: 0 } })).toBe("channels:write");
  });
});

describe("permission sets", () => {
  it("the root holds every permission, a user none, an admin the stored or default set", () => {
    expect(effectivePermissions(100, '["users:read"]')).toEqual(PERMISSIONS);
    expect(effectivePermissions(1, '["users:read"]')).toEqual([]);
    expect(effectivePermissions(10, null)).toEqual(DEFAULT_ADMIN_PERMISSIONS);
    expect(effectivePermissions(10, '["users:read","audit:read","gone:away"]')).toEqual(["users:read", "audit:read"]);
    expect(effectivePermissions(10, "not json")).toEqual(DEFAULT_ADMIN_PERMISSIONS);
    expect(hasPermission({ role: 10, permissions: null }, "channels:reveal")).toBe(false);
    expect(hasPermission({ role: 100, permissions: "[]" }, "channels:reveal")).toBe(true);
  });
  it("today's admin rights are the default; what only the root did is not in it", () => {
    for (const p of ["channels:reveal", "tokens:read", "billing:topups", "audit:read"] as const) expect(DEFAULT_ADMIN_PERMISSIONS).not.toContain(p);
    expect(DEFAULT_ADMIN_PERMISSIONS).toContain("settings:system");
  });
  it("stores the default set as null, any other set sorted in the table's order", () => {
    expect(storedPermissions([...DEFAULT_ADMIN_PERMISSIONS].reverse())).toBeNull();
    expect(storedPermissions(["users:write", "channels:read", "users:write"])).toBe('["channels:read","users:write"]');
    expect(storedPermissions([])).toBe("[]");
  });
});
