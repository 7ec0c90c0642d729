import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import path from "node:path";
import { DEFAULT_ADMIN_PERMISSIONS } from "@/lib/auth/permissions";
import { chatNames, isActive, sidebarGroups, sidebarHiddenOn } from "@/lib/client/navigation";

const U = { role: 1 };
const ADMIN = { role: 10 };
const ROOT = { role: 100 };
const keys = (groups: ReturnType<typeof sidebarGroups>) => Object.fromEntries(groups.map((g) => [g.key, g.items.map((i) => i.key)]));

describe("sidebar groups", () => {
  it("shows optional console entries only when enabled", () => {
    const off = keys(sidebarGroups({}, U));
    expect(off.console).toEqual(["tokens", "usageLogs", "apiDocs"]);
    const on = keys(sidebarGroups({ enable_data_export: true, enable_drawing: true, enable_task: true }, U));
    expect(on.console).toEqual(["dashboard", "tokens", "usageLogs", "drawingLogs", "taskLogs", "apiDocs"]);
  });
  it("shows the admin group from role 10", () => {
    expect(keys(sidebarGroups({}, U)).admin).toBeUndefined();
    expect(keys(sidebarGroups({}, undefined)).admin).toBeUndefined();
    expect(keys(sidebarGroups({}, ADMIN)).admin).toEqual(["channels", "redemptions", "plans", "messages", "users", "settings"]);
    expect(keys(sidebarGroups({}, ROOT)).admin).toEqual(["channels", "redemptions", "plans", "topups", "audit", "messages", "users", "settings"]);
    expect(keys(sidebarGroups({}, U)).personal).toEqual(["wallet", "me"]);
  });
  it("shows an admin the entries of the areas they may read (docs/permissions.md)", () => {
    // the default set, given by the server
    expect(keys(sidebarGroups({}, { role: 10, permissions: DEFAULT_ADMIN_PERMISSIONS })).admin).toEqual([
      "channels",
      "redemptions",
      "plans",
      "messages",
      "users",
      "settings",
    ]);
    // widened: the top-ups and the audit log
    const wide = { role: 10, permissions: [...DEFAULT_ADMIN_PERMISSIONS, "billing:topups", "audit:read"] };
    expect(keys(sidebarGroups({}, wide)).admin).toEqual(["channels", "redemptions", "plans", "topups", "audit", "messages", "users", "settings"]);
    // narrowed: one settings tab is enough for the settings page
    expect(keys(sidebarGroups({}, { role: 10, permissions: ["users:read", "settings:other"] })).admin).toEqual(["users", "settings"]);
    expect(keys(sidebarGroups({}, { role: 10, permissions: ["channels:read"] })).admin).toEqual(["channels"]);
    // nothing left: no admin group
    expect(keys(sidebarGroups({}, { role: 10, permissions: [] })).admin).toBeUndefined();
    // a stored set on a user or the root changes nothing
    expect(keys(sidebarGroups({}, { role: 1, permissions: ["channels:read"] })).admin).toBeUndefined();
    expect(keys(sidebarGroups({}, { role: 100, permissions: [] })).admin).toHaveLength(8);
  });
  it("lists configured chats", () => {
    expect(chatNames([{ "Lobe Chat": "https://x" }, { Other: "y" }, "bad"])).toEqual(["Lobe Chat", "Other"]);
    expect(keys(sidebarGroups({ chats: [{ A: "x" }] }, U)).chat).toEqual(["playground", "chat:A"]);
  });
  it("hides on home, chat and setup", () => {
    for (const p of ["/", "/setup", "/chat", "/chat/2"]) expect(sidebarHiddenOn(p)).toBe(true);
    for (const p of ["/app/me", "/admin/users", "/chat2link", "/login"]) expect(sidebarHiddenOn(p)).toBe(false);
  });
  it("marks the active entry", () => {
    expect(isActive("/app/me", "/app/me")).toBe(true);
    expect(isActive("/app/logs/api-usage", "/app/logs/api-usage/1")).toBe(true);
    expect(isActive("/app/me", "/app/meow")).toBe(false);
  });
});

// The page file of a route under app/ (a dynamic /chat/{n} is app/chat/[id]/page.tsx).
const pageExists = (href: string) =>
  href === "/chat" || href.startsWith("/chat/")
    ? existsSync(path.join("app/chat/[[...id]]/page.tsx")) || existsSync(path.join("app/chat/[id]/page.tsx"))
    : existsSync(path.join("app", href, "page.tsx"));
describe("every entry has its page", () => {
  const everything = sidebarGroups({ enable_data_export: true, enable_drawing: true, enable_task: true, chats: [{ A: "x" }] }, ROOT);
  it("no sidebar entry leads to a missing page", () => {
    for (const item of everything.flatMap((g) => g.items)) expect(pageExists(item.href), item.href).toBe(true);
  });
  it("keeps the spec's order", () => {
    expect(keys(everything)).toEqual({
      chat: ["playground", "chat:A"],
      console: ["dashboard", "tokens", "usageLogs", "drawingLogs", "taskLogs", "apiDocs"],
      admin: ["channels", "redemptions", "plans", "topups", "audit", "messages", "users", "settings"],
      personal: ["wallet", "me"],
    });
  });
});
