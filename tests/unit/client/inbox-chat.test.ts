// Pure helpers of the inbox (lib/client/inbox.ts) and of the embedded chat
// (lib/client/chat-link.ts).
import { afterEach, describe, expect, it, vi } from "vitest";
import { messageDate, messagePreview, plainText } from "@/lib/client/inbox";
import { chatEntry, chatLinkKind, chatServerAddress, firstUsableToken, isWebLink, needsKey, pageChats, resolveChatLink } from "@/lib/client/chat-link";

describe("messageDate", () => {
  const now = Math.floor(new Date(2026, 10, 25, 12, 0, 0).getTime() / 1000);
  it("shows the time within 24 hours, the weekday within 7 days, else the date", () => {
    expect(messageDate(now - 3600, "en", now)).toBe("11:00");
    expect(messageDate(now - 86_399, "en", now)).toBe("12:00"); // 12:00:01 yesterday
    expect(messageDate(now - 86_400, "en", now)).toBe("Tuesday");
    const threeDays = now - 3 * 86_400;
    expect(messageDate(threeDays, "en", now)).toBe("Sunday");
    expect(messageDate(threeDays, "zh", now)).toBe("星期日");
    expect(messageDate(now - 8 * 86_400, "en", now)).toBe("2026-11-17");
  });
});

describe("messagePreview", () => {
  it("strips Markdown and HTML and cuts to 100 characters (97 and an ellipsis)", () => {
    expect(plainText("# Title\n\n**bold** and [a link](https://x.y) `code`\n- item", "markdown")).toBe("Title bold and a link code item");
    expect(plainText('<p>Hi &amp; <b>you</b></p><script>alert(1)</script><img src=x onerror="y">', "html")).toBe("Hi & you");
    const long = "x".repeat(150);
    expect(messagePreview(long, "markdown")).toBe("x".repeat(97) + "...");
    expect(messagePreview("x".repeat(100), "markdown")).toBe("x".repeat(100));
    expect(Array.from(messagePreview("汉".repeat(120), "html"))).toHaveLength(100);
  });
});

describe("chat links", () => {
  it("reads one-name entries with a text link only", () => {
    expect(chatEntry({ A: " https://a " })).toEqual({ name: "A", link: "https://a" });
    for (const bad of [null, 42, "x", [], {}, { A: 1 }, { A: "" }, { A: "x", B: "y" }]) expect(chatEntry(bad)).toBeNull();
  });

  it("fills {key} and the URI-encoded {address}", () => {
    const url = resolveChatLink("https://c.example/?k={key}&a={address}", "abc", "https://gw.example:8443");
    expect(url).toBe("https://c.example/?k=sk-abc&a=https%3A%2F%2Fgw.example%3A8443");
    expect(resolveChatLink("x={key}", "sk-abc", "h")).toBe("x=sk-abc");
  });

  it("builds the Cherry Studio and AionUI payloads: base64 JSON, URI-encoded", () => {
    const decode = (url: string, prefix: string) => JSON.parse(Buffer.from(decodeURIComponent(url.slice(prefix.length)), "base64").toString("utf8"));
    const cherry = resolveChatLink("cherrystudio://providers/api-keys?v=1&data={cherryConfig}", "abc", "https://gw.example");
    expect(decode(cherry, "cherrystudio://providers/api-keys?v=1&data=")).toEqual({ id: "new-api", baseUrl: "https://gw.example", apiKey: "sk-abc" });
    const aion = resolveChatLink("aionui://provider/add?v=1&data={aionuiConfig}", "abc", "https://网关.example");
    expect(decode(aion, "aionui://provider/add?v=1&data=")).toEqual({ platform: "new-api", baseUrl: "https://网关.example", apiKey: "sk-abc" });
  });

  it("frames only http(s) links; knows which links need a key; picks a usable token", () => {
    expect(isWebLink("https://x")).toBe(true);
    expect(isWebLink("HTTP://x")).toBe(true);
    expect(isWebLink("cherrystudio://x")).toBe(false);
    expect(isWebLink("fluentread")).toBe(false);
    expect(isWebLink("javascript:alert(1)")).toBe(false);
    expect(chatLinkKind("https://chat.example/?key=sk-1")).toBe("web");
    expect(chatLinkKind("cherrystudio://providers/api-keys?v=1&data=x")).toBe("app");
    expect(chatLinkKind("aionui://provider/add?v=1")).toBe("app");
    for (const bad of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "javascript://%0aalert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "blob:http://127.0.0.1/x",
      "fluentread",
      "/relative/path",
      "mailto:a@b.c",
    ]) {
      expect(chatLinkKind(bad), bad).toBeNull();
    }
    expect(needsKey("a{cherryConfig}")).toBe(true);
    expect(needsKey("fluentread")).toBe(false);
    expect(chatServerAddress("", "http://127.0.0.1:3000")).toBe("http://127.0.0.1:3000");
    expect(chatServerAddress(" https://gw.example/ ", "http://x")).toBe("https://gw.example");
    const now = 1000;
    const t = (id: number, status: number, expired_time = -1, remain_quota = 1, unlimited_quota = false) => ({
      id,
      status,
      expired_time,
      remain_quota,
      unlimited_quota,
    });
    expect(firstUsableToken([t(1, 2), t(2, 1, 999), t(3, 1, -1, 0), t(4, 1, 2000, 0, true), t(5, 1)], now)?.id).toBe(4);
    expect(firstUsableToken([t(1, 2)], now)).toBeNull();
  });
});

describe("pageChats", () => {
  // A browser's localStorage holding `chats` as the previous page load left it.
  function storedChats(raw: string | null): Map<string, string> {
    const items = new Map<string, string>(raw === null ? [] : [["chats", raw]]);
    vi.stubGlobal("window", {
      localStorage: {
        getItem: (k: string) => items.get(k) ?? null,
        setItem: (k: string, v: string) => void items.set(k, v),
        removeItem: (k: string) => void items.delete(k),
      },
    });
    return items;
  }
  afterEach(() => vi.unstubAllGlobals());
  const fresh = [{ New: "https://new.example/?key={key}" }];

  it("takes the site status's list over an older stored copy", () => {
    // The page's effect runs before the provider's copies the status to localStorage, so
    // on a full load after the admin changed Chats the stored copy is still the old list.
    storedChats(JSON.stringify([{ Old: "https://old.example/?key={key}" }]));
    expect(pageChats(fresh)).toEqual({ chats: fresh, broken: false });
    storedChats(null);
    expect(pageChats(fresh)).toEqual({ chats: fresh, broken: false });
    expect(pageChats(undefined)).toEqual({ chats: [], broken: false });
  });

  it("reports a stored copy that cannot be parsed and resets it to the status's list", () => {
    for (const bad of ["{not json", '{"a":1}']) {
      const items = storedChats(bad);
      expect(pageChats(fresh)).toEqual({ chats: fresh, broken: true });
      expect(JSON.parse(items.get("chats") ?? "null")).toEqual(fresh);
    }
  });
});
