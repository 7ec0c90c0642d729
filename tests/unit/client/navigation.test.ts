import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import path from "node:path";
import { chatNames, isActive, isBuilt, sidebarGroups, sidebarHiddenOn, specSidebarGroups, UNBUILT_ROUTES } from "@/lib/client/navigation";

const keys = (groups: ReturnType<typeof specSidebarGroups>) => Object.fromEntries(groups.map((g) => [g.key, g.items.map((i) => i.key)]));

describe("sidebar groups", () => {
  it("shows optional console entries only when enabled", () => {
    const off = keys(specSidebarGroups({}, 1));
    expect(off.console).toEqual(["tokens", "usageLogs"]);
    const on = keys(specSidebarGroups({ enable_data_export: true, enable_drawing: true, enable_task: true }, 1));
    expect(on.console).toEqual(["dashboard", "tokens", "usageLogs", "drawingLogs", "taskLogs"]);
  });
  it("shows the admin group from role 10", () => {
    expect(keys(specSidebarGroups({}, 1)).admin).toBeUndefined();
    expect(keys(specSidebarGroups({}, undefined)).admin).toBeUndefined();
    expect(keys(specSidebarGroups({}, 10)).admin).toEqual(["channels", "coupons", "messages", "users", "settings"]);
    expect(keys(specSidebarGroups({}, 100)).admin).toHaveLength(5);
    expect(keys(specSidebarGroups({}, 1)).personal).toEqual(["wallet", "me"]);
  });
  it("lists configured chats", () => {
    expect(chatNames([{ "Lobe Chat": "https://x" }, { Other: "y" }, "bad"])).toEqual(["Lobe Chat", "Other"]);
    expect(keys(specSidebarGroups({ chats: [{ A: "x" }] }, 1)).chat).toEqual(["playground", "chat:A"]);
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
  href === "/chat"
    ? existsSync(path.join("app/chat/[[...id]]/page.tsx")) || existsSync(path.join("app/chat/[id]/page.tsx"))
    : existsSync(path.join("app", href, "page.tsx"));
describe("unbuilt routes", () => {
  const everything = sidebarGroups({ enable_data_export: true, enable_drawing: true, enable_task: true, chats: [{ A: "x" }] }, 100);
  it("no visible sidebar entry leads to a missing page", () => {
    for (const item of everything.flatMap((g) => g.items)) expect(pageExists(item.href), item.href).toBe(true);
  });
  it("hides the entries whose page is missing, and keeps the others in the spec's order", () => {
    expect(keys(everything)).toEqual({
      chat: ["playground"],
      console: ["tokens", "usageLogs"],
      admin: ["channels", "users", "settings"],
      personal: ["wallet", "me"],
    });
    expect(isBuilt("/chat/3")).toBe(false);
    expect(isBuilt("/app/tokens")).toBe(true);
  });
  it("lists only routes that are really missing (a built page must leave the list)", () => {
    for (const href of UNBUILT_ROUTES) expect(pageExists(href), href).toBe(false);
  });
});
