import { CircleDot, MessagesSquare } from "lucide-react";
import { describe, expect, it } from "vitest";
import { navIcon, NAV_ICONS } from "@/components/layout/nav-icons";
import { sidebarGroups } from "@/lib/client/navigation";

describe("sidebar icons", () => {
  it("gives every entry of the sidebar its own icon", () => {
    const status = { enable_data_export: true, enable_drawing: true, enable_task: true, chats: [{ Lobe: "https://x" }] };
    const keys = sidebarGroups(status, { role: 100 }).flatMap((g) => g.items.map((i) => i.key));
    for (const key of keys.filter((k) => !k.startsWith("chat:"))) expect(NAV_ICONS[key], key).toBeDefined();
    expect(navIcon("chat:Lobe")).toBe(MessagesSquare);
    expect(navIcon("something-new")).toBe(CircleDot);
  });
});
