// What a fresh install offers works with the option defaults (lib/options/registry.ts,
// docs/options.md): every chat link of the sidebar opens a page the chat page accepts (no
// "misconfigured link" page), the drawing and task logs open, the quota-per-unit is kept to
// six decimals, the inert StreamCacheQueueLength is not offered, and a saved secret can be
// cleared.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { chatEntry, chatLinkKind, needsKey, resolveChatLink } from "@/lib/client/chat-link";
import { sidebarGroups } from "@/lib/client/navigation";

let server: TestServer;
let root: ApiClient;
beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
});
afterAll(async () => {
  await server?.stop();
});

type Status = { chats: unknown[]; enable_drawing: boolean; enable_task: boolean; quota_per_unit: number };
const status = async () => (await root.get<Status>("/api/status")).data;

describe("a fresh install", () => {
  it("opens every sidebar chat link as a web page or an app link, never as a misconfigured one", async () => {
    const s = await status();
    const items = sidebarGroups(s, { role: 100 }).flatMap((g) => g.items.filter((i) => i.href.startsWith("/chat/")));
    expect(items.length).toBe(s.chats.length);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      // what /chat/{n} does with the entry (components/chat/chat-embed.tsx)
      const entry = chatEntry(s.chats[Number(item.href.slice("/chat/".length))]);
      expect(entry, item.key).not.toBeNull();
      const link = resolveChatLink(entry!.link, needsKey(entry!.link) ? "sk-fresh-install-key" : "", server.url);
      expect(chatLinkKind(link), `${item.key}: ${link}`).not.toBeNull();
      const page = await root.raw("GET", item.href);
      expect(page.status, item.href).toBe(200);
    }
  });

  it("opens the drawing and task logs (their switches are on, as in new-api)", async () => {
    const s = await status();
    expect([s.enable_drawing, s.enable_task]).toEqual([true, true]);
    for (const path of ["/app/logs/drawing", "/app/logs/tasks"]) {
      const page = await root.raw("GET", path);
      expect(page.status, path).toBe(200);
    }
    const nav = sidebarGroups(s, { role: 100 }).flatMap((g) => g.items.map((i) => i.href));
    expect(nav).toEqual(expect.arrayContaining(["/app/logs/drawing", "/app/logs/tasks"]));
  });

  it("keeps the quota per unit to six decimals", async () => {
    const put = (value: string) => root.put("/api/option/", { key: "QuotaPerUnit", value });
    expect((await put("500000.1234567")).message).toBe("QuotaPerUnit allows at most 6 decimal places");
    expect((await put("500000.123456")).success).toBe(true);
    expect((await status()).quota_per_unit).toBe(500000.123456);
    const listed = (await root.get<{ key: string; value: string }[]>("/api/option/")).data;
    expect(listed.find((o) => o.key === "QuotaPerUnit")?.value).toBe("500000.123456");
    expect((await put("500000")).success).toBe(true);
  });

  it("offers no StreamCacheQueueLength: the relay has no stream queue for it to bound (docs/options.md)", async () => {
    expect((await root.put("/api/option/", { key: "StreamCacheQueueLength", value: "10" })).message).toBe("Invalid parameter");
    const listed = (await root.get<{ key: string }[]>("/api/option/")).data.map((o) => o.key);
    expect(listed).not.toContain("StreamCacheQueueLength");
    expect(listed).toContain("QuotaPerUnit");
  });

  it("clears a saved secret with an empty value (the settings page's Clear button)", async () => {
    const secret = async () => (await root.get<{ key: string; set?: boolean }[]>("/api/option/")).data.find((o) => o.key === "TurnstileSecretKey");
    expect((await secret())?.set).toBe(false);
    expect((await root.put("/api/option/", { key: "TurnstileSecretKey", value: "turnstile-secret-1" })).success).toBe(true);
    expect((await secret())?.set).toBe(true);
    expect((await root.put("/api/option/", { key: "TurnstileSecretKey", value: "" })).success).toBe(true);
    expect((await secret())?.set).toBe(false);
  });
});
